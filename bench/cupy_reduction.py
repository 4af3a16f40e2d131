#!/usr/bin/env python3
"""CuPy equivalents of bench/reduction.cu: same case names, units and bytes.

Each case is timed with CUDA events around a loop of calls (median over
--runs loops after a warm-up), like the C++ benchmark, and its GB/s is
compared with the copy bandwidth CuPy reaches in the same run. CuPy runs in
its default configuration (its accelerators, CUB by default, as the
environment sets them: they are printed and kept in the JSON).

sum(x * y) is timed three ways: the plain expression, which stores x * y
and then sums it ("sum_xy.f32.unfused"), cupy.fuse of the same
("sum_xy.f32.fuse"), and cp.dot(x, y) ("sum_xy.f32.dot": cuBLAS's sdot, a
different algorithm, reported apart); "sum_xy.f32" is the better of the
first two.

  python3 bench/cupy_reduction.py [--log2n 28] [--side 16384] [--reps 10] [--runs 7] [--json FILE]

Every case's answer is checked once; a wrong one prints a WARNING line and
is listed under "check_failures" in the JSON. Without CuPy or a CUDA device
it prints SKIPPED and exits 77.
"""

import argparse
import json
import math
import os
import statistics
import sys
import time

from cupy_common import SKIP, import_cupy, median_ms_per_call


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--log2n", type=int, default=28)
    p.add_argument("--side", type=int, default=16384)
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--json")
    a = p.parse_args()
    import numpy as np

    cp = import_cupy()
    if cp is None:
        return SKIP

    accelerators = {"CUPY_ACCELERATORS": os.environ.get("CUPY_ACCELERATORS")}
    try:
        from cupy._core import _accelerator
        accelerators["routine"] = list(_accelerator.get_routine_accelerators())
        accelerators["reduction"] = list(_accelerator.get_reduction_accelerators())
    except Exception as e:  # a private module: its absence is no failure
        accelerators["error"] = f"{type(e).__name__}: {e}"
    print(f"cupy {cp.__version__}, accelerators {accelerators}")

    rows = []
    copy_gbs = [0.0]

    def time_ms(f, reps=a.reps):
        return median_ms_per_call(cp, f, a.runs, reps)

    def add(case, ms, nbytes=0, unit=None):
        value = nbytes / (ms * 1e-3) / 1e9 if nbytes else ms
        rows.append({"case": case, "value": value, "unit": unit or ("GB/s" if nbytes else "ms"),
                     "ms": ms, "bytes": nbytes})
        line = f"{case:28s} {ms:10.4f} ms"
        if nbytes:
            line += f"  {value:8.1f} GB/s"
            if copy_gbs[0]:
                line += f"  {100 * value / copy_gbs[0]:5.1f}% of copy"
        print(line)
        return rows[-1]

    # CuPy's answers are checked as cupp's are, but a wrong one is reported and
    # kept in the JSON rather than ending the run: the timings still count.
    check_failures = []

    def expect(case, got, want, rel=1e-5):
        got = float(got)
        if not abs(got - want) <= rel * abs(want):
            check_failures.append(f"{case}: {got}, expected {want}")
            print(f"WARNING: {case}: CuPy's result {got}, expected {want}")

    n = 1 << a.log2n
    x = cp.full(n, 1.0, cp.float32)
    z = cp.empty_like(x)
    add("copy.f32", time_ms(lambda: cp.cuda.runtime.memcpyAsync(
        z.data.ptr, x.data.ptr, n * 4, cp.cuda.runtime.memcpyDeviceToDevice,
        cp.cuda.get_current_stream().ptr)), 2 * n * 4)
    copy_gbs[0] = rows[-1]["value"]
    del z

    add("sum.f32", time_ms(lambda: cp.sum(x)), n * 4)
    expect("sum.f32", cp.sum(x), n)
    at = n - 1000
    x[at] = 2.0
    add("argmax.f32", time_ms(lambda: cp.argmax(x)), n * 4)
    expect("argmax.f32", cp.argmax(x), at, 0)
    del x
    cp.get_default_memory_pool().free_all_blocks()

    x = cp.full(n, 1.5, cp.float32)
    y = cp.full(n, 2.0, cp.float32)

    @cp.fuse(kernel_name="sum_xy")
    def sum_xy(x, y):
        return cp.sum(x * y)

    unfused = add("sum_xy.f32.unfused", time_ms(lambda: cp.sum(x * y)), 2 * n * 4)
    fused = add("sum_xy.f32.fuse", time_ms(lambda: sum_xy(x, y)), 2 * n * 4)
    expect("sum_xy.f32.fuse", sum_xy(x, y), 3.0 * n)
    best = min(unfused, fused, key=lambda r: r["ms"])
    add("sum_xy.f32", best["ms"], 2 * n * 4)
    rows[-1]["best_of"] = best["case"]
    add("sum_xy.f32.dot", time_ms(lambda: cp.dot(x, y)), 2 * n * 4)
    expect("sum_xy.f32.dot", cp.dot(x, y), 3.0 * n)
    del x, y
    cp.get_default_memory_pool().free_all_blocks()

    x = cp.full(n, 1.0, cp.float32)
    add("cumsum.f32", time_ms(lambda: cp.cumsum(x)), 2 * n * 4)
    c = cp.cumsum(x)
    expect("cumsum.f32", c[999], 1000.0, 0)
    expect("cumsum.f32", c[n - 1], n, 1e-3)
    del x, c
    cp.get_default_memory_pool().free_all_blocks()

    m = a.side
    x = cp.full((m, m), 1.0, cp.float32)
    for axis in (0, 1):
        name = f"sum_axis{axis}.{m}x{m}"
        add(name, time_ms(lambda: cp.sum(x, axis=axis)), m * m * 4)
        r = cp.sum(x, axis=axis)
        expect(name, r[0], m)
        expect(name, r[-1], m)
    del x
    cp.get_default_memory_pool().free_all_blocks()

    # 32 MB fits in the H100's 50 MB L2: the calls cycle through copies that
    # together span four times the L2, so each reads memory.
    l2 = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["l2CacheSize"]
    for r, c in ((1000000, 8), (8, 1000000)):
        nbytes = r * c * 4
        xs = [cp.full((r, c), 1.0, cp.float32) for _ in range(max(1, math.ceil(4 * l2 / nbytes)))]
        for axis in (1, 0):
            name = f"sum_axis{axis}.{r}x{c}"
            k = [0]

            def f():
                k[0] += 1
                return cp.sum(xs[k[0] % len(xs)], axis=axis)

            add(name, time_ms(f, reps=a.reps * 10), nbytes)
            out = cp.sum(xs[0], axis=axis)
            expect(name, out[0], r if axis == 0 else c)
            expect(name, out[-1], r if axis == 0 else c)
        del xs
    cp.get_default_memory_pool().free_all_blocks()

    x = cp.full(1000, 1.0, cp.float32)
    gpu_us = time_ms(lambda: cp.sum(x), reps=1000) * 1e3
    rows.append({"case": "sum_small.gpu_us", "value": gpu_us, "unit": "us", "ms": gpu_us * 1e-3,
                 "bytes": 0})
    print(f"{'sum_small.gpu_us':28s} {gpu_us:10.3f} us per call (GPU, loops of 1000 calls)")
    t = []
    for _ in range(a.runs):
        cp.cuda.get_current_stream().synchronize()
        t0 = time.perf_counter()
        for _ in range(200):
            cp.sum(x)
        t.append((time.perf_counter() - t0) / 200 * 1e6)
    rows.append({"case": "sum_small.host_us", "value": statistics.median(t), "unit": "us",
                 "ms": 0, "bytes": 0})
    print(f"{'sum_small.host_us':28s} {statistics.median(t):10.3f} us per call (host)")
    cp.cuda.get_current_stream().synchronize()
    expect("sum_small", cp.sum(x), 1000.0, 0)

    if a.json:
        props = cp.cuda.runtime.getDeviceProperties(0)
        with open(a.json, "w") as f:
            json.dump({"benchmark": "cupy_reduction", "device": props["name"].decode(),
                       "cupy": cp.__version__, "numpy": np.__version__,
                       "accelerators": accelerators, "copy_gbs": copy_gbs[0],
                       "check_failures": check_failures, "results": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
