#!/usr/bin/env python3
"""Writes tests/fixtures/generators/ with NumPy's (and ml_dtypes') results.

cases.txt   one generator call per line:
                NAME FUNC DTYPE SIG ARG...
            DTYPE is a NumPy dtype name, or "-" for the default (dtype=None);
            SIG gives the C++ type of each scalar argument: i (int64), f
            (double), c (complex128), h (float16, a strong scalar), b (bool).
            The arguments follow in the order of the C++ call (see each
            function below); floats are written with float.hex, complex
            numbers as RE:IM. A line ending in "! ERROR|MESSAGE" expects that
            Python exception (ValueError, TypeError, OverflowError,
            ZeroDivisionError) and message; otherwise results.npys holds the
            result, followed by the step for a linspace. Lines "NAME expr - -"
            stand for the values of the expressions and meshgrids written out
            in tests/generators_test.cu.
results.npys  np.save of every result, one after another in the order of
            cases.txt (cupp::host::load reads such a stream in turn).

Run from anywhere: python3 tests/generate_generator_fixtures.py
"""
import math
import pathlib
import shutil
import warnings

import ml_dtypes
import numpy as np

OUT = pathlib.Path(__file__).parent / "fixtures" / "generators"
BF16 = np.dtype(ml_dtypes.bfloat16)
ALL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
       "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
REAL = [d for d in ALL if not d.startswith("complex")]
COMPLEX = ["complex64", "complex128"]

lines = []
arrays = []  # every result, in the order of lines


def np_dtype(name):
    return None if name == "-" else (BF16 if name == "bfloat16" else np.dtype(name))


def py_value(kind, v):
    if kind == "i":
        return int(v)
    if kind == "b":
        return bool(v)
    if kind == "f":
        return float(v)
    if kind == "c":
        return complex(v)
    if kind == "h":
        return np.float16(v)
    raise ValueError(kind)


def token(kind, v):
    if kind in "ib":
        return str(int(v))
    if kind in "fh":
        return float(v).hex()
    c = complex(v)
    return c.real.hex() + ":" + c.imag.hex()


def record(name, func, dtype, sig, tokens, call, step_of=None):
    head = f"{name} {func} {dtype} {sig or '-'} " + " ".join(tokens)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with np.errstate(all="warn"):
                result = call()
    except (ValueError, TypeError, OverflowError, ZeroDivisionError) as e:
        lines.append(f"{head} ! {type(e).__name__}|{e}")
        return
    # NumPy's casts of NaN, infinities and out-of-range floats to uint32 and
    # uint64 differ between its SIMD loops (arrays of several elements) and
    # its scalar casts (one element, full's fill value), so such a case has
    # no single answer; detail/cupp/detail/convert.hpp follows the loops.
    if dtype in ("uint32", "uint64") and any(
            "invalid value encountered in cast" in str(w.message) for w in caught):
        return
    if step_of is not None:
        result, step = result
        arrays.append(result)
        arrays.append(np.asarray(step, dtype=step_of(result)))
    else:
        arrays.append(result)
    lines.append(head)


def arange(name, dtype, sig, *args):
    vals = [py_value(k, a) for k, a in zip(sig, args)]
    record(name, "arange", dtype, sig, [token(k, a) for k, a in zip(sig, args)],
           lambda: np.arange(*vals, dtype=np_dtype(dtype)))


def linspace(name, dtype, sig, a, b, num, endpoint=True):
    s, e = py_value(sig[0], a), py_value(sig[1], b)

    def call():
        y, step = np.linspace(s, e, num, endpoint=endpoint, retstep=True, dtype=np_dtype(dtype))
        return y, step

    # The step has the dtype the samples are computed in.
    def step_dtype(_):
        return np.result_type(s, e, 1.0) if not any(k == "h" for k in sig) else np.result_type(s, e)

    record(name, "linspace", dtype, sig,
           [token(sig[0], a), token(sig[1], b), str(num), str(int(endpoint))], call,
           step_of=step_dtype)


def logspace(name, dtype, sig, a, b, num, endpoint, base):
    s, e, bs = py_value(sig[0], a), py_value(sig[1], b), py_value(sig[2], base)
    record(name, "logspace", dtype, sig,
           [token(sig[0], a), token(sig[1], b), str(num), str(int(endpoint)), token(sig[2], base)],
           lambda: np.logspace(s, e, num, endpoint=endpoint, base=bs, dtype=np_dtype(dtype)))


def geomspace(name, dtype, sig, a, b, num, endpoint=True):
    s, e = py_value(sig[0], a), py_value(sig[1], b)
    record(name, "geomspace", dtype, sig,
           [token(sig[0], a), token(sig[1], b), str(num), str(int(endpoint))],
           lambda: np.geomspace(s, e, num, endpoint=endpoint, dtype=np_dtype(dtype)))


def eye(name, dtype, n, m=None, k=0, order="C"):
    record(name, "eye", dtype, "", [str(n), "none" if m is None else str(m), str(k), order],
           lambda: np.eye(n, m, k, dtype=np_dtype(dtype) or float, order=order))


def tri(name, dtype, n, m=None, k=0):
    record(name, "tri", dtype, "", [str(n), "none" if m is None else str(m), str(k)],
           lambda: np.tri(n, m, k, dtype=np_dtype(dtype) or float))


def identity(name, dtype, n):
    record(name, "identity", dtype, "", [str(n)],
           lambda: np.identity(n, dtype=np_dtype(dtype) or float))


def indices(name, dtype, dims):
    record(name, "indices", dtype, "", [str(len(dims))] + [str(d) for d in dims],
           lambda: np.indices(dims, dtype=np_dtype(dtype) or int))


def full(name, dtype, sig, shape, value, order="C"):
    v = py_value(sig, value)
    record(name, "full", dtype, sig,
           [str(len(shape))] + [str(d) for d in shape] + [token(sig, value), order],
           lambda: np.full(shape, v, dtype=np_dtype(dtype), order=order))


def zeros_ones(func, name, dtype, shape, order="C"):
    f = np.zeros if func == "zeros" else np.ones
    record(name, func, dtype, "", [str(len(shape))] + [str(d) for d in shape] + [order],
           lambda: f(shape, dtype=np_dtype(dtype) or float, order=order))


def generator_cases():
    # arange: default dtypes from the arguments.
    for i, args in enumerate([(10,), (0,), (-3,), (1,)]):
        arange(f"arange_i_{i}", "-", "i", *args)
    for i, args in enumerate([(3, 10), (10, 3), (-5, 5), (7, 8)]):
        arange(f"arange_ii_{i}", "-", "ii", *args)
    for i, args in enumerate([(0, 10, 3), (10, 0, -3), (0, 10, -1), (-7, 8, 4), (5, 5, 1),
                              (0, 5, 0), (5, 5, 0), (-2**62, 2**62, 2**61),
                              (2**63 - 3, 2**63 - 1, 1), (0, 2**62, 1)]):
        arange(f"arange_iii_{i}", "-", "iii", *args)
    for i, args in enumerate([(5.5,), (0.0,), (-2.5,), (float("nan"),), (float("inf"),)]):
        arange(f"arange_f_{i}", "-", "f", *args)
    for i, args in enumerate([(0, 1, 0.1), (1, 0, -0.1), (-3.7, 2.2, 0.3), (0.1, 0.7, 0.2),
                              (1000.3, 1009, 0.7), (0, 1, 0.0), (0, float("inf"), 1),
                              (0, 5, float("inf")), (1e16, 1e16 + 64, 3.5), (2.5, 2.5, 0.1),
                              (0, 1e-300, 1e-302), (-1e3, 1e3, 0.7)]):
        arange(f"arange_fff_{i}", "-", "fff", *args)
    for i, args in enumerate([(0, 1.5, 1), (1, 4, 0.5), (-1, 2.5, 1)]):
        arange(f"arange_ifi_{i}", "-", "ifi", *args)
    for i, args in enumerate([(0, 5 + 10j, 1 + 1j), (0, 5 + 5j, 1 + 1j), (1j, 10 + 20j, 2 + 3j),
                              (0, 3, 1j)]):
        arange(f"arange_ccc_{i}", "-", "ccc", *args)
        for d in COMPLEX:
            arange(f"arange_ccc_{i}_{d}", d, "ccc", *args)
    # arange with every dtype.
    for d in ALL:
        for i, args in enumerate([(0, 10, 3), (10, 0, -3), (0, 0, 1), (1, 2, 1), (0, 2, 1),
                                  (120, 300, 7), (-1, 3, 1), (250, 260, 1), (0, 5, 1)]):
            arange(f"arange_iii_{i}_{d}", d, "iii", *args)
        for i, args in enumerate([(0, 1, 0.1), (2.5, -1.3, -0.4), (0.5, 300.7, 37.3),
                                  (-3.5, 2, 1), (254.5, 260, 1), (-1e3, 1e3, 0.7),
                                  (0.25, 1.0, 0.5)]):
            arange(f"arange_fff_{i}_{d}", d, "fff", *args)

    # linspace
    for d in ["-"] + ALL:
        for i, args in enumerate([(0, 1, 5), (-1.5, 2.5, 7), (2.5, -3.3, 11, False), (0, 1, 0),
                                  (0, 1, 1), (0, 1, 1, False), (0, 5e-324, 10),
                                  (0, float("inf"), 1), (0, 1e6, 1001), (-1e300, 1e300, 7),
                                  (-1000, 1000, 9), (0.1, 0.3, 50), (0, 1, -1), (3, 3, 4),
                                  (1, 1e-30, 65, False)]):
            linspace(f"linspace_ff_{i}_{d}", d, "ff", *args)
    for i, args in enumerate([(0, 10, 5), (10, 0, 4, False), (0, 2**53 + 1, 3)]):
        linspace(f"linspace_ii_{i}", "-", "ii", *args)
    for d in ["-"] + COMPLEX + ["float64", "int32"]:
        for i, args in enumerate([(0, 1j, 5), (1 + 2j, -3 + 0.5j, 7, False), (1j, 1j, 3),
                                  (0, 5e-324j, 4)]):
            linspace(f"linspace_cc_{i}_{d}", d, "cc", *args)
    for i, args in enumerate([(0.1, 7.3, 9), (0, 1, 5000), (-2, 3, 7, False), (1, 1.5, 1)]):
        linspace(f"linspace_hh_{i}", "-", "hh", *args)
        linspace(f"linspace_hi_{i}", "-", "hi", args[0], round(args[1]), *args[2:])

    # logspace: base is the third signature letter.
    for d in ["-"] + ALL:
        for i, args in enumerate([(0, 3, 4, True, 10.0), (-2, 2, 9, True, 10.0),
                                  (0, 2, 5, False, 10.0), (0, 10, 11, True, 2.0),
                                  (0, 4, 5, True, -2.0), (0, 1, 0, True, 10.0),
                                  (0.5, 1.5, 7, True, 3.5)]):
            logspace(f"logspace_fff_{i}_{d}", d, "fff", *args)
    for i, args in enumerate([(0, 3, 4, True, 2), (0, 5, 6, True, 10)]):
        logspace(f"logspace_iii_{i}", "-", "iii", *args)
    for i, args in enumerate([(0, 2, 5, True, 10.0), (-1, 1, 7, False, 2.0)]):
        logspace(f"logspace_hhf_{i}", "-", "hhf", *args)
    for i, args in enumerate([(0, 2, 3, True, 2j), (0, 1, 4, True, -1 + 1j)]):
        logspace(f"logspace_ffc_{i}", "-", "ffc", *args)

    # geomspace
    for d in ["-"] + ALL:
        for i, args in enumerate([(1, 1000, 4), (-1, -1000, 4), (-1, 1000, 4), (1, 2, 1),
                                  (1, 2, 0), (2, 1e300, 7), (0.5, 8, 5, False), (0, 1, 3),
                                  (1, 256, 9), (1e-5, 1e5, 11), (3, 3, 4)]):
            geomspace(f"geomspace_ff_{i}_{d}", d, "ff", *args)
    for i, args in enumerate([(1, 256, 9), (-8, -1, 4)]):
        geomspace(f"geomspace_ii_{i}", "-", "ii", *args)
    for d in ["-"] + COMPLEX:
        for i, args in enumerate([(1j, 1000j, 4), (-1 + 0j, 1, 5), (1 + 1j, 10 + 10j, 3),
                                  (3 + 4j, -5 - 12j, 6, False)]):
            geomspace(f"geomspace_cc_{i}_{d}", d, "cc", *args)

    # eye, identity, tri
    for d in ["-"] + ALL:
        for i, args in enumerate([(3,), (3, 4, 1), (4, 3, -1), (3, None, 5), (0,), (1,),
                                  (2, 5, -4), (5, 2, -3), (-1,), (4, 7, 2, "F")]):
            eye(f"eye_{i}_{d}", d, *args)
        identity(f"identity_{d}", d, 4)
        for i, args in enumerate([(3,), (3, 4, 1), (4, 3, -1), (-1,), (3, -2), (2, 3, -5),
                                  (3, 3, 10), (1, 6, 2)]):
            tri(f"tri_{i}_{d}", d, *args)
    identity("identity_0", "-", 0)

    # indices
    for d in ["-", "int32", "float32", "uint8", "complex64", "bool"]:
        for i, dims in enumerate([(2, 3), (), (2, 0), (3, 1, 4), (5,), (2, -1), (7, 5, 3, 2)]):
            indices(f"indices_{i}_{d}", d, dims)

    # full, zeros, ones
    for d in ["-"] + ALL:
        for sig, v in [("i", 7), ("i", -1), ("i", 300), ("f", 2.7), ("f", float("nan")),
                       ("f", 1e6), ("b", True), ("c", 1 + 2j), ("h", 1.5), ("f", -0.0)]:
            name = f"full_{sig}_{token(sig, v).replace(':', '_').replace('-', 'm').replace('.', 'p')}_{d}"
            full(name, d, sig, (2, 3), v)
        for i, (shape, order) in enumerate([((2, 3), "C"), ((0,), "C"), ((), "C"),
                                            ((3, 4), "F"), ((2, -1), "C")]):
            zeros_ones("zeros", f"zeros_{i}_{d}", d, shape, order)
            zeros_ones("ones", f"ones_{i}_{d}", d, shape, order)
    full("full_i_big", "-", "i", (2,), 2**63)


def expression_fixtures():
    def save(name, a):
        lines.append(f"{name} expr - -")
        arrays.append(np.asarray(a))

    save("expr_arange_T", np.arange(12).reshape(3, -1).T * 2)
    save("expr_lin_eye", np.linspace(0, 1, 12).reshape(3, 4) + np.eye(3, 4))
    save("expr_gather", np.arange(24).reshape(2, 3, 4).transpose(2, 0, 1).reshape(4, 6) * 1)
    save("expr_indices_flat", np.indices((3, 4)).reshape(2, -1))
    save("expr_eye_flat", np.eye(5).reshape(-1))
    save("expr_eye_flat_pow2", np.eye(4).reshape(-1))
    save("expr_eye_split", np.eye(4).reshape(2, 2, 4))
    save("expr_ones_bcast", np.ones((3, 4)) * np.arange(4) + np.full((3, 1), 0.5))
    save("expr_f32_lin", np.arange(10, dtype=np.float32) * np.linspace(0, 1, 10))
    save("expr_tri_mul", np.tri(4) * np.arange(16).reshape(4, 4))
    save("expr_reshape_F", np.arange(12).reshape((3, 4), order="F") + 0)
    save("expr_transpose_axes", np.arange(24).reshape(2, 3, 4).transpose(1, 2, 0) - 1)
    save("expr_double_gather",
         np.arange(24).reshape(4, 6).T.reshape(3, 8).T.reshape(2, 12) * 3)
    save("expr_eye_T_reshape", np.eye(3, 5, 1).T.reshape(3, 5) * 2)
    save("expr_ravel_F", np.arange(6).reshape(2, 3).ravel(order="F"))
    save("expr_ravel_A", np.arange(6).reshape(3, 2).T.ravel(order="A"))
    save("expr_ravel_K", np.arange(6).reshape(3, 2).T.ravel(order="K"))
    save("expr_reshape_A", np.arange(6).reshape(3, 2).T.reshape((3, 2), order="A"))
    save("expr_unit_axes", np.arange(6).reshape(1, 2, 1, 3, 1).reshape(3, 1, 2) + 0)
    x = np.array([1.5, 2.5, 3.5])
    y = np.array([-1.0, 0.0, 1.0, 2.0])
    z = np.array([10.0, 20.0])
    for idx in ("xy", "ij"):
        X, Y, Z = np.meshgrid(x, y, z, indexing=idx)
        save(f"mesh_{idx}_0", X)
        save(f"mesh_{idx}_1", Y)
        save(f"mesh_{idx}_2", Z)
        Xs, Ys = np.meshgrid(x, y, indexing=idx, sparse=True)
        save(f"mesh_sparse_{idx}_0", Xs)
        save(f"mesh_sparse_{idx}_1", Ys)
    X, Y = np.meshgrid(np.arange(3), np.linspace(0, 1, 4))
    save("mesh_gen_sum", X + Y)
    save("sparse_indices_sum", sum(np.indices((2, 3, 4), sparse=True)))


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    generator_cases()
    expression_fixtures()
    header = [
        "# Generated by tests/generate_generator_fixtures.py with numpy "
        f"{np.__version__} and ml_dtypes {ml_dtypes.__version__}; do not edit.",
        "# NAME FUNC DTYPE SIG ARG... [! ERROR|MESSAGE]",
    ]
    (OUT / "cases.txt").write_text("\n".join(header + lines) + "\n")
    with open(OUT / "results.npys", "wb") as f:
        for a in arrays:
            np.save(f, a)
    print(f"{len(lines)} cases in {OUT}")


if __name__ == "__main__":
    main()
