"""NumPy's searchsorted, digitize and bincount on small inputs of every
dtype they take, written as .npy files under tests/fixtures/sort/search/
for tests/sort_search_test.cu.

Run with the project's environment: .venv/bin/python
tests/generate_sort_search_fixtures.py.

cases.txt lists one case a line:
  searchsorted NAME A_DTYPE V_DTYPE SIDE SORTER   (files NAME_a, NAME_v,
      NAME_sorter when SORTER is 1, NAME_out)
  digitize NAME X_DTYPE BINS_DTYPE RIGHT          (NAME_x, NAME_bins, NAME_out)
  bincount NAME X_DTYPE W_DTYPE MINLENGTH         (NAME_x, NAME_w unless
      W_DTYPE is none, NAME_out)
The test reads each input in several layouts (C, strided, reversed, as a
lazy expression); the expected result does not depend on the layout.
"""

import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "sort", "search")

REAL = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
        "float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]

lines = []


def save(name, array):
    array = np.asarray(array)
    np.save(os.path.join(OUT, name + ".npy"), array if array.ndim == 0 else np.ascontiguousarray(array))


def sorted_values(dtype, rng, n=24):
    """A sorted 1-d array with ties (and NaN, inf for floats)."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return np.sort(rng.integers(0, 2, n).astype(bool))
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -20
        v = rng.integers(lo, lo + 30, n).astype(dt)
        info = np.iinfo(dt)
        v[0], v[-1] = info.min, info.max
        return np.sort(v)
    if dt.kind == "f":
        v = (rng.integers(-12, 12, n) * 0.5).astype(dt)
        v[:4] = [np.nan, np.inf, -np.inf, -0.0]
        v[4] = np.nan
        return np.sort(v)
    re = rng.integers(-3, 3, n).astype(np.float64)
    im = rng.integers(-2, 2, n).astype(np.float64)
    re[:3] = [np.nan, 1.0, np.inf]
    im[:3] = [0.0, np.nan, 1.0]
    return np.sort((re + 1j * im).astype(dt))


def queries(a, dtype, rng):
    dt = np.dtype(dtype)
    extra = {"b": [False, True], "i": [0, 3, -7, 100], "u": [0, 3, 100],
             "f": [np.nan, np.inf, -np.inf, 0.25, -0.0, 1e4], "c": [complex(np.nan, 0), complex(0, np.nan), 0.5 + 0.5j, complex(np.inf, 0)]}[dt.kind]
    v = np.concatenate([a, np.array(extra, dtype=dt), a[::3]])
    rng.shuffle(v)
    return v.reshape(4, -1) if v.size % 4 == 0 else v


def searchsorted_cases(rng):
    for dtype in REAL + COMPLEX:
        a = sorted_values(dtype, rng)
        v = queries(a, dtype, rng)
        for side in ["left", "right"]:
            name = f"ss_{dtype}_{side}"
            save(name + "_a", a)
            save(name + "_v", v)
            save(name + "_out", np.searchsorted(a, v, side=side))
            lines.append(f"searchsorted {name} {dtype} {dtype} {side} 0")
        # sorter: `a` shuffled, searched through its stable argsort.
        p = rng.permutation(a.size)
        shuffled = a[p]
        sorter = np.argsort(shuffled, kind="stable")
        name = f"ss_{dtype}_sorter"
        save(name + "_a", shuffled)
        save(name + "_v", v)
        save(name + "_sorter", sorter)
        save(name + "_out", np.searchsorted(shuffled, v, side="right", sorter=sorter))
        lines.append(f"searchsorted {name} {dtype} {dtype} right 1")
    # Mixed dtypes compare in their common dtype.
    a = np.arange(-5, 6, dtype=np.int32)
    v = np.array([-5.5, -5.0, 0.5, 2.0, 5.0, 5.5, np.nan], dtype=np.float64)
    for side in ["left", "right"]:
        name = f"ss_mixed_{side}"
        save(name + "_a", a)
        save(name + "_v", v)
        save(name + "_out", np.searchsorted(a, v, side=side))
        lines.append(f"searchsorted {name} int32 float64 {side} 0")
    # Empty a, empty v, 0-d v.
    for name, a, v in [("ss_empty_a", np.zeros(0, np.float32), np.array([1.0, np.nan], np.float32)),
                       ("ss_empty_v", np.arange(4, dtype=np.float32), np.zeros((0, 3), np.float32)),
                       ("ss_scalar_v", np.arange(4, dtype=np.float32), np.array(2.0, np.float32))]:
        save(name + "_a", a)
        save(name + "_v", v)
        save(name + "_out", np.searchsorted(a, v))
        lines.append(f"searchsorted {name} float32 float32 left 0")


def digitize_cases(rng):
    for dtype in ["int8", "int32", "uint16", "int64", "float16", "float32", "float64"]:
        dt = np.dtype(dtype)
        if dt.kind == "f":
            x = np.array([-3, -2.5, -1, 0, 0.5, 1, 1, 2, 7, np.nan, np.inf, -np.inf, -0.0], dtype=dt)
            inc = np.array([-2.5, -1, 0, 0, 1, 2], dtype=dt)
        else:
            lo = 0 if dt.kind == "u" else -3
            x = np.arange(lo, lo + 12).astype(dt)
            inc = np.array([lo + 1, lo + 3, lo + 3, lo + 6, lo + 10], dtype=dt)
        for order, bins in [("inc", inc), ("dec", inc[::-1].copy()), ("one", inc[:1].copy()),
                            ("none", inc[:0].copy())]:
            for right in [0, 1]:
                name = f"dg_{dtype}_{order}_{right}"
                save(name + "_x", x.reshape(-1))
                save(name + "_bins", bins)
                save(name + "_out", np.digitize(x, bins, right=bool(right)))
                lines.append(f"digitize {name} {dtype} {dtype} {right}")
    # int x against float bins.
    x = np.arange(-2, 6, dtype=np.int32)
    bins = np.array([-1.5, 0.0, 2.5, 4.0])
    for right in [0, 1]:
        name = f"dg_mixed_{right}"
        save(name + "_x", x)
        save(name + "_bins", bins)
        save(name + "_out", np.digitize(x, bins, right=bool(right)))
        lines.append(f"digitize {name} int32 float64 {right}")


def bincount_cases(rng):
    for dtype in ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64"]:
        dt = np.dtype(dtype)
        x = (rng.integers(0, 2, 40) if dt.kind == "b" else rng.integers(0, 30, 40)).astype(dt)
        for minlength in [0, 5, 50]:
            name = f"bc_{dtype}_{minlength}"
            save(name + "_x", x)
            save(name + "_out", np.bincount(x, minlength=minlength))
            lines.append(f"bincount {name} {dtype} none {minlength}")
        for wdtype in ["float64", "float32", "int32"]:
            w = (rng.standard_normal(40) * 4).astype(wdtype)
            name = f"bc_{dtype}_w{wdtype}"
            save(name + "_x", x)
            save(name + "_w", w)
            save(name + "_out", np.bincount(x, weights=w, minlength=3))
            lines.append(f"bincount {name} {dtype} {wdtype} 3")
    for name, x, m in [("bc_empty", np.zeros(0, np.int64), 0), ("bc_empty4", np.zeros(0, np.int64), 4)]:
        save(name + "_x", x)
        save(name + "_out", np.bincount(x, minlength=m))
        lines.append(f"bincount {name} int64 none {m}")


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(".npy") or old.endswith(".txt"):
            os.remove(os.path.join(OUT, old))
    rng = np.random.default_rng(17)
    searchsorted_cases(rng)
    digitize_cases(rng)
    bincount_cases(rng)
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("# generated by tests/generate_sort_search_fixtures.py\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
