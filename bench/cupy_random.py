"""CuPy's random numbers on the GPU: the workloads of bench/random.cu.

Each row times CuPy's fastest API for the draw: the Generator
(cp.random.default_rng, XORWOW) where CuPy has the method, the legacy
functions (cp.random.*, cuRAND's XORWOW) otherwise, and the legacy rows
through the legacy functions themselves; the JSON says which call ran.
Event-timed loops of calls, medians after a warm-up (bench_common.hpp's
rule), and each output is checked once (moments, bounds, no repeats).

  python3 bench/cupy_random.py [--runs 7] [--loop-ms 20] [--only SUBSTRING] [--seed 1234]
      [--json FILE]
  python3 bench/cupy_random.py --table CUPP_JSON CUPY_JSON

--table needs neither CuPy nor a GPU: it prints the side-by-side table of
bench_random's JSON and this script's.
"""

import argparse
import json
import math
import sys
import time

from cupy_common import SKIP, import_cupy, median_ms_per_call

N28 = 1 << 28
N26 = 1 << 26
INTEGERS_HIGH = 1_000_000
CHOICE_POOL, CHOICE_K = 100_000_000, 1_000_000

# Rows whose figure counts bytes written (float32 draws, 4 B per value); the
# fusion row counts x read and y written.
FLOAT_ROWS = ("standard_normal.2p28.f32", "random.2p28.f32", "legacy_randn.2p28.f32",
              "legacy_random_sample.2p28.f32")
TARGETS = {
    "standard_normal.2p28.f32": ">= 2700 GB/s, ahead of CuPy",
    "random.2p28.f32": ">= 2700 GB/s, ahead of CuPy",
    "gamma.2p26.f64": "2x CuPy",
    "poisson.2p26.i64": "2x CuPy",
    "binomial.2p26.i64": "2x CuPy",
    "permutation.2p26.i64": "2x CuPy",
    "fuse_normal.2p28.f32": "<= x + 1",
}


def first_api(candidates):
    """The first (label, callable) whose callable exists and runs once."""
    for label, make in candidates:
        try:
            f = make()
            if f is None:
                continue
            f()
            return label, f
        except (AttributeError, TypeError, NotImplementedError):
            continue
    return None, None


def run(a):
    import numpy as np

    cp = import_cupy()
    if cp is None:
        return SKIP
    print(f"cupy {cp.__version__}, numpy {np.__version__}")
    rows = []
    check_failures = []

    def wanted(name):
        return not a.only or a.only in name

    def sync():
        cp.cuda.get_current_stream().synchronize()

    def time_ms(f):
        f()
        sync()
        t0 = time.perf_counter()
        f()
        sync()
        once = (time.perf_counter() - t0) * 1e3
        reps = min(50, max(1, int(a.loop_ms / max(once, 1e-3))))
        return median_ms_per_call(cp, f, 3 if once > 50 else a.runs, reps)

    def add(case, api, f, bytes_=None):
        ms = time_ms(f)
        row = {"case": case, "ms": ms, "api": api, "extras": {}}
        if bytes_:
            row["extras"]["cupy_gbs"] = bytes_ / ms / 1e6
        rows.append(row)
        extra = f"  {row['extras']['cupy_gbs']:8.1f} GB/s" if bytes_ else ""
        print(f"{case:32s} {ms:10.4f} ms{extra}  {api}")
        return row

    def expect(case, ok, what):
        if not ok:
            check_failures.append(f"{case}: {what}")
            print(f"WARNING: {case}: {what}")

    def expect_moments(case, z, mean, sd, rel_var=0.01):
        n = z.size
        m = float(z.mean(dtype=cp.float64))
        v = float(z.var(dtype=cp.float64))
        expect(case, abs(m - mean) <= 6 * sd / math.sqrt(n) + 1e-6 * abs(mean),
               f"mean {m}, expected {mean}")
        expect(case, abs(v - sd * sd) <= rel_var * sd * sd, f"variance {v}, expected {sd * sd}")

    def free():
        cp.get_default_memory_pool().free_all_blocks()

    gen = cp.random.default_rng(a.seed)
    cp.random.seed(a.seed)
    f32, f64, i64 = cp.float32, cp.float64, cp.int64

    # ---- the ceilings of the float32 rows ----
    if wanted("ceiling.2p28.f32"):
        src = cp.ones(N28, f32)
        dst = cp.empty_like(src)
        nbytes = 4 * N28
        stream = cp.cuda.get_current_stream().ptr
        set_ms = time_ms(lambda: cp.cuda.runtime.memsetAsync(dst.data.ptr, 0x3F, nbytes, stream))
        copy_ms = time_ms(lambda: cp.cuda.runtime.memcpyAsync(
            dst.data.ptr, src.data.ptr, nbytes, cp.cuda.runtime.memcpyDeviceToDevice, stream))
        rows.append({"case": "ceiling.2p28.f32", "ms": set_ms, "api": "runtime.memsetAsync",
                     "extras": {"memset_gbs": nbytes / set_ms / 1e6,
                                "copy_gbs": 2 * nbytes / copy_ms / 1e6}})
        print(f"{'ceiling.2p28.f32':32s} memset {nbytes / set_ms / 1e6:8.1f} GB/s, "
              f"copy {2 * nbytes / copy_ms / 1e6:8.1f} GB/s (read + written)")
        del src, dst
        free()

    # ---- 2^28 float32 draws ----
    def float_row(case, candidates, mean, sd):
        if not wanted(case):
            return
        api, f = first_api(candidates)
        if f is None:
            print(f"{case:32s} n/a")
            return
        add(case, api, f, 4 * N28)
        z = f()
        expect_moments(case, out if z is None else z, mean, sd)
        free()

    usd = math.sqrt(1 / 12)
    out = cp.empty(N28, f32)
    float_row("standard_normal.2p28.f32", [
        ("Generator.standard_normal(n, float32, out=)",
         lambda: lambda: gen.standard_normal(N28, dtype=f32, out=out)),
        ("Generator.standard_normal(n, float32)",
         lambda: lambda: gen.standard_normal(N28, dtype=f32)),
    ], 0.0, 1.0)
    float_row("random.2p28.f32", [
        ("Generator.random(n, float32, out=)", lambda: lambda: gen.random(N28, dtype=f32, out=out)),
        ("Generator.random(n, float32)", lambda: lambda: gen.random(N28, dtype=f32)),
    ], 0.5, usd)
    float_row("legacy_randn.2p28.f32", [
        ("cp.random.randn(n, dtype=float32)", lambda: lambda: cp.random.randn(N28, dtype=f32)),
    ], 0.0, 1.0)
    float_row("legacy_random_sample.2p28.f32", [
        ("cp.random.random_sample(n, float32)",
         lambda: lambda: cp.random.random_sample(N28, dtype=f32)),
    ], 0.5, usd)
    del out
    free()

    # ---- the fusion row: x + noise against x + 1 (CuPy cannot fuse a draw) ----
    if wanted("fuse_normal.2p28.f32"):
        x = cp.random.default_rng(a.seed + 1).random(N28, dtype=f32)
        api, f = first_api([
            ("x + Generator.standard_normal(n, float32)",
             lambda: lambda: x + gen.standard_normal(N28, dtype=f32)),
            ("x + cp.random.standard_normal(n, float32)",
             lambda: lambda: x + cp.random.standard_normal(N28, dtype=f32)),
        ])
        r = add("fuse_normal.2p28.f32", api, f, 8 * N28)
        plus_ms = time_ms(lambda: x + 1)
        r["extras"]["plus1_ms"] = plus_ms
        r["extras"]["noise_over_plus1"] = r["ms"] / plus_ms
        print(f"  {'x + 1':30s} {plus_ms:10.4f} ms; noise / plus1 {r['ms'] / plus_ms:.3f}")
        expect_moments("fuse_normal.2p28.f32", f() - x, 0.0, 1.0)
        del x
        free()

    # ---- 2^26 draws ----
    def plain_row(case, candidates, check):
        if not wanted(case):
            return
        api, f = first_api(candidates)
        if f is None:
            print(f"{case:32s} n/a")
            return
        add(case, api, f)
        check(case, f())
        free()

    def integers_check(case, z):
        m = INTEGERS_HIGH
        expect_moments(case, z, (m - 1) / 2, math.sqrt((m * m - 1) / 12))
        expect(case, int(z.min()) >= 0 and int(z.max()) < m, "out of [0, 10^6)")

    plain_row("integers.2p26.i64", [
        ("Generator.integers(0, 10^6, n, int64)",
         lambda: lambda: gen.integers(0, INTEGERS_HIGH, N26, dtype=i64)),
        ("cp.random.randint(0, 10^6, n, int64)",
         lambda: lambda: cp.random.randint(0, INTEGERS_HIGH, N26, dtype=i64)),
    ], integers_check)
    plain_row("exponential.2p26.f64", [
        ("Generator.exponential(1.0, n)", lambda: lambda: gen.exponential(1.0, N26)),
        ("Generator.standard_exponential(n, float64)",
         lambda: lambda: gen.standard_exponential(N26, dtype=f64)),
        ("cp.random.exponential(1.0, n)", lambda: lambda: cp.random.exponential(1.0, N26)),
    ], lambda case, z: expect_moments(case, z, 1.0, 1.0, 0.02))
    plain_row("gamma.2p26.f64", [
        ("Generator.gamma(2.5, 1.0, n)", lambda: lambda: gen.gamma(2.5, 1.0, N26)),
        ("Generator.standard_gamma(2.5, n, float64)",
         lambda: lambda: gen.standard_gamma(2.5, N26, dtype=f64)),
        ("cp.random.gamma(2.5, 1.0, n)", lambda: lambda: cp.random.gamma(2.5, 1.0, N26)),
    ], lambda case, z: expect_moments(case, z, 2.5, math.sqrt(2.5), 0.02))
    plain_row("poisson.2p26.i64", [
        ("Generator.poisson(10.0, n)", lambda: lambda: gen.poisson(10.0, N26)),
        ("cp.random.poisson(10.0, n)", lambda: lambda: cp.random.poisson(10.0, N26)),
    ], lambda case, z: expect_moments(case, z, 10.0, math.sqrt(10.0)))
    plain_row("binomial.2p26.i64", [
        ("Generator.binomial(100, 0.3, n)", lambda: lambda: gen.binomial(100, 0.3, N26)),
        ("cp.random.binomial(100, 0.3, n)", lambda: lambda: cp.random.binomial(100, 0.3, N26)),
    ], lambda case, z: expect_moments(case, z, 30.0, math.sqrt(21.0)))

    def permutation_check(case, z):
        expect(case, z.size == N26 and bool((cp.sort(z) == cp.arange(N26)).all()),
               "not a permutation of 0 .. 2^26 - 1")

    plain_row("permutation.2p26.i64", [
        ("Generator.permutation(n)", lambda: lambda: gen.permutation(N26)),
        ("cp.random.permutation(n)", lambda: lambda: cp.random.permutation(N26)),
    ], permutation_check)

    def choice_check(case, z):
        expect(case, z.size == CHOICE_K and cp.unique(z).size == CHOICE_K
               and int(z.min()) >= 0 and int(z.max()) < CHOICE_POOL, "repeats or out of range")

    plain_row("choice.1e8.1e6.noreplace", [
        ("Generator.choice(10^8, 10^6, replace=False)",
         lambda: lambda: gen.choice(CHOICE_POOL, CHOICE_K, replace=False)),
        ("cp.random.choice(10^8, 10^6, replace=False)",
         lambda: lambda: cp.random.choice(CHOICE_POOL, CHOICE_K, replace=False)),
    ], choice_check)

    if a.json:
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        with open(a.json, "w") as f:
            json.dump({"benchmark": "cupy_random", "device": props["name"].decode(),
                       "cupy": cp.__version__, "numpy": np.__version__,
                       "check_failures": check_failures, "results": rows}, f, indent=2)
    return 1 if check_failures else 0


def table(cupp_path, cupy_path):
    """The side-by-side table: cupp's two figures, the fastest raw cuRAND call,
    CuPy's, and CuPy / cupp (above 1: cupp is faster)."""
    with open(cupp_path) as f:
        mine = json.load(f)
    with open(cupy_path) as f:
        theirs = json.load(f)
    cupy_rows = {r["case"]: r for r in theirs.get("results", [])}
    fmt = lambda v: "-" if v is None else (f"{v:.3f}" if v < 10 else f"{v:.1f}")
    lines = [f"== random numbers, ms per call: cupp ({mine.get('device', '?')}) against CuPy "
             f"{theirs.get('cupy', '?')} ({theirs.get('device', '?')}); speedup = CuPy / cupp ==",
             f"{'case':44s} {'cupp':>8s} {'copyto':>8s} {'cuRAND':>8s} {'CuPy':>8s} "
             f"{'speedup':>8s} {'GB/s':>7s}  target; fastest cuRAND call; CuPy's call"]
    for r in mine.get("results", []):
        figs = r.get("figures", {})
        # A stand-in row (".as_generator") is compared with CuPy's legacy row.
        base = r["case"].removesuffix(".as_generator")
        c = cupy_rows.get(base)
        x = r.get("extras", {})
        if base == "ceiling.2p28.f32":
            cx = (c or {}).get("extras", {})
            lines.append(f"{r['case']:44s} memset {fmt(x.get('memset_gbs'))} GB/s, copy "
                         f"{fmt(x.get('copy_gbs'))} GB/s (CuPy's run: {fmt(cx.get('memset_gbs'))},"
                         f" {fmt(cx.get('copy_gbs'))})")
            continue
        if not figs:
            lines.append(f"{r['case']:44s} {'n/a':>8s} {'':8s} {'':8s} "
                         f"{fmt(c['ms'] if c else None):>8s}  {r.get('note', '')}")
            continue
        cupp_ms, copyto_ms = figs.get("cupp"), figs.get("cupp.copyto")
        vendor = {k: v for k, v in figs.items() if k.startswith("curand.")}
        best = min(vendor.items(), key=lambda kv: kv[1]) if vendor else (None, None)
        cupy_ms = c["ms"] if c else None
        speedup = f"{cupy_ms / cupp_ms:.2f}x" if cupy_ms and cupp_ms else "-"
        g = x.get("cupp_gbs")
        lines.append(f"{r['case']:44s} {fmt(cupp_ms):>8s} {fmt(copyto_ms):>8s} "
                     f"{fmt(best[1]):>8s} {fmt(cupy_ms):>8s} {speedup:>8s} "
                     f"{(f'{g:.0f}' if g else '-'):>7s}  {TARGETS.get(base, 'ahead of CuPy')}; "
                     f"{best[0] or '-'}; {(c or {}).get('api', '-')}")
        if base == "fuse_normal.2p28.f32":
            lines.append(f"{'':44s} x + 1: {fmt(figs.get('cupp x + 1'))} ms, noise / plus1 "
                         f"{fmt(x.get('noise_over_plus1'))} (copyto "
                         f"{fmt(x.get('copyto_noise_over_plus1'))}); unfused cupp "
                         f"{fmt(figs.get('cupp unfused (noise stored, then x + noise)'))} ms; "
                         f"CuPy x + 1 {fmt((c or {}).get('extras', {}).get('plus1_ms'))} ms")
    shown = {r["case"].removesuffix(".as_generator") for r in mine.get("results", [])}
    for case, c in cupy_rows.items():
        if case not in shown:
            lines.append(f"{case:44s} {'-':>8s} {'-':>8s} {'-':>8s} {fmt(c['ms']):>8s}  "
                         f"{c.get('api', '')}")
    print("\n".join(lines))
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--loop-ms", type=float, default=20.0)
    p.add_argument("--only", default="")
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--json")
    p.add_argument("--table", nargs=2, metavar=("CUPP_JSON", "CUPY_JSON"))
    a = p.parse_args()
    if a.table:
        return table(*a.table)
    return run(a)


if __name__ == "__main__":
    sys.exit(main())
