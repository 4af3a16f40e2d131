"""NumPy's numpy.linalg.qr (every mode), eigh/eigvalsh and eig/eigvals on
small matrices of every dtype linalg computes in (float32, float64,
complex64, complex128, and int64 computing in float64), written as .npy
files under tests/fixtures/linalg/decomp/ for tests/linalg_decomp_test.cu.

Run with the project's environment: .venv/bin/python
tests/generate_linalg_decomp_fixtures.py. Names: <function>_<dtype>_<case>_<what>.npy.
"""

import os

import numpy as np

from fixture_values import random_values

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "linalg", "decomp")
DTYPES = ["float32", "float64", "complex64", "complex128", "int64"]


def values(shape, dtype, seed):
    return random_values(shape, dtype, np.random.default_rng(seed))


def hermitian(shape, dtype, seed):
    x = values(shape, dtype, seed)
    if dtype == "int64":
        return x + np.swapaxes(x, -1, -2)
    return ((x + np.conj(np.swapaxes(x, -1, -2))) / 2).astype(dtype)


def save(name, array):
    np.save(os.path.join(OUT, name + ".npy"), np.ascontiguousarray(array))


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(".npy"):
            os.remove(os.path.join(OUT, old))
    qr_cases = {"tall": (5, 3), "wide": (3, 5), "square": (4, 4), "stack": (3, 4, 3),
                "stackwide": (2, 2, 4)}
    eigh_cases = {"n4": (4, 4), "stack": (3, 3, 3), "n1": (1, 1), "n40": (2, 40, 40)}
    eig_cases = {"n4": (4, 4), "stack": (2, 3, 3), "n1": (1, 1)}
    for di, dtype in enumerate(DTYPES):
        for ci, (case, shape) in enumerate(qr_cases.items()):
            a = values(shape, dtype, 100 * di + ci)
            h, tau = np.linalg.qr(a, mode="raw")
            q, r = np.linalg.qr(a)
            qc, rc = np.linalg.qr(a, mode="complete")
            p = f"qr_{dtype}_{case}_"
            save(p + "a", a)
            save(p + "h", h)
            save(p + "tau", tau)
            save(p + "q", q)
            save(p + "r", r)
            save(p + "qc", qc)
            save(p + "rc", rc)
        for ci, (case, shape) in enumerate(eigh_cases.items()):
            if case == "n40" and dtype not in ("float64", "complex64"):
                continue
            a = hermitian(shape, dtype, 200 + 100 * di + ci)
            save(f"eigh_{dtype}_{case}_a", a)
            save(f"eigh_{dtype}_{case}_w", np.linalg.eigvalsh(a))
        for ci, (case, shape) in enumerate(eig_cases.items()):
            a = values(shape, dtype, 300 + 100 * di + ci)
            w = np.linalg.eigvals(a)
            # Sorted by (real, imag) for a comparison as sets; complex128
            # always, the test reads it whatever the input dtype.
            w = np.sort_complex(w.astype(np.complex128))
            save(f"eig_{dtype}_{case}_a", a)
            save(f"eig_{dtype}_{case}_w", w)
    # A real matrix with a complex pair and a real eigenvalue, known
    # exactly: rotation by 90 degrees in the first two axes, 2 on the third.
    save("eig_rotation_a", np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 2.0]]))
    save("eig_rotation_w", np.sort_complex(np.linalg.eigvals(
        np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 2.0]])).astype(np.complex128)))


if __name__ == "__main__":
    main()
