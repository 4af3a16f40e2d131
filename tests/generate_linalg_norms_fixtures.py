"""Writes the fixtures of tests/linalg_norms_test.cu: small input arrays as
.npy files and cases.txt, one NumPy call per line with its result or its
error. Run with .venv/bin/python from the repository root."""

import os

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "fixtures", "linalg", "norms")
L = np.linalg
DTYPES = ["float32", "float64", "complex64", "complex128", "int32"]


def values(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype == "int32":
        return rng.integers(-9, 10, n).astype(np.int32).reshape(shape)
    v = rng.integers(-8, 9, n) / 4.0
    if dtype.startswith("complex"):
        v = v + 1j * (rng.integers(-8, 9, n) / 4.0)
    return v.astype(dtype).reshape(shape)


inputs = {}


def input_file(shape, dtype, seed=0, kind="plain"):
    name = f"{kind}_{'x'.join(map(str, shape)) or 'scalar'}_{dtype}_{seed}.npy"
    if name not in inputs:
        if kind == "plain":
            a = values(shape, dtype, seed)
        elif kind == "singular":  # the last matrix of the stack singular
            a = values(shape, dtype, seed)
            a[..., -1, :] = a[..., 0, :]
            if a.ndim > 2:
                a[0] = values(shape[-2:], dtype, seed + 7) + 4 * np.eye(shape[-1], dtype=dtype)
        elif kind == "nan":
            a = values(shape, dtype, seed)
            a[..., 0, 0] = np.nan
        elif kind == "lowrank":  # rank 2
            b = values(shape[:-1] + (2,), dtype, seed)
            c = values(shape[:-2] + (2, shape[-1]), dtype, seed + 1)
            a = (b @ c).astype(dtype)
        inputs[name] = a
    return name


def fmt_array(r):
    r = np.asarray(r)
    vals = []
    for v in r.ravel():
        if np.iscomplexobj(r):
            vals += [repr(float(v.real)), repr(float(v.imag))]
        else:
            vals.append(repr(float(v)))
    return f"{r.dtype.name} shape={','.join(map(str, r.shape))} " + " ".join(vals)


def outcome(call):
    try:
        r = call()
    except Exception as e:  # noqa: BLE001 (every NumPy error is a case)
        kind = {"AxisError": "axis_error", "LinAlgError": "linalg_error"}.get(
            type(e).__name__, "value_error")
        return f"err {kind} {e}"
    if isinstance(r, tuple):
        return "ok " + " ; ".join(fmt_array(x) for x in r)
    return "ok " + fmt_array(r)


def ord_text(o):
    if o is None:
        return "none"
    if isinstance(o, str):
        return "s:" + o
    return repr(float(o))


def axis_text(a):
    if a is None:
        return "none"
    if isinstance(a, tuple):
        return ",".join(map(str, a)) if a else "empty"
    return str(a)


lines = []


def case(func, files, dtype, ord_, axis, keepdims, call):
    with np.errstate(all="ignore"):
        result = outcome(call)
    lines.append("\t".join([func, "+".join(files), dtype, ord_text(ord_), axis_text(axis),
                            str(int(keepdims)), result]))


def load(f):
    return inputs[f]


inf = np.inf
VECTOR_ORDS = [None, 2, inf, -inf, 0, 1, -1, 3, 0.5, -2, "fro", "nuc", "abc"]
MATRIX_ORDS = [None, "fro", "nuc", inf, -inf, 1, -1, 2, -2, 3, "abc"]
# Every order for float64 and complex64; a few for the other dtypes.
FEW_VECTOR_ORDS = [None, inf, -inf, 0, 3]
FEW_MATRIX_ORDS = [None, "nuc", -1, inf, -2]


def full(dt):
    return dt in ("float64", "complex64")

for dt in DTYPES:
    # Vectors: 1-d, 0-size, one axis of a matrix or a stack.
    for shape in [(7,), (0,), (1,)]:
        f = input_file(shape, dt)
        for o in VECTOR_ORDS if full(dt) else FEW_VECTOR_ORDS:
            for kd in (False, True):
                case("norm", [f], dt, o, None, kd, lambda: L.norm(load(f), o, None, kd))
                case("vector_norm", [f], dt, o, None, kd,
                     lambda: L.vector_norm(load(f), ord=o, keepdims=kd))
    for shape in [(3, 4), (2, 3, 4), (3, 0), (0, 4)]:
        f = input_file(shape, dt)
        for o in VECTOR_ORDS if full(dt) else FEW_VECTOR_ORDS:
            for ax in [0, -1, 1]:
                kd = ax == 1
                case("norm", [f], dt, o, ax, kd, lambda: L.norm(load(f), o, ax, kd))
    # Matrices: whole 2-d arrays, axis pairs of stacks, empty matrices.
    for shape in [(3, 4), (4, 4), (1, 1), (2, 3, 4), (0, 3), (3, 0), (0, 2, 2)]:
        f = input_file(shape, dt)
        nd = len(shape)
        pairs = [None, (0, 1), (1, 0), (-1, -2)] if nd == 2 else [(1, 2), (2, 0), (-1, -3)]
        for o in MATRIX_ORDS if full(dt) else FEW_MATRIX_ORDS:
            for ax in pairs:
                for kd in (False, True):
                    case("norm", [f], dt, o, ax, kd, lambda: L.norm(load(f), o, ax, kd))
            case("matrix_norm", [f], dt, o, None, False, lambda: L.matrix_norm(load(f), ord=o))
    f = input_file((2, 3, 4), dt)
    for ax in [(0, 2), (2, 0, 1), (-1,), (1, 1)]:
        for o in [None, inf, 1]:
            case("vector_norm", [f], dt, o, ax, True,
                 lambda: L.vector_norm(load(f), axis=ax, ord=o, keepdims=True))
            case("vector_norm", [f], dt, o, ax, False,
                 lambda: L.vector_norm(load(f), axis=ax, ord=o))

# Errors and edge cases of the argument handling.
f3 = input_file((2, 3, 4), "float64")
f2 = input_file((3, 4), "float64")
f1 = input_file((7,), "float64")
f0 = input_file((), "float64")
for o in [None, 2, 1, "fro"]:
    case("norm", [f3], "float64", o, None, False, lambda: L.norm(load(f3), o))
    case("norm", [f0], "float64", o, None, True, lambda: L.norm(load(f0), o, None, True))
    case("vector_norm", [f0], "float64", o, None, True,
         lambda: L.vector_norm(load(f0), ord=o, keepdims=True))
for ax in [(0, 0), (0, -2), (0, 1, 2), 5, (0, 5), -4]:
    case("norm", [f3], "float64", None, ax, False, lambda: L.norm(load(f3), None, ax))
case("matrix_norm", [f1], "float64", None, None, False, lambda: L.matrix_norm(load(f1)))
case("norm", [f1], "float64", "fro", None, False, lambda: L.norm(load(f1), "fro"))
case("norm", [f2], "float64", "nuc", 0, False, lambda: L.norm(load(f2), "nuc", 0))

# cond, matrix_rank, pinv (SVD) and cond with p (inv).
for dt in DTYPES:
    for shape in [(3, 3), (2, 4, 4), (1, 1), (3, 5), (5, 3), (0, 3, 3)]:
        f = input_file(shape, dt, 1)
        for p in [None, 2, -2, 1, -1, inf, -inf, "fro", "nuc"]:
            case("cond", [f], dt, p, None, False, lambda: L.cond(load(f), p))
        case("matrix_rank", [f], dt, None, None, False, lambda: L.matrix_rank(load(f)))
        case("pinv", [f], dt, None, None, False, lambda: L.pinv(load(f)))
    for shape in [(3, 3), (2, 4, 4)]:
        f = input_file(shape, dt, 2, "singular")
        # (The SVD's ratio of a singular matrix is rounding, not a result.)
        for p in [1, inf, "fro"]:
            case("cond", [f], dt, p, None, False, lambda: L.cond(load(f), p))
    f = input_file((2, 5, 4), dt, 3, "lowrank")
    case("matrix_rank", [f], dt, None, None, False, lambda: L.matrix_rank(load(f)))
    # rcond=1e-15 keeps a rank-deficient matrix's rounding-level singular
    # values; rtol=None (max(M, N) * eps) drops them.
    # (NumPy has no eps for integers; cupp takes float64's, as it computes.)
    case("pinv_rtol", [f], dt, None, None, False,
         lambda: L.pinv(load(f).astype(np.float64 if dt == "int32" else dt), rtol=None))
    for shape in [(0, 3), (3, 0), (7,), ()]:
        f = input_file(shape, dt, 4)
        case("matrix_rank", [f], dt, None, None, False, lambda: L.matrix_rank(load(f)))
        # cupp computes integers in float64 even when empty (NumPy keeps int).
        case("pinv", [f], dt, None, None, False,
             lambda: L.pinv(load(f)).astype(np.float64 if dt == "int32" else dt))
    f = input_file((0, 7), dt, 4)
    case("matrix_rank", [f], dt, None, None, False, lambda: L.matrix_rank(np.zeros(0, dt)))
for shape in [(0, 0), (3,), (2, 3)]:
    f = input_file(shape, "float64", 5)
    for p in [None, 1]:
        case("cond", [f], "float64", p, None, False, lambda: L.cond(load(f), p))
f = input_file((3, 3), "float64", 6, "nan")
for p in [None, 1]:
    case("cond", [f], "float64", p, None, False, lambda: L.cond(load(f), p))

# lstsq: over-, under- and exactly determined, rank deficient, 1-d and 2-d
# b, empty operands; the dtypes of both operands.
for dt in DTYPES:
    for (m, n, k) in [(5, 3, None), (5, 3, 2), (3, 5, 2), (4, 4, None), (5, 3, 0), (0, 3, None),
                      (3, 0, 2)]:
        fa = input_file((m, n), dt, 7)
        fb = input_file((m,) if k is None else (m, k), dt, 8)
        case("lstsq", [fa, fb], dt, None, None, False, lambda: L.lstsq(load(fa), load(fb)))
    fa = input_file((6, 4), dt, 9, "lowrank")
    fb = input_file((6, 2), dt, 10)
    case("lstsq", [fa, fb], dt, None, None, False, lambda: L.lstsq(load(fa), load(fb)))
fa, fb = input_file((5, 3), "float64", 7), input_file((4,), "float64", 8)
case("lstsq", [fa, fb], "float64", None, None, False, lambda: L.lstsq(load(fa), load(fb)))
fa3 = input_file((2, 3, 4), "float64", 7)
case("lstsq", [fa3, fb], "float64", None, None, False, lambda: L.lstsq(load(fa3), load(fb)))

# tensorsolve and tensorinv.
for dt in DTYPES:
    fa, fb = input_file((2, 3, 6), dt, 11), input_file((2, 3), dt, 12)
    case("tensorsolve", [fa, fb], dt, None, None, False, lambda: L.tensorsolve(load(fa), load(fb)))
    fa2 = input_file((6, 2, 3), dt, 11)
    case("tensorsolve", [fa2, fb], dt, None, (0,), False,
         lambda: L.tensorsolve(load(fa2), load(fb), axes=(0,)))
    fi = input_file((4, 6, 8, 3), dt, 13)
    for ind in [2, 1]:
        case("tensorinv", [fi], dt, ind, None, False, lambda: L.tensorinv(load(fi), ind))
fa, fb = input_file((2, 3, 5), "float64", 11), input_file((2, 3), "float64", 12)
case("tensorsolve", [fa, fb], "float64", None, None, False, lambda: L.tensorsolve(load(fa), load(fb)))
fa = input_file((6, 6), "float64", 11)
fb = input_file((6,), "float64", 12)
case("tensorsolve", [fa, fb], "float64", None, (-1,), False,
     lambda: L.tensorsolve(load(fa), load(fb), axes=(-1,)))
for ind in [0, 1]:
    fi = input_file((3, 0), "float64", 13)
    case("tensorinv", [fi], "float64", ind, None, False, lambda: L.tensorinv(load(fi), ind))
fi = input_file((2, 3, 6), "float64", 13)
case("tensorinv", [fi], "float64", 1, None, False, lambda: L.tensorinv(load(fi), 1))

os.makedirs(OUT, exist_ok=True)
for old in os.listdir(OUT):
    os.remove(os.path.join(OUT, old))
for name, a in inputs.items():
    np.save(os.path.join(OUT, name), a)
with open(os.path.join(OUT, "cases.txt"), "w") as out:
    out.write("# func\tinputs\tdtype\tord\taxis\tkeepdims\tresult (written by "
              "tests/generate_linalg_norms_fixtures.py with NumPy " + np.__version__ + ")\n")
    out.write("\n".join(lines) + "\n")
