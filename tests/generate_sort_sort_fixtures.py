"""NumPy's sort, argsort (kind='stable'), lexsort and sort_complex on small
arrays of every dtype, written as .npy files under tests/fixtures/sort/sort/
for tests/sort_sort_test.cu.

Run with the project's environment: .venv/bin/python
tests/generate_sort_sort_fixtures.py.

cases.txt lists one case a line: DTYPE CASE AXES (a comma-separated list of
axes, "none" for axis=None). Each case has <dtype>_<case>_x.npy (the input)
and, for every axis A (the last one only as -1), <dtype>_<case>_sort_<A>.npy and _argsort_<A>.npy,
plus _sc.npy (sort_complex) for cases of one or more dimensions. NumPy has
no bfloat16: its cases are float32 files whose values bfloat16 holds
exactly, so the test converts them. lexsort_* files hold lexsort's keys and
results (see main).
"""

import os

import numpy as np

from sort_fixture_values import DTYPES, NEG_NAN, SPECIAL, storage

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "sort", "sort")

# case: shape, kind of values
CASES = {
    "v1": ((17,), "ties"),
    "m2": ((3, 5), "ties"),
    "t3": ((2, 3, 4), "ties"),
    "sorted": ((12,), "sorted"),
    "reversed": ((12,), "reversed"),
    "equal": ((3, 4), "equal"),
    "bcast": ((4, 6), "rows"),
    "special": ((18,), "special"),
    "special2": ((3, 6), "special"),
    "empty1": ((0,), "ties"),
    "empty2": ((2, 0, 3), "ties"),
    "zerod": ((), "ties"),
}


def values(shape, dtype, kind, rng):
    dt = np.dtype(storage(dtype))
    size = int(np.prod(shape))
    if kind == "special":
        if dt.kind not in "fc":
            return None
        base = np.array(SPECIAL[:size], dtype=np.float64)
        if dt.kind == "c":
            other = np.array(list(reversed(SPECIAL))[:size], dtype=np.float64)
            # Equal real parts with different imaginary parts, too.
            other[::3] = 0.5
            base[1::4] = 1.0
            # Set the parts: arithmetic with 1j would turn inf into nan+infj.
            x = np.empty(size, dtype=dt)
            x.real = base
            x.imag = other
            return x.reshape(shape)
        return base.astype(dt).reshape(shape)
    if dt.kind == "b":
        x = rng.integers(0, 2, size=size).astype(bool)
    elif dt.kind == "u":
        x = rng.integers(0, 6, size=size).astype(dt)
        if size:
            x[0] = np.iinfo(dt).max
    elif dt.kind == "i":
        x = rng.integers(-3, 4, size=size).astype(dt)
        if size:
            x[0] = np.iinfo(dt).min
    else:
        # Halves in [-4, 4]: exact in float16 and bfloat16, with ties.
        x = (rng.integers(-8, 9, size=size) * 0.5).astype(dt)
        if dt.kind == "c":
            x = x + (1j * (rng.integers(-2, 3, size=size) * 0.5)).astype(dt)
    if kind == "sorted":
        x = np.sort(x, kind="stable")
    elif kind == "reversed":
        x = np.sort(x, kind="stable")[::-1].copy()
    elif kind == "equal":
        x[:] = x.flat[size // 2] if size else x
    elif kind == "rows":
        x = np.broadcast_to(x.reshape(shape)[0], shape).copy()
    return x.reshape(shape)


def save(name, array):
    array = np.asarray(array)
    np.save(os.path.join(OUT, name + ".npy"), array if array.ndim == 0 else np.ascontiguousarray(array))


def axis_name(a):
    return "none" if a is None else str(a)


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(".npy") or old.endswith(".txt"):
            os.remove(os.path.join(OUT, old))
    lines = ["# dtype case axes"]
    for di, dtype in enumerate(DTYPES):
        for ci, (case, (shape, kind)) in enumerate(CASES.items()):
            rng = np.random.default_rng(100 * di + ci)
            x = values(shape, dtype, kind, rng)
            if x is None:
                continue
            nd = x.ndim
            # The test checks the last axis (nd - 1) against axis -1's files.
            axes = [None] if nd == 0 else [-1] + list(range(nd - 1)) + [None]
            p = f"{dtype}_{case}_"
            save(p + "x", x)
            for a in axes:
                save(p + "sort_" + axis_name(a), np.sort(x, axis=a, kind="stable"))
                save(p + "argsort_" + axis_name(a), np.argsort(x, axis=a, kind="stable"))
            if nd >= 1 and dtype != "bfloat16":
                # NumPy's sort_complex sorts with kind='quicksort', whose order
                # among ties (-0.0 and 0.0) is unspecified; cupp's is stable.
                save(p + "sc", np.sort(x, kind="stable").astype(np.sort_complex(x).dtype))
            lines.append(f"{dtype} {case} {','.join(axis_name(a) for a in axes)}")
    # lexsort: keys of several dtypes, the last primary.
    rng = np.random.default_rng(7)
    k0 = rng.integers(-2, 3, size=(3, 9)).astype(np.int8)
    k1 = (rng.integers(-2, 3, size=(3, 9)) * 0.5).astype(np.float32)
    k1[0, 2] = np.nan
    k1[1, 4] = NEG_NAN
    k1[2, ::4] = -0.0
    k2 = (rng.integers(0, 2, size=(3, 9)) + 1j * rng.integers(0, 2, size=(3, 9))).astype(np.complex128)
    k2[1, 1] = complex(np.nan, 0)
    k3 = rng.integers(0, 2, size=(3, 9)).astype(bool)
    save("lexsort_k0", k0)
    save("lexsort_k1", k1)
    save("lexsort_k2", k2)
    save("lexsort_k3", k3)
    save("lexsort_r1", np.lexsort((k0,)))
    save("lexsort_r2", np.lexsort((k0, k1)))
    save("lexsort_r4", np.lexsort((k0, k1, k2, k3)))
    save("lexsort_flat", np.lexsort((k0.ravel(), k1.ravel(), k2.ravel())))
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
