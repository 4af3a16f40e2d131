"""Writes the fixtures of tests/linalg_correlation_test.cu: small input
arrays as .npy files and cases.txt, one NumPy call of cov, corrcoef,
correlate or convolve per line with its result or its error. Run with
.venv/bin/python from the repository root.

A line: func, dtype, inputs (m/a, y/v, fweights, aweights; "-" for none),
options (key=value;...), expected ("ok DTYPE shape=a,b v v ..." or
"err KIND message"), tab-separated."""

import os
import warnings

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "fixtures", "linalg", "correlation")
COV_DTYPES = ["int32", "int64", "float16", "float32", "float64", "complex64", "complex128"]
CORRELATE_DTYPES = COV_DTYPES + ["bool"]

inputs = {}
lines = []


def values(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype == "bool":
        return (rng.integers(0, 3, n) > 0).reshape(shape)
    v = rng.integers(-6, 7, n)
    if dtype.startswith("int"):
        return v.astype(dtype).reshape(shape)
    v = v / 2.0
    if dtype.startswith("complex"):
        v = v + 1j * (rng.integers(-6, 7, n) / 2.0)
    return v.astype(dtype).reshape(shape)


def add_input(a, name):
    a = np.asarray(a)
    name = f"{name}_{'x'.join(map(str, a.shape)) or 'scalar'}_{a.dtype.name}.npy"
    inputs[name] = a
    return name


def plain(shape, dtype, seed=0):
    return add_input(values(shape, dtype, seed), f"plain{seed}")


def fmt_array(r):
    r = np.asarray(r)
    vals = []
    for v in r.ravel():
        if np.iscomplexobj(r):
            vals += [repr(float(v.real)), repr(float(v.imag))]
        else:
            vals.append(repr(float(v)))
    return f"{r.dtype.name} shape={','.join(map(str, r.shape))} " + " ".join(vals)


KINDS = {
    ValueError: "value_error",
    TypeError: "type_error",
    RuntimeError: "runtime_error",
    ZeroDivisionError: "zero_division_error",
}


def outcome(call):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok " + fmt_array(call())
    except Exception as e:  # noqa: BLE001 - the type is recorded
        return f"err {KINDS[type(e)]} {e}"


def load(name):
    return None if name == "-" else inputs[name]


def case(func, dtype, names, opts=None):
    opts = dict(opts or {})
    names = list(names) + ["-"] * (4 - len(names))
    m, y, fw, aw = (load(n) for n in names)
    if func == "cov":
        kw = {k: v for k, v in opts.items() if k in ("rowvar", "bias", "ddof")}
        if "dtype" in opts:
            kw["dtype"] = opts["dtype"]
        expect = outcome(lambda: np.cov(m, y, fweights=fw, aweights=aw, **kw))
    elif func == "corrcoef":
        expect = outcome(lambda: np.corrcoef(m, y, rowvar=opts.get("rowvar", True)))
    elif func == "correlate":
        expect = outcome(lambda: np.correlate(m, y, opts.get("mode", "valid")))
    else:
        expect = outcome(lambda: np.convolve(m, y, opts.get("mode", "full")))
    text = ";".join(f"{k}={int(v) if isinstance(v, bool) else v}" for k, v in opts.items())
    lines.append("\t".join([func, dtype, "+".join(names), text or "-", expect]))


def cov_cases():
    for dt in COV_DTYPES:
        m = plain((3, 6), dt)
        case("cov", dt, [m])
        case("cov", dt, [plain((6, 3), dt, 1)], {"rowvar": False})
        case("cov", dt, [m], {"bias": True})
        case("cov", dt, [m], {"ddof": 0})
        case("cov", dt, [m], {"ddof": 2, "bias": True})
        case("cov", dt, [plain((2, 6), dt, 2), plain((2, 6), dt, 3)])
        case("cov", dt, [plain((6, 2), dt, 4), plain((6,), dt, 5)], {"rowvar": False})
        case("cov", dt, [plain((6,), dt, 5)])  # one variable: a 0-d result
        case("cov", dt, [plain((1, 6), dt, 6)], {"rowvar": False})  # six variables
        case("corrcoef", dt, [m])
        case("corrcoef", dt, [plain((6, 3), dt, 1)], {"rowvar": False})
        case("corrcoef", dt, [plain((2, 6), dt, 2), plain((2, 6), dt, 3)])
        case("corrcoef", dt, [plain((6,), dt, 5)])
    fw = add_input(np.array([1, 2, 0, 3, 1, 1], np.int64), "fw")
    aw = add_input(np.array([0.5, 1.0, 2.0, 0.25, 1.5, 1.0]), "aw")
    for dt in ["float64", "complex128"]:
        m = plain((3, 6), dt)
        for ddof in [None, 0, 2]:
            opts = {} if ddof is None else {"ddof": ddof}
            case("cov", dt, [m, "-", fw, "-"], opts)
            case("cov", dt, [m, "-", "-", aw], opts)
            case("cov", dt, [m, "-", fw, aw], opts)
        case("cov", dt, [plain((6, 3), dt, 1), "-", fw, aw], {"rowvar": False, "bias": True})
        # N - ddof <= 0: inf and nan. Rows of mean 0 and small values, so
        # that the diagonal's imaginary parts are exactly 0 (nan after
        # NumPy's multiplication by inf), not rounding noise of either sign.
        centred = values((3, 6), dt, 20)
        centred[:, -1] = -centred[:, :-1].sum(axis=1)
        centred = add_input(centred, "centred")
        case("cov", dt, [centred], {"ddof": 6})
        case("cov", dt, [centred], {"ddof": 9})
    f = "float64"
    case("cov", f, [plain((3, 6), f)], {"dtype": "float32"})
    case("cov", f, [add_input(np.array(2.5), "scalar")])  # 0-d m
    case("cov", f, [add_input(np.zeros((0, 3)), "empty")])
    case("cov", f, [add_input(np.zeros((2, 0)), "nosamples")])
    const = np.array([[1.0, 2, 3, 4], [2, 2, 2, 2], [4, 1, 0, 1]])
    case("corrcoef", f, [add_input(const, "constant")])  # a zero variance: nan
    m = plain((3, 6), f)
    # Errors, with NumPy's messages.
    case("cov", f, [plain((2, 2, 3), f)])
    case("cov", f, [m, plain((2, 2, 6), f)])
    case("cov", f, [m, plain((2, 5), f)])
    case("cov", f, [m, "-", add_input(np.array([1, 2, 0.5, 1, 1, 1]), "fwfrac")])
    case("cov", f, [m, "-", add_input(np.ones((2, 6), np.int64), "fw2d")])
    case("cov", f, [m, "-", add_input(np.ones(5, np.int64), "fw5")])
    case("cov", f, [m, "-", add_input(np.array([1, -1, 1, 1, 1, 1]), "fwneg")])
    case("cov", f, [m, "-", "-", add_input(np.array([1, -1.0, 1, 1, 1, 1]), "awneg")])
    case("cov", f, [m, "-", "-", add_input(np.ones((2, 6)), "aw2d")])
    case("cov", f, [m, "-", "-", add_input(np.ones(7), "aw7")])
    case("cov", f, [m, "-", "-", add_input(np.zeros(6), "awzero")])


def correlate_cases():
    for dt in CORRELATE_DTYPES:
        long_, short, even = plain((7,), dt, 10), plain((3,), dt, 11), plain((4,), dt, 12)
        for func in ["correlate", "convolve"]:
            for mode in ["full", "same", "valid"]:
                for a, v in [(long_, short), (short, long_), (long_, even), (even, long_)]:
                    case(func, dt, [a, v], {"mode": mode})
            case(func, dt, [long_, short])  # the default mode
            one = plain((1,), dt, 13)
            case(func, dt, [one, long_], {"mode": "same"})
            case(func, dt, [add_input(values((), dt, 14), "scalar"), long_], {"mode": "full"})
    f = "float64"
    a, e = plain((5,), f, 15), add_input(np.zeros(0), "empty")
    for func in ["correlate", "convolve"]:
        case(func, f, [e, a])
        case(func, f, [a, e])
        case(func, f, [e, e])
        case(func, f, [a, a], {"mode": "bad"})
        case(func, f, [a, a], {"mode": "f"})
        case(func, f, [a, a], {"mode": "Full"})
        case(func, f, [plain((2, 3), f), a])
        case(func, f, [a, plain((2, 3), f)])


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        os.remove(os.path.join(OUT, old))
    cov_cases()
    correlate_cases()
    for name, a in inputs.items():
        np.save(os.path.join(OUT, name), a)
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
