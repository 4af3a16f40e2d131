#!/usr/bin/env python3
"""Writes the ufunc fixtures (tests/fixtures/ufunc/) from NumPy and ml_dtypes.

    python3 tests/generate_ufunc_fixtures.py

For every ufunc in UFUNCS and every input dtype signature NumPy accepts
among cupp's 15 dtypes, NumPy's outputs on inputs that hit the edge cases
(zeros of both signs, +-1, the type's limits, NaN, infinities, values
around branch points, zero divisors). Outputs:

  <fixture>.bin    one per ufunc (aliases such as mod/remainder share one):
                   the records described below
  astype.bin       ndarray.astype between every pair of dtypes
  cases_<area>.inc the C++ test cases (one Boost test case per ufunc and
                   signature), so that the C++ side instantiates exactly
                   the signatures NumPy supports
  promotion.inc    numpy.result_type for dtype pairs and Python scalars

A .bin file is a sequence of records; every record is text lines, some
followed by raw little-endian array bytes:

  case <key...>              starts a record: `call <dtypes,>`,
                             `scalar <dtype> <kind> <left|right>`,
                             `astype <from> <to>`
  param <name> <value>       e.g. decimals 2, value 0x1.4p+1
  in|out <dtype> <ndim> <dims...> <nbytes>\\n<nbytes raw bytes>
  error <python exception>   NumPy raised it instead of producing out
  end

The list of ufuncs cupp has is read from include/cupp/ufunc/*.hpp: a
ufunc takes part in the C++ tests once its header defines it (regenerate
after one lands). DISABLED lists the ones to keep out; KNOWN_REJECTED the
signatures NumPy supports but cupp deliberately does not (they would not
compile).

Inputs NumPy leaves to the platform are kept out and noted where the
value lists are built (float-to-integer casts of NaN, infinities and
out-of-range values, integer reciprocal of 0, the exponent frexp returns
for NaN and infinities, negative integer powers, which NumPy rejects at
run time).
"""
import math
import pathlib
import re
import sys
import warnings

import ml_dtypes
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "ufunc"

NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
CPP = {"bool": "bool", "int8": "std::int8_t", "int16": "std::int16_t", "int32": "std::int32_t",
       "int64": "std::int64_t", "uint8": "std::uint8_t", "uint16": "std::uint16_t",
       "uint32": "std::uint32_t", "uint64": "std::uint64_t", "float16": "__half",
       "bfloat16": "__nv_bfloat16", "float32": "float", "float64": "double",
       "complex64": "cuda::std::complex<float>", "complex128": "cuda::std::complex<double>"}
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
BF16 = np.dtype(ml_dtypes.bfloat16)

# Ufuncs kept out of the C++ tests even when their header defines them.
DISABLED = set()
# Signatures NumPy accepts that cupp does not compile: the C++ side cannot
# instantiate them, so each becomes a test case that fails with the
# difference. Rules: (ufuncs, test on the input dtype names, reason); a weak
# scalar's kind ("int", "float", "complex") stands for its dtype. Move a rule
# to DELIBERATE once docs/numpy-differences.md documents the difference (its
# cases then only print it).
KNOWN_REJECTED = []
# Documented in docs/numpy-differences.md.
DELIBERATE = [
    (("less", "less_equal", "greater", "greater_equal"),
     lambda names: any(n in COMPLEX or n == "complex" for n in names),
     "cupp rejects ordering comparisons of complex numbers as CuPy does; NumPy 2 orders them "
     "lexicographically"),
]
# Dtype pairs whose `x + y`, `x == y`, `x < y` ... NumPy evaluates (its
# ufuncs find a float32 or float64 loop) while numpy.result_type raises, and
# cupp does not compile (its ufuncs go through result_type).
_BF16_NO_COMMON = ["int16", "int32", "int64", "uint16", "uint32", "uint64", "float16"]
KNOWN_REJECTED_PAIRS = {(a, "bfloat16") for a in _BF16_NO_COMMON} | {
    ("bfloat16", a) for a in _BF16_NO_COMMON}


def not_compiled(ufunc, names, operator=False):
    """(reason, deliberate) when cupp does not compile ufunc(names), else None;
    `operator`: names are the two operands of a promoting binary operator."""
    for rules, deliberate in ((KNOWN_REJECTED, False), (DELIBERATE, True)):
        for ufuncs, test, why in rules:
            if ufunc in ufuncs and test(names):
                return why, deliberate
    if operator and tuple(names) in KNOWN_REJECTED_PAIRS:
        return "bfloat16 has no common dtype with it in numpy.result_type", True
    return None


def dt(name):
    return BF16 if name == "bfloat16" else np.dtype(name)


def dname(d):
    d = np.dtype(d)
    return "bfloat16" if d == BF16 else d.name


def is_int(n):
    return n in INTS


def is_float(n):
    return n in FLOATS


def unique(vals):
    out, seen = [], set()
    for v in vals:
        key = (type(v), repr(v))
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


# --- input values ------------------------------------------------------------

def int_edges(name):
    info = np.iinfo(name)
    base = [0, 1, -1, 2, -2, 3, -3, 5, -7, 7, 10, 13, -16, 100, -100, 127, -128, 1000, -1000,
            12345, -32768, 2**31 - 1, -2**31, 2**40 + 3, -2**40,
            info.max, info.min, info.max - 1, info.min + 1, info.max // 2, info.min // 2]
    return unique([v for v in base if info.min <= v <= info.max])


def float_edges(name):
    fi = ml_dtypes.finfo(BF16) if name == "bfloat16" else np.finfo(name)
    return unique([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 2.0, 3.0, -3.0, 7.0, 0.1, -0.3,
                   10.0, 100.0, float(fi.max), -float(fi.max), float(fi.smallest_normal),
                   float(fi.smallest_subnormal), math.inf, -math.inf, math.nan, math.pi])


def complex_edges(name):
    inf, nan = math.inf, math.nan
    big = float(np.finfo(np.float32 if name == "complex64" else np.float64).max)
    parts = [(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0),
             (0.0, -1.0), (1.0, 1.0), (-2.0, 0.5), (0.5, -3.0), (3.0, 4.0), (1e-3, 1e3),
             (-0.75, -1.25), (2.5, 2.5), (inf, 0.0), (0.0, inf), (-inf, 1.0), (1.0, -inf),
             (inf, inf), (nan, 0.0), (0.0, nan), (nan, nan), (big, big), (-1.0, -0.0)]
    return parts


def bool_edges():
    return [False, True, True, False, True, False, False, True]


def smooth_floats(lo_exp, hi_exp, count, signed=True):
    """Values spread over magnitudes 10**lo_exp .. 10**hi_exp."""
    mags = [10 ** (lo_exp + (hi_exp - lo_exp) * i / (count - 1)) for i in range(count)]
    mags = [float(f"{m:.4g}") for m in mags]
    return mags + ([-m for m in mags] if signed else [])


def make_array(name, values):
    """An array of dtype `name` from Python values (complex: (re, im) pairs)."""
    d = dt(name)
    if name in COMPLEX:
        a = np.zeros(len(values), d)
        warnings.simplefilter("ignore")  # complex64 parts beyond float32 become inf
        a.real = [v[0] for v in values]
        a.imag = [v[1] for v in values]
        return a
    if name == "bool":
        return np.array([bool(v) for v in values], d)
    if is_int(name):
        info = np.iinfo(name)
        values = [int(v) for v in values if not isinstance(v, float) or math.isfinite(v)]
        return np.array([v for v in values if info.min <= v <= info.max], d)
    with np.errstate(all="ignore"):
        return np.array(np.array(values, np.float64).astype(np.float32 if name == "bfloat16"
                                                            else np.float64), dtype=d)


def default_values(name, extra_float=(), extra_int=(), unary=False):
    if name == "bool":
        return bool_edges()
    if is_int(name):
        v = int_edges(name) + list(extra_int)
        if unary:
            v += list(range(-12, 13))
        return unique(v)
    if is_float(name):
        v = float_edges(name) + list(extra_float)
        if unary:
            v += smooth_floats(-4, 4, 20)
        return unique(v)
    v = complex_edges(name)
    if unary:
        v += [(re, im) for re in (-2.5, -0.5, 0.25, 1.75) for im in (-1.5, 0.5, 3.0)]
        v += [(float(x), 0.0) for x in extra_float if math.isfinite(x)][:8]
    return v


# --- the ufuncs ----------------------------------------------------------------

class Spec:
    def __init__(self, name, area, nin=1, nout=1, np_call=None, sigs=None, values=None,
                 op=None, inplace=None, uop=None, call=None, params=None, data=None,
                 scalars=None, out=None):
        self.name, self.area, self.nin, self.nout = name, area, nin, nout
        self.np_call = np_call or (lambda *a, **p: getattr(np, name)(*a))
        self.sigs = sigs  # None: the same dtype for every input
        self.values = values  # values(dtype names, role) -> python values, or None
        self.op, self.inplace, self.uop = op, inplace, uop
        self.call = call  # C++ lambda text; default cupp::<name>(a...)
        self.params = params or [{}]
        self.data = data or name  # fixture file (aliases share NumPy's data)
        self.scalars = scalars  # weak scalar kinds tested with the operator
        # whether there is an out= form: NumPy's ufuncs, and the functions
        # that take out= (round, clip, fix)
        self.out = isinstance(getattr(np, name, None), np.ufunc) if out is None else out


UFUNCS = {}


def uf(name, area, **kw):
    UFUNCS[name] = Spec(name, area, **kw)


def trig_extra():
    return [math.pi / 2, -math.pi / 2, math.pi / 4, 2 * math.pi, 1e4, -1e4, 1e10, 0.7853]


def inverse_trig_extra():
    return [0.999, -0.999, 0.9999999, 1.0001, -1.0001, 0.25, -0.75, 1e-8, 2.0, -2.0]


def logs_extra():
    return [1e-30, 1e-300, 0.999, 1.001, 2.0**-10, 1e30, 1e300, 4096.0]


def log1p_extra():
    return [-0.999, -0.5, -1.5, 1e-8, -1e-8, 1e-17, 1e30]


def exp_extra():
    return [88.0, 88.8, 89.0, -87.0, -104.0, 709.0, 710.0, -745.0, 11.0, -17.0, 1e-8, 15.9, 16.1]


def arccosh_extra():
    return [1.0001, 1.5, 2.0, 1e4, 1e30, 0.99]


def power_values(names, role):
    n = names[role]
    if is_int(n) and role == 1:  # NumPy raises for negative integer powers
        info = np.iinfo(n)
        return [v for v in [0, 1, 2, 3, 5, 7, 8, 15, 31, 63, 64, 100, 127] if v <= info.max]
    if is_int(n):
        return unique([0, 1, -1, 2, -2, 3, -3, 7, -5, 10, 100, -128] + int_edges(n)[-6:])
    if is_float(n) and role == 1:
        return float_edges(n) + [0.5, -0.5, 2.0, 3.0, -2.0, 1e10, -1e10, 0.25]
    if n in COMPLEX:
        # Complex power at infinities, NaN and the edge of overflow is the C
        # library's cpow in NumPy (C99 leaves it open): finite, moderate
        # operands only.
        return [v for v in default_values(n)
                if all(math.isfinite(p) and abs(p) < 1e30 for p in v)]
    return default_values(n)


def shift_values(names, role):
    n = names[role]
    if role == 1 and is_int(n):
        info = np.iinfo(n)
        return [v for v in [0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 65, 100, -1, -3]
                if info.min <= v <= info.max]
    return default_values(n)


def round_values(names, role):
    """round's inputs: for integers, none within 1000 of the type's limits (NumPy
    rounds them through float64 and casts back, out of range near the limits:
    platform-defined)."""
    n = names[role]
    vals = default_values(n, extra_float=_HALVES, extra_int=[15, 25, 149, 150, -150, 1234567],
                          unary=True)
    if is_int(n):
        info = np.iinfo(n)
        vals = [v for v in vals if info.min + 1000 <= v <= info.max - 1000 or abs(v) < 1000]
    return vals


def reciprocal_values(names, role):
    n = names[role]
    if n == "bool":  # reciprocal(False) is an integer 1/0: platform-defined
        return [True, True, True]
    if is_int(n):
        return [v for v in default_values(n, unary=True) if v != 0]
    return default_values(n, unary=True)


def frexp_values(names, role):
    n = names[role]
    vals = default_values(n, unary=True)
    if is_float(n):  # the exponent frexp gives NaN and infinities is unspecified
        vals = [v for v in vals if math.isfinite(v)]
    return vals


def ldexp_values(names, role):
    n = names[role]
    if role == 1:
        info = np.iinfo(n)
        return [v for v in [0, 1, -1, 2, 10, -10, 24, -24, 100, -100, 127, -128, 1000, -1000,
                            2**31 - 1, -2**31, 2**40, -2**40] if info.min <= v <= info.max]
    return default_values(n)


def clip_values(names, role):
    n = names[role]
    if role == 0:
        return default_values(n)
    if n == "bool":
        return [False, True, False, True] if role == 1 else [True, True, False, False]
    if is_int(n):
        info = np.iinfo(n)
        lo = [0, -1, 2, 5, info.min, 3, 0, -100]
        hi = [1, 1, 5, 2, info.max, 3, 0, 100]
        pick = lo if role == 1 else hi
        return [v if info.min <= v <= info.max else 0 for v in pick]
    if is_float(n):
        lo = [0.0, -1.0, 2.0, 5.0, -math.inf, 3.0, math.nan, -0.0, 0.0]
        hi = [1.0, 1.0, 5.0, 2.0, math.inf, 3.0, 1.0, 0.0, math.nan]
        return lo if role == 1 else hi
    lo = [(0.0, 0.0), (-1.0, -1.0), (2.0, 0.0), (1.0, 5.0), (0.0, 1.0), (math.nan, 0.0)]
    hi = [(1.0, 1.0), (1.0, 1.0), (5.0, 0.0), (1.0, -5.0), (3.0, 0.0), (1.0, 0.0)]
    return lo if role == 1 else hi


def where_values(names, role):
    if role == 0:
        return [True, False, False, True, True, False, True, False, False, True]
    vals = default_values(names[role])
    return vals if role == 1 else list(reversed(vals))


def isclose_values(names, role):
    n = names[role]
    if is_float(n):
        return default_values(n, extra_float=[1.0 + 1e-6, 1.0 + 1e-4, 1.0 - 2e-5, 1e-8, -1e-8,
                                               2e-8, 1e5 + 1.0, 1e5])
    if n in COMPLEX:
        return default_values(n) + [(1.0 + 1e-6, 0.0), (1.0, 1e-6), (1e-9, 0.0)]
    return default_values(n)


_HALVES = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, 2.675, 1.005, 4503599627370497.0,
           1e15 + 0.5, 1e16, 123.456, -987.654]


def unary(extra=(), extra_int=()):
    return lambda names, role: default_values(names[role], extra_float=extra, extra_int=extra_int,
                                              unary=True)


# Weak scalar kinds the operators are tested with.
# (kind, side) pairs: every kind on both sides for add and equal (the
# generic path), the kinds that matter elsewhere; the left side where the
# operation is not symmetric.
ALL_SCALARS = [("bool", "right"), ("int", "right"), ("float", "right"), ("complex", "right"),
               ("int", "left"), ("float", "left")]
ARITH_SCALARS = [("int", "right"), ("float", "right"), ("int", "left")]
SYM_SCALARS = [("int", "right"), ("float", "right")]
INT_SCALARS = [("bool", "right"), ("int", "right")]
SHIFT_SCALARS = [("int", "right"), ("int", "left")]
ORDER_SCALARS = [("int", "right"), ("float", "right"), ("int", "left")]

A = "arithmetic"
uf("add", A, nin=2, op="+", inplace="+=", scalars=ALL_SCALARS)
uf("subtract", A, nin=2, op="-", inplace="-=", scalars=ARITH_SCALARS)
uf("multiply", A, nin=2, op="*", inplace="*=", scalars=SYM_SCALARS)
uf("true_divide", A, nin=2, op="/", inplace="/=", scalars=ARITH_SCALARS)
uf("divide", A, nin=2, data="true_divide")
uf("floor_divide", A, nin=2)
uf("remainder", A, nin=2, op="%", inplace="%=", scalars=ARITH_SCALARS)
uf("mod", A, nin=2, data="remainder")
uf("fmod", A, nin=2)
uf("divmod", A, nin=2, nout=2)
uf("power", A, nin=2, values=power_values)
uf("float_power", A, nin=2, values=power_values)
uf("negative", A, uop="-", values=unary())
uf("positive", A, uop="+", values=unary())
uf("reciprocal", A, values=reciprocal_values)
uf("square", A, values=unary())
uf("absolute", A, values=unary())
uf("abs", A, data="absolute")
uf("fabs", A, values=unary())
uf("sign", A, values=unary())

C = "compare"
for _n, _o in [("equal", "=="), ("not_equal", "!="), ("less", "<"), ("less_equal", "<="),
               ("greater", ">"), ("greater_equal", ">=")]:
    uf(_n, C, nin=2, op=_o, scalars=(ALL_SCALARS if _n == "equal" else
                                     ORDER_SCALARS if _n == "less" else [("int", "right")]))
for _n in ["logical_and", "logical_or", "logical_xor"]:
    uf(_n, C, nin=2)
uf("logical_not", C, values=unary())
uf("bitwise_and", C, nin=2, op="&", inplace="&=", scalars=INT_SCALARS)
uf("bitwise_or", C, nin=2, op="|", inplace="|=", scalars=INT_SCALARS)
uf("bitwise_xor", C, nin=2, op="^", inplace="^=", scalars=INT_SCALARS)
uf("invert", C, uop="~", values=unary())
uf("bitwise_not", C, data="invert")
uf("left_shift", C, nin=2, op="<<", inplace="<<=", values=shift_values, scalars=SHIFT_SCALARS)
uf("right_shift", C, nin=2, op=">>", inplace=">>=", values=shift_values, scalars=SHIFT_SCALARS)
uf("gcd", C, nin=2)
uf("lcm", C, nin=2)
uf("maximum", C, nin=2)
uf("minimum", C, nin=2)
uf("fmax", C, nin=2)
uf("fmin", C, nin=2)
uf("clip", C, nin=3, values=clip_values, out=True)
uf("where", C, nin=3, values=where_values,
   sigs=[("bool", n, n) for n in NAMES])
uf("isclose", C, nin=2, values=isclose_values, np_call=lambda a, b: np.isclose(a, b))
uf("isnan", C, values=unary())
uf("isinf", C, values=unary())
uf("isfinite", C, values=unary())
uf("signbit", C, values=unary())

M = "math"
uf("sqrt", M, values=unary([0.25, 2.0, 1e30, 1e-30, 1e300, 4.0]))
uf("cbrt", M, values=unary([8.0, -27.0, 1e30, 1e-30, 1e300]))
for _n in ["exp", "exp2", "expm1"]:
    uf(_n, M, values=unary(exp_extra()))
for _n in ["log", "log2", "log10"]:
    uf(_n, M, values=unary(logs_extra()))
uf("log1p", M, values=unary(log1p_extra()))
uf("logaddexp", M, nin=2)
uf("logaddexp2", M, nin=2)
for _n in ["sin", "cos", "tan"]:
    uf(_n, M, values=unary(trig_extra()))
for _n in ["arcsin", "arccos", "arctanh"]:
    uf(_n, M, values=unary(inverse_trig_extra()))
uf("arctan", M, values=unary([1e30, -1e30, 1e-30]))
uf("arctan2", M, nin=2)
uf("hypot", M, nin=2)
for _n in ["sinh", "cosh", "tanh"]:
    uf(_n, M, values=unary(exp_extra()))
uf("arcsinh", M, values=unary([1e30, -1e30, 1e-30, 1e300]))
uf("arccosh", M, values=unary(arccosh_extra()))
for _n in ["deg2rad", "rad2deg", "degrees", "radians"]:
    uf(_n, M, values=unary([180.0, 90.0, -45.0, 360.0, 1e30]))
uf("sinc", M, values=unary([0.25, 1e-8, 1e-20, 2.0, -3.0]),
   np_call=lambda x: np.sinc(x))

R = "rounding"
for _n in ["floor", "ceil", "trunc", "rint"]:
    uf(_n, R, values=unary(_HALVES))
uf("fix", R, values=unary(_HALVES), np_call=lambda x: np.fix(x), out=True)
_round_call = ("[](const ufunc_test::params& p, const auto& x, const auto&... o) "
               "{ return cupp::{name}(x, p.decimals, o...); }")
uf("round", R, values=round_values,
   np_call=lambda x, decimals=0: np.round(x, decimals),
   params=[{"decimals": 0}, {"decimals": 1}, {"decimals": 2}, {"decimals": -1},
           {"decimals": -2}],
   call=_round_call.replace("{name}", "round"), out=True)
uf("around", R, data="round", np_call=lambda x, decimals=0: np.round(x, decimals),
   params=UFUNCS["round"].params, call=_round_call.replace("{name}", "around"), out=True)
uf("copysign", R, nin=2)
uf("nextafter", R, nin=2)
uf("spacing", R, values=unary())
uf("ldexp", R, nin=2, values=ldexp_values,
   sigs=[(n, "int32") for n in NAMES] + [(n, "int64") for n in FLOATS])
uf("frexp", R, nout=2, values=frexp_values)
uf("modf", R, nout=2, values=unary())
uf("heaviside", R, nin=2)
uf("real", R, values=unary(), np_call=lambda x: np.real(x))
uf("imag", R, values=unary(), np_call=lambda x: np.imag(x))
uf("conjugate", R, values=unary())
uf("conj", R, data="conjugate")
uf("angle", R, values=unary(), np_call=lambda x: np.angle(x))
def _nan_to_num(x):
    # NumPy leaves ml_dtypes' bfloat16 unchanged (not np.inexact); cupp
    # treats it as the float type it is (documented).
    if x.dtype == BF16:
        big = float(ml_dtypes.finfo(BF16).max)
        return np.nan_to_num(x.astype(np.float32), posinf=big, neginf=-big).astype(BF16)
    return np.nan_to_num(x)


uf("nan_to_num", R, values=unary(), np_call=_nan_to_num)

# NumPy 2's array-API names.
for _alias, _base in [("asin", "arcsin"), ("acos", "arccos"), ("atan", "arctan"),
                      ("atan2", "arctan2"), ("asinh", "arcsinh"), ("acosh", "arccosh"),
                      ("atanh", "arctanh"), ("bitwise_invert", "invert"),
                      ("bitwise_left_shift", "left_shift"), ("bitwise_right_shift", "right_shift"),
                      ("pow", "power")]:
    uf(_alias, UFUNCS[_base].area, nin=UFUNCS[_base].nin, data=_base)

# Aliases take NumPy's data and inputs from the ufunc they name.
for _s in UFUNCS.values():
    if _s.data != _s.name:
        base = UFUNCS[_s.data]
        _s.values, _s.sigs = base.values, base.sigs


# --- what cupp has ---------------------------------------------------------------

def landed():
    """Ufunc names and operator symbols include/cupp/ufunc/*.hpp define."""
    names, ops, headers = set(), set(), []
    for h in sorted((ROOT / "include" / "cupp" / "ufunc").glob("*.hpp")):
        text = h.read_text()
        headers.append(h.name)
        names |= set(re.findall(r"CUPP_\w*UFUNC\w*\(\s*(\w+)\s*[,)]", text))
        names |= set(re.findall(r"(?:auto|>)\s+(\w+)\s*\(\s*const", text))
        ops |= set(s.strip() for s in re.findall(r"CUPP_(?:BINARY|INPLACE)_OPERATOR\(\s*([^,\s]+)\s*,", text))
        ops |= set("u" + s for s in re.findall(r"operator([-+~])\(const \w+& \w+\)", text))
    return names, ops, headers


# --- writing records -----------------------------------------------------------

def blob(tag, a):
    a = np.ascontiguousarray(a)
    dims = " ".join(str(s) for s in a.shape)
    head = f"{tag} {dname(a.dtype)} {a.ndim}{' ' if a.ndim else ''}{dims} {a.nbytes}\n"
    return head.encode() + a.tobytes()


def record(key, params, ins, outs, error=None):
    out = [f"case {key}\n".encode()]
    out += [f"param {k} {v}\n".encode() for k, v in params.items()]
    out += [blob("in", a) for a in ins]
    out += [blob("out", a) for a in outs]
    if error:
        out.append(f"error {error}\n".encode())
    out.append(b"end\n")
    return b"".join(out)


def same_values(x, y):
    """Bit equality with every NaN equal."""
    x, y = np.asarray(x), np.asarray(y)
    if x.dtype != y.dtype or x.shape != y.shape:
        return False
    if x.dtype.kind == "c":
        return same_values(x.real, y.real) and same_values(x.imag, y.imag)
    if x.dtype.kind == "f" or x.dtype == BF16:
        xf, yf = x.astype(np.float64), y.astype(np.float64)
        both_nan = np.isnan(xf) & np.isnan(yf)
        eq = (xf == yf) & (np.signbit(xf) == np.signbit(yf))
        return bool(np.all(both_nan | eq))
    return bool(np.all(x == y))


def inputs_for(spec, names):
    """Input arrays of broadcastable shapes: (K,1) and (1,K) for binary ufuncs,
    a (r,c) block for unary ones."""
    vals = [(spec.values or (lambda ns, r: default_values(ns[r])))(names, r)
            for r in range(spec.nin)]
    arrays = [make_array(n, v) for n, v in zip(names, vals)]
    if spec.nin == 1:
        a = arrays[0]
        # unary inputs: at least 40 elements (kernel chunks of 16 and 64
        # elements see partial and full chunks), 2-d
        while a.size < 40:
            a = np.concatenate([a, a])
        if a.size % 2:
            a = a[:-1]
        return [a.reshape(2, a.size // 2)]
    if spec.nin == 2:
        return [arrays[0].reshape(-1, 1), arrays[1].reshape(1, -1)]
    if spec.name == "where":
        c, x, y = arrays
        return [c.reshape(-1, 1), x.reshape(1, -1), y.reshape(1, -1)]
    a, lo, hi = arrays  # clip: (K,1) against (1,M) bound pairs
    m = min(lo.size, hi.size)
    return [a.reshape(-1, 1), lo[:m].reshape(1, -1), hi[:m].reshape(1, -1)]


def call_numpy(spec, ins, params):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        r = spec.np_call(*ins, **params)
    return tuple(np.asarray(x) for x in (r if isinstance(r, tuple) else (r,)))


def signatures(spec):
    if spec.sigs:
        return spec.sigs
    return [(n,) * spec.nin for n in NAMES]


NOTES = []


def gen_calls(spec):
    """Records of one ufunc; returns (bytes, [(signature, out dtypes)])."""
    data, cases = [], []
    for names in signatures(spec):
        ins = inputs_for(spec, names)
        try:
            outs = call_numpy(spec, ins, spec.params[0])
        except (TypeError, ValueError):
            continue
        sig = ",".join(names)
        for params in spec.params:
            try:
                outs = call_numpy(spec, ins, params)
            except TypeError:  # np.round(bool array, 1): at run time, on a value
                data.append(record(f"call {sig}", params, ins, [], "TypeError"))
                continue
            # The values of contiguous operands (NumPy's SIMD loops) are the
            # expected ones; note where its strided loops round differently.
            full = [np.ascontiguousarray(np.broadcast_to(a, outs[0].shape)) for a in ins]
            bcast, outs = outs, call_numpy(spec, full, params)
            rev = call_numpy(spec, [f[::-1, ::-1] for f in full], params)
            for o, g, r in zip(outs, bcast, rev):
                if not (same_values(o, g) and same_values(o, r[::-1, ::-1])):
                    NOTES.append(f"{spec.name} {sig}: NumPy's result depends on the layout")
            data.append(record(f"call {sig}", params, ins, outs))
        cases.append((names, [dname(o.dtype) for o in outs]))
    return b"".join(data), cases


# --- scalar forms ------------------------------------------------------------------

SCALAR_VALUES = {
    "bool": [True, False],
    "int": [3, -2, 0, 300, 2**40],
    "float": [2.5, -0.0, math.nan, math.inf, 1e10],
    "complex": [complex(1.0, 2.0), complex(-0.5, 0.0)],
}


def scalar_text(kind, v):
    if kind == "bool":
        return "1" if v else "0"
    if kind == "int":
        return str(v)
    if kind == "float":
        return float(v).hex()
    return f"{v.real.hex()} {v.imag.hex()}"


def numpy_or_error(f):
    """f()'s array, or the name of the exception NumPy raises."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return np.asarray(f())
    except OverflowError:
        return "OverflowError"
    except (TypeError, ValueError):
        return "TypeError"


def gen_scalars(spec):
    """x op scalar and scalar op x with Python scalars (NEP 50 weak); for the
    right side of an operator with an in-place form, also x op= scalar
    (NumPy's ufunc with out=x: the result cast back to x's dtype), as a
    second output."""
    data, cases = [], []
    f = getattr(np, spec.name)
    for n in NAMES:
        x = make_array(n, default_values(n)).reshape(1, -1)
        for kind, side in spec.scalars or []:
            vals = SCALAR_VALUES[kind]
            results = [numpy_or_error(lambda: f(x, v) if side == "right" else f(v, x))
                       for v in vals]
            if any(isinstance(r, str) and r == "TypeError" for r in results):
                continue  # no loop: the C++ side must not compile
            dtypes = {dname(r.dtype) for r in results if not isinstance(r, str)}
            if not dtypes:
                continue
            if len(dtypes) > 1:
                NOTES.append(f"{spec.name} {n} {kind}: dtype depends on the value")
            inplace = side == "right" and spec.inplace is not None
            inplace_results = []
            if inplace:
                for v in vals:
                    xc = x.copy()
                    r = numpy_or_error(lambda: f(xc, v, out=xc))
                    inplace_results.append(xc if not isinstance(r, str) else r)
                inplace = not any(isinstance(r, str) and r == "TypeError"
                                  for r in inplace_results)
            for i, (v, r) in enumerate(zip(vals, results)):
                outs, error = ([], r) if isinstance(r, str) else ([r], None)
                if inplace and not error:
                    ir = inplace_results[i]
                    if isinstance(ir, str):
                        NOTES.append(f"{spec.name} {n} {kind} {v}: only the in-place form raises")
                    else:
                        outs.append(ir)
                data.append(record(f"scalar {n} {kind} {side}", {"value": scalar_text(kind, v)},
                                   [x], outs, error))
            cases.append((n, kind, side, dtypes.pop(), inplace))
    return b"".join(data), cases


# --- astype ------------------------------------------------------------------------

def in_range_for(src, dst, values):
    """Source values whose cast to dst NumPy defines (floats to integers
    are platform-defined for NaN, infinities and values out of range,
    negative values to unsigned types included)."""
    if not (is_int(dst)) or src in INTS or src == "bool":
        return values
    info = np.iinfo(dst)
    keep = []
    for v in values:
        re_ = v[0] if isinstance(v, tuple) else v
        if math.isfinite(re_) and info.min <= math.trunc(re_) <= info.max:
            # the source dtype's rounding of v must stay in range as well
            keep.append(v)
    arr = make_array(src, keep)
    re_arr = arr.real if src in COMPLEX else arr
    f = re_arr.astype(np.float64)
    ok = np.isfinite(f) & (np.trunc(f) >= info.min) & (np.trunc(f) <= float(info.max))
    # 2**63 and 2**64 round up from int64/uint64's maxima: keep below
    ok &= np.trunc(f) < 2.0 ** (info.bits - (1 if info.min < 0 else 0))
    return [k for k, o in zip(keep, ok) if o]


def gen_astype():
    data, cases = [], []
    for s in NAMES:
        base = default_values(s, unary=True)
        for d in NAMES:
            vals = in_range_for(s, d, base)
            x = make_array(s, vals)
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                y = x.astype(dt(d))
            data.append(record(f"astype {s} {d}", {}, [x.reshape(1, -1)], [y.reshape(1, -1)]))
            cases.append((s, d))
    return b"".join(data), cases


# --- promotion -----------------------------------------------------------------------

WEAK = {"bool": True, "int": 1, "float": 1.0, "complex": 1j}
WEAK_CPP = {"bool": "weak_bool_v", "int": "weak_int_v", "float": "weak_float_v",
            "complex": "weak_complex_v"}


def try_dtype(f):
    """(compiles, dtype name): NumPy's result dtype, or none where it raises."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            r = f()
        return "true", dname(r if isinstance(r, np.dtype) else np.asarray(r).dtype)
    except TypeError:
        return "false", "none"


# One operator per kind of loop resolution (* | ^ >> resolve as + & & <<
# do; each check costs the compiler as much as a small function).
PROMOTION_OPS = [("+", "add"), ("-", "subtract"), ("/", "true_divide"), ("%", "remainder"),
                 ("&", "bitwise_and"), ("<<", "left_shift"), ("==", "equal"), ("<", "less")]


def gen_promotion():
    lines = [f"// Generated by tests/generate_ufunc_fixtures.py from numpy {np.__version__} and "
             f"ml_dtypes {ml_dtypes.__version__}; do not edit.",
             "// CUPP_PAIR(a, b, result_type ok, numpy.result_type(a, b))",
             "// CUPP_OP(op, a, b, dtype of the NumPy ufunc behind op on arrays a and b)",
             "// CUPP_OP_REJECTED(op, a, b): NumPy raises TypeError",
             "// CUPP_OP_NOT_COMPILED(op, a, b, dtype): NumPy evaluates it, cupp does not compile"
             " it",
             "// CUPP_OP_DELIBERATE(op, a, b, dtype): NumPy evaluates it, cupp rejects it on"
             " purpose (docs/numpy-differences.md)"]
    for a in NAMES:
        for b in NAMES:
            x, y = np.ones(2, dt(a)), np.ones(2, dt(b))
            rt = try_dtype(lambda: np.result_type(x, y))
            lines.append(f"CUPP_PAIR({CPP[a]}, {CPP[b]}, {rt[0]}, {rt[1]})")
            for sym, uname in PROMOTION_OPS:
                ok, r = try_dtype(lambda: getattr(np, uname)(x, y))
                if ok == "false":
                    lines.append(f"CUPP_OP_REJECTED({sym}, {CPP[a]}, {CPP[b]})")
                elif nc := not_compiled(uname, (a, b), operator=True):
                    kind = "DELIBERATE" if nc[1] else "NOT_COMPILED"
                    lines.append(f"CUPP_OP_{kind}({sym}, {CPP[a]}, {CPP[b]}, {r})")
                else:
                    lines.append(f"CUPP_OP({sym}, {CPP[a]}, {CPP[b]}, {r})")
    lines.append("// CUPP_WEAK(dtype, C++ scalar, weak kind, result_type ok, "
                 "numpy.result_type(x, scalar), x + s ok, its dtype, s + x ok, its dtype, "
                 "x == s ok, x < s ok)")
    for a in NAMES:
        x = np.ones(2, dt(a))
        for k, v in WEAK.items():
            rt = try_dtype(lambda: np.result_type(x, v))
            if a == "bfloat16" and k == "float":
                # numpy.result_type does not treat ml_dtypes' bfloat16 as a
                # float kind (float64); cupp::promote_t keeps bfloat16, as
                # NEP 50 does for NumPy's own float types (documented).
                rt = ("true", "bfloat16")
            right = try_dtype(lambda: np.add(x, v))
            left = try_dtype(lambda: np.add(v, x))
            eq = try_dtype(lambda: np.equal(x, v))[0]
            lt = try_dtype(lambda: np.less(x, v))[0]
            if lt == "true" and (nc := not_compiled("less", (a, k))):
                # NumPy compares, cupp does not compile it (on purpose or not)
                lt = "deliberate" if nc[1] else "known"
            if rt[1] != right[1]:
                NOTES.append(f"numpy.add({a} array, {k}) is {right[1]}, "
                             f"numpy.result_type says {rt[1]}")
            lines.append(f"CUPP_WEAK({CPP[a]}, {WEAK_CPP[k]}, cupp::weak_{k}, {rt[0]}, {rt[1]}, "
                         f"{right[0]}, {right[1]}, {left[0]}, {left[1]}, {eq}, {lt})")
    return "\n".join(lines) + "\n"


# --- the C++ case lists --------------------------------------------------------------

HEADER = ("// Generated by tests/generate_ufunc_fixtures.py from NumPy {np} and ml_dtypes {ml};"
          " do not edit.\n")


def default_call(name):
    return ("[](const ufunc_test::params&, const auto&... a) "
            f"{{ return cupp::{name}(a...); }}")


def cpp_types(names):
    return ", ".join(CPP[n] for n in names)


def case_name(*parts):
    return "__".join(p.replace(",", "_") for p in parts)


def emit_call_case(spec, names, outs, ops):
    sig = ",".join(names)
    with_out = "true" if spec.out else "false"
    body = [f"  ufunc_test::check_call<{with_out}, {cpp_types(names)}>(\"{spec.name}\", \"{spec.data}\","
            f" \"{sig}\", {spec.call or default_call(spec.name)});"]
    hom = len(set(names)) == 1
    if spec.op and spec.op in ops and hom:
        body.append(f"  ufunc_test::check_operator<{cpp_types(names)}>(\"{spec.name}\", "
                    f"\"{spec.data}\", \"{sig}\", \"{spec.op}\", "
                    f"[](const auto& a, const auto& b) {{ return a {spec.op} b; }});")
        if (spec.inplace and spec.inplace in ops and
                np.can_cast(dt(outs[0]), dt(names[0]), "same_kind")):
            body.append(f"  ufunc_test::check_inplace<{cpp_types(names)}>(\"{spec.name}\", "
                        f"\"{spec.data}\", \"{sig}\", \"{spec.inplace}\", "
                        f"[](const auto& a, const auto& b) {{ a {spec.inplace} b; }});")
    if spec.uop and ("u" + spec.uop) in ops:
        body.append(f"  ufunc_test::check_operator<{cpp_types(names)}>(\"{spec.name}\", "
                    f"\"{spec.data}\", \"{sig}\", \"unary {spec.uop}\", "
                    f"[](const auto& a) {{ return {spec.uop}a; }});")
    text = f"BOOST_AUTO_TEST_CASE({case_name(spec.name, sig)}) {{\n" + "\n".join(body) + "\n}\n"
    return text if on_device(spec.area, names) else host_only(text)


def emit_not_compiled(spec, names, outs, why, deliberate, name=None):
    sig = ",".join(names)
    check = "BOOST_TEST_MESSAGE" if deliberate else "BOOST_ERROR"
    return (f"BOOST_AUTO_TEST_CASE({name or case_name(spec.name, sig)}) {{\n"
            f"  {check}(\"cupp::{spec.name}({sig}) does not compile; NumPy gives "
            f"{','.join(outs)} ({why})\");\n}}\n")


SCALAR_CPP = {"bool": "bool", "int": "std::int64_t", "float": "double",
              "complex": "std::complex<double>"}


# What the device build leaves out to keep its compile time down (every
# case is a kernel of its own, about half a second of nvcc each); the host
# build runs all of it on the same data:
# - int16, int32, uint16 and uint32 inputs (int8, int64, uint8 and uint64
#   keep the narrowest and widest integer code on the device), and in the
#   math ufuncs every integer but int8 (an integer only picks the float loop,
#   at compile time, the same code on both sides);
# - casts between two integer (or bool) types, which are plain C++ casts;
# - the weak-scalar forms other than add's (every kind) and equal's and
#   less's with C++ integers (comparisons fold those into a device-side op);
#   other scalars are converted on the host before the kernel runs.
DEVICE_DTYPES = {"bool", "int8", "int64", "uint8", "uint64"} | set(FLOATS) | set(COMPLEX)
DEVICE_MATH_DTYPES = {"bool", "int8"} | set(FLOATS) | set(COMPLEX)


def on_device(area, names):
    allowed = DEVICE_MATH_DTYPES if area == "math" else DEVICE_DTYPES
    return set(names) <= allowed


def scalar_on_device(ufunc, dtype, kind):
    return dtype in DEVICE_DTYPES and (ufunc == "add" or
                                       (ufunc in ("equal", "less") and kind == "int"))


def astype_on_device(src, dst):
    inexact = set(FLOATS) | set(COMPLEX)
    return {src, dst} <= DEVICE_DTYPES and bool({src, dst} & inexact)


def host_only(text):
    return f"#ifndef CUPP_UFUNC_TEST_DEVICE\n{text}#endif\n"


def emit_scalar_case(spec, n, kind, side, out_dtype, inplace):
    expr = f"x {spec.op} s" if side == "right" else f"s {spec.op} x"
    body = [f"  ufunc_test::check_scalar<{CPP[n]}, {SCALAR_CPP[kind]}>(\"{spec.name}\", "
            f"\"{n} {kind} {side}\", [](const auto& x, const auto& s) {{ return {expr}; }});"]
    if inplace:
        body.append(f"  ufunc_test::check_scalar_inplace<{CPP[n]}, {SCALAR_CPP[kind]}>("
                    f"\"{spec.name}\", \"{n} {kind} {side}\", "
                    f"[](const auto& x, const auto& s) {{ x {spec.inplace} s; }});")
    text = (f"BOOST_AUTO_TEST_CASE({case_name(spec.name, n, kind, side)}) {{\n" +
            "\n".join(body) + "\n}\n")
    return text if scalar_on_device(spec.name, n, kind) else host_only(text)


# Each case list becomes a translation unit of its own (tests/ufunc.cmake),
# so the case lists are cut small enough for a many-core build to compile
# them side by side: the device build's cost is in its kernels, the host
# build's in every case.
SHARD_CASES, SHARD_DEVICE_CASES = 150, 75


def shards(cases):
    out, n, dev = [[]], 0, 0
    for c in cases:
        on_dev = not c.startswith("#ifndef CUPP_UFUNC_TEST_DEVICE")
        if out[-1] and (n + 1 > SHARD_CASES or dev + on_dev > SHARD_DEVICE_CASES):
            out.append([])
            n, dev = 0, 0
        out[-1].append(c)
        n, dev = n + 1, dev + on_dev
    return out


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    have, ops, headers = landed()
    header = HEADER.format(np=np.__version__, ml=ml_dtypes.__version__)
    incs = {}
    written = set()
    summary = []
    for spec in UFUNCS.values():
        data, cases = gen_calls(spec)
        if spec.data == spec.name:
            sdata, scases = gen_scalars(spec) if spec.scalars else (b"", [])
            (OUT / f"{spec.data}.bin").write_bytes(data + sdata)
            written.add(f"{spec.data}.bin")
        else:
            scases = []
        enabled = spec.name in have and spec.name not in DISABLED
        summary.append(f"{spec.name:14} {'on ' if enabled else 'off'} {len(cases)} signatures")
        if not enabled:
            continue
        inc = incs.setdefault(spec.area, [])
        for names, outs in cases:
            nc = not_compiled(spec.name, names)
            if nc:
                inc.append(emit_not_compiled(spec, names, outs, *nc))
            else:
                inc.append(emit_call_case(spec, names, outs, ops))
        if spec.op in ops:
            sc = incs.setdefault("scalar", [])
            for c in scases:
                n, kind, side, out_dtype, _ = c
                nc = not_compiled(spec.name, (n, kind))
                if nc:
                    sc.append(emit_not_compiled(spec, (n, kind, side), [out_dtype], *nc,
                                                name=case_name(spec.name, n, kind, side)))
                else:
                    sc.append(emit_scalar_case(spec, *c))
    adata, acases = gen_astype()
    (OUT / "astype.bin").write_bytes(adata)
    written.add("astype.bin")
    incs["astype"] = []
    for s, d in acases:
        text = (f"BOOST_AUTO_TEST_CASE({case_name('astype', s, d)}) {{\n"
                f"  ufunc_test::check_astype<{CPP[s]}, {CPP[d]}>(\"{s} {d}\");\n}}\n")
        incs["astype"].append(text if astype_on_device(s, d) else host_only(text))
    for area in ["arithmetic", "compare", "math", "rounding", "scalar", "astype"]:
        for i, shard in enumerate(shards(incs.get(area, []))):
            name = f"cases_{area}_{i}.inc"
            (OUT / name).write_text(header + "".join(shard))
            written.add(name)
    (OUT / "headers.inc").write_text(
        header + "".join(f"#include <cupp/ufunc/{h}>\n" for h in headers))
    (OUT / "promotion.inc").write_text(gen_promotion())
    for f in [*OUT.glob("*.bin"), *OUT.glob("cases_*.inc")]:
        if f.name not in written:
            f.unlink()
    total = sum(f.stat().st_size for f in OUT.iterdir())
    print("\n".join(summary))
    print(f"fixtures: {total / 1e6:.2f} MB; C++ cases: "
          + ", ".join(f"{k} {len(v)}" for k, v in incs.items()))
    for n in sorted(set(NOTES)):
        print("note:", n, file=sys.stderr)


if __name__ == "__main__":
    main()
