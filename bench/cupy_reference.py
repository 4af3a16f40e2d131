#!/usr/bin/env python3
"""CuPy/NumPy equivalents of bench/memory_pool and bench/transfer.

Same workloads, same case names, same units, so that run_benchmarks.sh can
put the numbers side by side:

  memory pool  (us per allocate/free pair, wall clock after a warm-up)
    mixed.pool_malloc   cupy.get_default_memory_pool().malloc(n)
    mixed.alloc         cupy.cuda.alloc(n)
    mixed.async_pool    cupy.cuda.MemoryAsyncPool().malloc(n)
    small.*             the same with every size 4 KiB
    (window of 64 live allocations; each step frees one at random and
    allocates a new one; sizes log-uniform over [512 B, 64 MiB) from the
    splitmix64 sequence bench/memory_pool.cu uses)

  transfers    (GB/s = bytes / seconds, 1 GB = 1e9 B, median after a warm-up)
    h2d.pageable.asarray   cp.asarray(numpy array)
    h2d.pageable.set       x.set(numpy array)
    h2d.pinned.asarray     cp.asarray(cupyx.empty_pinned array)
    h2d.pinned.set         x.set(pinned array)
    d2h.pageable.asnumpy   cp.asnumpy(x)           (new host array each time)
    d2h.pageable.get_into  x.get(out=host array)
    d2h.pinned.get_into    x.get(out=pinned array)
    d2d.cudaMemcpyAsync    cupy.cuda.runtime.memcpyAsync, 1 GiB, CUDA events
    d2d.copy               x.copy(), 1 GiB, CUDA events; (read + written) / time

  python3 bench/cupy_reference.py [--mib 2048] [--reps 5] [--pairs 100000]
                                  [--json FILE] [--dry-run]

--dry-run needs only NumPy: it builds the workloads, prints the plan and
exits 0. Without CuPy or without a CUDA device the script prints SKIPPED
and exits 77, as the C++ benchmarks do.
"""

import argparse
import json
import statistics
import sys
import time

SKIP = 77
GAMMA = 0x9E3779B97F4A7C15


def splitmix64(seed, ks):
    """Draw k of the sequence for every k in `ks` (numpy uint64 array)."""
    import numpy as np

    with np.errstate(over="ignore"):
        z = np.uint64(seed) + (ks + np.uint64(1)) * np.uint64(GAMMA)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def make_workload(window, nsteps, seed, fixed_size=0):
    """(initial sizes, step slots, step sizes), as make_workload in memory_pool.cu."""
    import numpy as np

    def sizes(ks):
        if fixed_size:
            return np.full(len(ks), fixed_size, dtype=np.int64)
        u = (splitmix64(seed, ks) >> np.uint64(11)).astype(np.float64) * 2.0**-53
        s = np.floor(512.0 * np.exp2(17.0 * u)).astype(np.int64)
        return np.clip(s, 512, 64 << 20)

    initial = sizes(np.arange(window, dtype=np.uint64))
    k = window + 2 * np.arange(nsteps, dtype=np.uint64)
    slots = (splitmix64(seed, k) % np.uint64(window)).astype(np.int64)
    step_sizes = sizes(k + np.uint64(1))
    return initial.tolist(), slots.tolist(), step_sizes.tolist()


def pattern(n):
    """The test data of bench/transfer.cu: float32 bits i * 2654435761 ^ 0x9E3779B9."""
    import numpy as np

    with np.errstate(over="ignore"):
        u = np.arange(n, dtype=np.uint32)
        u *= np.uint32(2654435761)
        u ^= np.uint32(0x9E3779B9)
    return u.view(np.float32)


def gbs(nbytes, seconds):
    return nbytes / seconds / 1e9


class Results:
    def __init__(self):
        self.rows = []

    def add(self, case, value, unit, **extra):
        row = {"case": case, "value": value, "unit": unit}
        row.update(extra)
        self.rows.append(row)
        return row


# ---------------------------------------------------------------------------
# Memory pool


def run_pool(cp, alloc, workload, warmup, pairs, stream):
    initial, slots, sizes = workload
    live = [alloc(n) for n in initial]
    for s in range(warmup):
        k = slots[s]
        live[k] = None  # free first, as the C++ benchmark does
        live[k] = alloc(sizes[s])
    stream.synchronize()
    end = warmup + pairs
    t0 = time.perf_counter()
    for s in range(warmup, end):
        k = slots[s]
        live[k] = None
        live[k] = alloc(sizes[s])
    stream.synchronize()
    seconds = time.perf_counter() - t0
    live.clear()
    stream.synchronize()
    return seconds


def bench_memory_pool(cp, args, res):
    print(
        f"memory pool: window {args.window}, warm-up {args.warmup} steps, "
        f"{args.pairs} timed pairs, seed {args.seed}"
    )
    print(f"  {'pattern':8s} {'allocator':14s} {'pairs':>8s} {'us/pair':>10s} {'peak MiB':>10s}")
    rt = cp.cuda.runtime
    stream = cp.cuda.Stream(non_blocking=True)
    pool = cp.get_default_memory_pool()
    nsteps = args.warmup + args.pairs
    high_attr = getattr(rt, "cudaMemPoolAttrReservedMemHigh", 6)
    threshold_attr = getattr(rt, "cudaMemPoolAttrReleaseThreshold", 4)

    def mempool_handle():
        return rt.deviceGetDefaultMemPool(cp.cuda.Device().id)

    with stream:
        for pattern_name in ("mixed", "small"):
            w = make_workload(
                args.window, nsteps, args.seed, args.small_bytes if pattern_name == "small" else 0
            )
            variants = [
                ("pool_malloc", pool.malloc, "pool"),
                ("alloc", cp.cuda.alloc, "pool"),
            ]
            try:
                apool = cp.cuda.MemoryAsyncPool()
                variants.append(("async_pool", apool.malloc, "async"))
            except Exception as e:  # not supported on this device / build
                print(f"  (MemoryAsyncPool unavailable: {e})")
            for name, alloc, kind in variants:
                peak = float("nan")
                if kind == "pool":
                    pool.free_all_blocks()
                else:
                    cp.cuda.Device().synchronize()
                    try:
                        h = mempool_handle()
                        rt.memPoolSetAttribute(h, threshold_attr, 2**64 - 1)
                        rt.memPoolTrimTo(h, 0)
                        rt.memPoolSetAttribute(h, high_attr, 0)
                    except Exception as e:
                        print(f"  (could not reset the async pool: {e})")
                seconds = run_pool(cp, alloc, w, args.warmup, args.pairs, stream)
                if kind == "pool":
                    # CuPy's pool never gives memory back on its own: what it
                    # holds at the end is its peak.
                    peak = float(pool.total_bytes())
                    pool.free_all_blocks()
                else:
                    try:
                        peak = float(rt.memPoolGetAttribute(mempool_handle(), high_attr))
                        cp.cuda.Device().synchronize()
                        rt.memPoolTrimTo(mempool_handle(), 0)
                    except Exception:
                        pass
                us = seconds / args.pairs * 1e6
                print(
                    f"  {pattern_name:8s} {name:14s} {args.pairs:8d} {us:10.3f} "
                    f"{peak / 2**20:10.1f}",
                    flush=True,
                )
                res.add(
                    f"{pattern_name}.{name}",
                    us,
                    "us/pair",
                    pairs=args.pairs,
                    seconds=seconds,
                    peak_bytes=peak,
                )
    print()


# ---------------------------------------------------------------------------
# Transfers


def measure(res, case, nbytes, once, warmup, reps):
    for _ in range(warmup):
        once()
    secs = [once() for _ in range(reps)]
    med = statistics.median(secs)
    vals = [gbs(nbytes, s) for s in secs]
    row = res.add(
        case, gbs(nbytes, med), "GB/s", bytes=nbytes, min=min(vals), max=max(vals), seconds=secs
    )
    print(
        f"  {case:26s} {row['value']:9.2f} GB/s   (min {row['min']:.2f}, max {row['max']:.2f}, "
        f"{reps} runs)",
        flush=True,
    )


def check(ok, what):
    if not ok:
        raise RuntimeError(f"wrong data after {what}")
    print(f"  check {what:40s} ok")


def bench_transfer(cp, cupyx, np, args, res):
    nbytes = args.mib << 20
    n = nbytes // 4
    sync = cp.cuda.Device().synchronize
    t = time.perf_counter()
    src = pattern(n)
    expect_u32 = src.view(np.uint32)
    dst = np.zeros(n, dtype=np.float32)
    psrc = cupyx.empty_pinned((n,), dtype=np.float32)
    psrc[...] = src
    pdst = cupyx.empty_pinned((n,), dtype=np.float32)
    pdst[...] = 0
    d = cp.empty(n, dtype=cp.float32)
    sync()
    print(f"prepared 4 x {args.mib} MiB of host memory (2 pinned) in {time.perf_counter() - t:.1f} s")

    def same(a):
        return np.array_equal(a.view(np.uint32), expect_u32[: a.size])

    print(f"correctness ({args.mib} MiB):")
    x = cp.asarray(src)
    check(same(cp.asnumpy(x)), "asarray(pageable) -> asnumpy")
    del x
    d.data.memset(0, d.nbytes)  # no kernel, so no JIT compilation
    d.set(src)
    dst[...] = 0
    d.get(out=dst)
    sync()
    check(same(dst), "set(pageable) -> get(out=pageable)")
    d.data.memset(0, d.nbytes)  # no kernel, so no JIT compilation
    d.set(psrc)
    pdst[...] = 0
    d.get(out=pdst)
    sync()
    check(same(pdst), "set(pinned) -> get(out=pinned)")
    print()

    def host_timed(f):
        def once():
            sync()
            t0 = time.perf_counter()
            f()
            sync()
            return time.perf_counter() - t0

        return once

    holder = {}

    def keep(key, f):
        """Times f() with its previous result freed beforehand, outside the clock."""

        def once():
            holder.pop(key, None)
            sync()
            t0 = time.perf_counter()
            holder[key] = f()
            sync()
            return time.perf_counter() - t0

        return once

    w, r = 1, args.reps
    print(f"host -> device, {args.mib} MiB, median of {r} after {w} warm-up:")
    measure(res, "h2d.pageable.asarray", nbytes, keep("x", lambda: cp.asarray(src)), w, r)
    measure(res, "h2d.pinned.asarray", nbytes, keep("x", lambda: cp.asarray(psrc)), w, r)
    holder.clear()
    measure(res, "h2d.pageable.set", nbytes, host_timed(lambda: d.set(src)), w, r)
    measure(res, "h2d.pinned.set", nbytes, host_timed(lambda: d.set(psrc)), w, r)
    print()
    print(f"device -> host, {args.mib} MiB, median of {r} after {w} warm-up:")
    measure(res, "d2h.pageable.asnumpy", nbytes, keep("h", lambda: cp.asnumpy(d)), w, r)
    holder.clear()
    measure(res, "d2h.pageable.get_into", nbytes, host_timed(lambda: d.get(out=dst)), w, r)
    measure(res, "d2h.pinned.get_into", nbytes, host_timed(lambda: d.get(out=pdst)), w, r)
    print()

    dbytes = min(args.d2d_mib << 20, nbytes)
    a = d[: dbytes // 4].copy()
    b = cp.zeros_like(a)
    e0, e1 = cp.cuda.Event(), cp.cuda.Event()
    stream = cp.cuda.get_current_stream()

    def event_timed(f):
        def once():
            e0.record(stream)
            f()
            e1.record(stream)
            e1.synchronize()
            return cp.cuda.get_elapsed_time(e0, e1) * 1e-3

        return once

    def raw_copy():
        cp.cuda.runtime.memcpyAsync(b.data.ptr, a.data.ptr, dbytes, 3, stream.ptr)

    print(f"device -> device, {dbytes >> 20} MiB, (read + written) / time, CUDA events:")
    raw_copy()
    sync()
    check(same(cp.asnumpy(b)), "memcpyAsync device -> device")
    check(same(cp.asnumpy(a.copy())), "ndarray.copy()")
    measure(res, "d2d.cudaMemcpyAsync", 2 * dbytes, event_timed(raw_copy), 2, 4 * r)

    def copy_once():
        holder.pop("c", None)
        return event_timed(lambda: holder.__setitem__("c", a.copy()))()

    measure(res, "d2d.copy", 2 * dbytes, copy_once, 2, 4 * r)
    holder.clear()
    print()


# ---------------------------------------------------------------------------


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mib", type=int, default=2048, help="transfer size (MiB)")
    p.add_argument("--d2d-mib", type=int, default=1024, help="device copy size (MiB)")
    p.add_argument("--reps", type=int, default=5, help="timed runs per transfer case")
    p.add_argument("--pairs", type=int, default=100_000, help="timed allocate/free pairs")
    p.add_argument("--warmup", type=int, default=10_000, help="untimed pairs first")
    p.add_argument("--window", type=int, default=64, help="live allocations")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--small-bytes", type=int, default=4096)
    p.add_argument("--skip-transfer", action="store_true")
    p.add_argument("--skip-pool", action="store_true")
    p.add_argument("--json", help="write the results here")
    p.add_argument("--dry-run", action="store_true", help="check the setup; needs only NumPy")
    args = p.parse_args()

    import numpy as np

    if args.dry_run:
        w = make_workload(args.window, 1000, args.seed)
        print(
            f"dry run: numpy {np.__version__}; first sizes {w[0][:4]}, first steps "
            f"{list(zip(w[1][:3], w[2][:3]))}"
        )
        x = pattern(8)
        print(f"dry run: first test words {[hex(v) for v in x.view(np.uint32)[:3]]}")
        print(
            f"dry run: would move {args.mib} MiB per transfer case, {args.reps} runs each, and "
            f"time {args.pairs} allocate/free pairs per allocator"
        )
        try:
            import cupy  # noqa: F401

            print(f"dry run: cupy {cupy.__version__} importable")
        except Exception as e:
            print(f"dry run: cupy not importable ({type(e).__name__}: {e})")
        return 0

    try:
        import cupy as cp
        import cupyx
    except Exception as e:
        print(f"SKIPPED: cupy not importable ({type(e).__name__}: {e})")
        return SKIP
    try:
        ndev = cp.cuda.runtime.getDeviceCount()
    except Exception as e:
        print(f"SKIPPED: no CUDA device ({type(e).__name__}: {e})")
        return SKIP
    if ndev == 0:
        print("SKIPPED: no CUDA device (0 devices)")
        return SKIP

    props = cp.cuda.runtime.getDeviceProperties(0)
    name = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
    print(
        f"cupy_reference on {name}: cupy {cp.__version__}, numpy {np.__version__}, "
        f"CUDA runtime {cp.cuda.runtime.runtimeGetVersion()}, python {sys.version.split()[0]}"
    )
    print()
    t0 = time.perf_counter()
    res = Results()
    if not args.skip_pool:
        bench_memory_pool(cp, args, res)
    if not args.skip_transfer:
        bench_transfer(cp, cupyx, np, args, res)
    print(f"cupy_reference took {time.perf_counter() - t0:.1f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "benchmark": "cupy_reference",
                    "device": name,
                    "cupy": cp.__version__,
                    "numpy": np.__version__,
                    "results": res.rows,
                },
                f,
                indent=2,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
