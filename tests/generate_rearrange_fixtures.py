#!/usr/bin/env python3
"""Writes tests/fixtures/rearrange/cases.txt: NumPy's tile, repeat, roll,
rot90, pad, resize, diag, diagonal, diagflat, tril, triu and fill_diagonal
over bases of every layout, and their errors.

These functions only move elements (or put zeros and constants among
them), so one fixture serves every dtype, as in generate_indexing_fixtures.py:
a base array views a storage whose elements are their own positions (ids);
the test fills a storage of any dtype with cupp_test::sample(id) and checks
each element of a result against sample(id). Id -1 stands for zero (NumPy
computes on ids + 1 and subtracts 1 afterwards, so that zeros it inserts
come out as -1); ids from 1000 up are constants the case passes (pad's
constant_values, fill_diagonal's values).

Each line has the format of tests/fixtures/indexing/cases.txt:

    NAME M OFF ND SHAPE... STRIDES... OP ARG... -> RESULT

RESULT is `! TYPE|MESSAGE`, `view|copy W ND SHAPE... STRIDES... OFF N ID...`
or, for fill_diagonal, `set N ID...` (the storage afterwards).

Arguments: an integer; `t:1,2` a tuple (a list in C++; `t:` is empty);
`m:1,2;3,4` a nested list ({{1, 2}, {3, 4}}); `none`; a pad mode name;
`c:K` constant id K.

Run from anywhere: python3 tests/generate_rearrange_fixtures.py
"""
import pathlib

import numpy as np
from fixture_bases import c_order, f_order, negative, strided, transposed
from numpy.lib.stride_tricks import as_strided

OUT = pathlib.Path(__file__).parent / "fixtures" / "rearrange"
ITEM = 8

lines = []


def layouts():
    yield "c1", *c_order((5,))
    yield "c2", *c_order((3, 4))
    yield "tall", *c_order((7, 2))
    yield "f2", *f_order((4, 3))
    yield "strided2", *strided((3, 4))
    yield "neg2", *negative((3, 4))
    yield "neg1", *negative((4,))
    yield "c3", *c_order((2, 3, 4))
    yield "tr3", *transposed((2, 3, 4))
    yield "cube", *c_order((3, 3, 3))
    yield "c0", *c_order(())
    yield "empty2", *c_order((0, 3))
    yield "empty1", *c_order((0,))
    yield "unit3", *c_order((1, 3, 1))


def offset_of(storage, base):
    if base.size == 0:
        return 0
    return (base.__array_interface__["data"][0] - storage.__array_interface__["data"][0]) // ITEM


def base_tokens(storage, base):
    return [str(storage.size), str(offset_of(storage, base)), str(base.ndim)] + [
        str(e) for e in base.shape] + [str(s // ITEM) for s in base.strides]


def tok(v):
    if v is None:
        return "none"
    if isinstance(v, tuple) and v and isinstance(v[0], tuple):
        return "m:" + ";".join(",".join(str(int(x)) for x in row) for row in v)
    if isinstance(v, tuple):
        return "t:" + ",".join(str(int(x)) for x in v)
    return str(v)


def shifted(base):
    """The base's ids + 1, in the base's own layout (a view of a copy of
    the storage), so that results keep NumPy's view/copy decisions."""
    return base + 1


def record(name, storage, base, op, args, call):
    head = [name] + base_tokens(storage, base) + [op] + [tok(a) for a in args] + ["->"]
    try:
        r = call()
    except (IndexError, ValueError, TypeError) as e:
        lines.append(" ".join(head) + f" ! {type(e).__name__}|{e}")
        return
    if np.shares_memory(r, storage):
        kind, off = "view", offset_of(storage, r)
        ids = r
    else:
        kind, off = "copy", 0
        ids = r
    ids = ids.ravel(order="C").tolist()
    lines.append(" ".join(head + [kind, str(int(r.flags.writeable)), str(r.ndim)] +
                          [str(e) for e in r.shape] + [str(s // ITEM) for s in r.strides] +
                          [str(off), str(len(ids))] + [str(int(i)) for i in ids]))


def gather(name, storage, base, op, args, fn):
    """A function that copies: computed on ids + 1, so inserted zeros read -1."""
    record(name, storage, base, op, args, lambda: fn(shifted(base)) - 1)


def view(name, storage, base, op, args, fn):
    record(name, storage, base, op, args, lambda: fn(base))


def cases(name, storage, base):
    nd = base.ndim
    # tile
    reps_sets = [2, (2,), (2, 1), (1, 3), (2, 1, 2), (), (0,), (1,), 1]
    if base.size:  # (NumPy's message for an empty base is reshape's)
        reps_sets += [-1, (2, -1)]
    for reps in reps_sets:
        gather(f"{name}_tile", storage, base, "tile", [reps], lambda b: np.tile(b, reps))
    # repeat
    n_flat = base.size
    rep_sets = [(2, None), (0, None), ((1,), None), ((-1,), None), (-2, None),
                (tuple(i % 3 for i in range(n_flat)), None), ((1, 2), None), ((), None)]
    if n_flat >= 2:
        rep_sets.append((tuple([1] * (n_flat - 1) + [-1]), None))
    for ax in range(-nd - 1, nd + 1):
        rep_sets.append((3, ax))
        if -nd <= ax < nd:
            n = base.shape[ax]
            rep_sets.append((tuple((i + 1) % 3 for i in range(n)), ax))
            rep_sets.append((tuple(range(n + 1)), ax))
    for reps, ax in rep_sets:
        gather(f"{name}_repeat", storage, base, "repeat", [reps, ax],
               lambda b: np.repeat(b, reps, axis=ax))
    # roll
    roll_sets = [(1, None), (-7, None), ((1, 2), None), (0, None), (13, None)]
    for ax in range(-nd - 1, nd + 1):
        roll_sets += [(1, ax), (-5, ax), ((1, 2), ax)]
    if nd >= 2:
        roll_sets += [((1, -1), (0, 1)), (2, (0, 1)), ((1, 2, 3), (0, 1)), ((1, 2), (0, 0, 1)),
                      ((1, 1), (1, 1)), ((), ()), (3, ()), ((1, 2), ())]
    for shift, ax in roll_sets:
        gather(f"{name}_roll", storage, base, "roll", [shift, ax],
               lambda b: np.roll(b, shift, axis=ax))
    # rot90 (a view)
    for k in range(-5, 6):
        view(f"{name}_rot90", storage, base, "rot90", [k, (0, 1)], lambda b: np.rot90(b, k))
    for axes in [(1, 0), (-1, 0), (0, 2), (2, 0), (0, 0), (0, -nd), (0, 3), (-3, 1), (0,),
                 (0, 1, 2)]:
        view(f"{name}_rot90", storage, base, "rot90", [1, axes],
             lambda b: np.rot90(b, 1, axes=axes))
    # resize
    for shape in [(7,), (3, 5), (), (0,), (2, 0), (1,), (2, 3, 2), (-1, 2)]:
        gather(f"{name}_resize", storage, base, "resize", [shape], lambda b: np.resize(b, shape))
    # pad
    widths = [0, 1, 2, 7, (1, 2), (3,), ((1, 2),), (0, 0), -1, (1, -2), (1, 2, 3)]
    if nd >= 1:
        widths += [tuple((i % 3, (i + 2) % 4) for i in range(nd)),
                   tuple((5, 9) if i == nd - 1 else (0, 1) for i in range(nd)),
                   tuple((i + 1,) for i in range(nd)),
                   tuple((1, 1) for i in range(nd + 1))]
    for w in widths:
        for mode in ["constant", "edge", "reflect", "symmetric", "wrap"]:
            if mode == "constant":
                gather(f"{name}_pad", storage, base, "pad", [w, mode, "c:1000"],
                       lambda b: np.pad(b, w, constant_values=1001))
            else:
                gather(f"{name}_pad", storage, base, "pad", [w, mode], lambda b: np.pad(b, w, mode))
    if nd >= 1:
        cv = tuple((1000 + 2 * i, 1001 + 2 * i) for i in range(nd))
        cvp = tuple((x + 1, y + 1) for x, y in cv)
        for w in [1, tuple((i % 3, (i + 2) % 4) for i in range(nd))]:
            gather(f"{name}_pad", storage, base, "pad", [w, "constant", cv],
                   lambda b: np.pad(b, w, constant_values=cvp))
        gather(f"{name}_pad", storage, base, "pad", [1, "constant", ((1000, 1001),) * (nd + 1)],
               lambda b: np.pad(b, 1, constant_values=((1001, 1002),) * (nd + 1)))
    # diag, diagonal, diagflat
    for k in [-9, -2, -1, 0, 1, 2, 9]:
        if nd == 2:
            view(f"{name}_diag", storage, base, "diag", [k], lambda b: np.diag(b, k))
        else:
            gather(f"{name}_diag", storage, base, "diag", [k], lambda b: np.diag(b, k))
        gather(f"{name}_diagflat", storage, base, "diagflat", [k], lambda b: np.diagflat(b, k))
        view(f"{name}_diagonal", storage, base, "diagonal", [k, 0, 1],
             lambda b: np.diagonal(b, k, 0, 1))
    for a1, a2 in [(1, 0), (-1, 0), (0, 2), (2, 1), (0, 0), (-1, -2), (3, 0), (0, -4)]:
        view(f"{name}_diagonal", storage, base, "diagonal", [1, a1, a2],
             lambda b: np.diagonal(b, 1, a1, a2))
    # tril, triu
    for k in [-9, -1, 0, 1, 2, 9]:
        gather(f"{name}_tril", storage, base, "tril", [k], lambda b: np.tril(b, k))
        gather(f"{name}_triu", storage, base, "triu", [k], lambda b: np.triu(b, k))
    # fill_diagonal: the storage afterwards
    for val in ["c:1000", (2000,), (2000, 2001), (2000, 2001, 2002, 2003, 2004), ()]:
        for wrap in [0, 1]:
            fill_case(name, storage, base, val, wrap)


def fill_case(name, storage, base, val, wrap):
    head = [f"{name}_fill_diagonal"] + base_tokens(storage, base) + [
        "fill_diagonal", tok(val), str(wrap), "->"]
    s = storage.copy()
    b = as_strided(s[offset_of(storage, base):] if base.size else s, base.shape, base.strides)
    v = 1000 if isinstance(val, str) else np.array(val, dtype=np.int64)
    try:
        np.fill_diagonal(b, v, wrap=bool(wrap))
    except (ValueError, TypeError) as e:
        lines.append(" ".join(head) + f" ! {type(e).__name__}|{e}")
        return
    lines.append(" ".join(head + ["set", str(s.size)] + [str(int(x)) for x in s]))


def main():
    for name, storage, base in layouts():
        cases(name, storage, base)
    OUT.mkdir(parents=True, exist_ok=True)
    header = [f"# Written by tests/generate_rearrange_fixtures.py with NumPy {np.__version__}."]
    (OUT / "cases.txt").write_text("\n".join(header + lines) + "\n")
    print(f"{len(lines)} cases")


if __name__ == "__main__":
    main()
