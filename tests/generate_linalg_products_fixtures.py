"""NumPy's products (inner, tensordot, kron, trace, cross, linalg.vecdot,
linalg.cross, linalg.trace, linalg.multi_dot, linalg.matrix_power) for
tests/linalg_products_test.cu.

Writes tests/fixtures/linalg/products/: cases.txt, one line per case and
dtype:
    function case dtype params out_shape operand_shape...
(shapes as 2x3, "0d" for 0-d; params "-" or the function's integers,
tensordot's axes as an int or "1.2/1.0"), <case>-<dtype>.npy with the
operands flattened and concatenated (C order) in the dtype, and
<case>-<dtype>-out.npy with NumPy's result. Values are small integers so
that every dtype holds them exactly; bfloat16 (not a NumPy dtype) reuses
float32's files. Operands of cases named *_bc repeat along axis 0 so that
the test can also pass them as broadcast views.

Run: .venv/bin/python tests/generate_linalg_products_fixtures.py
"""
import os
import warnings

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "fixtures", "linalg", "products")
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]


def values(shape, dtype, seed, lo=-3, hi=3, repeat=False):
    rng = np.random.default_rng(seed)
    x = rng.integers(lo, hi + 1, size=shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.integers(lo, hi + 1, size=shape)
    if np.dtype(dtype).kind == "u":
        x = np.abs(x)
    x = x.astype(dtype)
    if repeat and x.ndim >= 1 and x.shape[0] > 0:
        x = np.ascontiguousarray(np.broadcast_to(x[:1], x.shape))
    return x


def shape_text(s):
    return "x".join(str(e) for e in s) if len(s) else "0d"


lines = []


def case(func, name, shapes, call, params="-", dtypes=DTYPES, lo=-3, hi=3, prep=None):
    for dt in dtypes:
        ops = [values(s, dt, seed=i + 7 * len(name), lo=lo, hi=hi, repeat=name.endswith("_bc"))
               for i, s in enumerate(shapes)]
        if prep:
            ops = [prep(o) for o in ops]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = np.asarray(call(*ops))
        flat = np.concatenate([o.ravel() for o in ops]) if ops else np.zeros(0, dt)
        np.save(os.path.join(OUT, f"{name}-{dt}.npy"), flat.astype(dt))
        np.save(os.path.join(OUT, f"{name}-{dt}-out.npy"), out)
        lines.append(" ".join([func, name, dt, params, shape_text(out.shape)] +
                              [shape_text(s) for s in shapes]))


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    small = ["int32", "float64", "complex128"]

    case("inner", "inner_2d", [(2, 3), (4, 3)], np.inner)
    case("inner", "inner_1d_3d", [(3,), (2, 2, 3)], np.inner)
    case("inner", "inner_bc", [(4, 3), (2, 3)], np.inner)
    case("inner", "inner_vec", [(5,), (5,)], np.inner, dtypes=small)
    case("inner", "inner_0d", [(), (2, 3)], np.inner, dtypes=small)
    case("inner", "inner_empty", [(0, 3), (2, 3)], np.inner, dtypes=small)
    case("inner", "inner_k0", [(2, 0), (3, 0)], np.inner, dtypes=small)

    case("tensordot", "td_2", [(3, 4, 5), (4, 5, 2)], lambda a, b: np.tensordot(a, b), "2")
    case("tensordot", "td_lists", [(3, 4, 5), (5, 4, 2)],
         lambda a, b: np.tensordot(a, b, axes=([1, 2], [1, 0])), "1.2/1.0")
    case("tensordot", "td_neg", [(2, 3, 4), (4, 3)],
         lambda a, b: np.tensordot(a, b, axes=([-1, 1], [0, -1])), "-1.1/0.-1")
    case("tensordot", "td_0", [(2, 3), (3,)], lambda a, b: np.tensordot(a, b, 0), "0",
         dtypes=small)
    case("tensordot", "td_1_bc", [(4, 3), (3, 2)], lambda a, b: np.tensordot(a, b, 1), "1")
    case("tensordot", "td_0d", [(), (2, 3)], lambda a, b: np.tensordot(a, b, 0), "0",
         dtypes=small)
    case("tensordot", "td_empty", [(0, 3), (3, 2)], lambda a, b: np.tensordot(a, b, 1), "1",
         dtypes=small)

    case("kron", "kron_2d", [(2, 3), (2, 2)], np.kron)
    case("kron", "kron_1d_2d", [(3,), (2, 2)], np.kron)
    case("kron", "kron_3d_1d_bc", [(2, 2, 2), (3,)], np.kron, dtypes=small)
    case("kron", "kron_0d", [(), (2, 3)], np.kron, dtypes=small)
    case("kron", "kron_b0d", [(2, 2), ()], np.kron, dtypes=small)
    case("kron", "kron_empty", [(0, 2), (2, 3)], np.kron, dtypes=small)

    case("trace", "trace_2d", [(3, 4)], np.trace, "0.0.1")
    case("trace", "trace_off", [(3, 4)], lambda a: np.trace(a, 1), "1.0.1")
    case("trace", "trace_3d_bc", [(2, 3, 4)], lambda a: np.trace(a, -1, 2, 1), "-1.2.1")
    case("trace", "trace_far", [(3, 3)], lambda a: np.trace(a, 5), "5.0.1", dtypes=small)
    case("linalg.trace", "ltrace", [(2, 3, 3)], np.linalg.trace, "0")
    case("linalg.trace", "ltrace_off", [(2, 3, 4)], lambda a: np.linalg.trace(a, offset=1),
         "1", dtypes=small)

    case("linalg.vecdot", "vecdot_2d", [(2, 3), (2, 3)], np.linalg.vecdot, "-1")
    case("linalg.vecdot", "vecdot_bc", [(2, 4), (4,)], np.linalg.vecdot, "-1")
    case("linalg.vecdot", "vecdot_axis0", [(3, 2), (3, 1)],
         lambda a, b: np.linalg.vecdot(a, b, axis=0), "0")
    case("linalg.vecdot", "vecdot_1d", [(4,), (4,)], np.linalg.vecdot, "-1", dtypes=small)
    case("linalg.vecdot", "vecdot_empty", [(0, 3), (1, 3)], np.linalg.vecdot, "-1",
         dtypes=small)
    case("linalg.vecdot", "vecdot_n0", [(2, 0), (2, 0)], np.linalg.vecdot, "-1",
         dtypes=small)

    nobool = [d for d in DTYPES if d != "bool"]
    case("linalg.cross", "lcross_1d", [(3,), (3,)], np.linalg.cross, "-1", dtypes=nobool)
    case("linalg.cross", "lcross_bc", [(2, 3), (3,)], np.linalg.cross, "-1", dtypes=nobool)
    case("linalg.cross", "lcross_axis0", [(3, 2), (3, 2)],
         lambda a, b: np.linalg.cross(a, b, axis=0), "0", dtypes=nobool)
    case("cross", "cross_22", [(4, 2), (2,)], np.cross, "-1.-1.-1", dtypes=nobool)
    case("cross", "cross_23", [(2,), (2, 3)], np.cross, "-1.-1.-1", dtypes=small)
    case("cross", "cross_32_axes", [(3, 2), (2, 2)],
         lambda a, b: np.cross(a, b, axisa=0, axisb=1, axisc=0), "0.1.0", dtypes=small)

    case("linalg.multi_dot", "md_3", [(2, 3), (3, 4), (4, 2)],
         lambda *m: np.linalg.multi_dot(m))
    case("linalg.multi_dot", "md_3_right", [(4, 3), (3, 2), (2, 1)],
         lambda *m: np.linalg.multi_dot(m), dtypes=small)
    case("linalg.multi_dot", "md_4", [(5, 2), (2, 6), (6, 3), (3, 4)],
         lambda *m: np.linalg.multi_dot(m))
    case("linalg.multi_dot", "md_vec_vec", [(3,), (3, 4), (4, 2), (2,)],
         lambda *m: np.linalg.multi_dot(m), dtypes=small)
    case("linalg.multi_dot", "md_vec", [(3,), (3, 4), (4, 5), (5, 2)],
         lambda *m: np.linalg.multi_dot(m), dtypes=small)
    case("linalg.multi_dot", "md_2", [(2, 3, 4), (4, 2)],
         lambda *m: np.linalg.multi_dot(m), dtypes=small)
    case("linalg.multi_dot", "md_empty", [(2, 0), (0, 3), (3, 2)],
         lambda *m: np.linalg.multi_dot(m), dtypes=small)

    for n in [0, 1, 2, 3, 5]:
        case("linalg.matrix_power", f"mp_{n}", [(3, 3)],
             lambda a, n=n: np.linalg.matrix_power(a, n), str(n), lo=-1, hi=1)
    case("linalg.matrix_power", "mp_stack_bc", [(2, 3, 3)],
         lambda a: np.linalg.matrix_power(a, 4), "4", dtypes=small, lo=-1, hi=1)
    case("linalg.matrix_power", "mp_empty", [(0, 2, 2)],
         lambda a: np.linalg.matrix_power(a, 2), "2", dtypes=small)
    case("linalg.matrix_power", "mp_0x0", [(0, 0)],
         lambda a: np.linalg.matrix_power(a, 0), "0", dtypes=small)
    # Negative powers: the inverse's powers (float and complex only in cupp).
    inv_types = ["float32", "float64", "complex64", "complex128"]
    for n in [-1, -3]:
        case("linalg.matrix_power", f"mp_neg{-n}", [(3, 3)],
             lambda a, n=n: np.linalg.matrix_power(a, n), str(n), dtypes=inv_types,
             prep=lambda a: a + 4 * np.eye(3, dtype=a.dtype))

    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("# function case dtype params out_shape operand_shapes... "
                "(generate_linalg_products_fixtures.py)\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
