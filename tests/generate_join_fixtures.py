#!/usr/bin/env python3
"""Writes tests/fixtures/join/cases.txt: NumPy's joins, splits, inserts,
deletes and trim_zeros, for tests/indexing_join_test.cu.

Joining only moves elements, so one fixture serves every dtype: the inputs
of a case are views of one "storage" of M elements whose values stand for
their positions (ids 0 .. M-1), and a result is checked element by element
against the ids NumPy's result holds. Storage positions listed as zeros
hold 0 (id -1), for trim_zeros; the other positions are non-zero.

Each line:

    NAME OP M NZ ZERO... NIN [OFF ND SHAPE... STRIDES...]... ARG... -> RESULT

RESULT is `! TYPE|MESSAGE` (NumPy raised TYPE), or one array

    A S ND SHAPE... STRIDES... N ID...

or a list of K arrays (splits, atleast_Nd of several arrays)

    L K [S ND SHAPE... STRIDES... N ID...]...

where S is `-` when the strides are not compared (NumPy's are not
promised), `n` for new memory with NumPy's strides, or `vOFF` for a view of
the storage starting at element OFF with NumPy's strides. Strides are in
elements. Arguments: an axis is an integer or `none`; `i:3` an integer,
`t:1,2` a list (`t:` empty), `s:START:STOP:STEP` a slice (`_` omits a
bound); a shape `t:2,3`; a trim string as is.

Run from anywhere: python3 tests/generate_join_fixtures.py
"""
import pathlib
import shutil

import numpy as np
from numpy.lib.stride_tricks import as_strided

OUT = pathlib.Path(__file__).parent / "fixtures" / "join"
ITEM = 8
lines = []


def region(kind, shape):
    """(size of the storage region, offset, strides in elements) of an
    input of `shape` laid out as `kind` at the start of its region."""
    n = int(np.prod(shape)) if shape else 1
    nd = len(shape)

    def c_strides(sh):
        st, s = [0] * len(sh), 1
        for i in range(len(sh) - 1, -1, -1):
            st[i] = s
            s *= max(sh[i], 1)
        return st

    if n == 0:
        return 0, 0, c_strides(shape)
    if kind == "c" or nd == 0:
        return n, 0, c_strides(shape)
    if kind == "f":
        return n, 0, c_strides(shape[::-1])[::-1]
    if kind == "s":
        wide = list(shape[:-1]) + [2 * shape[-1]]
        st = c_strides(wide)
        st[-1] = 2
        return int(np.prod(wide)), 0, st
    if kind == "n":
        st = c_strides(shape)
        off = sum((e - 1) * s for e, s in zip(shape, st))
        return n, off, [-s for s in st]
    if kind == "t":  # the first two axes swapped: neither C nor F
        if nd < 2:
            return n, 0, c_strides(shape)
        st = c_strides((shape[1], shape[0]) + tuple(shape[2:]))
        return n, 0, [st[1], st[0]] + st[2:]
    raise ValueError(kind)


def build(inputs, zeros=()):
    """inputs: (kind, shape) pairs. Returns the storage's size, the NumPy
    views (values id + 1, 0 where the storage is zero) and their tokens."""
    regions, total = [], 0
    for kind, shape in inputs:
        size, off, st = region(kind, tuple(shape))
        regions.append((total + off, tuple(shape), st))
        total += size
    m = max(total, 1)
    storage = np.arange(1, m + 1, dtype=np.int64)
    for z in zeros:
        storage[z] = 0
    arrays, toks = [], []
    for off, shape, st in regions:
        base = storage[off:] if off < m else storage[:0]
        a = as_strided(base, shape, [s * ITEM for s in st]) if np.prod(shape) else np.zeros(
            shape, np.int64)
        arrays.append(a)
        toks += [str(off if np.prod(shape) else 0), str(len(shape))] + [str(e) for e in shape] + [
            str(s) for s in st]
    return m, storage, arrays, toks


def tok(v):
    if v is None:
        return "none"
    if isinstance(v, slice):
        return "s:" + ":".join("_" if x is None else str(x) for x in (v.start, v.stop, v.step))
    if isinstance(v, (list, tuple)):
        return "t:" + ",".join(str(x) for x in v)
    return str(v)


def obj_tok(v):
    if isinstance(v, (int, np.integer)):
        return f"i:{v}"
    return tok(v)


def describe(storage, r, mode):
    ids = (r.ravel(order="C") - 1).tolist()
    if mode == "-":
        s = "-"
    elif mode == "v":
        if r.size and np.shares_memory(r, storage):
            s = "v%d" % ((r.__array_interface__["data"][0] -
                          storage.__array_interface__["data"][0]) // ITEM)
        else:
            s = "-"
    else:
        s = "n"
    return [s, str(r.ndim)] + [str(e) for e in r.shape] + [str(st // ITEM) for st in r.strides] + [
        str(len(ids))] + [str(int(i)) for i in ids]


def record(name, op, inputs, args, call, mode="n", zeros=()):
    m, storage, arrays, toks = build(inputs, zeros)
    head = [name, op, str(m), str(len(zeros))] + [str(z) for z in zeros] + [str(len(inputs))]
    head += toks + [str(a) for a in args] + ["->"]
    try:
        r = call(*arrays)
    except (IndexError, ValueError, ZeroDivisionError) as e:
        lines.append(" ".join(head) + f" ! {type(e).__name__}|{e}")
        return
    if isinstance(r, (list, tuple)):
        body = ["L", str(len(r))]
        for x in r:
            body += describe(storage, x, mode)
    else:
        body = ["A"] + describe(storage, r, mode)
    lines.append(" ".join(head + body))


# ---------------------------------------------------------------------------


def concatenate_cases():
    combos = [
        [("c", (2, 3)), ("c", (2, 3))],
        [("c", (2, 3)), ("c", (4, 3))],
        [("c", (2, 3)), ("c", (2, 5))],
        [("f", (2, 3)), ("f", (4, 3))],
        [("f", (2, 3)), ("c", (2, 3))],
        [("s", (3, 4)), ("n", (2, 4)), ("t", (1, 4))],
        [("t", (2, 3, 4)), ("c", (2, 3, 4)), ("f", (2, 3, 4))],
        [("n", (5,)), ("c", (3,)), ("s", (2,))],
        [("c", (0, 3)), ("c", (2, 3))],
        [("c", (2, 0)), ("f", (2, 3))],
        [("c", (0,)), ("c", (0,))],
        [("c", ()), ("c", ())],
        [("c", (2, 3)), ("c", (3,))],
        [("c", (2, 3)), ("c", (2, 3, 1))],
        [("c", (2, 3, 4)), ("c", (2, 1, 4)), ("c", (2, 5, 4))],
        [("c", (7,))],
        [("c", (1, 3)), ("c", (1, 3))],
        [],
    ]
    for k, inputs in enumerate(combos):
        nd = len(inputs[0][1]) if inputs else 1
        for axis in sorted({0, 1, -1, nd, -nd - 1, None}, key=lambda a: (a is None, a)):
            record(f"concat_{k}_{tok(axis)}", "concatenate", inputs, [tok(axis)],
                   lambda *a: np.concatenate(a, axis=axis))
    # out=: the right shape, a strided out, and the wrong shape.
    for k, (inputs, axis, shape, strided) in enumerate([
            ([("c", (2, 3)), ("f", (2, 3))], 0, (4, 3), False),
            ([("c", (2, 3)), ("f", (2, 3))], 1, (2, 6), True),
            ([("c", (2, 3)), ("c", (2, 3))], None, (12,), True),
            ([("c", (2, 3)), ("c", (2, 3))], 0, (3, 4), False),
            ([("c", (2, 3)), ("c", (2, 3))], 1, (2, 6, 1), False),
            ([("c", (2, 3)), ("c", (2, 3))], None, (13,), False),
            ([("c", (2, 3)), ("c", (2, 3))], None, (3, 4), False)]):
        def call(*a):
            out = np.zeros(shape, np.int64) if not strided else np.zeros(
                shape[:-1] + (2 * shape[-1],), np.int64)[..., ::2]
            return np.concatenate(a, axis=axis, out=out)

        record(f"concat_out_{k}", "concatenate_out", inputs,
               [tok(axis), tok(shape), str(int(strided))], call, mode="-")


def stack_cases():
    combos = [
        [("c", (2, 3)), ("f", (2, 3)), ("n", (2, 3))],
        [("c", (3,)), ("s", (3,))],
        [("c", ()), ("c", ())],
        [("c", (2, 3)), ("c", (3, 2))],
        [("c", (0, 2)), ("c", (0, 2))],
        [("t", (2, 3, 4))],
        [],
    ]
    for k, inputs in enumerate(combos):
        nd = len(inputs[0][1]) if inputs else 0
        for axis in sorted({0, 1, -1, nd, nd + 1, -nd - 2}):
            record(f"stack_{k}_{axis}", "stack", inputs, [str(axis)],
                   lambda *a: np.stack(a, axis=axis))
        for fn in ("vstack", "hstack", "dstack", "column_stack"):
            record(f"{fn}_{k}", fn, inputs, [], lambda *a: getattr(np, fn)(a))
    for k, inputs in enumerate([[("c", (2,)), ("c", (2, 3))], [("c", ()), ("c", (1,))],
                                [("f", (2, 2, 2)), ("c", (2, 2, 2))], [("c", (3,)), ("c", (4,))],
                                [("c", (2, 1)), ("c", (2,))]]):
        for fn in ("vstack", "hstack", "dstack", "column_stack"):
            record(f"{fn}_mixed_{k}", fn, inputs, [], lambda *a: getattr(np, fn)(a))


def split_cases():
    bases = [("c", (6,)), ("c", (4, 6)), ("f", (4, 6)), ("s", (3, 4)), ("n", (4, 6)),
             ("t", (2, 4, 6)), ("c", (0, 4)), ("c", ())]
    args = [2, 3, 4, 0, -2, 1, 7, [1, 3], [3, 1], [-2], [], [0, 100], [-100, 2, 2], [1, -1]]
    for b, base in enumerate(bases):
        nd = len(base[1])
        for axis in sorted({0, 1, -1, nd, -nd - 1}):
            for k, s in enumerate(args):
                for fn in ("split", "array_split"):
                    record(f"{fn}_{b}_{axis}_{k}", fn, [base], [obj_tok(s), str(axis)],
                           lambda a: getattr(np, fn)(a, s, axis=axis), mode="v")
        for k, s in enumerate([2, 3, [1, 2], 0]):
            for fn in ("hsplit", "vsplit", "dsplit"):
                record(f"{fn}_{b}_{k}", fn, [base], [obj_tok(s)],
                       lambda a: getattr(np, fn)(a, s), mode="v")


def append_cases():
    combos = [([("c", (2, 3)), ("f", (2, 3))], [None, 0, 1, 2]),
              ([("c", (3,)), ("c", (2, 2))], [None, 0]),
              ([("c", ()), ("c", ())], [None, 0]),
              ([("n", (2, 2)), ("c", (1, 2))], [None, 0, 1])]
    for k, (inputs, axes) in enumerate(combos):
        for axis in axes:
            record(f"append_{k}_{tok(axis)}", "append", inputs, [tok(axis)],
                   lambda a, v: np.append(a, v, axis=axis))


def insert_cases():
    specs = [
        # (arr, values, obj, axis)
        (("c", (6,)), ("c", ()), 2, None),
        (("c", (6,)), ("c", (2,)), 2, None),
        (("c", (6,)), ("c", (2,)), [2], None),
        (("c", (6,)), ("c", (2,)), [1, 4], None),
        (("c", (6,)), ("c", (3,)), [1, 4], None),
        (("c", (6,)), ("c", ()), [5, 0, 5, -1], None),
        (("c", (6,)), ("c", (2,)), [0, -8], None),
        (("c", (6,)), ("c", (2,)), [1, 1, -6, 9], None),
        (("c", (6,)), ("c", ()), 7, None),
        (("c", (6,)), ("c", ()), -7, None),
        (("c", (6,)), ("c", ()), -6, None),
        (("c", (6,)), ("c", ()), 6, None),
        (("c", (6,)), ("c", (2,)), [7], None),
        (("c", (6,)), ("c", ()), slice(1, 5, 2), None),
        (("c", (6,)), ("c", ()), slice(None, None, -2), None),
        (("c", (6,)), ("c", (1,)), slice(2, 3), None),
        (("c", (6,)), ("c", ()), [], None),
        (("c", (2, 3)), ("c", ()), 1, None),
        (("c", (2, 3)), ("c", (3,)), 1, 0),
        (("c", (2, 3)), ("c", (2,)), 1, 1),
        (("c", (2, 3)), ("c", (2,)), [1], 1),
        (("c", (2, 3)), ("c", (2, 1)), [1], 1),
        (("c", (2, 3)), ("c", (2, 2)), [0, 3], 1),
        (("c", (2, 3)), ("c", (3,)), [0, 0], 1),
        (("c", (2, 3)), ("c", (2, 3)), 1, 1),
        (("f", (2, 3)), ("c", (3,)), -1, 0),
        (("f", (2, 3)), ("n", (3, 2)), [2, 0], 0),
        (("s", (3, 4)), ("c", (1, 4)), 3, 0),
        (("n", (3, 4)), ("c", ()), 1, -1),
        (("c", (2, 3)), ("c", ()), 1, 2),
        (("c", ()), ("c", ()), 0, None),
        (("c", ()), ("c", ()), 0, 0),
        (("c", (0, 3)), ("c", (3,)), 0, 0),
        (("c", (1,)), ("c", (2,)), [0, 0], None),
        (("t", (2, 3, 4)), ("c", (2, 4)), 1, 1),
    ]
    for k, (a, v, obj, axis) in enumerate(specs):
        record(f"insert_{k}", "insert", [a, v], [obj_tok(obj), tok(axis)],
               lambda x, y: np.insert(x, obj, y, axis=axis))


def delete_cases():
    specs = [
        (("c", (6,)), 2, None), (("c", (6,)), -1, None), (("c", (6,)), 6, None),
        (("c", (6,)), -7, None), (("c", (6,)), [1, 3], None), (("c", (6,)), [3, 1, 3, -1], None),
        (("c", (6,)), [7], None), (("c", (6,)), [0, 7], None), (("c", (6,)), [], None),
        (("c", (6,)), slice(1, 5), None), (("c", (6,)), slice(None, None, 2), None),
        (("c", (6,)), slice(None, None, -2), None), (("c", (6,)), slice(4, 1), None),
        (("c", (2, 3)), 1, None), (("c", (2, 3)), 1, 0), (("c", (2, 3)), 1, 1),
        (("c", (2, 3)), [0, 2], 1), (("f", (2, 3)), 0, 1), (("f", (3, 4)), slice(1, None, 2), 0),
        (("s", (3, 4)), [1], 1), (("n", (3, 4)), slice(None, None, -3), 1),
        (("t", (2, 3, 4)), [0, 3], -1), (("c", (2, 3)), 0, 2), (("c", ()), 0, None),
        (("c", ()), 0, 0), (("c", (0, 3)), [], 0), (("c", (0, 3)), 0, 1),
    ]
    for k, (a, obj, axis) in enumerate(specs):
        list_path = isinstance(obj, list) and len(obj) != 1
        record(f"delete_{k}", "delete", [a], [obj_tok(obj), tok(axis)],
               lambda x: np.delete(x, obj, axis=axis), mode="-" if list_path else "n")


def trim_cases():
    specs = [
        (("c", (8,)), [0, 1, 6, 7]), (("c", (8,)), []), (("c", (8,)), list(range(8))),
        (("n", (8,)), [0, 1, 2]), (("s", (6,)), [0, 2, 4]), (("c", (3, 4)), [0, 1, 2, 3, 4, 8]),
        (("f", (3, 4)), [0, 1, 2, 9, 10, 11]), (("c", (2, 3, 4)), list(range(13))),
        (("c", (0,)), []), (("c", ()), [0]),
    ]
    for k, (a, zeros) in enumerate(specs):
        nd = len(a[1])
        for trim in ("fb", "f", "b", "BF", "x"):
            for axis in sorted({None, 0, -1, nd}, key=lambda v: (v is None, v)):
                record(f"trim_{k}_{trim}_{tok(axis)}", "trim_zeros", [a], [trim, tok(axis)],
                       lambda x: np.trim_zeros(x, trim, axis=axis), mode="v", zeros=zeros)


def atleast_cases():
    for n in (1, 2, 3):
        f = getattr(np, f"atleast_{n}d")
        record(f"atleast_{n}d_many", f"atleast_{n}d", [("c", ()), ("c", (3,)), ("f", (2, 3))], [],
               lambda *a: f(*a), mode="v")


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    concatenate_cases()
    stack_cases()
    split_cases()
    append_cases()
    insert_cases()
    delete_cases()
    trim_cases()
    atleast_cases()
    header = [
        f"# Generated by tests/generate_join_fixtures.py with numpy {np.__version__}; do not edit.",
        "# NAME OP M NZ ZERO... NIN [OFF ND SHAPE... STRIDES...]... ARG... -> RESULT (see the "
        "script)",
    ]
    (OUT / "cases.txt").write_text("\n".join(header + lines) + "\n")
    print(f"{len(lines)} cases in {OUT}")


if __name__ == "__main__":
    main()
