"""NumPy's median, percentile, quantile and their nan-variants on small
inputs, written as .npy files under tests/fixtures/sort/quantile/ for
tests/sort_quantile_test.cu.

Run with the project's environment: .venv/bin/python
tests/generate_sort_quantile_fixtures.py.

cases.txt lists one case a line:
  FUNC INPUT DTYPE AXIS KEEPDIMS METHOD Q WEIGHTS RESULT_DTYPE RESULT
    FUNC: median nanmedian quantile percentile nanquantile nanpercentile;
    INPUT: in_NAME.npy (bfloat16 inputs are float32 values that bfloat16
      holds exactly; their expected results are NumPy's on float32), or
      @long / @longnan / @longint: a 2^17-element row the test builds from
      the formula in long_row() (too large for a fixture);
    AXIS: none or a comma list; Q: - (median), s:VALUE or v:V1,V2,...;
    WEIGHTS: - or w_NAME.npy (float64); RESULT_DTYPE: NumPy's result
    dtype; RESULT: OFFSET:SHAPE, NumPy's values as float64 at OFFSET of
    results.npy with SHAPE (dims joined by x, "-" for 0-d), or
    "raise:TYPE" (NumPy raised; the test expects the same exception type).
"""

import os
import warnings

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "sort", "quantile")
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
           "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
FUNCS = {"median": np.median, "nanmedian": np.nanmedian, "quantile": np.quantile,
         "percentile": np.percentile, "nanquantile": np.nanquantile,
         "nanpercentile": np.nanpercentile}
LONG = 1 << 17

lines = []
results = []
result_size = [0]
saved_inputs = {}
counter = [0]


def save(name, array):
    array = np.asarray(array)
    np.save(os.path.join(OUT, name + ".npy"), array if array.ndim == 0 else np.ascontiguousarray(array))


def numpy_dtype(dtype):
    return np.float32 if dtype == "bfloat16" else np.dtype(dtype)


def input_name(a, dtype, tag):
    name = f"{dtype}_{tag}"
    if name not in saved_inputs:
        saved_inputs[name] = True
        save("in_" + name, np.asarray(a, dtype=numpy_dtype(dtype)))
    return name


def long_row(kind):
    # Reproduced exactly by the test: distinct-ish values with ties.
    i = np.arange(LONG, dtype=np.int64)
    v = (i * 7919) % 65521
    if kind == "@longint":
        return (v - 30000).astype(np.int32)
    x = (v.astype(np.float64) * 0.25 - 4000).astype(np.float32)
    if kind == "@longnan":
        x[i % 1000 == 7] = np.nan
    return x


def case(func, a, dtype, tag, axis=None, keepdims=False, method="linear", q=None, w=None,
         numpy_w=None):
    """One call; `a` holds values of `dtype` (float32 for bfloat16);
    numpy_w: the weights NumPy gets where it mishandles `w`."""
    a = np.asarray(a, dtype=numpy_dtype(dtype))
    name = tag if tag.startswith("@") else input_name(a, dtype, tag)
    kwargs = {"axis": axis, "keepdims": keepdims}
    if func not in ("median", "nanmedian"):
        kwargs["method"] = method
    if w is not None:
        kwargs["weights"] = w if numpy_w is None else numpy_w
    args = (a,) if q is None else (a, q)
    counter[0] += 1
    out = f"r{counter[0]}"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = np.asarray(FUNCS[func](*args, **kwargs))
        rdtype = r.dtype.name
        if func.startswith("nan") and func != "nanmedian" and np.ndim(q) == 1:
            # NumPy quirks cupp does not repeat (docs: differences): an empty
            # input gives nanmean's result (no q axis); an all-NaN input
            # keeps the float dtype. cupp: NaNs of shape (len(q), ...), float64.
            if a.size == 0:
                r = np.full((len(q),) + r.shape, np.nan)
            if method not in ("inverted_cdf", "closest_observation", "lower", "higher",
                              "nearest") and rdtype.startswith("float"):
                rdtype = "float64"
        results.append(r.astype(np.float64).ravel())
        result = f"{result_size[0]}:" + ("x".join(str(d) for d in r.shape) or "-")
        result_size[0] += r.size
    except Exception as e:  # noqa: BLE001 - the type is the expectation
        rdtype = "-"
        result = "raise:" + type(e).__name__
    if w is not None:
        save("w_" + out, np.asarray(w, dtype=np.float64))
    ax = "none" if axis is None else ",".join(str(v) for v in np.atleast_1d(axis))
    if q is None:
        qt = "-"
    elif np.ndim(q) == 0:
        qt = f"s:{float(q)!r}"
    else:
        qt = "v:" + ",".join(repr(float(v)) for v in q)
    wt = "-" if w is None else "w_" + out
    lines.append(f"{func} {name} {dtype} {ax} {int(keepdims)} {method} {qt} {wt} {rdtype} {result}")


def base(dtype, rng, shape=(3, 4, 5)):
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.startswith("u"):
        return rng.integers(0, 12, shape)
    if dtype.startswith("int"):
        return rng.integers(-6, 7, shape)
    return rng.integers(-24, 25, shape) * 0.25


def q_for(func, q):
    return q if "quantile" in func else (np.asarray(q) * 100 if np.ndim(q) else q * 100)


def method_cases(rng):
    qv = [0.0, 0.1, 0.25, 0.5, 0.73, 1.0]
    for dtype in DTYPES:
        a = base(dtype, rng)
        for method in METHODS:
            case("quantile", a, dtype, "base", axis=-1, method=method, q=qv)
            case("quantile", a, dtype, "base", axis=1, method=method, q=0.4)
        for func in ["percentile", "nanquantile", "nanpercentile"]:
            for method in ["linear", "lower", "hazen", "nearest", "midpoint", "inverted_cdf",
                           "weibull"]:
                case(func, a, dtype, "base", axis=2, method=method, q=q_for(func, [0.0, 0.37, 1.0]))
                case(func, a, dtype, "base", axis=0, method=method, q=q_for(func, 0.3))
        for axis in [None, 0, 1, -1, (0, 2), (-1, 0), (0, 1, 2)]:
            for keepdims in [False, True]:
                for func in ["median", "nanmedian"]:
                    case(func, a, dtype, "base", axis=axis, keepdims=keepdims)
                case("quantile", a, dtype, "base", axis=axis, keepdims=keepdims,
                     method="lower", q=[0.2, 0.8])
                case("nanpercentile", a, dtype, "base", axis=axis, keepdims=keepdims,
                     method="linear", q=35.0)
        # Equal rows: the test also reads this input as a broadcast view.
        row = base(dtype, rng, (1, 7))
        b = np.repeat(row, 3, axis=0)
        for func in ["median", "nanmedian"]:
            case(func, b, dtype, "bcast", axis=1)
            case(func, b, dtype, "bcast", axis=None)
        case("quantile", b, dtype, "bcast", axis=1, method="nearest", q=[0.1, 0.6])
        case("percentile", b, dtype, "bcast", axis=0, method="lower", q=[10.0, 90.0])


def special_cases():
    nan, inf = np.nan, np.inf
    rows = np.array([
        [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        [3.0, nan, 1.0, 2.0, 2.0, 0.5],
        [nan, nan, nan, nan, nan, nan],
        [nan, inf, -inf, 1.0, 2.0, nan],
        [-inf, -inf, 1.0, 2.0, 3.0, 4.0],
        [1.0, 2.0, 3.0, 4.0, inf, inf],
        [-0.0, 0.0, -0.0, 0.0, 0.0, -0.0],
        [2.5, 2.5, 2.5, 2.5, 2.5, 2.5],
        [-inf, inf, -inf, inf, 0.0, 1.0],
        [5.0, nan, nan, nan, nan, nan],
    ])
    qv = [0.0, 0.2, 0.5, 0.8, 1.0]
    for dtype in FLOATS:
        for func in FUNCS:
            methods = ["-"] if "median" in func else ["linear", "lower", "hazen", "midpoint",
                                                      "nearest", "inverted_cdf",
                                                      "averaged_inverted_cdf",
                                                      "interpolated_inverted_cdf"]
            for method in methods:
                q = None if method == "-" else q_for(func, qv)
                m = "linear" if method == "-" else method
                case(func, rows, dtype, "special", axis=1, method=m, q=q)
                case(func, rows, dtype, "special", axis=0, method=m, q=q)
                if q is not None:
                    case(func, rows, dtype, "special", axis=-1, method=m, q=q_for(func, 0.5))
        # Odd and even lengths, length 1 and 2, sorted, reverse sorted.
        for n in [1, 2, 3, 4, 7, 8]:
            v = np.arange(n, dtype=np.float64) * 0.5 - 1
            for func in ["median", "quantile", "nanpercentile"]:
                q = None if func == "median" else q_for(func, [0.0, 0.3, 0.5, 1.0])
                case(func, v, dtype, f"len{n}", method="linear", q=q)
                case(func, v[::-1], dtype, f"rlen{n}", method="hazen", q=q)
        # Empty and 0-d inputs.
        for func in FUNCS:
            q = None if "median" in func else q_for(func, [0.5, 1.0])
            case(func, np.zeros((3, 0)), dtype, "e30", axis=1, q=q)
            case(func, np.zeros((3, 0)), dtype, "e30", axis=0, q=q)
            case(func, np.zeros((0, 4)), dtype, "e04", axis=1, q=q)
            case(func, np.zeros(0), dtype, "e0", q=q)
            case(func, np.array(2.5), dtype, "zero_d", q=q)
            case(func, np.array(nan), dtype, "nan_d", q=q)
            if q is not None:
                case(func, np.array(2.5), dtype, "zero_d", q=q_for(func, 0.25))
    # Empty integer and bool inputs: NumPy's IndexError depends on the dtype
    # and method; the nan-variants return NaNs.
    for dtype in ["bool", "int16", "uint32"]:
        for func in FUNCS:
            for method in ["linear", "lower"]:
                q = None if "median" in func else q_for(func, 0.5)
                case(func, np.zeros((3, 0)), dtype, "e30", axis=1, method=method, q=q)
                case(func, np.zeros((0, 4)), dtype, "e04", axis=1, method=method, q=q)
    # Integers at their extremes (no float rounding but wrap-free arithmetic).
    for dtype, lo, hi in [("int64", -2**62, 2**62), ("uint64", 0, 2**63), ("int8", -128, 127),
                          ("uint8", 0, 255)]:
        v = np.array([lo, hi, lo, hi, 0], dtype=dtype)
        for method in ["linear", "lower", "midpoint", "hazen"]:
            case("quantile", v, dtype, "extreme", method=method, q=[0.0, 0.3, 0.5, 1.0])
        case("median", v[:4], dtype, "extreme4")
    # float16 sums that overflow unless widened (NumPy's mean in float32).
    case("median", np.array([60000.0, 60000.0, 65504.0, 65504.0]), "float16", "big")
    case("nanmedian", np.array([60000.0, nan, 65504.0, 60000.0, 65504.0]), "float16", "bignan")


def long_cases():
    qv = [0.0, 0.01, 0.5, 0.99, 1.0]
    a = long_row("@long")
    case("median", a, "float32", "@long")
    case("percentile", a, "float32", "@long", q=[1.0, 50.0, 99.0])
    for method in METHODS:
        case("quantile", a, "float32", "@long", method=method, q=qv)
    case("quantile", a, "float32", "@long", q=0.37)
    n = long_row("@longnan")
    for func in FUNCS:
        q = None if "median" in func else q_for(func, qv)
        case(func, n, "float32", "@longnan", q=q)
    case("nanquantile", n, "float32", "@longnan", method="hazen", q=0.6)
    i = long_row("@longint")
    case("median", i, "int32", "@longint")
    for method in ["linear", "lower", "nearest", "weibull"]:
        case("quantile", i, "int32", "@longint", method=method, q=qv)


def weighted_cases(rng):
    for dtype in ["uint8", "int32", "int64", "float16", "float32", "float64"]:
        a = base(dtype, rng, (4, 6))
        if dtype.startswith("float"):
            a = a.astype(np.float64)
            a[1, 2] = np.nan
        w = rng.integers(0, 4, (4, 6)).astype(np.float64)
        w[:, 0] += 1  # no all-zero rows
        w1 = np.array([0.5, 0.0, 2.0, 1.0, 0.25, 1.0])
        for func in ["quantile", "percentile", "nanquantile", "nanpercentile"]:
            qv = q_for(func, [0.0, 0.3, 0.5, 0.51, 1.0])
            case(func, a, dtype, "wbase", axis=1, method="inverted_cdf", q=qv, w=w)
            spread = np.broadcast_to(w1, a.shape) if "nan" in func else None
            case(func, a, dtype, "wbase", axis=-1, method="inverted_cdf", q=q_for(func, 0.5), w=w1,
                 numpy_w=spread)
            # NumPy's nan-variants index 1-d weights by row (an IndexError):
            # their expectation comes from the weights spread over `a`.
            spread = np.broadcast_to(w[:, 0][:, None], a.shape) if "nan" in func else None
            case(func, a, dtype, "wbase", axis=0, method="inverted_cdf", q=qv, w=w[:, 0],
                 numpy_w=spread)
            case(func, a, dtype, "wbase", axis=(0, 1), method="inverted_cdf", q=qv, w=w)
            case(func, a, dtype, "wbase", axis=None, method="inverted_cdf", q=q_for(func, 0.25),
                 w=w, keepdims=True)
        case("quantile", a, dtype, "wbase", axis=(1, 0), method="inverted_cdf", q=0.5,
             w=w.T)


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(".npy") or old.endswith(".txt"):
            os.remove(os.path.join(OUT, old))
    rng = np.random.default_rng(1717)
    method_cases(rng)
    special_cases()
    long_cases()
    weighted_cases(rng)
    save("results", np.concatenate(results))
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("# generated by tests/generate_sort_quantile_fixtures.py\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
