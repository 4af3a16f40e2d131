#!/usr/bin/env python3
"""CuPy equivalents of bench/linalg.cu: same case names, sizes, dtypes and inputs.

Each case is timed with CUDA events around a loop of calls (median over
--runs loops after a warm-up; one call timed on the host first sets the
calls per loop, so that the slow rows take seconds), as the C++ benchmark
does. CuPy runs in its default configuration: linalg does not check the
solvers' status (cupyx config linalg='ignore'), and float32 products are
full float32 (its compute type is set to the default for every row but
matmul_tf32, which sets COMPUTE_TYPE_TF32, as CUPY_TF32=1 would; where
that private setting is missing, the TF32 row runs in a second process
started with CUPY_TF32=1).

Inputs: element k of a matrix of side n is scale * u(k) (+ 1 on the
diagonal), u a splitmix64 hash of (seed, k) in [-0.5, 0.5) computed in
float64 and rounded to the dtype; symmetric matrices hash the upper
triangle's index. The same kernel as bench/linalg.cu's, so both programs
see the same matrices.

  python3 bench/cupy_linalg.py [--runs 7] [--loop-ms 20] [--only SUBSTRING] [--json FILE]

Without CuPy or a CUDA device it prints SKIPPED and exits 77.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time

from cupy_common import SKIP, import_cupy, median_ms_per_call

FILL_BODY = r"""
long long k = i, at = k;
double diagonal = 0;
if (side > 0) {
  long long per = side * side, local = k % per, r = local / side, c = local % side;
  if (symmetric && c < r) at = k - local + c * side + r;
  diagonal = r == c ? 1.0 : 0.0;
}
unsigned long long z = seed * 0x9E3779B97F4A7C15ull + (unsigned long long)at;
z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
z ^= z >> 31;
out = scale * ((double)(z >> 11) * 1.1102230246251565e-16 - 0.5) + diagonal;
"""


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--loop-ms", type=float, default=20.0)
    p.add_argument("--only", default="")
    p.add_argument("--json")
    p.add_argument("--tf32-child", action="store_true",
                   help=argparse.SUPPRESS)  # the TF32 row alone, under CUPY_TF32=1
    a = p.parse_args()
    import numpy as np

    cp = import_cupy()
    if cp is None:
        return SKIP
    print(f"cupy {cp.__version__}, numpy {np.__version__}, "
          f"CUPY_TF32={os.environ.get('CUPY_TF32')}")

    print_blas_versions(cp)

    fill = cp.ElementwiseKernel("uint64 seed, int64 side, float64 scale, bool symmetric",
                                "float64 out", FILL_BODY, "bench_linalg_fill")

    def filled(shape, dtype, seed, side, scale, symmetric=False):
        dtype = np.dtype(dtype)
        if dtype.kind == "c":  # real and imaginary parts: a plain array's 2k and 2k + 1
            x = cp.empty(tuple(shape[:-1]) + (2 * shape[-1],), cp.float64)
            fill(np.uint64(seed), np.int64(0), scale, False, x)
            return x.view(cp.complex128).astype(dtype)
        x = cp.empty(shape, cp.float64)
        fill(np.uint64(seed), np.int64(side), scale, symmetric, x)
        if dtype == np.float16:
            return x.astype(cp.float32).astype(cp.float16)
        return x.astype(dtype)

    def well_conditioned(shape, dtype, seed, symmetric=False):
        n = shape[-1]
        return filled(shape, dtype, seed, n, 0.5 / math.sqrt(n), symmetric)

    def plain(shape, dtype, seed):
        return filled(shape, dtype, seed, 0, 1.0)

    # The float32 products' compute type (CuPy private API; absent: None).
    try:
        from cupy._core import _routines_linalg as rl
        tf32_type = getattr(rl, "COMPUTE_TYPE_TF32", 7)
        default_type = getattr(rl, "COMPUTE_TYPE_DEFAULT", 1)

        def set_tf32(on):
            rl.set_compute_type(cp.float32, tf32_type if on else default_type)
    except (ImportError, AttributeError):
        set_tf32 = None
    if set_tf32 and not a.tf32_child:
        set_tf32(False)

    rows = []
    check_failures = []

    def wanted(name):
        return not a.only or a.only in name

    def time_ms(f):
        f()  # the first call pays for kernel compilation and handles
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
        print(f"{case:28s} {ms:10.4f} ms  {note}")
        return rows[-1]

    def extra(row, key, value):
        row["extras"][key] = value
        print(f"  {key:26s} {value:10.4g}")

    def expect(case, got, want, tol):
        got, want = complex(got).real, complex(want).real
        if not abs(got - want) <= tol * (1 + abs(want)):
            check_failures.append(f"{case}: {got}, expected {want}")
            print(f"WARNING: {case}: CuPy's result {got}, expected {want}")

    def free():
        cp.get_default_memory_pool().free_all_blocks()

    if a.tf32_child:
        tf32_row(cp, plain, add)
        return finish(a, cp, np, rows, check_failures, {"tf32": "CUPY_TF32=1 process"})

    # ---- products ----
    for case, dtype, n in (("matmul.8192.f16", np.float16, 8192),
                           ("matmul.8192.f32", np.float32, 8192),
                           ("matmul.4096.f64", np.float64, 4096),
                           ("matmul.4096.c64", np.complex64, 4096)):
        if not wanted(case):
            continue
        x, y = plain((n, n), dtype, 1), plain((n, n), dtype, 2)
        if np.dtype(dtype).kind == "c":
            add(case, lambda: cp.matmul(x, y), "cp.matmul(a, b)")
        else:
            raw_variants(cp, np, a, rows, case, x, y)
        del x, y
        free()

    if wanted("matmul.65536x8x8.f32"):
        count, per = 65536, 64
        nbytes = 3 * count * per * 4
        l2 = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["l2CacheSize"]
        sets = max(2, math.ceil(4 * l2 / nbytes))
        ab = [plain((2, count, 8, 8), np.float32, 100 + k) for k in range(sets)]
        out = [cp.empty(3 * count * per // 2, cp.float32) for _ in range(sets)]
        k = [0]

        def copy():
            i = k[0] % sets
            k[0] += 1
            cp.cuda.runtime.memcpyAsync(out[i].data.ptr, ab[i].data.ptr, nbytes // 2,
                                        cp.cuda.runtime.memcpyDeviceToDevice,
                                        cp.cuda.get_current_stream().ptr)

        def stacked():
            i = k[0] % sets
            k[0] += 1
            return cp.matmul(ab[i][0], ab[i][1])

        copy_ms = time_ms(copy)
        r = add("matmul.65536x8x8.f32", stacked, "cp.matmul of (65536, 8, 8) stacks")
        extra(r, "copy_ms", copy_ms)
        extra(r, "copy_gbs", nbytes / (copy_ms * 1e-3) / 1e9)
        extra(r, "cupy_gbs", nbytes / (r["ms"] * 1e-3) / 1e9)
        extra(r, "cupy_of_copy_pct", 100 * copy_ms / r["ms"])
        del ab, out
        free()

    if wanted("matmul_2aa_c.4096.f32") or wanted("matmul.4096.f32"):
        n = 4096
        x, c = plain((n, n), np.float32, 3), plain((n, n), np.float32, 4)
        add("matmul.4096.f32", lambda: cp.matmul(x, x), "cp.matmul(a, a)")
        add("matmul_2aa_c.4096.f32", lambda: 2 * cp.matmul(x, x) + c, "2 * cp.matmul(a, a) + c")
        del x, c
        free()

    tf32_mode = None
    if wanted("matmul_tf32.8192.f32"):
        if set_tf32:
            set_tf32(True)
            tf32_row(cp, plain, add)
            set_tf32(False)
            tf32_mode = "set_compute_type(float32, COMPUTE_TYPE_TF32)"
        else:
            tf32_mode = "CUPY_TF32=1 process"
            child = subprocess.run(
                [sys.executable, os.path.abspath(__file__), "--tf32-child", "--runs", str(a.runs),
                 "--loop-ms", str(a.loop_ms), "--json", "/dev/stdout"],
                env=dict(os.environ, CUPY_TF32="1"), capture_output=True, text=True)
            try:
                text = child.stdout[child.stdout.index("{\n"):]
                rows.extend(json.loads(text)["results"])
                print(f"{rows[-1]['case']:28s} {rows[-1]['ms']:10.4f} ms  (CUPY_TF32=1 process)")
            except ValueError:
                print(f"WARNING: the CUPY_TF32=1 process failed: {child.stderr[-2000:]}")
        free()

    # ---- 100,000 stacked 4x4 ----
    if wanted("inv.100000x4x4.f32") or wanted("solve.100000x4x4.f32"):
        s = well_conditioned((100000, 4, 4), np.float32, 11)
        rhs = plain((100000, 4, 1), np.float32, 12)
        if wanted("inv.100000x4x4.f32"):
            add("inv.100000x4x4.f32", lambda: cp.linalg.inv(s), "cp.linalg.inv, not checked")
        if wanted("solve.100000x4x4.f32"):
            add("solve.100000x4x4.f32", lambda: cp.linalg.solve(s, rhs),
                "cp.linalg.solve, b (100000, 4, 1), not checked")
            z = cp.linalg.solve(s, rhs)
            expect("solve.100000x4x4.f32", float(cp.abs(s @ z - rhs).max()), 0, 1e-5)
        del s, rhs
        free()

    # ---- 1000² float64 ----
    n = 1000
    a64 = well_conditioned((n, n), np.float64, 21)
    spd = well_conditioned((n, n), np.float64, 22, symmetric=True)
    rhs = plain((n,), np.float64, 23)
    column = rhs.reshape(n, 1)
    if wanted("solve.1000.f64.vector") or wanted("solve.1000.f64.column"):
        add("solve.1000.f64.vector", lambda: cp.linalg.solve(a64, rhs), "b (1000,)")
        add("solve.1000.f64.column", lambda: cp.linalg.solve(a64, column), "b (1000, 1)")
        expect("solve.1000.f64", float(cp.abs(a64 @ cp.linalg.solve(a64, rhs) - rhs).max()), 0,
               1e-12)
    if wanted("det.1000.f64"):
        add("det.1000.f64", lambda: cp.linalg.det(a64), "cp.linalg.det")
    if wanted("inv.1000.f64"):
        add("inv.1000.f64", lambda: cp.linalg.inv(a64), "cp.linalg.inv")
    if wanted("cholesky.1000.f64"):
        add("cholesky.1000.f64", lambda: cp.linalg.cholesky(spd), "cp.linalg.cholesky")
    if wanted("qr.1000.f64"):
        add("qr.1000.f64", lambda: cp.linalg.qr(a64), "cp.linalg.qr, reduced")
    if wanted("eigh.1000.f64"):
        add("eigh.1000.f64", lambda: cp.linalg.eigh(spd), "cp.linalg.eigh")
    if wanted("svd.1000.f64"):
        r = add("svd.1000.f64", lambda: cp.linalg.svd(a64), "cp.linalg.svd, full_matrices")
        u, sv, vh = cp.linalg.svd(a64)
        extra(r, "cupy_error",
              float(cp.linalg.norm((u * sv) @ vh - a64) / cp.linalg.norm(a64)))
        del u, vh
    if wanted("svdvals.1000.f64"):
        if hasattr(cp.linalg, "svdvals"):
            add("svdvals.1000.f64", lambda: cp.linalg.svdvals(a64), "cp.linalg.svdvals")
        else:
            add("svdvals.1000.f64", lambda: cp.linalg.svd(a64, compute_uv=False),
                "cp.linalg.svd(a, compute_uv=False): this CuPy has no svdvals")
    if wanted("norm2.1000.f64"):
        add("norm2.1000.f64", lambda: cp.linalg.norm(a64, 2), "cp.linalg.norm(a, 2)")

    return finish(a, cp, np, rows, check_failures, {"tf32": tf32_mode})


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


def print_blas_versions(cp):
    """The cuBLAS CuPy runs (cupp's may be another: compare with bench_linalg's line)."""
    from cupy_backends.cuda.libs import cublas
    handle = cp.cuda.device.get_cublas_handle()
    print(f"cuBLAS {cublas.getVersion(handle)} ({loaded_library('libcublas.so')}), "
          f"cuBLASLt ({loaded_library('libcublasLt')})")


def raw_variants(cp, np, a, rows, case, x, y):
    """cp.matmul(x, y) of square float16/32/64 matrices timed in alternation
    with the cuBLAS call CuPy makes for it, made directly (cublasGemmEx,
    CUBLAS_GEMM_DEFAULT_TENSOR_OP, compute type 32F or 64F), and the call
    cupp makes (strided batched with one matrix, CUBLAS_GEMM_DEFAULT; on
    CuPy's handle, so with cuBLAS's default workspace rather than cupp's 32
    MiB), each result compared with cp.matmul's bit for bit."""
    import statistics
    from cupy_backends.cuda.api import runtime
    from cupy_backends.cuda.libs import cublas
    n = x.shape[0]
    kind = {np.float16: runtime.CUDA_R_16F, np.float32: runtime.CUDA_R_32F,
            np.float64: runtime.CUDA_R_64F}[x.dtype.type]
    f64 = x.dtype == np.float64
    compute = cublas.CUBLAS_COMPUTE_64F if f64 else cublas.CUBLAS_COMPUTE_32F
    one = np.array(1, np.float64 if f64 else np.float32)
    zero = np.array(0, np.float64 if f64 else np.float32)
    handle = cp.cuda.device.get_cublas_handle()
    outs = [cp.empty((n, n), x.dtype) for _ in range(2)]

    def cupy_call():  # C^T = B^T A^T, column-major
        cublas.gemmEx(handle, 0, 0, n, n, n, one.ctypes.data, y.data.ptr, kind, n, x.data.ptr,
                      kind, n, zero.ctypes.data, outs[0].data.ptr, kind, n, compute,
                      cublas.CUBLAS_GEMM_DEFAULT_TENSOR_OP)

    def cupp_call():
        cublas.gemmStridedBatchedEx(handle, 0, 0, n, n, n, one.ctypes.data, y.data.ptr, kind, n,
                                    n * n, x.data.ptr, kind, n, n * n, zero.ctypes.data,
                                    outs[1].data.ptr, kind, n, n * n, 1, compute,
                                    cublas.CUBLAS_GEMM_DEFAULT)

    z = [None]

    def matmul():
        z[0] = cp.matmul(x, y)

    calls = (("cupy", matmul), ("as CuPy calls cuBLAS", cupy_call),
             ("as cupp calls cuBLAS", cupp_call))
    for _, f in calls:
        f()
    cp.cuda.get_current_stream().synchronize()
    t0 = time.perf_counter()
    matmul()
    cp.cuda.get_current_stream().synchronize()
    once = (time.perf_counter() - t0) * 1e3
    reps = min(50, max(1, int(a.loop_ms / max(once, 1e-3))))
    t = {who: [] for who, _ in calls}
    for _ in range(a.runs):
        for who, f in calls:
            t[who].append(median_ms_per_call(cp, f, 1, reps))
    row = {"case": case, "ms": statistics.median(t["cupy"]), "note": "cp.matmul(a, b)",
           "extras": {}}
    rows.append(row)
    print(f"{case:28s} {row['ms']:10.4f} ms  cp.matmul(a, b)")
    for who, _ in calls[1:]:
        row["extras"][who] = statistics.median(t[who])
        print(f"  {who:26s} {row['extras'][who]:10.4f} ms")
    bits = f"u{x.dtype.itemsize}"
    for who, out in (("cupy_style", outs[0]), ("cupp_style", outs[1])):
        differ = int(cp.count_nonzero(z[0].view(bits) != out.view(bits)))
        row["extras"]["differ_from_cupy " + who] = differ
        print(f"  differ_from_cupy {who:12s} {differ:10d} elements")


def tf32_row(cp, plain, add):
    import numpy as np
    x, y = plain((8192, 8192), np.float32, 1), plain((8192, 8192), np.float32, 2)
    add("matmul_tf32.8192.f32", lambda: cp.matmul(x, y), "cp.matmul(a, b), TF32")
    del x, y


def finish(a, cp, np, rows, check_failures, settings):
    if a.json:
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        text = json.dumps({"benchmark": "cupy_linalg", "device": props["name"].decode(),
                           "cupy": cp.__version__, "numpy": np.__version__,
                           "settings": settings, "check_failures": check_failures,
                           "results": rows}, indent=2)
        if a.json == "/dev/stdout":
            print(text)
        else:
            with open(a.json, "w") as f:
                f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
