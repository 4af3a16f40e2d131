#!/usr/bin/env python3
"""Writes tests/fixtures/advanced/cases.txt: NumPy's integer-array indexing,
its setitem, and take / take_along_axis / put / put_along_axis / choose.

As in generate_indexing_fixtures.py, these functions only move elements,
so one fixture serves every dtype: the storage is a 1-d array of M ids
0 .. M-1 (int64) and the base array is a view of it (C, F, strided,
negative strides, 0-d, empty) given by its offset and strides in elements.
The test fills the storage of any dtype with cupp_test::sample(id).

Each line:

    NAME M OFF ND SHAPE... STRIDES... OP ARG... -> RESULT

RESULT is `! TYPE|MESSAGE` (NumPy raised TYPE), `r ND SHAPE... N ID...`
(the result's shape and its elements' ids in C order) or `set N ID...`
(the storage's ids after a write).

Arguments: a basic index item as in the indexing fixture (integer, `_`,
`N`, `E`, `s:START:STOP:STEP`); an index array `a:SHAPE:VALUES` (SHAPE and
VALUES comma-separated, both empty for a 0-d array's shape); a value array
`v:SHAPE:IDS` whose elements are the ids IDS (values written by setitem
use ids from 1000); `scalar` (the value with id 999, NumPy's -1 in the
storage lists); an axis (an integer or `none`); a mode (raise, wrap, clip).

    get N ITEM...                 x[items]
    set N ITEM... VALUE           x[items] = VALUE
    take ARRAY AXIS MODE          np.take(x, ARRAY, axis, mode=MODE)
    tal ARRAY AXIS                np.take_along_axis(x, ARRAY, axis)
    put ARRAY VALUE MODE          np.put(x, ARRAY, VALUE, mode=MODE)
    pal ARRAY VALUE AXIS          np.put_along_axis(x, ARRAY, VALUE, axis)
    choose ARRAY N VALUE... MODE  np.choose(ARRAY, [VALUE...], mode=MODE)
                                  (the base is not used)

Run from anywhere: python3 tests/generate_advanced_indexing_fixtures.py
"""
import pathlib

import numpy as np
from fixture_bases import c_order, f_order, negative, strided
from numpy.lib.stride_tricks import as_strided

OUT = pathlib.Path(__file__).parent / "fixtures" / "advanced"
ITEM = 8
SCALAR_ID = -1  # the storage list's mark for the scalar (sample id 999)

lines = []


def layouts():
    yield "c1", *c_order((6,))
    yield "c2", *c_order((3, 4))
    yield "f2", *f_order((3, 4))
    yield "s2", *strided((3, 4))
    yield "n2", *negative((3, 4))
    yield "c3", *c_order((2, 3, 4))
    yield "f3", *f_order((2, 3, 4))
    yield "n3", *negative((2, 3, 4))
    s = np.arange(3)
    yield "d0", s, s[1:2].reshape(())
    s = np.arange(4)
    yield "e2", s, s[:0].reshape(0, 3)


def describe(storage, base):
    off = (base.__array_interface__["data"][0] - storage.__array_interface__["data"][0]) // ITEM
    st = [x // ITEM for x in base.strides]
    return f"{storage.size} {off} {base.ndim} " + " ".join(
        str(v) for v in list(base.shape) + st)


def arr(values, shape=None):
    a = np.array(values, dtype=np.int64)
    if shape is not None:
        a = a.reshape(shape)
    return a


def enc_array(a, tag="a"):
    return f"{tag}:{','.join(map(str, a.shape))}:{','.join(map(str, a.ravel()))}"


def enc_item(x):
    if isinstance(x, np.ndarray):
        return enc_array(x)
    if x is Ellipsis:
        return "E"
    if x is None:
        return "N"
    if isinstance(x, slice):
        f = lambda v: "_" if v is None else str(v)
        return f"s:{f(x.start)}:{f(x.stop)}:{f(x.step)}"
    if x == "_":
        return "_"
    return str(x)


def to_np(x):
    return slice(None) if isinstance(x, str) and x == "_" else x


def error(e):
    return f"! {type(e).__name__}|{e}"


def result(r):
    r = np.asarray(r)
    return f"r {r.ndim} " + " ".join(map(str, r.shape)) + f" {r.size} " + " ".join(
        map(str, r.ravel()))


def stored(storage):
    return f"set {storage.size} " + " ".join(map(str, storage))


def value(spec, shape=None):
    """('scalar') or an array of value ids 1000.. of `shape`."""
    if spec == "scalar":
        return "scalar", SCALAR_ID
    v = np.arange(1000, 1000 + int(np.prod(shape)), dtype=np.int64).reshape(shape)
    return enc_array(v, "v"), v


def add(name, storage, base, op, args, fn):
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001 - NumPy's exception is the oracle
        out = error(e)
    lines.append(f"{name} {describe(storage, base)} {op} {' '.join(args)} -> {out}")


def get_case(name, storage, base, items):
    add(name, storage, base, "get", [str(len(items))] + [enc_item(x) for x in items],
        lambda: result(base[tuple(to_np(x) for x in items)]))


def set_case(name, storage, base, items, spec, vshape=None):
    venc, v = value(spec, vshape)

    def run():
        s, b = writable(storage, base)
        b[tuple(to_np(x) for x in items)] = v
        return stored(s)

    add(name, storage, base, "set",
        [str(len(items))] + [enc_item(x) for x in items] + [venc], run)


def writable(storage, base):
    s = storage.copy()
    off = (base.__array_interface__["data"][0] - storage.__array_interface__["data"][0]) // ITEM
    b = as_strided(s[off:] if s.size else s, base.shape, base.strides)
    return s, b


# ---------------------------------------------------------------------------
# Indexing

for name, storage, base in layouts():
    nd = base.ndim
    if nd == 0:
        get_case(f"{name}_arr", storage, base, [arr([0])])
        set_case(f"{name}_set", storage, base, [arr([0])], "scalar")
        continue
    n0 = base.shape[0]
    get_case(f"{name}_one", storage, base, [arr([0, n0 - 1, -1, 0] if n0 else [])])
    get_case(f"{name}_2d_index", storage, base, [arr([[0, -1], [1, 0]] if n0 > 1 else [[0]])])
    get_case(f"{name}_empty_index", storage, base, [arr([], (0,))])
    get_case(f"{name}_zero_d_index", storage, base, [arr(0 if n0 else 0)])
    get_case(f"{name}_oob", storage, base, [arr([0, n0])])
    get_case(f"{name}_oob_neg", storage, base, [arr([-n0 - 1])])
    set_case(f"{name}_set_scalar", storage, base, [arr([0, -1] if n0 else [])], "scalar")
    set_case(f"{name}_set_oob", storage, base, [arr([0, n0 + 2])], "scalar")
    if nd >= 2:
        n1 = base.shape[1]
        get_case(f"{name}_two", storage, base, [arr([0, 1, -1]), arr([1, 0, -1])])
        get_case(f"{name}_broadcast", storage, base, [arr([[0], [1]]), arr([0, -1, 1])])
        get_case(f"{name}_mismatch", storage, base, [arr([0, 1]), arr([0, 1, 0])])
        get_case(f"{name}_slice_arr", storage, base, [slice(None, None, -1), arr([1, 0, 1])])
        get_case(f"{name}_arr_slice", storage, base, [arr([1, -1]), slice(1, None)])
        get_case(f"{name}_int_arr", storage, base, [1, arr([0, -1])])
        get_case(f"{name}_newaxis", storage, base, [None, arr([0, 1]), "_"])
        get_case(f"{name}_second_oob", storage, base, ["_", arr([0, -n1 - 1])])
        get_case(f"{name}_ellipsis", storage, base, [Ellipsis, arr([0, 1])])
        get_case(f"{name}_too_many", storage, base, [arr([0])] * 2 + [0] * (nd - 1))
        set_case(f"{name}_set_array", storage, base, [arr([1, 0]), arr([0, 2])], "v", (2,))
        set_case(f"{name}_set_rows", storage, base, [arr([1, 0])], "v", (base.shape[-1],))
        set_case(f"{name}_set_bcast", storage, base, [arr([[0], [1]]), arr([0, 1])], "v", (2, 1))
        set_case(f"{name}_set_mismatch", storage, base, [arr([1, 0])], "v", (3, 1, 5))
        set_case(f"{name}_set_dup", storage, base, [arr([1, 1])], "scalar")
    if nd >= 3:
        get_case(f"{name}_apart", storage, base, [arr([0, 1]), "_", arr([1, 2])])
        get_case(f"{name}_int_apart", storage, base, [0, "_", arr([1, 2, -1])])
        get_case(f"{name}_adjacent", storage, base, ["_", arr([0, 2]), arr([[1], [3]])])
        get_case(f"{name}_three", storage, base, [arr([1, 0]), arr([0, 2]), arr([3, -1])])
        get_case(f"{name}_newaxis_apart", storage, base, ["_", arr([0]), None, arr([0])])
        get_case(f"{name}_ellipsis_apart", storage, base, ["_", arr([0]), Ellipsis, arr([0])])
        set_case(f"{name}_set_apart", storage, base, [arr([0, 1]), "_", arr([1, 2])], "v", (3,))

# ---------------------------------------------------------------------------
# take and take_along_axis

for name, storage, base in layouts():
    nd = base.ndim
    for mode in ("raise", "wrap", "clip"):
        for axis in ([None] + list(range(nd)) if nd else [None]):
            n = base.size if axis is None else base.shape[axis]
            i = arr([0, n - 1, -1, n + 1, -n - 2] if mode != "raise" else [0, -1, n - 1])
            if n == 0:
                i = arr([0])
            add(f"{name}_take_{mode}_{axis}", storage, base, "take",
                [enc_array(i), str(axis).lower(), mode],
                lambda i=i, axis=axis, mode=mode: result(np.take(base, i, axis, mode=mode)))
    add(f"{name}_take_oob", storage, base, "take", [enc_array(arr([base.size])), "none", "raise"],
        lambda: result(np.take(base, arr([base.size]))))
    add(f"{name}_take_bad_axis", storage, base, "take", [enc_array(arr([0])), str(nd), "raise"],
        lambda: result(np.take(base, arr([0]), nd)))
    if nd >= 1:
        for axis in range(nd):
            shape = list(base.shape)
            shape[axis] = 2
            rng = np.random.default_rng(nd * 10 + axis)
            n = base.shape[axis]
            i = rng.integers(-n, n, size=shape) if n else np.zeros(shape, np.int64)
            add(f"{name}_tal_{axis}", storage, base, "tal", [enc_array(i), str(axis)],
                lambda i=i, axis=axis: result(np.take_along_axis(base, i, axis)))
            one = list(base.shape)
            one[axis] = 1
            j = np.zeros([1] * nd, np.int64)
            add(f"{name}_tal_bcast_{axis}", storage, base, "tal", [enc_array(j), str(axis)],
                lambda j=j, axis=axis: result(np.take_along_axis(base, j, axis)))
        add(f"{name}_tal_none", storage, base, "tal",
            [enc_array(arr([0, -1] if base.size else [])), "none"],
            lambda: result(np.take_along_axis(base, arr([0, -1] if base.size else []), None)))
        wrong = arr([[0]]) if nd == 1 else arr([0])  # a rank other than the base's
        add(f"{name}_tal_ndim", storage, base, "tal", [enc_array(wrong), "0"],
            lambda wrong=wrong: result(np.take_along_axis(base, wrong, 0)))
        big = arr([[base.shape[-1] + 3]] if nd == 2 else [0]).reshape([1] * (nd - 1) + [1])
        add(f"{name}_tal_oob", storage, base, "tal", [enc_array(big), str(nd - 1)],
            lambda big=big: result(np.take_along_axis(base, big, nd - 1)))
        if nd == 2:
            bad = np.zeros((2, 2), np.int64)
            add(f"{name}_tal_mismatch", storage, base, "tal", [enc_array(bad), "1"],
                lambda: result(np.take_along_axis(base, bad, 1)))
            add(f"{name}_tal_axis", storage, base, "tal", [enc_array(bad), "2"],
                lambda: result(np.take_along_axis(base, bad, 2)))
            add(f"{name}_tal_none_2d", storage, base, "tal", [enc_array(bad), "none"],
                lambda: result(np.take_along_axis(base, bad, None)))

# ---------------------------------------------------------------------------
# put and put_along_axis


def put_case(name, storage, base, i, spec, vshape, mode):
    venc, v = value(spec, vshape)

    def run():
        s, b = writable(storage, base)
        np.put(b, i, v, mode=mode)
        return stored(s)

    add(name, storage, base, "put", [enc_array(i), venc, mode], run)


def pal_case(name, storage, base, i, spec, vshape, axis):
    venc, v = value(spec, vshape)

    def run():
        s, b = writable(storage, base)
        np.put_along_axis(b, i, v, axis)
        return stored(s)

    add(name, storage, base, "pal", [enc_array(i), venc, str(axis).lower()], run)


for name, storage, base in layouts():
    nd = base.ndim
    n = base.size
    put_case(f"{name}_put_scalar", storage, base, arr([0, -1] if n else [0]), "scalar", None,
             "raise")
    put_case(f"{name}_put_cycle", storage, base, arr([[0, 1], [2, -1]] if n > 2 else [0]), "v",
             (3,), "raise")
    put_case(f"{name}_put_same", storage, base, arr([1, 0] if n > 1 else [0]), "v", (2,),
             "raise")
    put_case(f"{name}_put_oob", storage, base, arr([0, n]), "v", (2,), "raise")
    # Targets stay distinct: which of two values written to one element wins
    # is unspecified on the device.
    put_case(f"{name}_put_wrap", storage, base, arr([n + 1, -n] if n > 1 else [n + 1]), "v",
             (2,), "wrap")
    put_case(f"{name}_put_clip", storage, base, arr([n + 1, -n - 1] if n > 1 else [-n - 1]),
             "v", (2,), "clip")
    put_case(f"{name}_put_empty_v", storage, base, arr([0]), "v", (0,), "raise")
    put_case(f"{name}_put_empty_i", storage, base, arr([], (0,)), "v", (2,), "raise")
    if nd >= 1:
        for axis in range(nd):
            shape = list(base.shape)
            shape[axis] = 1
            rng = np.random.default_rng(nd * 10 + axis + 5)
            m = base.shape[axis]
            i = rng.integers(-m, m, size=shape) if m else np.zeros(shape, np.int64)
            pal_case(f"{name}_pal_{axis}", storage, base, i, "v", tuple(shape), axis)
            pal_case(f"{name}_pal_scalar_{axis}", storage, base, i, "scalar", None, axis)
        pal_case(f"{name}_pal_none", storage, base, arr([0, -1] if n else []), "v", (2,) if n else (0,), None)
        big = np.full([1] * nd, base.shape[-1] + 1, np.int64)
        pal_case(f"{name}_pal_oob", storage, base, big, "scalar", None, nd - 1)
        if nd == 2:
            pal_case(f"{name}_pal_ndim", storage, base, arr([0]), "scalar", None, 0)
            pal_case(f"{name}_pal_mismatch", storage, base, np.zeros((1, 1), np.int64), "v",
                     (3,), 1)

# ---------------------------------------------------------------------------
# choose

storage = np.arange(1)
base = storage.reshape(())
for mode in ("raise", "wrap", "clip"):
    sel = arr([[0, 1, 2], [2, 1, 0]]) if mode == "raise" else arr([[0, 4, -1], [-4, 1, 7]])
    choices = [np.arange(1000, 1003).reshape(3), np.arange(1003, 1006).reshape(1, 3),
               np.arange(1006, 1012).reshape(2, 3)]
    add(f"choose_{mode}", storage, base, "choose",
        [enc_array(sel), "3"] + [enc_array(c, "v") for c in choices] + [mode],
        lambda sel=sel, choices=choices, mode=mode: result(np.choose(sel, choices, mode=mode)))
for nm, sel in (("choose_oob", arr([0, 3])), ("choose_neg", arr([0, -1]))):
    choices = [np.arange(1000, 1002), np.arange(1002, 1004), np.arange(1004, 1006)]
    add(nm, storage, base, "choose",
        [enc_array(sel), "3"] + [enc_array(c, "v") for c in choices] + ["raise"],
        lambda sel=sel, choices=choices: result(np.choose(sel, choices)))
choices = [np.arange(1000, 1003), np.arange(1003, 1005)]
add("choose_mismatch", storage, base, "choose",
    [enc_array(arr([0, 1])), "2"] + [enc_array(c, "v") for c in choices] + ["raise"],
    lambda: result(np.choose(arr([0, 1]), choices)))
add("choose_empty", storage, base, "choose", [enc_array(arr([0, 0])), "0", "raise"],
    lambda: result(np.choose(arr([0, 0]), [])))
add("choose_0d", storage, base, "choose",
    [enc_array(arr(1)), "2", enc_array(np.arange(1000, 1002), "v"),
     enc_array(np.arange(1002, 1004), "v"), "raise"],
    lambda: result(np.choose(arr(1), [np.arange(1000, 1002), np.arange(1002, 1004)])))

OUT.mkdir(parents=True, exist_ok=True)
(OUT / "cases.txt").write_text("\n".join(lines) + "\n")
print(f"{len(lines)} cases -> {OUT / 'cases.txt'}")
