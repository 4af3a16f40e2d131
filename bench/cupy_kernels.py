#!/usr/bin/env python3
"""CuPy's side of bench_kernels: a cached RawKernel launch over 1000
float32, NVRTC's first compile of a new small kernel (CUPY_CACHE_IN_MEMORY,
a new source each call; beside it NVRTC alone, called as CuPy calls it and
as cupp does, and the process CPU time of each), a new RawKernel found in
the disk cache (CuPy's module memo bypassed, its disk cache read) and in
memory. Prints ms per call; --table CUPP_JSON CUPY_JSON prints both side by
side.
    python3 bench/cupy_kernels.py [--runs 7] [--only SUBSTRING] [--json FILE]
    python3 bench/cupy_kernels.py --table CUPP_JSON CUPY_JSON"""
import argparse
import io
import json
import os
import statistics
import sys
import tempfile
import time

from cupy_common import SKIP, import_cupy, median_ms_per_call

ADD = r'''
extern "C" __global__ void add(const float* x, const float* y, float* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] + y[i];
}
'''


def loaded_library(name):
    """The path of the shared library `name` this process has mapped."""
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                if name in line and "/" in line:
                    return line.split()[-1]
    except OSError:
        pass
    return "?"


def event_ms(cp, f):
    """One call of f timed by CUDA events on the current stream."""
    s, e = cp.cuda.Event(), cp.cuda.Event()
    s.record()
    f()
    e.record()
    e.synchronize()
    return cp.cuda.get_elapsed_time(s, e)


def cpu_ms_per_call(f, calls):
    """Median process CPU time of one call of f (every thread's)."""
    t = []
    for _ in range(calls):
        c0 = time.process_time()
        f()
        t.append((time.process_time() - c0) * 1e3)
    return statistics.median(t)


def compile_rows(cp, a, rows, args):
    """First compile, NVRTC alone both ways, disk and memory hits."""
    from cupy.cuda import compiler
    from cupy_backends.cuda.libs import nvrtc
    major, minor = nvrtc.getVersion()
    arch = compiler._get_arch()
    print(f"NVRTC {major}.{minor} ({loaded_library('libnvrtc')}), arch {arch}")
    # The options CuPy's RawKernel compiles with (core.compile_with_cache and
    # compiler._compile_with_cache_cuda): include paths, --std=c++17, -ftz=true,
    # the architecture, --device-as-default-execution-space.
    try:
        from cupy._core import core
        cupy_options = core.assemble_cupy_compiler_options(())
    except Exception:  # noqa: BLE001 (a private API; its include search may fail)
        cupy_options = ("--std=c++17",)
    cupy_options = tuple(cupy_options) + ("-ftz=true", f"-arch=sm_{arch}",
                                          "--device-as-default-execution-space")
    # cupp's: the architecture, and --minimal for sources that name nothing it
    # leaves out (NVRTC 12.4 and later).
    cupp_options = (f"--gpu-architecture=sm_{arch}",)
    if (major, minor) >= (12, 4):
        cupp_options += ("--minimal",)
    print("CuPy's options:", " ".join(cupy_options))
    print("cupp's options:", " ".join(cupp_options))
    serial = [0]

    def new_source():
        serial[0] += 1
        return ADD + f"// {os.getpid()} {serial[0]}\n"

    def nvrtc_alone(options):
        prog = nvrtc.createProgram(new_source(), "add.cu", (), ())
        try:
            nvrtc.compileProgram(prog, options)
            return nvrtc.getCUBIN(prog)
        finally:
            nvrtc.destroyProgram(prog)

    def first():
        kk = cp.RawKernel(new_source(), "add")
        kk.compile()

    os.environ["CUPY_CACHE_IN_MEMORY"] = "1"
    rows["raw_kernel.compile.first"] = median_ms_per_call(cp, first, a.runs, 3)
    rows["raw_kernel.compile.first cpu"] = cpu_ms_per_call(first, a.runs)
    del os.environ["CUPY_CACHE_IN_MEMORY"]
    # NVRTC alone, CuPy's call and cupp's in alternation (clock drift falls on
    # both), GPU-event and CPU times.
    for options in (cupy_options, cupp_options):
        nvrtc_alone(options)
    t = {"cupy": [], "cupp": [], "cupy cpu": [], "cupp cpu": []}
    for _ in range(a.runs):
        for who, options in (("cupy", cupy_options), ("cupp", cupp_options)):
            t[who].append(event_ms(cp, lambda: nvrtc_alone(options)))
            t[who + " cpu"].append(cpu_ms_per_call(lambda: nvrtc_alone(options), 1))
    for key, v in t.items():
        rows[f"raw_kernel.compile.nvrtc {key}"] = statistics.median(v)

    with tempfile.TemporaryDirectory() as d:
        # CuPy 14 reads CUPY_CACHE_DIR when it is imported: point its disk
        # backend at the temporary directory where the private setter exists.
        os.environ["CUPY_CACHE_DIR"] = d
        try:
            from cupy.cuda._compiler_cache import DiskKernelCacheBackend
            compiler._set_kernel_cache_backend(DiskKernelCacheBackend(d))
        except (ImportError, AttributeError):
            pass
        src = ADD + f"// disk {os.getpid()}\n"
        cp.RawKernel(src, "add").compile()

        def disk_hit():
            # RawKernel's modules are memoized by their arguments, log_stream
            # among them: a new one misses the memo and reaches the disk
            # cache (the disk key leaves log_stream out).
            kk = cp.RawKernel(src, "add")
            kk.compile(log_stream=io.StringIO())
            kk((4,), (256,), args)

        def memory_hit():
            kk = cp.RawKernel(src, "add")
            kk((4,), (256,), args)

        rows["raw_kernel.disk_hit"] = median_ms_per_call(cp, disk_hit, a.runs, 10)
        rows["raw_kernel.memory_hit"] = median_ms_per_call(cp, memory_hit, a.runs, 10)


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

    if not a.only or a.only in "raw_kernel.compile raw_kernel.disk_hit raw_kernel.memory_hit":
        compile_rows(cp, a, rows, args)
    if not a.only:
        other_rows(cp, a, rows, x, y)
    for case, ms in rows.items():
        print(f"{case:36s} {ms:10.4f} ms")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"benchmark": "cupy_kernels", "cupy": cp.__version__,
                       "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                       "results": rows}, f, indent=1)
    return 0


def other_rows(cp, a, rows, x, y):
    n = x.size
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
    # The compile and cache rows in full: every figure of each program (GPU-
    # event ms; "cpu": the process's CPU ms per call).
    print("\ncompile and cache rows, every figure (ms per call):")
    for r in cupp["results"]:
        if r["case"].startswith(("raw_kernel.compile", "raw_kernel.disk_hit",
                                 "raw_kernel.memory_hit")):
            for who, ms in list(r["figures"].items()) + list(r.get("extras", {}).items()):
                print(f"  cupp {r['case'] + ' ' + who:60s} {ms:10.4f}")
    for case, ms in cupy["results"].items():
        if case.startswith(("raw_kernel.compile", "raw_kernel.disk_hit", "raw_kernel.memory_hit")):
            print(f"  CuPy {case:60s} {ms:10.4f}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--json")
    p.add_argument("--only", default="", help="only the rows whose name contains this")
    p.add_argument("--table", nargs=2, metavar=("CUPP_JSON", "CUPY_JSON"))
    a = p.parse_args()
    if a.table:
        table(*a.table)
        return 0
    return run(a)


if __name__ == "__main__":
    sys.exit(main())
