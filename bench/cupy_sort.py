#!/usr/bin/env python3
"""CuPy equivalents of bench/sort.cu: same case names, sizes, dtypes and inputs.

Each case is timed with CUDA events around a loop of calls (median over
--runs loops after a warm-up; one call timed on the host first sets the
calls per loop), as the C++ benchmark does. CuPy runs in its default
configuration (its CUB accelerators where it has them).

  sort.2p26.f32                cp.sort(x) of 2^26 float32 (1-d: axis=None's result)
  argsort.2p26.f32             cp.argsort(x)
  sort_expr.2p26.f32           cp.sort(x * 2)
  sort_rows.65536x1024.f32     cp.sort(x, axis=-1) of the same values reshaped
  sort_rows.1024x65536.f32
  searchsorted.2p24in2p26.f32  cp.searchsorted(a, v), a sorted before the timing
  histogram.2p28.f32.256       cp.histogram(x, 256, range=(-0.5, 0.5)); GB/s of x read and
                               % of a same-run memcpyAsync of x counted read + written
  bincount.2p26.i32.2p20       cp.bincount(x), x in [0, 2^20) with 2^20 - 1 present
  partition.2p26.f32           cp.partition(x, 2^25)
  median.2p26.f32              cp.median(x)
  percentile.2p26.f32          cp.percentile(x, [1, 50, 99])
  unique_counts.2p26.i32.2p20  cp.unique(x, return_counts=True), x in [0, 2^20)
  isin.2p26.i32.2p16           cp.isin(x, t): x in [0, 2^20), t 2^16 values in [0, 2^20)

Inputs: u(seed, k) is a splitmix64 hash of (seed, k) mapped to [0, 1) in
float64; a float array holds scale * (u - 0.5) rounded to float32, an int
array floor(u * m) with element 0 set to m - 1. The same formula as
bench/sort.cu's kernels, so both programs see the same values.

  python3 bench/cupy_sort.py [--runs 7] [--loop-ms 20] [--only SUBSTRING] [--json FILE]

Without CuPy or a CUDA device it prints SKIPPED and exits 77.
"""

import argparse
import json
import sys
import time

from cupy_common import SKIP, import_cupy, median_ms_per_call

UNIT_HASH = r"""
unsigned long long z = seed * 0x9E3779B97F4A7C15ull + (unsigned long long)(long long)i;
z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
z ^= z >> 31;
double u = (double)(z >> 11) * 1.1102230246251565e-16;
"""

SORT_N = 1 << 26


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--loop-ms", type=float, default=20.0)
    p.add_argument("--only", default="")
    p.add_argument("--json")
    a = p.parse_args()
    import numpy as np

    cp = import_cupy()
    if cp is None:
        return SKIP
    print(f"cupy {cp.__version__}, numpy {np.__version__}")

    fill_float = cp.ElementwiseKernel("uint64 seed, float64 scale", "float32 out",
                                      UNIT_HASH + "out = (float)(scale * (u - 0.5));",
                                      "bench_sort_fill_float")
    fill_int = cp.ElementwiseKernel("uint64 seed, int32 m", "int32 out",
                                    UNIT_HASH + "out = i == 0 ? m - 1 : (int)(u * m);",
                                    "bench_sort_fill_int")

    def floats(n, seed, scale=1.0):
        x = cp.empty(n, cp.float32)
        fill_float(np.uint64(seed), np.float64(scale), x)
        return x

    def ints(n, seed, m):
        x = cp.empty(n, cp.int32)
        fill_int(np.uint64(seed), np.int32(m), x)
        return x

    rows = []
    check_failures = []

    def wanted(name):
        return not a.only or a.only in name

    def time_ms(f):
        f()  # the first call pays for kernel compilation
        cp.cuda.get_current_stream().synchronize()
        t0 = time.perf_counter()
        f()
        cp.cuda.get_current_stream().synchronize()
        once = (time.perf_counter() - t0) * 1e3
        reps = min(50, max(1, int(a.loop_ms / max(once, 1e-3))))
        return median_ms_per_call(cp, f, 3 if once > 50 else a.runs, reps)

    def add(case, f, note=""):
        ms = time_ms(f)
        rows.append({"case": case, "ms": ms, "note": note, "extras": {}})
        print(f"{case:30s} {ms:10.4f} ms  {note}")
        return rows[-1]

    def extra(row, key, value):
        row["extras"][key] = value
        print(f"  {key:28s} {value:10.4g}")

    def expect(case, ok, what):
        if not ok:
            check_failures.append(f"{case}: {what}")
            print(f"WARNING: {case}: {what}")

    def free():
        cp.get_default_memory_pool().free_all_blocks()

    # ---- sorts of 2^26 float32 ----
    x = floats(SORT_N, 1)
    if wanted("sort.2p26.f32"):
        add("sort.2p26.f32", lambda: cp.sort(x), "cp.sort(x)")
        s = cp.sort(x)
        expect("sort.2p26.f32", bool((s[1:] >= s[:-1]).all()), "not sorted")
        del s
    if wanted("argsort.2p26.f32"):
        add("argsort.2p26.f32", lambda: cp.argsort(x), "cp.argsort(x)")
        i = cp.argsort(x)
        expect("argsort.2p26.f32", bool((x[i][1:] >= x[i][:-1]).all()), "not sorted")
        del i
    if wanted("sort_expr.2p26.f32"):
        add("sort_expr.2p26.f32", lambda: cp.sort(x * 2), "cp.sort(x * 2)")
    for nrows in (65536, 1024):
        n = SORT_N // nrows
        case = f"sort_rows.{nrows}x{n}.f32"
        if wanted(case):
            m = x.reshape(nrows, n)
            add(case, lambda: cp.sort(m, axis=-1), "cp.sort(x, axis=-1)")
            s = cp.sort(m, axis=-1)
            expect(case, bool((s[:, 1:] >= s[:, :-1]).all()), "rows not sorted")
            del s
    del x
    free()

    # ---- searching and counting ----
    if wanted("searchsorted.2p24in2p26.f32"):
        sa = cp.sort(floats(SORT_N, 3))
        v = floats(1 << 24, 4)
        add("searchsorted.2p24in2p26.f32", lambda: cp.searchsorted(sa, v),
            "cp.searchsorted(a, v), side='left'")
        z = cp.searchsorted(sa, v)
        inside = (z > 0) & (z < SORT_N)
        ok = bool(cp.all(~inside | ((sa[cp.maximum(z - 1, 0)] < v)
                                    & (v <= sa[cp.minimum(z, SORT_N - 1)]))))
        expect("searchsorted.2p24in2p26.f32", ok, "a[i - 1] < v <= a[i] fails")
        del sa, v, z
        free()

    if wanted("histogram.2p28.f32.256"):
        n = 1 << 28
        xh = floats(n, 5, 0.999)  # strictly inside [-0.5, 0.5)
        out = cp.empty_like(xh)
        nbytes = 4 * n

        def copy():
            cp.cuda.runtime.memcpyAsync(out.data.ptr, xh.data.ptr, nbytes,
                                        cp.cuda.runtime.memcpyDeviceToDevice,
                                        cp.cuda.get_current_stream().ptr)

        copy_ms = time_ms(copy)
        del out
        r = add("histogram.2p28.f32.256", lambda: cp.histogram(xh, 256, range=(-0.5, 0.5)),
                "cp.histogram(x, 256, range=(-0.5, 0.5))")
        copy_gbs = 2 * nbytes / (copy_ms * 1e-3) / 1e9  # read + written
        cupy_gbs = nbytes / (r["ms"] * 1e-3) / 1e9  # x read
        extra(r, "copy_ms", copy_ms)
        extra(r, "copy_gbs", copy_gbs)
        extra(r, "cupy_gbs", cupy_gbs)
        extra(r, "cupy_of_copy_pct", 100 * cupy_gbs / copy_gbs)
        h, _ = cp.histogram(xh, 256, range=(-0.5, 0.5))
        expect("histogram.2p28.f32.256", int(h.sum()) == n, f"total {int(h.sum())}")
        del xh, h
        free()

    if wanted("bincount.2p26.i32.2p20"):
        m = 1 << 20
        xi = ints(SORT_N, 6, m)
        add("bincount.2p26.i32.2p20", lambda: cp.bincount(xi), "cp.bincount(x)")
        c = cp.bincount(xi)
        expect("bincount.2p26.i32.2p20", c.size == m and int(c.sum()) == SORT_N,
               f"length {c.size}, total {int(c.sum())}")
        del xi, c
        free()

    if wanted("partition.2p26.f32") or wanted("median.2p26.f32") or wanted(
            "percentile.2p26.f32"):
        x = floats(SORT_N, 1)
        kth = SORT_N // 2
        want = float(cp.sort(x)[kth])
        if wanted("partition.2p26.f32"):
            add("partition.2p26.f32", lambda: cp.partition(x, kth), "cp.partition(x, 2**25)")
            expect("partition.2p26.f32", float(cp.partition(x, kth)[kth]) == want,
                   "kth element")
        if wanted("median.2p26.f32"):
            add("median.2p26.f32", lambda: cp.median(x), "cp.median(x)")
        if wanted("percentile.2p26.f32"):
            add("percentile.2p26.f32", lambda: cp.percentile(x, [1, 50, 99]),
                "cp.percentile(x, [1, 50, 99])")
        del x
        free()

    if wanted("unique_counts.2p26.i32.2p20"):
        xi = ints(SORT_N, 7, 1 << 20)
        add("unique_counts.2p26.i32.2p20", lambda: cp.unique(xi, return_counts=True),
            "cp.unique(x, return_counts=True)")
        u, c = cp.unique(xi, return_counts=True)
        expect("unique_counts.2p26.i32.2p20", int(c.sum()) == SORT_N, f"total {int(c.sum())}")
        del xi, u, c
        free()

    if wanted("isin.2p26.i32.2p16"):
        xi = ints(SORT_N, 8, 1 << 20)
        t = ints(1 << 16, 9, 1 << 20)
        add("isin.2p26.i32.2p16", lambda: cp.isin(xi, t), "cp.isin(x, t)")
        del xi, t
        free()

    if a.json:
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        with open(a.json, "w") as f:
            json.dump({"benchmark": "cupy_sort", "device": props["name"].decode(),
                       "cupy": cp.__version__, "numpy": np.__version__,
                       "check_failures": check_failures, "results": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
