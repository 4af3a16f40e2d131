"""NumPy's unique on small arrays of every dtype, written as .npy files under
tests/fixtures/sort/unique/ for tests/sort_unique_test.cu.

Run with the project's environment: .venv/bin/python
tests/generate_sort_unique_fixtures.py.

cases.txt lists one result a line: DTYPE CASE AXIS EQUAL_NAN, AXIS "none"
for axis=None, EQUAL_NAN 1 or 0 (both only for floating and complex
dtypes with axis=None or a 1-d input: elsewhere NumPy ignores it). Each
case has <dtype>_<case>_x.npy (the input); each line has
<dtype>_<case>_<axis>_<equal_nan>_values.npy and _ints.npy, the int64
results in one array: indices, then the flattened inverse, then counts.
The inverse has x's shape with axis=None and one entry per slice along the
axis otherwise, so the test can split the array. NumPy has no bfloat16:
its cases are float32 files whose values bfloat16 holds exactly.

Every result is np.unique's with all three return_* flags; the script
checks that each other combination of flags gives the same arrays (the
one exception it allows: with equal_nan=True and no flags, NumPy's hash
table keeps the first complex NaN of the input where the sorting path keeps
the first in sorted order; cupp always keeps the latter; and, with
equal_nan=False and no return_index, NumPy's unstable sort puts its NaN
runs in any order, where cupp's are in input order, as with return_index;
see docs/.fragments/sort_unique.md).
"""

import itertools
import os

import numpy as np

from sort_fixture_values import DTYPES, NEG_NAN, SPECIAL, storage

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "sort", "unique")

# case: shape, kind of values
CASES = {
    "v1": ((17,), "ties"),
    "m2": ((5, 4), "slices"),
    "t3": ((3, 4, 2), "slices"),
    "sorted": ((9,), "sorted"),
    "distinct": ((9,), "distinct"),
    "equal": ((3, 4), "equal"),
    "bcast": ((4, 6), "rows"),
    "special": ((18,), "special"),
    "special2": ((6, 3), "special_rows"),
    "cnan": ((12,), "complex_nan"),
    "empty1": ((0,), "ties"),
    "empty2": ((2, 0, 3), "ties"),
    "noslice": ((3, 0), "ties"),
    "zerod": ((), "ties"),
}


def base_values(size, dt, rng):
    if dt.kind == "b":
        return rng.integers(0, 2, size=size).astype(bool)
    if dt.kind == "u":
        x = rng.integers(0, 4, size=size).astype(dt)
        if size:
            x[0] = np.iinfo(dt).max
        return x
    if dt.kind == "i":
        x = rng.integers(-2, 2, size=size).astype(dt)
        if size:
            x[0] = np.iinfo(dt).min
        return x
    # Halves in [-2, 2]: exact in float16 and bfloat16, with ties.
    x = (rng.integers(-4, 5, size=size) * 0.5).astype(dt)
    if dt.kind == "c":
        x = x + (1j * (rng.integers(-1, 2, size=size) * 0.5)).astype(dt)
    return x


def complex_of(re, im, dt):
    # Parts set one by one: arithmetic with 1j would turn inf into nan+infj.
    x = np.empty(len(re), dtype=dt)
    x.real = re
    x.imag = im
    return x


def values(shape, dtype, kind, rng):
    dt = np.dtype(storage(dtype))
    size = int(np.prod(shape))
    if kind == "special":
        if dt.kind not in "fc":
            return None
        base = np.array(SPECIAL[:size], dtype=np.float64)
        if dt.kind == "c":
            other = np.array(list(reversed(SPECIAL))[:size], dtype=np.float64)
            other[::3] = 0.5
            base[1::4] = 1.0
            return complex_of(base, other, dt).reshape(shape)
        return base.astype(dt).reshape(shape)
    if kind == "special_rows":
        if dt.kind not in "fc":
            return None
        rows = [[1.0, np.nan, 2.0], [0.0, -0.0, 1.0], [1.0, np.nan, 2.0], [-0.0, 0.0, 1.0],
                [np.inf, -1.0, NEG_NAN], [0.0, 0.0, 1.0]]
        x = np.array(rows, dtype=np.float64)
        if dt.kind == "c":
            im = np.zeros_like(x)
            im[4, 1] = np.nan
            return complex_of(x.ravel(), im.ravel(), dt).reshape(shape)
        return x.astype(dt)
    if kind == "complex_nan":
        if dt.kind != "c":
            return None
        n = np.nan
        re = [n, 1.0, 2.0, n, 1.0, 0.0, 1.0, n, -0.0, 2.0, n, 1.0]
        im = [1.0, n, n, n, 0.0, 0.0, n, 0.0, 0.0, n, n, 0.0]
        return complex_of(np.array(re), np.array(im), dt)
    x = base_values(size, dt, rng)
    if kind == "sorted":
        x = np.sort(x, kind="stable")
    elif kind == "distinct":
        x = np.arange(size)[::-1].astype(dt) if dt.kind != "b" else np.array([True, False] + [True] * (size - 2))
        if dt.kind == "b":
            return None
    elif kind == "equal":
        x[:] = x.flat[size // 2] if size else x
    elif kind == "rows":
        x = np.broadcast_to(x.reshape(shape)[0], shape).copy()
    elif kind == "slices" and size:
        # Repeated slices along every axis, so that unique(axis=) finds ties.
        x = x.reshape(shape)
        x[-1] = x[0]
        if len(shape) >= 2:
            x[:, -1] = x[:, 1]
        if len(shape) >= 3:
            x[..., 0] = x[..., 1]
    return x.reshape(shape)


def save(name, array):
    array = np.asarray(array)
    np.save(os.path.join(OUT, name + ".npy"),
            array if array.ndim == 0 else np.ascontiguousarray(array))


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind in "fc":
        return bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))
    return bool(np.all(a == b))


def check_flags(x, axis, equal_nan, full, dtype):
    """Every combination of flags gives the arrays of the full call."""
    for flags in itertools.product([False, True], repeat=3):
        r = np.unique(x, *flags, axis=axis, equal_nan=equal_nan)
        r = r if isinstance(r, tuple) else (r,)
        want = [full[0]] + [full[1 + i] for i in range(3) if flags[i]]
        for got, w in zip(r, want):
            allowed = (x.dtype.kind == "c" and equal_nan and not any(flags) and axis is None)
            # Without return_index NumPy sorts with quicksort, so with
            # equal_nan=False its NaN runs come in no particular order;
            # the stable sort (return_index) orders them by position.
            allowed = allowed or (not flags[0] and not equal_nan and bool(np.isnan(x).any()))
            assert same(got, w) or allowed, (dtype, x, axis, flags)


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(".npy") or old.endswith(".txt"):
            os.remove(os.path.join(OUT, old))
    lines = ["# dtype case axis equal_nan"]
    for di, dtype in enumerate(DTYPES):
        for ci, (case, (shape, kind)) in enumerate(CASES.items()):
            rng = np.random.default_rng(100 * di + ci)
            x = values(shape, dtype, kind, rng)
            if x is None:
                continue
            p = f"{dtype}_{case}_"
            save(p + "x", x)
            axes = [None] + list(range(x.ndim))
            for axis in axes:
                floating = x.dtype.kind in "fc" and (axis is None or x.ndim == 1)
                for equal_nan in ([True, False] if floating else [True]):
                    full = np.unique(x, True, True, True, axis=axis, equal_nan=equal_nan)
                    check_flags(x, axis, equal_nan, full, dtype)
                    if dtype == "float16" and axis is not None and x.ndim > 1:
                        # NumPy's structured comparison of float16 fields
                        # does not put NaN last (it sorted [nan, 1] before
                        # [1, 2]); cupp orders float16 slices as every
                        # other dtype's, which float32 gives exactly.
                        wide = np.unique(x.astype(np.float32), True, True, True, axis=axis)
                        full = (wide[0].astype(np.float16),) + wide[1:]
                    values_, index, inverse, counts = full
                    a = "none" if axis is None else str(axis)
                    e = "1" if equal_nan else "0"
                    ints = np.concatenate([index.ravel(), inverse.ravel(), counts.ravel()])
                    save(f"{p}{a}_{e}_values", values_)
                    save(f"{p}{a}_{e}_ints", ints.astype(np.int64))
                    lines.append(f"{dtype} {case} {a} {e}")
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
