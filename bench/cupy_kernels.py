#!/usr/bin/env python3
"""CuPy's side of bench_kernels: a cached RawKernel launch over 1000
float32, NVRTC's first compile of a new small kernel (CUPY_CACHE_IN_MEMORY,
a new source each call), and a new RawKernel found in the disk cache.
Prints ms per call; --table CUPP_JSON prints both side by side.
    python3 bench/cupy_kernels.py [--runs 7] [--json FILE] [--table CUPP_JSON]"""
import argparse
import json
import os
import sys
import tempfile

from cupy_common import SKIP, import_cupy, median_ms_per_call

ADD = r'''
extern "C" __global__ void add(const float* x, const float* y, float* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] + y[i];
}
'''


def run(a):
    cp = import_cupy()
    if cp is None:
        return SKIP
    import numpy as np
    rows = {}
    n = 1000
    x = cp.arange(n, dtype=cp.float32)
    y = cp.ones(n, dtype=cp.float32)
    z = cp.empty(n, dtype=cp.float32)
    k = cp.RawKernel(ADD, "add")
    args = (x, y, z, np.int32(n))
    k((4,), (256,), args)
    assert bool((z == x + y).all())
    rows["raw_kernel.launch.1000"] = median_ms_per_call(cp, lambda: k((4,), (256,), args), a.runs, 2000)

    with tempfile.TemporaryDirectory() as d:
        os.environ["CUPY_CACHE_DIR"] = d
        serial = [0]

        def first():
            serial[0] += 1
            kk = cp.RawKernel(ADD + f"// {serial[0]}\n", "add")
            kk.compile()

        os.environ["CUPY_CACHE_IN_MEMORY"] = "1"
        rows["raw_kernel.compile.first"] = median_ms_per_call(cp, first, a.runs, 3)
        del os.environ["CUPY_CACHE_IN_MEMORY"]

        src = ADD + f"// disk {os.getpid()}\n"
        cp.RawKernel(src, "add").compile()

        def hit():
            kk = cp.RawKernel(src, "add")
            kk((4,), (256,), args)

        rows["raw_kernel.disk_hit"] = median_ms_per_call(cp, hit, a.runs, 10)

    ek = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x + y", "add_ek")
    assert bool((ek(x, y) == x + y).all())
    rows["elementwise_kernel.call.1000"] = median_ms_per_call(cp, lambda: ek(x, y), a.runs, 2000)
    ssq = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "ssq")
    rows["reduction_kernel.call.1000"] = median_ms_per_call(cp, lambda: ssq(x), a.runs, 2000)
    big = cp.ones(10**7, dtype=cp.float32)
    assert float(ssq(big)) == 1e7
    rows["reduction_kernel.sum.1e7"] = median_ms_per_call(cp, lambda: ssq(big), a.runs, 20)
    m = cp.ones((10**6, 8), dtype=cp.float32)
    rows["reduction_kernel.rows.1e6x8"] = median_ms_per_call(cp, lambda: ssq(m, axis=1), a.runs, 50)

    # Graphs: the same expression called directly and replayed from a
    # capture (CuPy's pool allocates during capture where it can; else the
    # outputs are given).
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        xx, yy, ww = cp.arange(n, dtype=cp.float32), cp.ones(n, dtype=cp.float32) * 0.5, cp.ones(n, dtype=cp.float32)
        rows["graph.xyw.1000"] = median_ms_per_call(cp, lambda: xx * yy + ww, a.runs, 2000)
        fused = cp.ElementwiseKernel("T x, T y, T w", "T z", "z = x * y + w", "xyw")
        zz = [cp.empty(n, dtype=cp.float32) for _ in range(10)]
        try:
            s.begin_capture()
            for z in zz:
                fused(xx, yy, ww, z)
            g = s.end_capture()
            rows["graph.xyw.1000 graph per expr"] = median_ms_per_call(cp, lambda: g.launch(s), a.runs, 200) / 10
        except Exception as e:  # noqa: BLE001
            print("CuPy graph capture:", e)
        aa = cp.linspace(-1, 1, n)

        def chain():
            t = aa + 1.0
            for _ in range(9):
                t = t * 1.5 - aa
            return t
        rows["graph.ops10.1000"] = median_ms_per_call(cp, chain, a.runs, 200)
    for case, ms in rows.items():
        print(f"{case:28s} {ms:10.4f} ms")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"benchmark": "cupy_kernels", "cupy": cp.__version__,
                       "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                       "results": rows}, f, indent=1)
    return 0


def table(cupp_path, cupy_path):
    cupp = json.load(open(cupp_path))
    cupy = json.load(open(cupy_path))
    print("raw: cudaLaunchKernel, NVRTC alone, cupp's own expression x + y, or cupp's replayed graph")
    print(f"{'case':28s} {'cupp ms':>10s} {'raw ms':>10s} {'CuPy ms':>10s} {'speedup':>8s}")
    for r in cupp["results"]:
        ours = r["figures"].get("cupp")
        if "direct" in r["figures"]:  # graphs: direct call, then replay
            ours = r["figures"]["direct"]
        raw = r["figures"].get("cudaLaunchKernel", r["figures"].get("nvrtc_compile",
                               r["figures"].get("cupp expression", r["figures"].get(
                                   "graph per expr", r["figures"].get("graph")))))
        theirs = cupy["results"].get(r["case"])
        speed = f"{theirs / ours:7.2f}x" if ours and theirs else "-"
        fmt = lambda v: f"{v:10.4f}" if v is not None else f"{'-':>10s}"
        print(f"{r['case']:28s} {fmt(ours)} {fmt(raw)} {fmt(theirs)} {speed:>8s}")
        if r["case"] + " graph per expr" in cupy["results"]:
            print(f"{'  CuPy graph per expr':28s} {'':10s} {'':10s} "
                  f"{fmt(cupy['results'][r['case'] + ' graph per expr'])}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--json")
    p.add_argument("--table", nargs=2, metavar=("CUPP_JSON", "CUPY_JSON"))
    a = p.parse_args()
    if a.table:
        table(*a.table)
        return 0
    return run(a)


if __name__ == "__main__":
    sys.exit(main())
