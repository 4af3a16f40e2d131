#!/usr/bin/env python3
"""CuPy's NCCLBackend (cupyx.distributed) on the cases of bench_distributed:
all_reduce (in place) and all_gather of float32 from 8 KiB to 1 GiB, one
process per GPU, median ms per call over CUDA-event-timed loops, bus
bandwidth as nccl-tests counts it. Rank 0 prints the table.

  python3 bench/cupy_distributed.py N [--json FILE] [--max-mib M]
"""
import argparse
import json
import os
import random
import subprocess
import sys


def timed(stream, runs, reps, f):
    import cupy as cp
    for _ in range(3):
        f()
    stream.synchronize()
    times = []
    for _ in range(runs):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record(stream)
        for _ in range(reps):
            f()
        b.record(stream)
        b.synchronize()
        times.append(cp.cuda.get_elapsed_time(a, b) / reps)
    times.sort()
    return times[len(times) // 2]


def rank_main(n, rank, port, max_mib, out):
    os.environ["NCCL_NVLS_ENABLE"] = "0"
    import cupy as cp
    from cupyx import distributed
    cp.cuda.Device(rank).use()
    comm = distributed.init_process_group(n, rank, host="127.0.0.1", port=port)
    stream = cp.cuda.get_current_stream()
    rows = []
    size = 8 << 10
    while size <= max_mib << 20:
        count = size // 4
        reps = 50 if size <= 8 << 20 else 10 if size <= 128 << 20 else 3
        x = cp.ones(count, dtype=cp.float32)
        comm.barrier()
        t = timed(stream, 5, reps, lambda: comm.all_reduce(x, x, "sum"))
        rows.append({"collective": "all_reduce", "bytes": size, "cupy_ms": t,
                     "cupy_busbw": size / t / 1e6 * 2 * (n - 1) / n})
        part = max(1, count // n)
        a = cp.ones(part, dtype=cp.float32)
        b = cp.empty(part * n, dtype=cp.float32)
        comm.barrier()
        t = timed(stream, 5, reps, lambda: comm.all_gather(a, b, part))
        total = part * n * 4
        rows.append({"collective": "all_gather", "bytes": total, "cupy_ms": t,
                     "cupy_busbw": total / t / 1e6 * (n - 1) / n})
        size *= 2
    comm.barrier()
    if rank == 0:
        print(f"cupy {cp.__version__}, {n} ranks; ms per call (median), bus bandwidth GB/s")
        for r in rows:
            print(f"{r['collective']:<11} {r['bytes']:>12} {r['cupy_ms']:10.4f} {r['cupy_busbw']:10.1f}")
        if out:
            with open(out, "w") as f:
                json.dump({"benchmark": "cupy_distributed", "ranks": n, "rows": rows}, f, indent=1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("n", type=int)
    p.add_argument("--json")
    p.add_argument("--max-mib", type=int, default=1024)
    p.add_argument("--rank", type=int, default=-1, help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.rank >= 0:
        rank_main(a.n, a.rank, a.port, a.max_mib, a.json)
        return
    # One interpreter per rank (cupyx's TCP store starts a server process of
    # its own, which a multiprocessing child cannot).
    port = 30500 + random.randrange(1000)
    env = dict(os.environ, NCCL_NVLS_ENABLE="0")
    procs = []
    for r in range(a.n):
        cmd = [sys.executable, __file__, str(a.n), "--rank", str(r), "--port", str(port),
               "--max-mib", str(a.max_mib)] + (["--json", a.json] if a.json else [])
        procs.append(subprocess.Popen(cmd, env=env))
    raise SystemExit(max(q.wait() for q in procs))


if __name__ == "__main__":
    main()
