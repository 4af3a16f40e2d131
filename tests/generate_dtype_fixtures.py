#!/usr/bin/env python3
"""Writes tests/fixtures/dtype/*.txt from NumPy (and ml_dtypes for bfloat16).

promotion.txt: `a b result` for every ordered pair of cupp's dtypes, with
`none` where NumPy raises (no common dtype).
descriptors.txt: `name kind char itemsize str` for every dtype.
"""
import pathlib

import ml_dtypes
import numpy as np

NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
         "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]


def dt(name):
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def main():
    out = pathlib.Path(__file__).parent / "fixtures" / "dtype"
    out.mkdir(parents=True, exist_ok=True)
    lines = [f"# numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}"]
    for a in NAMES:
        for b in NAMES:
            try:
                r = np.result_type(dt(a), dt(b))
                r = "bfloat16" if r == dt("bfloat16") else r.name
            except TypeError:
                r = "none"
            lines.append(f"{a} {b} {r}")
    (out / "promotion.txt").write_text("\n".join(lines) + "\n")
    lines = [f"# numpy {np.__version__}"]
    for n in NAMES:
        d = dt(n)
        lines.append(f"{n} {d.kind} {d.char} {d.itemsize} {d.str}")
    (out / "descriptors.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
