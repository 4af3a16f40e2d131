"""NumPy's numpy.linalg.solve, inv, det, slogdet and cholesky on small
matrices and stacks of every dtype linalg computes in (float32, float64,
complex64, complex128, and int64 computing in float64), written as .npy
files under tests/fixtures/linalg/solve/ for tests/linalg_solve_test.cu.

Run with the project's environment: .venv/bin/python
tests/generate_linalg_solve_fixtures.py.

cases.txt lists one case a line: DTYPE CASE. Each case has the files
<dtype>_<case>_<what>.npy with what in: a (the matrices), b (solve's right-
hand side), x (solve(a, b)), inv, det, sign, logabs (slogdet), spd (a
Hermitian positive definite stack of a's shape), l (cholesky(spd)), u
(cholesky(spd, upper=True)). The matrices are well conditioned (cond < 1e3)
so that the tests' bounds, scaled by the dtype's epsilon, hold.
"""

import os

import numpy as np

from fixture_values import random_values

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "linalg", "solve")
DTYPES = ["float32", "float64", "complex64", "complex128", "int64"]

# case: (a's shape, b's shape)
CASES = {f"n{n}": ((n, n), (n,) if n % 2 else (n, 3)) for n in range(1, 9)}
CASES.update({
    "n0": ((0, 0), (0,)),
    "empty": ((0, 3, 3), (0, 3, 1)),
    "stack": ((3, 4, 4), (3, 4, 2)),
    "bcast": ((2, 1, 3, 3), (4, 3, 2)),
    "vstack": ((3, 5, 5), (5,)),
    "n12": ((12, 12), (12,)),
    "stack12": ((2, 12, 12), (2, 12, 3)),
    "bcast12": ((12, 12), (3, 12, 2)),
})


values = random_values


def well_conditioned(shape, dtype, rng):
    while True:
        a = values(shape, dtype, rng)
        if a.size == 0 or np.all(np.linalg.cond(a.astype(np.complex128)) < 1e3):
            return a


def positive_definite(shape, dtype, rng):
    x = values(shape, dtype, rng)
    n = shape[-1]
    h = x @ np.conj(np.swapaxes(x, -1, -2)) + n * np.eye(n, dtype=x.dtype)
    # NumPy reads one triangle only: garbage in the other shows that cupp
    # does too.
    return h.astype(dtype)


def save(name, array):
    array = np.asarray(array)
    # ascontiguousarray would make a 0-d result 1-d.
    np.save(os.path.join(OUT, name + ".npy"), array if array.ndim == 0 else np.ascontiguousarray(array))


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(".npy") or old.endswith(".txt"):
            os.remove(os.path.join(OUT, old))
    lines = []
    for di, dtype in enumerate(DTYPES):
        for ci, (case, (ashape, bshape)) in enumerate(CASES.items()):
            rng = np.random.default_rng(1000 * di + ci)
            a = well_conditioned(ashape, dtype, rng)
            b = values(bshape, dtype, rng)
            spd = positive_definite(ashape, dtype, rng)
            sign, logabs = np.linalg.slogdet(a)
            p = f"{dtype}_{case}_"
            save(p + "a", a)
            save(p + "b", b)
            save(p + "x", np.linalg.solve(a, b))
            save(p + "inv", np.linalg.inv(a))
            save(p + "det", np.linalg.det(a))
            save(p + "sign", sign)
            save(p + "logabs", logabs)
            save(p + "spd", spd)
            save(p + "l", np.linalg.cholesky(spd))
            save(p + "u", np.linalg.cholesky(spd, upper=True))
            lines.append(f"{dtype} {case}")
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("# DTYPE CASE (tests/generate_linalg_solve_fixtures.py)\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
