#!/usr/bin/env python3
"""CuPy/NumPy equivalents of bench/elementwise.cu: same case names and units.

Each GPU case is timed with CUDA events around a loop of calls (median over
--runs loops after a warm-up), like the C++ benchmark. CuPy gets both forms:
the plain expression (one kernel per operator) under "<case>.unfused" and
cupy.fuse under "<case>"; NumPy's time for the arange table is "<case>.numpy".

  python3 bench/cupy_elementwise.py [--log2n 28] [--reps 10] [--runs 7] [--json FILE]

Without CuPy or a CUDA device it prints SKIPPED and exits 77.
"""

import argparse
import json
import statistics
import sys
import time

from cupy_common import SKIP, import_cupy, median_ms_per_call


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--log2n", type=int, default=28)
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--json")
    a = p.parse_args()
    import numpy as np

    cp = import_cupy()
    if cp is None:
        return SKIP

    rows = []

    def time_ms(f, reps=a.reps):
        return median_ms_per_call(cp, f, a.runs, reps)

    def add(case, ms, nbytes=0, unit=None):
        value = nbytes / (ms * 1e-3) / 1e9 if nbytes else ms
        rows.append({"case": case, "value": value, "unit": unit or ("GB/s" if nbytes else "ms"),
                     "ms": ms})
        print(f"{case:28s} {ms:10.4f} ms" + (f"  {value:8.1f} GB/s" if nbytes else ""))

    n = 1 << a.log2n
    x = cp.full(n, 1.5, cp.float32)
    y = cp.full(n, 2.0, cp.float32)
    w = cp.full(n, 0.25, cp.float32)
    z = cp.empty_like(x)
    add("copy.f32", time_ms(lambda: cp.cuda.runtime.memcpyAsync(
        z.data.ptr, x.data.ptr, n * 4, cp.cuda.runtime.memcpyDeviceToDevice,
        cp.cuda.get_current_stream().ptr)), 2 * n * 4)

    @cp.fuse(kernel_name="xyw")
    def xyw(x, y, w):
        return x * y + w

    @cp.fuse(kernel_name="softplus")
    def softplus(x):
        return cp.maximum(0, x) + cp.log1p(cp.exp(-cp.abs(x)))

    add("xyw.f32", time_ms(lambda: xyw(x, y, w)), 4 * n * 4)
    add("xyw.f32.unfused", time_ms(lambda: x * y + w), 4 * n * 4)
    add("softplus.f32", time_ms(lambda: softplus(x)), 2 * n * 4)
    add("softplus.f32.unfused",
        time_ms(lambda: cp.maximum(0, x) + cp.log1p(cp.exp(-cp.abs(x)))), 2 * n * 4)
    del x, y, w, z
    x = cp.full(n, 1.5, cp.float64)
    y = cp.full(n, 2.0, cp.float64)
    w = cp.full(n, 0.25, cp.float64)
    add("xyw.f64", time_ms(lambda: xyw(x, y, w)), 4 * n * 8)
    add("xyw.f64.unfused", time_ms(lambda: x * y + w), 4 * n * 8)
    del x, y, w
    cp.get_default_memory_pool().free_all_blocks()

    ca = cp.ones((8192, 1), cp.float32)
    cb = cp.ones((1, 8192), cp.float32)
    add("outer_add.f32", time_ms(lambda: ca + cb), 8192 * 8192 * 4)

    for length in (10**4, 10**5, 10**6, 10**7, 10**8):
        add(f"arange_T.{length}", time_ms(lambda: cp.arange(length).reshape(1000, -1).T * 2,
                                          reps=max(10, min(200, 20_000_000 // length))))
        reps = max(1, min(100, int(2e7 // length)))
        t = []
        for _ in range(a.runs):
            t0 = time.perf_counter()
            for _ in range(reps):
                np.arange(length).reshape(1000, -1).T * 2
            t.append((time.perf_counter() - t0) / reps * 1e3)
        add(f"arange_T.{length}.numpy", statistics.median(t))

    x = cp.full(1000, 1.5, cp.float32)
    y = cp.full(1000, 2.0, cp.float32)
    w = cp.full(1000, 0.25, cp.float32)
    for suffix, f in (("", lambda: xyw(x, y, w)), (".unfused", lambda: x * y + w)):
        add(f"small_xyw.gpu_us{suffix}", time_ms(f, reps=1000) * 1e3, unit="us")
        t = []
        for _ in range(a.runs):
            cp.cuda.get_current_stream().synchronize()
            t0 = time.perf_counter()
            for _ in range(200):
                f()
            t.append((time.perf_counter() - t0) / 200 * 1e6)
        rows.append({"case": f"small_xyw.host_us{suffix}", "value": statistics.median(t),
                     "unit": "us", "ms": 0})
        print(f"small_xyw.host_us{suffix:9s} {statistics.median(t):10.3f} us per call (host)")
    cp.cuda.get_current_stream().synchronize()

    if a.json:
        props = cp.cuda.runtime.getDeviceProperties(0)
        with open(a.json, "w") as f:
            json.dump({"benchmark": "cupy_elementwise", "device": props["name"].decode(),
                       "cupy": cp.__version__, "numpy": np.__version__, "results": rows}, f,
                      indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
