#!/usr/bin/env python3
"""CuPy equivalents of bench/indexing.cu: same case names, units and bytes.

Each case is timed with CUDA events around a loop of calls (median over
--runs loops after a warm-up), like the C++ benchmark, and its GB/s is
compared with the copy bandwidth CuPy reaches in the same run.

CuPy has no checked gather: x[idx] wraps out-of-range indices, so its one
figure stands beside both of cupp's (gather.f32 and gather_unchecked.f32).

  python3 bench/cupy_indexing.py [--reps 10] [--runs 7] [--json FILE]

Every case's answer is checked once; a wrong one prints a WARNING line and
is listed under "check_failures" in the JSON. Without CuPy or a CUDA device
it prints SKIPPED and exits 77.
"""

import argparse
import json
import sys

from cupy_common import SKIP, import_cupy, median_ms_per_call


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--json")
    a = p.parse_args()
    import numpy as np

    cp = import_cupy()
    if cp is None:
        return SKIP
    print(f"cupy {cp.__version__}")

    rows = []
    copy_gbs = [0.0]
    check_failures = []

    def time_ms(f, reps=a.reps):
        return median_ms_per_call(cp, f, a.runs, reps)

    def add(case, ms, nbytes):
        value = nbytes / (ms * 1e-3) / 1e9
        rows.append({"case": case, "value": value, "unit": "GB/s", "ms": ms, "bytes": nbytes})
        line = f"{case:28s} {ms:10.4f} ms  {value:8.1f} GB/s"
        if copy_gbs[0]:
            line += f"  {100 * value / copy_gbs[0]:5.1f}% of copy"
        print(line)

    def expect(case, ok):
        if not ok:
            check_failures.append(case)
            print(f"WARNING: {case}: CuPy's result is wrong")

    def free():
        cp.get_default_memory_pool().free_all_blocks()

    n = 1 << 28
    x = cp.ones(n, cp.float32)
    z = cp.zeros(n, cp.float32)
    add("copy.f32", time_ms(lambda: cp.cuda.runtime.memcpyAsync(
        z.data.ptr, x.data.ptr, n * 4, cp.cuda.runtime.memcpyDeviceToDevice,
        cp.cuda.get_current_stream().ptr)), 2 * n * 4)
    copy_gbs[0] = rows[-1]["value"]
    del x, z
    free()

    m = 16384
    for name, dt in (("transpose.16384.f32", cp.float32), ("transpose.16384.f64", cp.float64)):
        a_ = cp.arange(m * m, dtype=dt).reshape(m, m)
        add(name, time_ms(lambda: cp.ascontiguousarray(a_.T)), 2 * m * m * a_.itemsize)
        r = cp.ascontiguousarray(a_.T)
        expect(name, bool(r[3, 5] == a_[5, 3]) and bool(r[m - 1, 7] == a_[7, m - 1]))
        del a_, r
        free()

    n = 1 << 27
    x = cp.arange(n, dtype=cp.int64)
    count = (n + 1) // 3
    add("mask.i64", time_ms(lambda: x[x % 3 == 1]), 8 * n + 8 * count)
    r = x[x % 3 == 1]
    expect("mask.i64", r.size == count and int(r[0]) == 1 and int(r[-1]) == 3 * count - 2)
    del x, r
    free()

    n = 1 << 26
    x = cp.arange(n, dtype=cp.float32)
    idx = cp.asarray(np.random.default_rng(7).integers(0, n, n, dtype=np.int64))
    add("gather.f32", time_ms(lambda: x[idx]), 16 * n)
    y = x[idx]
    expect("gather.f32", bool(y[12345] == x[idx[12345]]))
    m = 1 << 22
    small = cp.arange(m, dtype=cp.float32)
    near = idx % m
    add("gather_l2.f32", time_ms(lambda: small[near]), 12 * n + 4 * m)
    y = small[near]
    expect("gather_l2.f32", bool(y[4242] == small[near[4242]]))
    del x, idx, y, small, near
    free()

    n = 1 << 25
    parts = [cp.full(n, i, cp.float32) for i in range(8)]
    add("concatenate.axis0.f32", time_ms(lambda: cp.concatenate(parts)), 2 * 8 * n * 4)
    r = cp.concatenate(parts)
    expect("concatenate.axis0.f32", r.size == 8 * n and float(r[3 * n]) == 3.0)
    del parts, r
    cols = [cp.full((4096, 8192), i, cp.float32) for i in range(8)]
    add("concatenate.axis1.f32", time_ms(lambda: cp.concatenate(cols, 1)), 2 * 8 * n * 4)
    r = cp.concatenate(cols, 1)
    expect("concatenate.axis1.f32", r.shape == (4096, 65536) and float(r[4095, 5 * 8192 + 3]) == 5)
    del cols, r
    free()

    if a.json:
        props = cp.cuda.runtime.getDeviceProperties(0)
        with open(a.json, "w") as f:
            json.dump({"benchmark": "cupy_indexing", "device": props["name"].decode(),
                       "cupy": cp.__version__, "numpy": np.__version__, "copy_gbs": copy_gbs[0],
                       "check_failures": check_failures, "results": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
