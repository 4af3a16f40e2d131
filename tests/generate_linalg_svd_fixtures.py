"""Fixtures for tests/linalg_svd_test.cu: matrices and NumPy's singular
values for them (numpy.linalg.svd / svdvals / svd(hermitian=True)).

Run with .venv/bin/python from the repository root; writes
tests/fixtures/linalg/svd/<case>_<dtype>_{a,s,u,vh,h,sh}.npy: a the input (a
stack), s = svdvals(a), u and vh its reduced factors (float64 and
complex128), sh = svd(h, hermitian=True).S where h is the
Hermitian part of the square cases. Singular vectors are not unique, so the
test checks them by their properties (reconstruction, orthogonality, match
with these values).
"""
import pathlib

import numpy as np

from fixture_values import random_values

OUT = pathlib.Path(__file__).parent / "fixtures" / "linalg" / "svd"

# Shapes: tall, wide, square, 1x1, stacks through the batched (<= 32) and
# the large (> 32) device paths.
CASES = {
    "square4": (4, 4),
    "tall5x3": (5, 3),
    "wide3x5": (3, 5),
    "one": (1, 1),
    "stack2x3x4x3": (2, 3, 4, 3),
    "large40x33": (40, 33),
    "largewide2x33x40": (2, 33, 40),
    "large48": (48, 48),
}
DTYPES = ["float32", "float64", "complex64", "complex128", "int32"]


matrix = random_values


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.npy"):
        old.unlink()
    rng = np.random.default_rng(16)
    for name, shape in CASES.items():
        for dtype in DTYPES:
            a = matrix(shape, dtype, rng)
            np.save(OUT / f"{name}_{dtype}_a.npy", a)
            np.save(OUT / f"{name}_{dtype}_s.npy", np.linalg.svdvals(a))
            if dtype in ("float64", "complex128"):
                u, _, vh = np.linalg.svd(a, full_matrices=False)
                np.save(OUT / f"{name}_{dtype}_u.npy", u)
                np.save(OUT / f"{name}_{dtype}_vh.npy", vh)
            if shape[-1] == shape[-2]:
                h = a + np.conj(np.swapaxes(a, -1, -2))
                np.save(OUT / f"{name}_{dtype}_h.npy", h)
                np.save(OUT / f"{name}_{dtype}_sh.npy", np.linalg.svd(h, hermitian=True).S)
    total = sum(p.stat().st_size for p in OUT.glob("*.npy"))
    print(f"wrote {len(list(OUT.glob('*.npy')))} files, {total} bytes")


if __name__ == "__main__":
    main()
