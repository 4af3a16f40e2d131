"""NumPy's inputs and sorted references for numpy.partition and argpartition
on small arrays of every dtype, written as .npy files under
tests/fixtures/sort/partition/ for tests/sort_partition_test.cu.

Run with the project's environment: .venv/bin/python
tests/generate_sort_partition_fixtures.py.

A partition is not unique, so the files hold what every valid one must
match: the input <dtype>_<case>_x.npy and, for every axis A checked,
<dtype>_<case>_sort_<A>.npy = np.sort(x, axis=A) (the value at each kth,
and the multiset of each row). cases.txt lists one case a line: DTYPE CASE
AXES ("none" for axis=None). NumPy has no bfloat16: its cases are float32
files whose values bfloat16 holds exactly. errors.txt holds NumPy's error
messages for the calls the test makes (see ERRORS).
"""

import os

import numpy as np

from sort_fixture_values import DTYPES, SPECIAL, storage

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "sort", "partition")

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

# The test's failing calls on x = np.arange(5.0) (and a 0-d array): name,
# call. Their messages go to errors.txt as "name|type|message".
ERRORS = {
    "kth_high": lambda x, z: np.partition(x, 5),
    "kth_low": lambda x, z: np.partition(x, -6),
    "kth_list": lambda x, z: np.argpartition(x, [1, 7]),
    "kind": lambda x, z: np.partition(x, 2, kind="quick"),
    "axis": lambda x, z: np.partition(x, 2, axis=1),
    "axis_neg": lambda x, z: np.argpartition(x, 2, axis=-2),
    "kind_before_axis": lambda x, z: np.partition(x, 9, axis=3, kind="x"),
    "axis_before_kth": lambda x, z: np.partition(x, 9, axis=3),
    "zerod_axis": lambda x, z: np.partition(z, 0),
    "zerod_arg_axis": lambda x, z: np.argpartition(z, 0, axis=1),
    "zerod_kth": lambda x, z: np.partition(z, 1, axis=None),
    "inplace_readonly": lambda x, z: readonly(x).partition(2),
    "inplace_axis": lambda x, z: readonly(x).partition(2, axis=3),
    "inplace_zerod": lambda x, z: z.copy().partition(0),
}


def readonly(x):
    y = x.copy()
    y.flags.writeable = False
    return y


def values(shape, dtype, kind, rng):
    dt = np.dtype(storage(dtype))
    size = int(np.prod(shape))
    if kind == "special":
        if dt.kind not in "fc":
            return None
        base = np.array(SPECIAL[:size], dtype=np.float64)
        if dt.kind == "c":
            imag = np.array(list(reversed(SPECIAL))[:size], dtype=np.float64)
            imag[::3] = 0.5
            base[1::4] = 1.0
            x = np.empty(size, dtype=dt)
            x.real = base
            x.imag = imag
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
            x[-1] = np.iinfo(dt).min
    else:
        # Halves in [-4, 4]: exact in float16 and bfloat16, with ties.
        x = (rng.integers(-8, 9, size=size) * 0.5).astype(dt)
        if dt.kind == "c":
            x = x + (1j * (rng.integers(-2, 3, size=size) * 0.5)).astype(dt)
    if kind == "sorted":
        x = np.sort(x)
    elif kind == "reversed":
        x = np.sort(x)[::-1].copy()
    elif kind == "equal":
        x[:] = x.flat[size // 2] if size else x
    elif kind == "rows":
        x = np.broadcast_to(x.reshape(shape)[0], shape).copy()
    return x.reshape(shape)


def save(name, array):
    array = np.asarray(array)
    np.save(os.path.join(OUT, name + ".npy"),
            array if array.ndim == 0 else np.ascontiguousarray(array))


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
            rng = np.random.default_rng(1000 + 100 * di + ci)
            x = values(shape, dtype, kind, rng)
            if x is None:
                continue
            nd = x.ndim
            axes = [None] if nd == 0 else list(range(nd)) + [None]
            p = f"{dtype}_{case}_"
            save(p + "x", x)
            for a in axes:
                # A 0-d x's argpartition along an axis is that of x.ravel().
                save(p + "sort_" + axis_name(a), np.sort(x, axis=a))
            lines.append(f"{dtype} {case} {','.join(axis_name(a) for a in axes)}")
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    x, z = np.arange(5.0), np.array(3.0)
    errors = []
    for name, call in ERRORS.items():
        try:
            call(x, z)
        except Exception as e:  # noqa: BLE001 - the type is what is recorded
            kind = "axis_error" if isinstance(e, np.exceptions.AxisError) else \
                "value_error" if isinstance(e, ValueError) else "type_error"
            errors.append(f"{name}|{kind}|{e}")
        else:
            raise SystemExit(f"{name} did not raise")
    with open(os.path.join(OUT, "errors.txt"), "w") as f:
        f.write("\n".join(errors) + "\n")


if __name__ == "__main__":
    main()
