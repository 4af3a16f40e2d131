"""NumPy's isin, intersect1d, union1d, setdiff1d and setxor1d on small
inputs of every dtype, written as .npy files under tests/fixtures/sort/sets/
for tests/sort_sets_test.cu.

Run with the project's environment: .venv/bin/python
tests/generate_sort_sets_fixtures.py.

cases.txt lists one case a line: NAME A_DTYPE B_DTYPE. Files: NAME_a (a
(3, 5) array), NAME_b (a (2, 4) array), and one result per call:
  NAME_isin_K_I     isin(a, b, invert=I, kind=K) (K: none, sort, table)
  NAME_inter        intersect1d(a, b)
  NAME_inter_v, NAME_inter_i1, NAME_inter_i2   ... return_indices=True
  NAME_union, NAME_diff, NAME_xor
  NAME_uniq_diff, NAME_uniq_xor, NAME_uniq_inter (assume_unique=True on
      unique inputs NAME_ua, NAME_ub)
NumPy has no bfloat16: its cases are float32 files whose values bfloat16
holds exactly. The test reads `a` in several layouts; results do not
depend on them.
"""

import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "sort", "sets")

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
MIXED = [("int8", "float64"), ("uint8", "int8"), ("float16", "float32"), ("int32", "complex64"),
         ("bool", "int16"), ("int64", "float32")]


def stored(dtype):
    return "float32" if dtype == "bfloat16" else dtype


def save(name, array):
    np.save(os.path.join(OUT, name + ".npy"), np.ascontiguousarray(array))


def values(dtype, rng, shape, far=False):
    """Small values with duplicates; NaN, inf and -0.0 for floats."""
    dt = np.dtype(stored(dtype))
    n = int(np.prod(shape))
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -6
        v = rng.integers(lo, lo + 12, n).astype(dt)
        if far:
            v[0] = np.iinfo(dt).max  # a value far from the test values
        return v.reshape(shape)
    if dt.kind == "f":
        v = (rng.integers(-6, 6, n) * 0.5).astype(dt)
        v[:4] = [np.nan, np.inf, -0.0, 0.0]
        return v.reshape(shape)
    re = rng.integers(-2, 2, n).astype(np.float64)
    im = rng.integers(-1, 2, n).astype(np.float64)
    re[:3] = [np.nan, 1.0, np.inf]
    im[:3] = [0.0, np.nan, -0.0]
    return (re + 1j * im).astype(dt).reshape(shape)


def unique_of(v):
    """Distinct values without NaN (assume_unique needs real uniqueness)."""
    u = np.unique(v)
    return u[~np.isnan(u)] if u.dtype.kind in "fc" else u


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    rng = np.random.default_rng(17)
    lines = []
    pairs = [(d, d) for d in DTYPES] + MIXED
    for da, db in pairs:
        name = f"{da}_{db}"
        a = values(da, rng, (3, 5), far=True)
        b = values(db, rng, (2, 4))
        save(name + "_a", a)
        save(name + "_b", b)
        integers = all(np.dtype(stored(d)).kind in "biu" for d in (da, db))
        for kind in ["none", "sort"] + (["table"] if integers else []):
            for invert in (0, 1):
                r = np.isin(a, b, invert=bool(invert), kind=None if kind == "none" else kind)
                save(f"{name}_isin_{kind}_{invert}", r)
        save(name + "_inter", np.intersect1d(a, b))
        v, i1, i2 = np.intersect1d(a, b, return_indices=True)
        save(name + "_inter_v", v)
        save(name + "_inter_i1", i1)
        save(name + "_inter_i2", i2)
        save(name + "_union", np.union1d(a, b))
        save(name + "_diff", np.setdiff1d(a, b))
        save(name + "_xor", np.setxor1d(a, b))
        ua, ub = unique_of(a)[::-1].copy(), unique_of(b)
        save(name + "_ua", ua)
        save(name + "_ub", ub)
        save(name + "_uniq_diff", np.setdiff1d(ua, ub, assume_unique=True))
        save(name + "_uniq_xor", np.setxor1d(ua, ub, assume_unique=True))
        save(name + "_uniq_inter", np.intersect1d(ua, ub, assume_unique=True))
        lines.append(f"{name} {da} {db}")
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("# NAME A_DTYPE B_DTYPE (see tests/generate_sort_sets_fixtures.py)\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
