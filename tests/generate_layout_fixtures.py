#!/usr/bin/env python3
"""Writes tests/fixtures/layout/flags.txt: NumPy's contiguity flags for
assorted shapes and byte strides (views made with as_strided).

Each line: `itemsize ndim shape... strides... c_contiguous f_contiguous`.
"""
import pathlib
import random

import numpy as np
from numpy.lib.stride_tricks import as_strided


def main():
    rng = random.Random(20261122)
    out = pathlib.Path(__file__).parent / "fixtures" / "layout"
    out.mkdir(parents=True, exist_ok=True)
    lines = [f"# numpy {np.__version__}"]
    cases = []
    for itemsize in (1, 2, 4, 8, 16):
        dt = {1: np.int8, 2: np.float16, 4: np.float32, 8: np.float64, 16: np.complex128}[itemsize]
        for _ in range(60):
            ndim = rng.randint(0, 4)
            shape = [rng.choice([0, 1, 1, 2, 3, 5]) if rng.random() < 0.3 else rng.randint(1, 6)
                     for _ in range(ndim)]
            kind = rng.random()
            base = np.zeros(4096 // itemsize, dtype=dt)
            if kind < 0.35:
                a = np.zeros(shape, dtype=dt, order="C")
                strides = a.strides
            elif kind < 0.7:
                a = np.zeros(shape, dtype=dt, order="F")
                strides = a.strides
            else:
                strides = tuple(rng.choice([itemsize, 2 * itemsize, -itemsize, 0, 7 * itemsize,
                                            itemsize * 3])
                                for _ in range(ndim))
            # Keep every view inside the base buffer.
            extent = sum(abs(s) * (n - 1) for s, n in zip(strides, shape) if n > 0)
            if extent + itemsize > base.nbytes:
                continue
            offset = sum(-s * (n - 1) for s, n in zip(strides, shape) if s < 0 and n > 0)
            view = as_strided(base[offset // itemsize:], shape=shape, strides=strides)
            cases.append((itemsize, shape, strides, view.flags.c_contiguous,
                          view.flags.f_contiguous))
    for itemsize, shape, strides, c, f in cases:
        fields = [itemsize, len(shape), *shape, *strides, int(c), int(f)]
        lines.append(" ".join(str(x) for x in fields))
    (out / "flags.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
