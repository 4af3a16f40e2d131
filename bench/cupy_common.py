"""What the CuPy benchmark scripts share: importing CuPy with a device, and
the event-timed median per call that the C++ benchmarks use too
(bench_common.hpp's median_ms_per_call)."""

import statistics

SKIP = 77


def import_cupy():
    """CuPy, or None (after printing SKIPPED) without it or a CUDA device."""
    try:
        import cupy as cp
        if cp.cuda.runtime.getDeviceCount() == 0:
            raise RuntimeError("0 devices")
    except Exception as e:
        print(f"SKIPPED: cupy or a CUDA device unavailable ({type(e).__name__}: {e})")
        return None
    return cp


def median_ms_per_call(cp, f, runs, reps):
    """Three warm-up calls, then the median over `runs` event-timed loops of
    `reps` calls, in milliseconds per call."""
    for _ in range(3):
        f()
    cp.cuda.get_current_stream().synchronize()
    t = []
    for _ in range(runs):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        for _ in range(reps):
            f()
        e.record()
        e.synchronize()
        t.append(cp.cuda.get_elapsed_time(s, e) / reps)
    return statistics.median(t)
