#!/usr/bin/env bash
# Builds the benchmarks, runs them, the CuPy reference and the compile-time
# benchmark, and collects everything in OUT_DIR:
#
#   OUT_DIR/bench.log      every line every step printed (the build included)
#   OUT_DIR/results.json   all numbers, machine-readable
#   OUT_DIR/summary.txt    the side-by-side table printed last
#
# usage: bench/run_benchmarks.sh OUT_DIR [BUILD_DIR]
#   BUILD_DIR defaults to build-bench (a build tree of its own: it is
#   configured with tests and examples off).
# Environment:
#   BENCH_SKIP="cupy compile"       steps to leave out (memory_pool transfer elementwise
#                                   reduction indexing cupy cupy_elementwise cupy_reduction
#                                   cupy_indexing compile linalg cupy_linalg sort cupy_sort)
#   BENCH_MEMORY_POOL_ARGS, BENCH_TRANSFER_ARGS, BENCH_ELEMENTWISE_ARGS, BENCH_REDUCTION_ARGS,
#   BENCH_INDEXING_ARGS, BENCH_CUPY_ARGS, BENCH_CUPY_ELEMENTWISE_ARGS, BENCH_CUPY_REDUCTION_ARGS,
#   BENCH_CUPY_INDEXING_ARGS, BENCH_COMPILE_ARGS, BENCH_LINALG_ARGS, BENCH_CUPY_LINALG_ARGS,
#   BENCH_SORT_ARGS, BENCH_CUPY_SORT_ARGS
#                                   extra arguments for each step (e.g. "--mib 512")
#   BENCH_JOBS                      build parallelism (default: every core)
# Exit status: 0 when every step ran or was skipped (77: no GPU / no CuPy),
# 1 when a step failed; the table is printed either way.
set -u -o pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 OUT_DIR [BUILD_DIR]" >&2
  exit 2
fi
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
BUILD=${2:-build-bench}
[[ $BUILD = /* ]] || BUILD="$ROOT/$BUILD"
JOBS=${BENCH_JOBS:-$(nproc 2>/dev/null || echo 4)}
SKIP=" ${BENCH_SKIP:-} "
LOG="$OUT/bench.log"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cupp_bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
: >"$LOG"

T0=$(date +%s)
status=0
declare -A STEP_RC

say() { echo "$*" | tee -a "$LOG"; }
elapsed() { echo $(($(date +%s) - T0)); }

# run_step NAME TIMEOUT_S COMMAND...: output to the log and the terminal.
run_step() {
  local name=$1 limit=$2
  shift 2
  if [[ $SKIP == *" $name "* ]]; then
    say "== $name: left out (BENCH_SKIP)"
    STEP_RC[$name]=skip
    return
  fi
  say ""
  say "== $name [$(elapsed) s]: $*"
  local start
  start=$(date +%s)
  timeout --signal=INT --kill-after=10 "$limit" "$@" 2>&1 | tee -a "$LOG"
  local rc=${PIPESTATUS[0]}
  STEP_RC[$name]=$rc
  case $rc in
    0) say "== $name: done in $(($(date +%s) - start)) s" ;;
    77) say "== $name: skipped (exit 77)" ;;
    124) say "== $name: TIMED OUT after $limit s"; status=1 ;;
    *) say "== $name: FAILED (exit $rc)"; status=1 ;;
  esac
}

say "cupp benchmarks: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(hostname), $JOBS cores"
say "repository: $ROOT ($(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ', modified'))"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.max,pcie.link.width.max,clocks.max.sm \
    --format=csv 2>&1 | tee -a "$LOG"
fi
say "cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"

# --- build ---------------------------------------------------------------------
say ""
say "== build [$(elapsed) s]: $BUILD, $JOBS jobs"
gen=()
[[ -f $BUILD/CMakeCache.txt ]] || { command -v ninja >/dev/null 2>&1 && gen=(-G Ninja); }
if cmake -S "$ROOT" -B "$BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCUPP_BUILD_TESTS=OFF \
  -DCUPP_BUILD_EXAMPLES=OFF -DCUPP_BUILD_BENCHMARKS=ON >>"$LOG" 2>&1 &&
  cmake --build "$BUILD" --target cupp_benchmarks --parallel "$JOBS" >>"$LOG" 2>&1; then
  say "== build: done in $(elapsed) s"
  STEP_RC[build]=0
  built=1
else
  say "== build: FAILED (see bench.log)"
  tail -n 40 "$LOG"
  built=0
  STEP_RC[build]=failed
  status=1
fi

BIN="$BUILD/bench"
# --- runs ----------------------------------------------------------------------
# Limits are generous safety nets; the expected times on an H100 are about
# 70 s (memory_pool), 60 s (transfer), 45 s (cupy), 40 s (compile); reduction
# and cupy_reduction well under a minute each (estimates, not yet measured);
# linalg and cupy_linalg about a minute each (estimates, not yet measured).
if [[ $built == 1 ]]; then
  # shellcheck disable=SC2086
  run_step memory_pool 150 "$BIN/bench_memory_pool" --json "$TMP/memory_pool.json" \
    ${BENCH_MEMORY_POOL_ARGS:-}
  # shellcheck disable=SC2086
  run_step transfer 200 "$BIN/bench_transfer" --json "$TMP/transfer.json" ${BENCH_TRANSFER_ARGS:-}
  # shellcheck disable=SC2086
  run_step elementwise 200 "$BIN/bench_elementwise" --json "$TMP/elementwise.json" \
    ${BENCH_ELEMENTWISE_ARGS:-}
  # shellcheck disable=SC2086
  run_step reduction 200 "$BIN/bench_reduction" --json "$TMP/reduction.json" \
    ${BENCH_REDUCTION_ARGS:-}
  # shellcheck disable=SC2086
  run_step indexing 200 "$BIN/bench_indexing" --json "$TMP/indexing.json" \
    ${BENCH_INDEXING_ARGS:-}
  # shellcheck disable=SC2086
  run_step linalg 200 "$BIN/bench_linalg" --json "$TMP/linalg.json" ${BENCH_LINALG_ARGS:-}
  # shellcheck disable=SC2086
  run_step sort 200 "$BIN/bench_sort" --json "$TMP/sort.json" ${BENCH_SORT_ARGS:-}
fi
# shellcheck disable=SC2086
run_step cupy 200 python3 "$ROOT/bench/cupy_reference.py" --json "$TMP/cupy.json" \
  ${BENCH_CUPY_ARGS:-}
# shellcheck disable=SC2086
run_step cupy_elementwise 200 python3 "$ROOT/bench/cupy_elementwise.py" \
  --json "$TMP/cupy_elementwise.json" ${BENCH_CUPY_ELEMENTWISE_ARGS:-}
# shellcheck disable=SC2086
run_step cupy_reduction 200 python3 "$ROOT/bench/cupy_reduction.py" \
  --json "$TMP/cupy_reduction.json" ${BENCH_CUPY_REDUCTION_ARGS:-}
# shellcheck disable=SC2086
run_step cupy_indexing 200 python3 "$ROOT/bench/cupy_indexing.py" \
  --json "$TMP/cupy_indexing.json" ${BENCH_CUPY_INDEXING_ARGS:-}
# shellcheck disable=SC2086
run_step cupy_linalg 200 python3 "$ROOT/bench/cupy_linalg.py" \
  --json "$TMP/cupy_linalg.json" ${BENCH_CUPY_LINALG_ARGS:-}
# shellcheck disable=SC2086
run_step cupy_sort 200 python3 "$ROOT/bench/cupy_sort.py" \
  --json "$TMP/cupy_sort.json" ${BENCH_CUPY_SORT_ARGS:-}
# shellcheck disable=SC2086
run_step compile 200 python3 "$ROOT/bench/compile_time/compile_time.py" \
  --json "$TMP/compile_time.json" ${BENCH_COMPILE_ARGS:-}

# --- results and the table -----------------------------------------------------
steps_json="{"
for k in "${!STEP_RC[@]}"; do steps_json+="\"$k\": \"${STEP_RC[$k]}\", "; done
steps_json="${steps_json%, }}"
python3 - "$TMP" "$OUT" "$steps_json" "$(elapsed)" <<'PY' 2>&1 | tee -a "$LOG"
import json, os, sys

tmp, out, steps, wall = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4])


def load(name):
    try:
        with open(os.path.join(tmp, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


mp, tr, cu, ct, ew, cew = (load(n) for n in
                  ("memory_pool.json", "transfer.json", "cupy.json", "compile_time.json",
                   "elementwise.json", "cupy_elementwise.json"))
rd, crd = load("reduction.json"), load("cupy_reduction.json")
ix, cix = load("indexing.json"), load("cupy_indexing.json")
la, cla = load("linalg.json"), load("cupy_linalg.json")
cupy_rows = {r["case"]: r for r in (cu or {}).get("results", [])}
cupy_rows.update({r["case"]: r for r in (cew or {}).get("results", [])})

table = []


def add(case, unit, a, b, lower_is_better):
    if a is None and b is None:
        return
    ratio = None
    if a and b:
        ratio = b / a if lower_is_better else a / b
    table.append({"case": case, "unit": unit, "cupp": a, "cupy": b, "speedup": ratio})


def mib(x):
    return x / 2**20 if isinstance(x, (int, float)) and x == x else None  # NaN -> None


for r in (mp or {}).get("results", []):
    c = cupy_rows.get(r["case"])
    add(r["case"], r["unit"], r["value"], c["value"] if c else None, True)
for r in (mp or {}).get("results", []):
    c = cupy_rows.get(r["case"])
    add("peak." + r["case"], "MiB", mib(r.get("peak_bytes")),
        mib(c.get("peak_bytes")) if c else None, True)
for r in (tr or {}).get("results", []):
    c = cupy_rows.get(r["case"])
    add(r["case"], r["unit"], r["value"], c["value"] if c else None, False)

copy_bw = None
for r in (ew or {}).get("results", []):
    if r["case"] == "copy.f32":
        copy_bw = r["value"]
for r in (ew or {}).get("results", []):
    c = cupy_rows.get(r["case"])
    higher = r["unit"] == "GB/s"
    add(r["case"], r["unit"], r["value"], c["value"] if c else None, not higher)
    for suffix in (".unfused", ".numpy"):
        c = cupy_rows.get(r["case"] + suffix)
        if c:
            add(r["case"] + suffix, r["unit"], r["value"], c["value"], not higher)
    if higher and copy_bw and r["case"] != "copy.f32":
        add(r["case"] + ".of_copy_bw", "%", 100.0 * r["value"] / copy_bw, None, False)

# Reductions: each program's GB/s against its own copy bandwidth of the same
# run; sum_xy.f32's CuPy figure is the better of cp.sum(x * y) and cp.fuse,
# and the .unfused, .fuse and .dot rows (cp.dot: cuBLAS, another algorithm)
# set cupp's figure beside each of CuPy's forms.
red_rows = {r["case"]: r for r in (crd or {}).get("results", [])}
red_copy, cupy_red_copy = (rd or {}).get("copy_gbs"), (crd or {}).get("copy_gbs")
for r in (rd or {}).get("results", []):
    c = red_rows.get(r["case"])
    higher = r["unit"] == "GB/s"
    case = r["case"] + (".reduction_run" if r["case"] == "copy.f32" else "")
    add(case, r["unit"], r["value"], c["value"] if c else None, not higher)
    for suffix in (".unfused", ".fuse", ".dot"):
        c2 = red_rows.get(r["case"] + suffix)
        if c2:
            add(r["case"] + suffix, r["unit"], r["value"], c2["value"], not higher)
    if higher and red_copy and r["case"] != "copy.f32":
        add(r["case"] + ".of_copy_bw", "%", 100.0 * r["value"] / red_copy,
            100.0 * c["value"] / cupy_red_copy if c and cupy_red_copy else None, False)
# CuPy's rows that no cupp row took (all of them when bench_reduction did not run).
shown = {x["case"] + s for x in (rd or {}).get("results", [])
         for s in ("", ".unfused", ".fuse", ".dot")}
for r in (crd or {}).get("results", []):
    if r["case"] not in shown:
        add(r["case"] + (".reduction_run" if r["case"] == "copy.f32" else ""), r["unit"], None,
            r["value"], r["unit"] != "GB/s")

# Indexing: as reductions, each program against its own copy bandwidth;
# CuPy's one gather (it has no checked form) stands beside both of cupp's.
ix_rows = {r["case"]: r for r in (cix or {}).get("results", [])}
ix_copy, cupy_ix_copy = (ix or {}).get("copy_gbs"), (cix or {}).get("copy_gbs")
for r in (ix or {}).get("results", []):
    c = ix_rows.get(r["case"]) or (ix_rows.get("gather.f32") if r["case"] == "gather_unchecked.f32"
                                   else None)
    case = r["case"] + (".indexing_run" if r["case"] == "copy.f32" else "")
    add(case, r["unit"], r["value"], c["value"] if c else None, False)
    if r["case"] == "copy.f32":
        continue
    add(r["case"] + ".ms", "ms", r["ms"], c["ms"] if c else None, True)
    if ix_copy:
        add(r["case"] + ".of_copy_bw", "%", 100.0 * r["value"] / ix_copy,
            100.0 * c["value"] / cupy_ix_copy if c and cupy_ix_copy else None, False)
shown = {x["case"] for x in (ix or {}).get("results", [])}
for r in (cix or {}).get("results", []):
    if r["case"] not in shown:
        add(r["case"] + (".indexing_run" if r["case"] == "copy.f32" else ""), r["unit"], None,
            r["value"], False)

# Linear algebra: ms per call, cupp's call (unchecked where CuPy does not
# check; the ".checked" rows are NumPy's default) against CuPy's; the raw
# vendor calls and the stacked product's bandwidth go to their own block.
la_rows = {r["case"]: r for r in (cla or {}).get("results", [])}
for r in (la or {}).get("results", []):
    c = la_rows.get(r["case"])
    figs = r["figures"]
    for who, suffix in (("cupp", ""), ("cupp.checked", ".checked")):
        if who in figs:
            add(r["case"] + suffix, "ms", figs[who], c["ms"] if c else None, True)
    x = r.get("extras", {})
    if "cupp_of_copy_pct" in x:
        add(r["case"] + ".of_copy_bw", "%", x["cupp_of_copy_pct"],
            (c or {}).get("extras", {}).get("cupy_of_copy_pct"), False)
shown = {x["case"] for x in (la or {}).get("results", [])}
for r in (cla or {}).get("results", []):
    if r["case"] not in shown:
        add(r["case"], "ms", None, r["ms"], True)

result = {
    "wall_seconds": wall,
    "linalg": la,
    "cupy_linalg": cla,
    "indexing": ix,
    "cupy_indexing": cix,
    "elementwise": ew,
    "cupy_elementwise": cew,
    "reduction": rd,
    "cupy_reduction": crd,
    "steps": steps,
    "table": table,
    "memory_pool": mp,
    "transfer": tr,
    "cupy_reference": cu,
    "compile_time": ct,
}
with open(os.path.join(out, "results.json"), "w") as f:
    json.dump(result, f, indent=1)

fmt = lambda v: "-" if v is None else (f"{v:.3f}" if v < 10 else f"{v:.1f}")
lines = []
dev = next(((r or {}).get("device") for r in (tr, mp, ew, rd, cu, cew, crd, ix, cix, la, cla)
            if (r or {}).get("device")), "?")
lines.append(f"== cupp vs CuPy on {dev} (speedup > 1: cupp is better; "
             f"us/pair and MiB: lower is better, GB/s: higher) ==")
lines.append(f"{'case':34s} {'unit':8s} {'cupp':>10s} {'CuPy':>10s} {'speedup':>8s}")
for t in table:
    speedup = "-" if not t["speedup"] else "%.2fx" % t["speedup"]
    lines.append(f"{t['case']:34s} {t['unit']:8s} {fmt(t['cupp']):>10s} {fmt(t['cupy']):>10s} "
                 f"{speedup:>8s}")
if tr and tr.get("best_h2d"):
    for key in ("best_h2d", "best_d2h"):
        b = tr[key]
        lines.append(f"pipeline {key[5:].upper()} best: chunk {b['chunk_mib']} MiB, threads "
                     f"{b['threads']}, buffers {b['buffers']}: {b['gbs']:.2f} GB/s "
                     f"(sweep of {len(tr.get('sweep', []))} settings)")
if crd:
    best = next((r.get("best_of") for r in crd.get("results", []) if r["case"] == "sum_xy.f32"),
                None)
    lines.append(f"CuPy reductions: accelerators {crd.get('accelerators')}; sum_xy.f32's CuPy "
                 f"figure is {best}")
if la:
    lines.append("")
    lines.append("== linear algebra, ms per call: cupp, the raw vendor call(s), CuPy; cupp/vendor "
                 "near 1 is the aim ==")
    lines.append(f"{'case':26s} {'cupp':>9s} {'checked':>9s} {'vendor':>9s} {'CuPy':>9s} "
                 f"{'cupp/vendor':>11s}  vendor call")
    for r in la.get("results", []):
        figs = dict(r["figures"])
        mine = figs.pop("cupp", None)
        checked = figs.pop("cupp.checked", None)
        figs = {k: v for k, v in figs.items() if not k.startswith("copy")}
        best = min(figs.items(), key=lambda kv: kv[1]) if figs else (None, None)
        c = la_rows.get(r["case"])
        ratio = "-" if not (mine and best[1]) else "%.2f" % (mine / best[1])
        lines.append(f"{r['case']:26s} {fmt(mine):>9s} {fmt(checked):>9s} {fmt(best[1]):>9s} "
                     f"{fmt(c['ms'] if c else None):>9s} {ratio:>11s}  {best[0] or '-'}"
                     + "".join(f"; {k} {fmt(v)}" for k, v in figs.items() if k != best[0]))
        extras = dict(r.get("extras", {}))
        extras.update({k: v for k, v in ((c or {}).get("extras") or {}).items()
                       if k.startswith("cupy_")})
        if extras:
            lines.append(f"{'':26s} " + ", ".join(
                f"{k} {v:.3g}" if abs(v) < 1e-2 else f"{k} {fmt(v)}" for k, v in extras.items()))
if ct:
    lines.append("compile time (median s): " + ", ".join(
        f"{r['case']} {r['value']:.2f}" for r in ct.get("results", [])))
lines.append("steps: " + ", ".join(f"{k} {v}" for k, v in sorted(steps.items()))
             + f"; total {wall} s")
text = "\n".join(lines)
with open(os.path.join(out, "summary.txt"), "w") as f:
    f.write(text + "\n")
print()
print(text)
PY
exit $status
