#!/usr/bin/env python3
"""Writes tests/fixtures/reduction/ with NumPy's (and ml_dtypes') results
for cupp's reductions and scans (tests/reduction_*_test.cu).

cases.txt   one call per line:

                TAG FUNC DTYPE INPUT AXIS KEEPDIMS [KEY=VALUE ...] -> RESULT [; RESULT]
                TAG FUNC DTYPE INPUT AXIS KEEPDIMS [KEY=VALUE ...] ! ERROR|MESSAGE

            TAG groups the calls by what the C++ side passes besides the axis
            (main: only axis, keepdims and ddof; where, initial, out, dtype,
            average, user, expr, cmp: see the tests). FUNC is cupp's (and
            NumPy's) name, DTYPE the operand's NumPy dtype.
            INPUT is either a pattern, KIND(SHAPE), whose values both sides
            compute from the element's C-order index (pattern() below and
            pattern<T>() in tests/support/reduction_harness.hpp), a pattern
            broadcast to a larger shape, KIND(BASE)>(SHAPE) (a stride-0 view
            on the C++ side), or nK, array K of inputs.txt.
            AXIS is N (None), an int, or a tuple (a,b) / () / (a,).
            Options: ddof=, initial=, where=KIND(SHAPE) (a bool mask),
            out=DTYPE, dtype=DTYPE, weights=INPUT, returned=1, b=INPUT (the
            second operand), rtol= atol= (what the values may differ by:
            |cupp - numpy| <= atol + rtol * |numpy|, per component; exact
            when absent). A RESULT is DTYPE SHAPE OFFSET: the raw
            little-endian C-order values at OFFSET in results.bin. An ERROR
            is the Python exception NumPy raises (AxisError, ValueError,
            TypeError, ZeroDivisionError) and its message.
inputs.txt  K DTYPE SHAPE OFFSET: the special inputs (NaN, infinities,
            ties, integer extremes), raw in inputs.bin.

Values NumPy computes imprecisely are taken from float64: for float16 and
bfloat16 operands every result is NumPy's on the operand cast to float64,
cast to the dtype NumPy returns for the operand itself (cupp accumulates
those types in float32, NumPy rounds each step of some loops), and the
pattern values are dyadic and small, so that sums are exact in every order.

Documented differences from NumPy, written into the expected values:
nanargmax and nanargmin of an all-NaN slice give -1 (NumPy raises). Not
tested: NumPy's ufunc reductions (sum, max ...) and scans take axis=0 and
-1 for a 0-d operand (a legacy rule its mean and var do not follow); cupp
raises AxisError there.

Run from anywhere: python3 tests/generate_reduction_fixtures.py
"""
import math
import pathlib
import shutil
import warnings

import ml_dtypes
import numpy as np

OUT = pathlib.Path(__file__).parent / "fixtures" / "reduction"
BF16 = np.dtype(ml_dtypes.bfloat16)
ALL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
       "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
SIGNED = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
LOW = ["float16", "bfloat16"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
INEXACT = FLOATS + COMPLEX


def npdt(name):
    return BF16 if name == "bfloat16" else np.dtype(name)


def dtname(dt):
    return "bfloat16" if dt == BF16 else np.dtype(dt).name


# ---------------------------------------------------------------------------
# Inputs: patterns computed on both sides from the C-order index i.

Q_REAL = [1.0, -1.0, 2.0, -1.0, 0.5, 1.0, -1.0, 1.0, 2.0, 0.5]
Q_INT = [1, -1, 2, 1, 3, 1, -1, 1, 2, 1]
Q_IMAG = [0.0, 0.0, 0.5, -0.5]


def pattern(kind, dtype, shape):
    """g: general values; q: near one (products); t: mostly nonzero; z:
    mostly zero; m: a mask (bool only); r: fractions (float32 only)."""
    n = math.prod(shape)
    i = np.arange(n, dtype=np.int64)
    h1 = (i * 7919 + 13) % 1009
    h2 = (i * 104729 + 7) % 997
    if kind == "r":
        return ((h1 % 1000 + 1) / 1000.0 + 0.1).astype(npdt(dtype)).reshape(shape)
    if kind == "t":
        v = np.where(h1 % 23 != 0, h2 % 5 + 1, 0)
    elif kind == "z":
        v = np.where(h1 % 23 == 0, h2 % 5 + 1, 0)
    else:
        v = None
    if dtype == "bool":
        if kind == "g":
            r = h1 % 3 == 0
        elif kind == "m":
            r = h2 % 3 != 0
        elif kind == "q":
            r = h1 % 23 != 0
        else:
            r = v != 0
    elif dtype in SIGNED or dtype in UNSIGNED:
        if v is not None:
            r = v
        elif kind == "q":
            r = np.array(Q_INT, dtype=np.int64)[h1 % 10]
            if dtype in UNSIGNED:
                r = np.abs(r)
        elif dtype == "int8":
            r = h1 % 101 - 50
        elif dtype == "uint8":
            r = h1 % 101
        elif dtype in SIGNED:
            r = h1 - 504
        else:
            r = h1
    elif dtype in FLOATS:
        if v is not None:
            r = v.astype(np.float64)
        elif kind == "q":
            r = np.array(Q_REAL)[h1 % 10]
        else:
            r = (h1 % 61 - 30) * 0.5
    else:
        if v is not None:
            r = v.astype(np.complex128)
        elif kind == "q":
            r = np.array(Q_REAL)[h1 % 10] + 1j * np.array(Q_IMAG)[h2 % 4]
        else:
            r = (h1 % 61 - 30) * 0.5 + 1j * ((h2 % 41 - 20) * 0.25)
    return np.asarray(r).astype(npdt(dtype)).reshape(shape)


def shape_token(shape):
    if len(shape) == 1:
        return f"({shape[0]},)"
    return "(" + ",".join(str(d) for d in shape) + ")"


inputs_txt = []
inputs_bin = bytearray()
special = {}  # name -> (token, array)


def add_special(name, arr):
    k = len(inputs_txt)
    arr = np.array(arr, order="C", copy=True)
    inputs_txt.append(f"{k} {dtname(arr.dtype)} {shape_token(arr.shape)} {len(inputs_bin)}")
    inputs_bin.extend(arr.tobytes())
    special[name] = (f"n{k}", arr)


def make_input(spec):
    """(token, array) for a pattern spec (KIND, DTYPE, SHAPE), a broadcast
    pattern (KIND, DTYPE, SHAPE, BASE) or a special input's name."""
    if isinstance(spec, str):
        return special[spec]
    kind, dtype, shape = spec[0], spec[1], spec[2]
    if len(spec) == 4:
        base = spec[3]
        a = np.broadcast_to(pattern(kind, dtype, base), shape)
        return f"{kind}{shape_token(base)}>{shape_token(shape)}", a
    return f"{kind}{shape_token(shape)}", pattern(kind, dtype, shape)


def with_nans(dtype, shape, where_nan, where_pinf=(), where_ninf=()):
    a = pattern("g", "float64" if dtype in FLOATS else "complex128", shape).copy()
    nan = complex(np.nan, 0) if dtype in COMPLEX else np.nan
    for p in where_nan:
        a[p] = nan
    for p in where_pinf:
        a[p] = np.inf
    for p in where_ninf:
        a[p] = -np.inf
    return a.astype(npdt(dtype))


def build_specials():
    for d in INEXACT:
        # Row 2 all NaN; scattered NaN; infinities of both signs.
        add_special(f"nan_{d}", with_nans(d, (4, 5), [(0, 1), (0, 3), (2, slice(None)), (3, 4)],
                                          [(1, 2)], [(1, 0)]))
        # One column all NaN (axis 0), no NaN elsewhere: nanargmax gives -1 there.
        add_special(f"nancol_{d}", with_nans(d, (3, 4), [(slice(None), 2)]))
        add_special(f"allnan_{d}", with_nans(d, (2, 3), [(slice(None), slice(None))]))
        add_special(f"inf_{d}", with_nans(d, (3, 4), [], [(0, 1), (2, 2), (2, 3)],
                                          [(1, 1), (2, 0)]))
    for d in ALL:
        if d == "bool":
            t = np.array([[0, 1, 1, 0, 1, 0], [0, 0, 0, 0, 0, 0], [1, 0, 1, 0, 1, 1]], dtype=bool)
        else:
            t = np.array([[1, 5, 5, 2, 5, 0], [0, 0, 0, 0, 0, 0], [3, -1, 3, -1, 3, 3]])
            if d in UNSIGNED:
                t = np.abs(t)
            t = t.astype(npdt(d))
        add_special(f"ties_{d}", t)
    for d in SIGNED + UNSIGNED:
        info = np.iinfo(d)
        lo, hi = int(info.min), int(info.max)
        add_special(f"extreme_{d}",
                    np.array([[lo, hi, 0, 1], [hi, hi, lo, 0], [hi - 1, 1, lo, lo]], dtype=d))
    for d in FLOATS:
        # Large values whose partial sums stay finite in the accumulator (the
        # order of a sum is not NumPy's), and the smallest subnormals.
        big = 65504.0 if d == "float16" else float(
            (ml_dtypes.finfo(npdt(d)) if d in LOW else np.finfo(d)).max) / 4
        tiny = float(ml_dtypes.finfo(npdt(d)).smallest_subnormal) if d in LOW else float(
            np.finfo(d).smallest_subnormal)
        add_special(f"extreme_{d}", np.array([[big, big, -big, 1.0], [tiny, -tiny, tiny, 0.0],
                                              [big, 0.5, 0.25, -big]]).astype(npdt(d)))
    # Non-dyadic values: sums that round.
    for d in ["float32", "float64", "complex64", "complex128"]:
        i = np.arange(6 * 50)
        v = np.sin(i * 0.7) * 10 + (1j * np.cos(i * 0.3) if d in COMPLEX else 0)
        add_special(f"frac_{d}", v.reshape(6, 50).astype(d))


# ---------------------------------------------------------------------------
# NumPy's calls.

RESULT_EXACT = {"max", "min", "amax", "amin", "nanmax", "nanmin", "ptp", "argmax", "argmin",
                "nanargmax", "nanargmin", "all", "any", "count_nonzero"}
SUMS = {"sum", "nansum", "cumsum", "nancumsum"}
PRODS = {"prod", "nanprod", "cumprod", "nancumprod"}
MEANS = {"mean", "nanmean", "average"}
VARS = {"var", "nanvar"}
STDS = {"std", "nanstd"}
SCANS = {"cumsum", "cumprod", "nancumsum", "nancumprod"}
ARGS = {"argmax", "argmin", "nanargmax", "nanargmin"}
NO_KEEPDIMS = SCANS


def nanarg(f, x, axis, keepdims):
    """numpy.nanargmax/nanargmin with cupp's -1 for an all-NaN slice."""
    isnan = np.isnan(x)
    allnan = np.all(isnan, axis=axis, keepdims=keepdims)
    if not np.any(allnan):
        return f(x, axis=axis, keepdims=keepdims)
    filled = np.where(np.all(isnan, axis=axis, keepdims=True), 0, x).astype(x.dtype)
    r = f(filled, axis=axis, keepdims=keepdims)
    return np.where(allnan, -1, r).astype(np.int64)


def call(func, x, axis, keepdims, opts):
    kw = {}
    if func not in SCANS:
        kw["keepdims"] = keepdims
    if "ddof" in opts:
        kw["ddof"] = opts["ddof"]
    if "initial" in opts:
        kw["initial"] = opts["initial"]
    if "where" in opts:
        kw["where"] = opts["where"]
    if "dtype" in opts:
        kw["dtype"] = opts["dtype"]
    if "out" in opts:
        kw["out"] = opts["out"]
    if func in ("nanargmax", "nanargmin") and x.dtype.kind in "fc":
        return nanarg(getattr(np, func), x, axis, keepdims)
    if func == "average":
        del kw["keepdims"]
        if keepdims:
            kw["keepdims"] = True
        if "weights" in opts:
            kw["weights"] = opts["weights"]
        if opts.get("returned"):
            kw["returned"] = True
        return np.average(x, axis=axis, **kw)
    return getattr(np, func)(x, axis=axis, **kw)


def finfo(dt):
    dt = np.dtype(dt)
    if dt == BF16:
        return ml_dtypes.finfo(dt)
    if dt.kind == "c":
        return np.finfo(np.float32 if dt.itemsize == 8 else np.float64)
    return np.finfo(dt)


def tolerance(func, x, res_dtype, n):
    """(rtol, atol) for a result of res_dtype from n elements of x."""
    if np.dtype(res_dtype).kind in "biu" or func in RESULT_EXACT:
        return 0.0, 0.0
    fi = finfo(res_dtype)
    eps = float(fi.eps)
    vals = np.abs(np.asarray(x, dtype=np.complex128)) if x.size else np.zeros(1)
    vals = vals[np.isfinite(vals)]
    m = float(vals.max()) if vals.size else 1.0
    m = max(m, 1.0)
    n = max(n, 1)
    if func in SUMS:
        return 4 * eps, eps * n * m
    if func == "l2":  # the square root of a sum of positive terms
        return 8 * eps * (math.sqrt(n) + 1) + eps * n / 4, 0.0
    if func in MEANS:
        return 4 * eps, 4 * eps * m
    if func in PRODS:
        return eps * (n + 4), float(fi.tiny)
    # Sums of positive terms (the host backend adds in order, NumPy pairwise).
    if func in VARS:
        return 8 * eps * (math.sqrt(n) + 1) + eps * n / 4, 8 * eps * m * m
    if func in STDS:
        return 8 * eps * (math.sqrt(n) + 1) + eps * n / 4, 8 * eps * m
    return 4 * eps, 4 * eps * m


lines = []
results = bytearray()


def reduced_count(shape, axis):
    if axis is None:
        return math.prod(shape)
    axes = axis if isinstance(axis, tuple) else (axis,)
    return math.prod(shape[a] for a in axes) if shape else 1


def axis_token(axis):
    if axis is None:
        return "N"
    if isinstance(axis, tuple):
        return "(" + ",".join(str(a) for a in axis) + ("," if len(axis) == 1 else "") + ")"
    return str(axis)


def opt_token(k, v):
    if k in ("where", "weights", "b"):  # an input
        return f"{k}={make_input(v)[0]}"
    return f"{k}={v}"


def emit_result(arr):
    arr = np.array(arr, order="C", copy=True)
    tok = f"{dtname(arr.dtype)} {shape_token(arr.shape)} {len(results)}"
    results.extend(arr.tobytes())
    return tok


def record(tag, func, dtype, spec, axis=None, keepdims=False, opts=None, fn=None, rtol=None):
    """One call: NumPy's result (or exception) on the operand `spec`."""
    opts = dict(opts or {})
    token, x = make_input(spec)
    np_opts, toks = {}, []
    for k, v in opts.items():
        toks.append(opt_token(k, v))
        if k in ("where", "weights", "b"):
            np_opts[k] = make_input(v)[1]
        elif k == "dtype":
            np_opts[k] = npdt(v)
        elif k == "out":
            continue
        else:
            np_opts[k] = v
    low = dtype in LOW or opts.get("dtype") in LOW

    def run(xx, o):
        if fn is not None:
            return fn(xx, o)
        if "out" in opts:
            probe = np.asarray(call(func, xx, axis, keepdims, o))
            o = dict(o, out=np.empty(probe.shape, dtype=npdt(opts["out"])))
        return call(func, xx, axis, keepdims, o)

    if func in ("prod", "nanprod", "cumprod", "nancumprod") and x.dtype.kind == "c" and \
            np.isinf(x).any():
        # Complex products through infinities depend on the order of the
        # multiplications: the device's tree order is not NumPy's sequence.
        toks.append("sequential=1")
    head = (f"{tag} {func} {dtype} {token} {axis_token(axis)} {int(keepdims)}" +
            "".join(" " + t for t in toks))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                native = run(x, np_opts)
                if low:
                    def widen(v):
                        return v.astype(np.float64) if isinstance(v, np.ndarray) and \
                            v.dtype in (BF16, np.float16) else v
                    o64 = {k: widen(v) for k, v in np_opts.items()}
                    if "dtype" in o64 and o64["dtype"] in (BF16, np.dtype(np.float16)):
                        o64["dtype"] = np.float64
                    wide = run(widen(x), o64)
    except (ValueError, TypeError, ZeroDivisionError) as e:
        name = type(e).__name__
        lines.append(f"{head} ! {name}|{e}")
        return
    outs = list(native) if isinstance(native, tuple) else [native]
    if low:
        wides = list(wide) if isinstance(wide, tuple) else [wide]
        with np.errstate(all="ignore"):
            outs = [np.asarray(w).astype(np.asarray(o).dtype) for o, w in zip(outs, wides)]
    outs = [np.asarray(o) for o in outs]
    n = reduced_count(x.shape, axis)
    if func in SCANS:
        n = x.size if axis is None else (x.shape[axis] if x.ndim else 1)
    if rtol is None:
        rtol, atol = tolerance(func, x, outs[0].dtype, n)
    else:
        atol = 0.0
    tol = ""
    if rtol or atol:
        tol = f" rtol={rtol:.3g} atol={atol:.3g}"
    lines.append(head + tol + " -> " + " ; ".join(emit_result(o) for o in outs))


# ---------------------------------------------------------------------------
# The cases.

REDUCTIONS = ["sum", "prod", "nansum", "nanprod", "max", "min", "nanmax", "nanmin", "ptp",
              "argmax", "argmin", "nanargmax", "nanargmin", "all", "any", "count_nonzero",
              "mean", "nanmean", "var", "std", "nanvar", "nanstd"]
ALL_FUNCS = REDUCTIONS + ["amax", "amin", "cumsum", "cumprod", "nancumsum", "nancumprod"]


def supports(func, dtype):
    if func == "ptp" and dtype == "bool":
        return False  # NumPy: boolean subtract is not supported (cupp: a compile-time error)
    return True


def kind_for(func):
    return "q" if func in PRODS else "g"


def axes_for(func, ndim, tuples=True):
    """The axis arguments tried for an operand of ndim dimensions."""
    out = [None] + list(range(ndim)) + ([-1] if ndim else [])
    if ndim >= 2 and tuples and func not in ARGS and func not in SCANS:
        out.append(tuple(range(ndim)))
        out.append((ndim - 1, 0))
        if ndim >= 3:
            out.append((0, 2))
            out.append(())
    return out


def main_cases():
    for dtype in ALL:
        for func in ALL_FUNCS:
            if not supports(func, dtype):
                continue
            k = kind_for(func)
            scan = func in SCANS
            # 3-d: every axis form, keepdims both ways.
            for axis in axes_for(func, 3):
                record("main", func, dtype, (k, dtype, (3, 4, 5)), axis)
                if not scan and axis in (None, 1, -1, (0, 2)):
                    record("main", func, dtype, (k, dtype, (3, 4, 5)), axis, True)
            # Bad axes.
            record("main", func, dtype, (k, dtype, (3, 4, 5)), 3)
            record("main", func, dtype, (k, dtype, (3, 4, 5)), -4)
            if not scan and func not in ARGS:
                record("main", func, dtype, (k, dtype, (3, 4, 5)), (1, -2))
                record("main", func, dtype, (k, dtype, (3, 4, 5)), (0, 3))
            if func in ARGS or scan:
                record("main", func, dtype, (k, dtype, (3, 4, 5)), (0, 1))
            # 1-d, 2-d, 4-d.
            for axis in [None, -1]:
                record("main", func, dtype, (k, dtype, (7,)), axis)
            for axis in axes_for(func, 2):
                record("main", func, dtype, (k, dtype, (5, 6)), axis)
            tuples = [] if scan or func in ARGS else [(0, 2), (1, 3), (0, 1, 3)]
            for axis in ([-1, 1] if scan else [None, -1, 1]) + tuples:
                record("main", func, dtype, (k, dtype, (2, 3, 4, 5)), axis,
                       not scan and axis == (1, 3))
            # 0-d.
            # (NumPy's ufunc reductions also take axis=0 and -1 for a 0-d operand,
            # a legacy rule mean, var and cupp do not follow.)
            for axis in [None] + ([] if scan or func in ARGS else [1, ()]):
                record("main", func, dtype, (k, dtype, ()), axis, not scan and axis is None)
            # Empty operands.
            for shape, axes in [((0, 3), [None, 0, 1]), ((3, 0), [None, 0, 1]),
                                ((2, 0, 3), [1, 2] + ([] if scan or func in ARGS else [(0, 2)]))]:
                for axis in axes:
                    record("main", func, dtype, (k, dtype, shape), axis, not scan)
            # Broadcast operands (stride 0).
            for base, shape, axes in [((1, 6), (4, 6), [None, 0, 1]),
                                      ((3, 1, 5), (3, 4, 5), [None, 1] + (
                                          [] if scan or func in ARGS else [(0, 1)]))]:
                for axis in axes:
                    record("main", func, dtype, (k, dtype, shape, base), axis)
            # Special values.
            if dtype in INEXACT:
                for name, axes in [("nan", [None, 0, 1, -1]), ("nancol", [None, 0, 1]),
                                   ("allnan", [None, 1]), ("inf", [None, 0, 1])]:
                    for axis in axes:
                        record("main", func, dtype, f"{name}_{dtype}", axis)
            if "frac_" + dtype in special and func in ["sum", "nansum", "mean", "var", "std",
                                                       "cumsum", "nanmean"]:
                for axis in [None, 0, 1]:
                    record("main", func, dtype, f"frac_{dtype}", axis)
            for axis in [None, 0, 1]:
                if axis != 0:
                    record("main", func, dtype, f"ties_{dtype}", axis)
                # (Products of these overflow or underflow depending on the order.)
                # (nor the squares of bfloat16's, in cupp's float32 accumulator).
                if f"extreme_{dtype}" in special and not (func in PRODS and dtype in FLOATS) and \
                        not (func in VARS | STDS and dtype == "bfloat16"):
                    record("main", func, dtype, f"extreme_{dtype}", axis)
            if func in ["all", "any", "count_nonzero"]:
                for kind in "tz":
                    for axis in [None, 0, 1, (0, 2)]:
                        record("main", func, dtype, (kind, dtype, (3, 4, 5)), axis)
            if func in VARS | STDS:
                for ddof in [1, 4, 5]:
                    for axis in [None, 0]:
                        record("main", func, dtype, ("g", dtype, (4, 5)), axis,
                               opts={"ddof": ddof})


# Shapes that reach each of the device kernel's modes (inner: a warp-sized
# team, a block, several blocks per result; outer: a block per column group,
# several blocks splitting the reduced positions).
KERNEL_DTYPES = ["bool", "int8", "int32", "uint64", "float16", "bfloat16", "float32", "float64",
                 "complex64"]
KERNEL_FUNCS = ["sum", "prod", "max", "nanmin", "argmax", "argmin", "all", "count_nonzero",
                "mean", "var"]


def kernel_cases():
    for dtype in KERNEL_DTYPES:
        for func in KERNEL_FUNCS:
            k = kind_for(func)
            if func == "all":
                k = "t"
            arg = func in ARGS
            # Many results: only some functions and dtypes (the fixture's size).
            many = func in ["sum", "max", "argmax", "mean", "all"] and (
                dtype in ["int8", "int32", "float32", "float64", "complex64"] or func == "all")
            for shape, axes in [((1000, 8), [None, 0] + ([1] if many else [])),
                                ((8, 1000), [1] + ([0] if many else [])),
                                ((3, 4, 5, 6, 7), [None, 4] if arg else [(0, 2, 4), (1, 3), None]),
                                ((700, 900), [0, 1] if many and dtype != "bool" else []),
                                ((300000,), [None])]:
                if func == "prod" and shape == (300000,):
                    continue
                for axis in axes:
                    record("main", func, dtype, (k, dtype, shape), axis)
    # Sums that round: float32 within 1e-5 * sqrt(n) (NumPy sums pairwise,
    # cupp's device in a tree, its host in order).
    for func in ["sum", "mean"]:
        for shape, axes in [((300000,), [None]), ((1000, 8), [0]), ((8, 1000), [1])]:
            for axis in axes:
                n = reduced_count(shape, axis)
                record("main", func, "float32", ("r", "float32", shape), axis,
                       rtol=1e-5 * math.sqrt(n))
    for dtype in ["int32", "float32"]:
        for func in ["cumsum", "cumprod"]:
            k = kind_for(func)
            for shape, axes in [((1000, 4), [0]), ((4, 1000), [1]), ((3, 4, 5, 6, 7), [2])]:
                for axis in axes:
                    record("main", func, dtype, (k, dtype, shape), axis)


WHERE_FEW = ["int32", "float16", "float32", "complex128"]


def where_cases():
    # The where= mask: a bool array broadcast against the operand. sum and
    # max on every dtype, the others on a few (tests/reduction_where_test.cu).
    initials = {"max": -100, "min": 100, "nanmax": -100, "nanmin": 100}
    plan = [("sum", ALL), ("max", ALL), ("all", ["bool", "float32"]), ("any", ["bool", "float32"])]
    plan += [(f, WHERE_FEW) for f in ["prod", "min", "nanmax", "nansum", "mean", "nanmean", "var",
                                      "std"]]
    for func, dtypes in plan:
        for dtype in dtypes:
            k = kind_for(func)
            for axis, mshape in [(None, (3, 4, 5)), (0, (4, 5)), (1, (3, 1, 5)), ((0, 2), (5,))]:
                opts = {"where": ("m", "bool", mshape)}
                if func in initials:
                    v = initials[func]
                    if dtype in UNSIGNED and v < 0:
                        v = 0
                    if dtype == "bool":
                        v = int(v > 0)
                    opts["initial"] = v
                record("where", func, dtype, (k, dtype, (3, 4, 5)), axis, axis == 1, opts)
            if func in ("max", "nanmax"):
                record("where", func + "_noinitial", dtype, (k, dtype, (3, 4, 5)), 0,
                       opts={"where": ("m", "bool", (4, 5))},
                       fn=lambda xx, o, f=func: getattr(np, f)(xx, axis=0, where=o["where"]))
            # A mask with no True element: every slice is empty.
            opts = {"where": ("z", "bool", (2, 3))}
            if func in initials:
                opts["initial"] = 1
            record("where", func, dtype, ("g", dtype, (2, 3)), 0, False, opts)
    # A lazy mask, x > 0.
    for axis in [None, 0, 2]:
        record("where", "sum_xpos", "float32", ("g", "float32", (3, 4, 5)), axis, False,
               fn=lambda xx, o, a=axis: np.sum(xx, axis=a, where=xx > 0))


def initial_cases():
    for dtype in ALL:
        for func, v in [("sum", 5), ("prod", 2), ("max", 10), ("min", 3), ("nansum", 5),
                        ("nanprod", 2), ("nanmax", 10), ("nanmin", 3)]:
            if dtype == "bool":
                v = 1
            k = kind_for(func)
            for axis in [None, 1, (0, 2)]:
                record("initial", func, dtype, (k, dtype, (3, 4, 5)), axis, axis == 1,
                       {"initial": v})
            # An empty operand takes the initial value.
            for axis in [None, 0, 1]:
                record("initial", func, dtype, (k, dtype, (0, 3)), axis, False, {"initial": v})


def out_cases():
    # out= of the result's own dtype, for every dtype.
    for dtype in ALL:
        for func in ["sum", "max", "argmax", "mean", "var", "all", "nanmin", "prod"]:
            k = kind_for(func)
            for axis, kd in [(None, False), (1, False), (0, True)]:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    probe = np.asarray(call(func, pattern(k, dtype, (3, 4, 5)), axis, kd, {}))
                rd = dtname(probe.dtype)
                record("out", func, dtype, (k, dtype, (3, 4, 5)), axis, kd, {"out": rd})
    # out= of another dtype: NumPy computes in out's dtype.
    for func, dtype, od in [("sum", "int8", "int16"), ("sum", "float32", "float64"),
                            ("max", "int8", "int32"), ("mean", "int32", "float32"),
                            ("sum", "uint8", "int8")]:
        for axis in [None, 0, 2]:
            record("out", func, dtype, (kind_for(func), dtype, (3, 4, 5)), axis, False,
                   {"out": od})
        record("out", func, dtype, ("g", dtype, (100, 7)), 0, False, {"out": od})


DTYPE_CASES = [("sum", "int8", "int8"), ("sum", "int8", "float64"), ("sum", "float16", "float32"),
               ("sum", "float32", "float64"), ("sum", "bool", "int32"), ("sum", "uint8", "uint8"),
               ("sum", "int32", "complex128"), ("prod", "int16", "int16"),
               ("nansum", "float32", "float64"), ("mean", "int32", "float32"),
               ("mean", "float16", "float64"), ("var", "float32", "float64"),
               ("std", "int16", "float32"), ("cumsum", "int8", "int8"),
               ("cumsum", "int32", "float64"), ("cumprod", "uint8", "uint64")]


def dtype_cases():
    for func, dtype, dt in DTYPE_CASES:
        for shape, axes in [((3, 4, 5), [None, 0, 2]), ((200, 3), [0]), ((3, 200), [1])]:
            for axis in axes:
                record("dtype", func, dtype, (kind_for(func), dtype, shape), axis, False,
                       {"dtype": dt})


def average_cases():
    for dtype in ["int32", "float32", "float64", "complex128", "float16"]:
        x = ("g", dtype, (3, 4, 5))
        for axis in [None, 0, 1, (0, 2)]:
            record("average", "average", dtype, x, axis, False)
            record("average", "average", dtype, x, axis, False, {"returned": 1})
            record("average", "average", dtype, x, axis, axis == 1,
                   {"weights": ("t", "float32", (3, 4, 5))})
            record("average", "average", dtype, x, axis, False,
                   {"weights": ("t", "float32", (3, 4, 5)), "returned": 1})
        for axis, n in [(0, 3), (1, 4), (-1, 5)]:
            record("average", "average", dtype, x, axis, False,
                   {"weights": ("t", "float32", (n,))})
            record("average", "average", dtype, x, axis, False,
                   {"weights": ("t", "float32", (n,)), "returned": 1})
        # Weights summing to zero; of the wrong length; 1-d without an axis.
        record("average", "average", dtype, x, 1, False, {"weights": ("z", "float32", (4,))})
        record("average", "average", dtype, x, 0, False, {"weights": ("z", "float32", (4,))})
        record("average", "average", dtype, x, None, False, {"weights": ("t", "float32", (5,))})


def user_cases():
    # cupp::reduction: an L2 norm (x * x, +, sqrt, 0) and a dot product of
    # two operands.
    for shape, axes in [((3, 4, 5), [None, 0, 2, (0, 2)]), ((1000, 8), [0, 1]),
                        ((300000,), [None])]:
        for axis in axes:
            record("user", "l2", "float32", ("g", "float32", shape), axis, False,
                   fn=lambda xx, o, a=axis: np.sqrt(np.sum(xx.astype(np.float64) ** 2, axis=a)
                                                    ).astype(np.float32))
            record("user", "dot", "float64", ("g", "float64", shape), axis, axis == 0,
                   {"b": ("q", "float64", shape)},
                   fn=lambda xx, o, a=axis: np.sum(xx * o["b"], axis=a, keepdims=a == 0))
            record("user", "count", "int32", ("g", "int32", shape), axis, False,
                   fn=lambda xx, o, a=axis: np.sum(xx > 0, axis=a).astype(np.int64))


def expr_cases():
    # Reductions of a lazy product x * y (neither stored).
    for dtype in ["int32", "float32"]:
        for func in ["sum", "max", "argmax", "mean"]:
            for axis in [None, 0, 1, 2]:
                record("expr", func, dtype, ("g", dtype, (3, 4, 5)), axis, False,
                       {"b": ("q", dtype, (3, 4, 5))},
                       fn=lambda xx, o, f=func, a=axis: call(f, xx * o["b"], a, False, {}))


def cmp_cases():
    # allclose, array_equal, array_equiv (Python bools, written as 0-d bool).
    a = special["nan_float64"][1]
    add_special("cmp_near", a * (1 + 1e-7))
    add_special("cmp_far", a * (1 + 1e-3))
    add_special("cmp_row", a[1:2])
    for func in ["allclose", "array_equal", "array_equiv"]:
        for b in ["nan_float64", "cmp_near", "cmp_far", "cmp_row", "ties_float64"]:
            for eq in ([0, 1] if func != "array_equiv" else [0]):
                opts = {"b": b}
                if func != "array_equiv":
                    opts["equal_nan"] = eq

                def fn(xx, o, f=func, e=eq):
                    kw = {"equal_nan": bool(e)} if f != "array_equiv" else {}
                    return np.asarray(getattr(np, f)(xx, o["b"], **kw))
                record("cmp", func, "float64", "nan_float64", None, False, opts, fn=fn)
        # Finite arrays
        record("cmp", func, "float32", ("g", "float32", (3, 4)), None, False,
               {"b": ("g", "float32", (3, 4))},
               fn=lambda xx, o, f=func: np.asarray(getattr(np, f)(xx, o["b"])))
        record("cmp", func, "float32", ("g", "float32", (3, 4)), None, False,
               {"b": ("g", "float32", (1, 4))},
               fn=lambda xx, o, f=func: np.asarray(getattr(np, f)(xx, o["b"])))


def main():
    build_specials()
    main_cases()
    kernel_cases()
    where_cases()
    initial_cases()
    out_cases()
    dtype_cases()
    average_cases()
    user_cases()
    expr_cases()
    cmp_cases()
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    header = "# Written by tests/generate_reduction_fixtures.py (NumPy %s, ml_dtypes %s)\n" % (
        np.__version__, ml_dtypes.__version__)
    (OUT / "cases.txt").write_text(header + "\n".join(lines) + "\n")
    (OUT / "inputs.txt").write_text(header + "\n".join(inputs_txt) + "\n")
    (OUT / "inputs.bin").write_bytes(bytes(inputs_bin))
    (OUT / "results.bin").write_bytes(bytes(results))
    print(f"{len(lines)} cases, results {len(results)} bytes, inputs {len(inputs_bin)} bytes")


if __name__ == "__main__":
    main()
