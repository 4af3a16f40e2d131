#!/usr/bin/env python3
"""Compile time of small translation units, as nvcc sees them in the build.

Every *.cu file next to this script is a case. Each is compiled --runs
times (3 by default) with the flags the build uses:

    nvcc -std=c++20 -O3 -arch=sm_90 -I include -I detail [-I <boost>] -c case.cu

and the median wall time is reported, with the peak memory of the compiler
processes (os.wait4) and nvcc's own per-phase times (-time: cudafe++, cicc,
ptxas, the host gcc) so that a regression can be traced to a phase.

Variants: a case may declare macro values to compile it with, one variant
per value, in a comment line of its own:

    // compile_time_variants: N=1 N=10 N=100

compiles the file three times over, with -DN=1, -DN=10 and -DN=100 (case
names "file[N=1]", ...). This is how "N distinct expressions" cases are
meant to be added: one .cu that expands N expressions from the macro (for
instance with BOOST_PP_REPEAT), and a variants line.

  python3 bench/compile_time/compile_time.py [--runs 3] [--json FILE]
      [--nvcc nvcc] [--arch sm_90] [--boost-include DIR] [--only NAME ...]
      [--dry-run]

Run it from anywhere: include paths are resolved against the repository.
--dry-run prints the commands without running them.
"""

import argparse
import csv
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
VARIANTS_RE = re.compile(r"^\s*//\s*compile_time_variants:\s*(.+?)\s*$", re.M)


def find_boost(explicit):
    """The Boost include directory when the compiler would not find it alone."""
    if explicit:
        return explicit
    for env in ("BOOST_INCLUDEDIR", "BOOST_ROOT"):
        v = os.environ.get(env)
        if v:
            for d in (v, os.path.join(v, "include")):
                if os.path.exists(os.path.join(d, "boost", "hana.hpp")):
                    return d
    for d in ("/usr/include", "/usr/local/include"):
        if os.path.exists(os.path.join(d, "boost", "hana.hpp")):
            return None  # on the default search path
    return None


def cases(only):
    out = []
    # The baseline first, then the rest by name.
    for name in sorted(os.listdir(HERE), key=lambda n: (n != "empty.cu", n)):
        if not name.endswith(".cu"):
            continue
        stem = name[:-3]
        if only and stem not in only:
            continue
        path = os.path.join(HERE, name)
        with open(path) as f:
            text = f.read()
        m = VARIANTS_RE.search(text)
        if not m:
            out.append((stem, path, []))
            continue
        for v in m.group(1).split():
            out.append((f"{stem}[{v}]", path, [f"-D{v}"]))
    return out


def read_phases(csv_path):
    """nvcc -time CSV -> {phase: ms}; phases that run twice are summed."""
    phases = {}
    try:
        with open(csv_path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError:
        return phases
    if not rows:
        return phases
    header = [h.strip() for h in rows[0]]
    try:
        ip, iv = header.index("phase name"), header.index("metric")
    except ValueError:
        return phases
    for r in rows[1:]:
        if len(r) <= max(ip, iv):
            continue
        name = r[ip].strip()
        try:
            ms = float(r[iv])
        except ValueError:
            continue
        phases[name] = phases.get(name, 0.0) + ms
    return phases


def compile_once(cmd, csv_path):
    if os.path.exists(csv_path):
        os.remove(csv_path)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=REPO)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss * 1024, proc.returncode, out.decode(errors="replace")


def summarise(results):
    """The figures the compile-time targets are stated in, from this run's cases."""
    t = {r["case"]: r["value"] for r in results}
    rows = []

    def per(name, hi, lo, count, target):
        if hi in t and lo in t:
            rows.append((name, (t[hi] - t[lo]) / count, target))

    if "cupp_hpp" in t and "cub_cuh" in t:
        rows.append(("cupp.hpp / cub.cuh (ratio)", t["cupp_hpp"] / t["cub_cuh"], 1.0))
    per("s per further expression (1 -> 50)", "expressions[EXPRS=50]", "expressions[EXPRS=1]", 49,
        0.3)
    per("s per further expression (1 -> 10)", "expressions[EXPRS=10]", "expressions[EXPRS=1]", 9,
        0.3)
    per("s per expression of a new dtype", "expression_dtypes[NDT=5]", "expression_dtypes[NDT=1]",
        40, 0.3)
    per("s per reduction of a new dtype", "reductions[NDT=5]", "reductions[NDT=1]", 40, 1.0)
    per("s per sum(x * y, 1) of a new dtype", "reduction_dtypes[NDT=4]", "reduction_dtypes[NDT=1]",
        3, 1.0)
    per("the same, 2-d kernels only", "reduction_dtypes_2d[NDT=4]", "reduction_dtypes_2d[NDT=1]", 3,
        1.0)
    per("s per indexing call of a new dtype", "indexing[NDT=5]", "indexing[NDT=1]", 40, 1.0)
    # Every area header outside the umbrella costs at most 1.2 umbrellas.
    for area in ("linalg_hpp", "sort_hpp", "random_hpp", "kernels_hpp"):
        if area in t and "cupp_hpp" in t:
            rows.append((f"{area} / cupp_hpp (ratio)", t[area] / t["cupp_hpp"], 1.2))
    if rows:
        print("\n  figure                                      value  target")
        for name, value, target in rows:
            mark = "ok" if value <= target else "OVER"
            print(f"  {name:40s} {value:8.3f}  <= {target:g} {mark}")
    if results:
        slow = max(results, key=lambda r: r["value"])
        print(f"\n  nvcc -time, slowest case ({slow['case']}, ms):")
        for k, v in sorted(slow["phases_ms"].items(), key=lambda kv: -kv[1]):
            print(f"    {k:28s} {v:9.0f}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--boost-include")
    p.add_argument("--only", nargs="*", help="case file stems to run")
    p.add_argument("--json")
    p.add_argument("--dry-run", action="store_true")
    args = p.parse_args()

    nvcc = shutil.which(args.nvcc) or args.nvcc
    flags = ["-std=c++20", "-O3", f"-arch={args.arch}", "-I", "include", "-I", "detail"]
    boost = find_boost(args.boost_include)
    if boost:
        flags += ["-I", boost]
    todo = cases(args.only)
    if not todo:
        print("no cases found in", HERE)
        return 1

    version = ""
    if not args.dry_run:
        if not shutil.which(nvcc):
            print(f"SKIPPED: {args.nvcc} not found")
            return 77
        version = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
        lines = [ln for ln in version.splitlines() if "release" in ln] or version.splitlines()[-1:]
        version = lines[0].strip() if lines else ""
    print(f"compile time: {nvcc} {' '.join(flags)} -c <case>.cu, median of {args.runs}")
    if version:
        print(f"  {version}")

    results = []
    with tempfile.TemporaryDirectory(prefix="cupp_compile_time_") as tmp:
        obj = os.path.join(tmp, "case.o")
        csv_path = os.path.join(tmp, "time.csv")
        print(
            f"  {'case':28s} {'median s':>9s} {'min s':>7s} {'max s':>7s} {'peak MiB':>9s}  phases (ms)"
        )
        for name, path, defines in todo:
            cmd = [nvcc, *flags, *defines, "-c", os.path.relpath(path, REPO), "-o", obj,
                   "-time", csv_path]
            if args.dry_run:
                print(f"  {name}: {shlex.join(cmd)}")
                continue
            walls, rss, phase_runs = [], [], []
            for _ in range(args.runs):
                wall, maxrss, rc, out = compile_once(cmd, csv_path)
                if rc != 0:
                    print(f"  {name}: compilation failed (exit {rc}):\n{out}")
                    return 1
                walls.append(wall)
                rss.append(maxrss)
                phase_runs.append(read_phases(csv_path))
            phases = {}
            for key in phase_runs[0]:
                vals = [pr.get(key, 0.0) for pr in phase_runs]
                phases[key] = statistics.median(vals)
            med = statistics.median(walls)
            top = sorted(phases.items(), key=lambda kv: -kv[1])[:4]
            top_s = ", ".join(f"{k} {v:.0f}" for k, v in top if k != "nvcc (driver)")
            print(
                f"  {name:28s} {med:9.2f} {min(walls):7.2f} {max(walls):7.2f} "
                f"{max(rss) / 2**20:9.0f}  {top_s}",
                flush=True,
            )
            results.append(
                {
                    "case": name,
                    "value": med,
                    "unit": "s",
                    "runs": walls,
                    "peak_rss_bytes": max(rss),
                    "phases_ms": phases,
                    "command": shlex.join(cmd),
                }
            )
    if not args.dry_run:
        summarise(results)
    if args.json and not args.dry_run:
        with open(args.json, "w") as f:
            json.dump(
                {"benchmark": "compile_time", "nvcc": version, "flags": flags, "results": results},
                f,
                indent=2,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
