#!/usr/bin/env python3
"""Writes tests/fixtures/indexing/cases.txt with NumPy's views and errors.

Views only move elements around, so one fixture serves every dtype: each
case starts from a "storage", a 1-d array of M elements whose values are
their own positions 0 .. M-1 (int64), and a base array over it (C, F,
strided, negative strides, 0-d, empty) given by its offset and strides in
elements. The test fills the storage of any dtype with cupp_test::sample(i)
and checks that element k of a result is sample(id) for NumPy's id.

Each line:

    NAME M OFF ND SHAPE... STRIDES... OP ARG... -> RESULT

where the base has ND axes, SHAPE and STRIDES (in elements), and OP ARG...
is one of the calls below. RESULT is either

    ! TYPE|MESSAGE                       NumPy raised TYPE (IndexError,
                                         ValueError, AxisError)
    view|copy|any W ND SHAPE... STRIDES... OFF N ID...
    scalar 1 0 0 1 ID                    NumPy returned a scalar (cupp: a 0-d
                                         array); only its value is checked
                                         the result: a view of the storage
                                         or new memory (any: empty, not
                                         decided), writeable (0/1), its
                                         shape, strides and offset from the
                                         storage in elements, and its
                                         elements' ids in C order
    set N ID...                          for setitem: the storage's ids after
                                         the assignment (-1: the scalar)

Arguments: an index item is an integer, `_` (a whole axis), `N` (newaxis),
`E` (ellipsis) or `s:START:STOP:STEP` (`_` for an omitted bound); a tuple is
`t:1,2` (`t:` is the empty tuple); an axis argument is an integer, a tuple,
or `none`; an order is C, F, A or K.

Run from anywhere: python3 tests/generate_indexing_fixtures.py
"""
import pathlib
import shutil

import numpy as np
from fixture_bases import c_order, f_order, negative, strided, transposed
from numpy.lib.stride_tricks import as_strided, sliding_window_view

OUT = pathlib.Path(__file__).parent / "fixtures" / "indexing"
ITEM = 8  # int64 ids

lines = []


# ---------------------------------------------------------------------------
# Bases: (name, storage, base)


def layouts():
    yield "c1", *c_order((6,))
    yield "c3", *c_order((2, 3, 4))
    yield "f3", *f_order((2, 3, 4))
    yield "strided2", *strided((3, 4))
    yield "neg2", *negative((3, 4))
    yield "neg1", *negative((5,))
    yield "tr3", *transposed((2, 3, 4))
    yield "c0", *c_order(())
    yield "empty2", *c_order((0, 3))
    yield "unit3", *c_order((1, 3, 1))


def base_tokens(storage, base):
    off = (base.__array_interface__["data"][0] - storage.__array_interface__["data"][0]) // ITEM
    if base.size == 0:
        off = 0
    return [str(storage.size), str(off), str(base.ndim)] + [str(e) for e in base.shape] + [
        str(s // ITEM) for s in base.strides]


# ---------------------------------------------------------------------------
# Argument tokens


def tok_tuple(t):
    return "t:" + ",".join(str(int(v)) for v in t)


def tok_axis(a):
    if a is None:
        return "none"
    if isinstance(a, tuple):
        return tok_tuple(a)
    return str(a)


def tok_item(it):
    if it is None:
        return "N"
    if it is Ellipsis:
        return "E"
    if isinstance(it, slice):
        if it == slice(None):
            return "_"
        b = ["_" if v is None else str(v) for v in (it.start, it.stop, it.step)]
        return "s:" + ":".join(b)
    return str(it)


# ---------------------------------------------------------------------------
# Results


def describe(storage, r):
    if r.size == 0 or storage.size == 0:
        kind = "any"
    else:
        kind = "view" if np.shares_memory(r, storage) else "copy"
    off = 0
    if kind == "view":
        off = (r.__array_interface__["data"][0] - storage.__array_interface__["data"][0]) // ITEM
    ids = r.ravel(order="C").tolist()
    return ([kind, str(int(r.flags.writeable)), str(r.ndim)] + [str(e) for e in r.shape] +
            [str(s // ITEM) for s in r.strides] + [str(off), str(len(ids))] +
            [str(int(i)) for i in ids])


def record(name, storage, base, op, args, call):
    head = [name] + base_tokens(storage, base) + [op] + args + ["->"]
    try:
        r = call()
    except (IndexError, ValueError) as e:
        kind = type(e).__name__
        lines.append(" ".join(head) + f" ! {kind}|{e}")
        return
    if isinstance(r, np.generic):
        # NumPy returns a scalar (cupp a 0-d array): only its value counts.
        lines.append(" ".join(head + ["scalar", "1", "0", "0", "1", str(int(r))]))
        return
    lines.append(" ".join(head + describe(storage, r)))


def record_set(name, storage, base, items, rhs_kind, rhs_items):
    """x[items] = rhs, where rhs is a scalar or base[rhs_items] (as an
    array, or as an expression for `expr`)."""
    head = [name] + base_tokens(storage, base) + ["setitem", str(len(items))]
    head += [tok_item(i) for i in items] + [rhs_kind] + [tok_item(i) for i in rhs_items] + ["->"]
    s = storage.copy()
    b = as_strided(s[base_offset(storage, base):] if base.size else s, base.shape, base.strides)
    try:
        if rhs_kind == "scalar":
            b[tuple(items)] = -1
        else:
            b[tuple(items)] = b[tuple(rhs_items)]
    except (IndexError, ValueError) as e:
        lines.append(" ".join(head) + f" ! {type(e).__name__}|{e}")
        return
    lines.append(" ".join(head + ["set", str(s.size)] + [str(int(v)) for v in s]))


def base_offset(storage, base):
    return (base.__array_interface__["data"][0] - storage.__array_interface__["data"][0]) // ITEM


# ---------------------------------------------------------------------------
# Cases


def index_cases(name, storage, base):
    nd = base.ndim
    sets = [(), (Ellipsis,), (None,), (Ellipsis, None), (None, Ellipsis, None)]
    if nd >= 1:
        n = base.shape[0]
        sets += [(0,), (-1,), (n,), (-n - 1,), (slice(None, None, -1),), (slice(1, None),),
                 (slice(None, -1),), (slice(-100, 100),), (slice(100, -100, -1),),
                 (slice(None, None, 2),), (slice(None, None, -2),), (slice(4, 1, -1),),
                 (slice(1, 1),), (slice(None, None, 0),), (slice(-2, None, 3),),
                 (0, Ellipsis), (Ellipsis, 0), (Ellipsis, Ellipsis), (slice(None), None),
                 (slice(3, -7, -1),), (slice(None, None, -(2**63)),)]
        sets.append(tuple([0] * (nd + 1)))
        sets.append((Ellipsis,) + tuple([0] * (nd + 1)))
    else:
        sets += [(0,), (slice(None),), (Ellipsis, Ellipsis)]
    if nd >= 2:
        sets += [(0, 0), (-1, slice(None, None, -1)), (slice(None), 1), (Ellipsis, -1),
                 (1, None, slice(None, None, -1)), (slice(1, None), slice(None, 2)),
                 (slice(None), base.shape[1]), (None, 0, Ellipsis, None),
                 (slice(None, None, -1), slice(None, None, 0))]
    if nd >= 3:
        sets += [(0, 1, 2), (-1, -1, -1), (Ellipsis, 1, slice(None, None, -2)),
                 (slice(None), Ellipsis, slice(None), 0), (0, slice(None), None, slice(1, 3))]
    for k, items in enumerate(sets):
        # An integer on every axis gives NumPy a scalar; an ellipsis after
        # the integers makes it the 0-d view that cupp returns.
        def call():
            r = base[items]
            return base[items + (Ellipsis,)] if isinstance(r, np.generic) else r

        record(f"{name}_index_{k}", storage, base, "index",
               [str(len(items))] + [tok_item(i) for i in items], call)


def reshape_cases(name, storage, base):
    n = base.size
    shapes = [(-1,), (n,), (1, n), (n, 1), (1, -1, 1), (4,), (-1, -1), (n + 1, -1)]
    if n == 0:
        shapes += [(0, 5), (3, 0, -1), (-1, 0)]
    if n == 1:
        shapes += [(), (1, 1, 1)]
    if n % 2 == 0 and n > 0:
        shapes += [(2, -1), (-1, 2), (2, n // 2, 1)]
    if n == 24:
        shapes += [(4, 6), (6, 4), (2, 12), (12, 2), (3, 8), (2, 3, 4), (4, 3, 2), (2, 2, 2, 3)]
    if n == 12:
        shapes += [(4, 3), (2, 6), (6, 2), (2, 2, 3), (12, 1)]
    for k, shape in enumerate(shapes):
        for order in "CFA":
            record(f"{name}_reshape_{k}_{order}", storage, base, "reshape",
                   [tok_tuple(shape), order], lambda: base.reshape(shape, order=order))
    record(f"{name}_reshape_K", storage, base, "reshape", [tok_tuple((-1,)), "K"],
           lambda: base.reshape((-1,), order="K"))
    for order in "CFAK":
        record(f"{name}_ravel_{order}", storage, base, "ravel", [order],
               lambda: base.ravel(order=order))
        record(f"{name}_flatten_{order}", storage, base, "flatten", [order],
               lambda: base.flatten(order=order))


def axis_cases(name, storage, base):
    nd = base.ndim
    rec = lambda tag, op, args, call: record(f"{name}_{tag}", storage, base, op, args, call)
    rec("T", "T", [], lambda: base.T)
    rec("transpose", "transpose", [], lambda: base.transpose())
    perms = [tuple(range(nd)), tuple(range(nd))[::-1], (0,) * nd, tuple(range(nd + 1)),
             tuple(range(-nd, 0))]
    if nd == 3:
        perms += [(1, 2, 0), (2, 0, 1), (0, 3, 1)]
    for k, p in enumerate(perms):
        rec(f"transpose_{k}", "transpose_axes", [tok_tuple(p)], lambda: base.transpose(p))
    pairs = [(0, -1), (0, 0), (-1, 0), (nd, 0), (0, -nd - 1)]
    for k, (a, b) in enumerate(pairs):
        rec(f"swapaxes_{k}", "swapaxes", [str(a), str(b)], lambda: base.swapaxes(a, b))
    moves = [(0, -1), (-1, 0), (0, 0), (nd, 0), (0, nd), ((0, 1), (1, 0)), ((0, 1), (-1, 0)),
             ((0, 0), (0, 1)), ((0, 1), (1, 1)), ((0,), (0, 1)), ((), ())]
    for k, (s, d) in enumerate(moves):
        rec(f"moveaxis_{k}", "moveaxis", [tok_axis(s), tok_axis(d)],
            lambda: np.moveaxis(base, s, d))
    for k, (a, s) in enumerate([(0, 0), (-1, 0), (0, nd), (1, 0), (nd - 1, 1), (0, nd + 1),
                                (0, -nd - 1), (0, -1), (nd, 0)]):
        rec(f"rollaxis_{k}", "rollaxis", [str(a), str(s)], lambda: np.rollaxis(base, a, s))
    for k, ax in enumerate([0, -1, nd, nd + 1, -nd - 2, (0, 1), (0, -1), (0, 0), (-1, 0, 2)]):
        rec(f"expand_dims_{k}", "expand_dims", [tok_axis(ax)], lambda: np.expand_dims(base, ax))
    unit = tuple(i for i, e in enumerate(base.shape) if e == 1)
    other = tuple(i for i, e in enumerate(base.shape) if e != 1)
    sq = [None, 0, -1, (0, 0), nd]
    if unit:
        sq += [unit[0], unit, (unit[0], unit[0])]
    if other:
        sq += [other[0]]
    for k, ax in enumerate(sq):
        rec(f"squeeze_{k}", "squeeze", [tok_axis(ax)], lambda: np.squeeze(base, ax))
    for k, ax in enumerate([None, 0, -1, (0, -1), (0, 0), nd, ()]):
        rec(f"flip_{k}", "flip", [tok_axis(ax)], lambda: np.flip(base, ax))
    rec("fliplr", "fliplr", [], lambda: np.fliplr(base))
    rec("flipud", "flipud", [], lambda: np.flipud(base))
    for n in (1, 2, 3):
        f = getattr(np, f"atleast_{n}d")
        rec(f"atleast_{n}d", f"atleast_{n}d", [], lambda: f(base))
    rec("ascontiguousarray", "ascontiguousarray", [], lambda: np.ascontiguousarray(base))
    rec("asfortranarray", "asfortranarray", [], lambda: np.asfortranarray(base))


def broadcast_cases(name, storage, base):
    shape = base.shape
    targets = [shape, (2,) + shape, (3, 1) + shape, (), (-1,) + shape, shape[1:], (5,) * (len(shape) + 1)]
    if shape:
        targets += [shape[:-1] + (7,), (2,) + shape[:-1] + (1,)]
    unit = [i for i, e in enumerate(shape) if e == 1]
    if unit:
        t = list(shape)
        t[unit[0]] = 4
        targets.append(tuple(t))
    for k, t in enumerate(targets):
        record(f"{name}_broadcast_to_{k}", storage, base, "broadcast_to", [tok_tuple(t)],
               lambda: np.broadcast_to(base, t))
    # broadcast_arrays(base, zeros(other)): the view of the first argument.
    others = [shape, (2,) + shape, (4, 1, 1, 1, 1), (7,), ()]
    for k, o in enumerate(others):
        record(f"{name}_broadcast_arrays_{k}", storage, base, "broadcast_arrays", [tok_tuple(o)],
               lambda: np.broadcast_arrays(base, np.zeros(o))[0])


def stride_trick_cases(name, storage, base):
    nd = base.ndim
    st = tuple(s // ITEM for s in base.strides)
    if base.size > 0:
        specs = [(base.shape, st), ((2, 2), (1, 1)), ((3,), (0,)), ((), ()), ((2, 2), (-1, 0))]
        if nd >= 1:
            specs.append(((base.shape[0], 2), (st[0], 0)))
        off = base_offset(storage, base)
        for k, (sh, sst) in enumerate(specs):
            # Only views inside the storage: NumPy reads anything outside.
            lo = off + sum((e - 1) * v for e, v in zip(sh, sst) if v < 0)
            hi = off + sum((e - 1) * v for e, v in zip(sh, sst) if v > 0)
            if lo < 0 or hi >= storage.size:
                continue
            record(f"{name}_as_strided_{k}", storage, base, "as_strided",
                   [tok_tuple(sh), tok_tuple(sst)],
                   lambda: as_strided(base, sh, tuple(v * ITEM for v in sst)))
    windows = [(tuple([1] * nd), None), (tuple(min(2, e) for e in base.shape), None), ((2,), None),
               ((-1,) * nd, None), (tuple(e + 1 for e in base.shape), None)]
    if nd >= 1:
        windows += [((2,), 0), ((2,), -1), ((2, 2), 0), ((1, 1), (0, 0)), ((2,), nd),
                    ((base.shape[0],), 0)]
    if nd >= 2:
        windows += [((2, 2), (1, 0)), ((2,), 1)]
    for k, (w, ax) in enumerate(windows):
        record(f"{name}_sliding_{k}", storage, base, "sliding_window_view",
               [tok_tuple(w), tok_axis(ax)], lambda: sliding_window_view(base, w, axis=ax))


def setitem_cases(name, storage, base):
    nd = base.ndim
    s = slice
    cases = [((Ellipsis,), "scalar", ()), ((), "scalar", ())]
    if nd >= 1 and base.shape[0] >= 2:
        cases += [
            ((s(1, None),), "view", (s(None, -1),)),  # overlap, shifted forward
            ((s(None, -1),), "view", (s(1, None),)),  # overlap, shifted back
            ((s(None, None, -1),), "view", (Ellipsis,)),  # reversed onto itself
            ((s(1, None),), "expr", (s(None, -1),)),
            ((0,), "view", (-1,)),
            ((s(None, None, 2),), "scalar", ()),
            ((s(0, 1),), "view", (s(None, None, -1),)),  # shape mismatch
            ((Ellipsis,), "view", (s(0, 1),)),  # broadcast a unit axis
            ((0,), "expr", (1,)),
        ]
    if nd >= 2:
        cases += [((Ellipsis, 0), "view", (Ellipsis, -1)), ((slice(None), 0), "view", (0,)),
                  ((Ellipsis,), "view", (Ellipsis, s(None, None, -1))),
                  ((s(None, None, -1), 1), "expr", (0, Ellipsis))]
    if nd >= 3:
        cases += [((0,), "view", (1,)), ((Ellipsis,), "expr", (Ellipsis, 0, None)),
                  ((0, 1), "view", (1, 0, s(None, None, -1)))]
    for k, (items, kind, rhs) in enumerate(cases):
        record_set(f"{name}_setitem_{k}", storage, base, items, kind, rhs)


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    for name, storage, base in layouts():
        index_cases(name, storage, base)
        reshape_cases(name, storage, base)
        axis_cases(name, storage, base)
        broadcast_cases(name, storage, base)
        stride_trick_cases(name, storage, base)
        setitem_cases(name, storage, base)
    header = [
        f"# Generated by tests/generate_indexing_fixtures.py with numpy {np.__version__}; "
        "do not edit.",
        "# NAME M OFF ND SHAPE... STRIDES... OP ARG... -> RESULT (see the script)",
    ]
    (OUT / "cases.txt").write_text("\n".join(header + lines) + "\n")
    print(f"{len(lines)} cases in {OUT}")


if __name__ == "__main__":
    main()
