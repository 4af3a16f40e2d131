#!/usr/bin/env bash
# On a GPU machine, in one device call: the rows where cupp trailed CuPy
# 14.2 on an H200 (matmul float16 8192² and float64 4096², the first NVRTC
# compile, the kernel cache's disk hit, the 16384² float32 row sum), each
# beside CuPy and the vendor calls in the same process, with the GPU's SM
# clock, power and throttle reasons sampled throughout (the large products
# run at the power limit, so a process's figure depends on the GPU's state).
#
#   bench/rows_behind_cupy.sh            # prebuilt binaries in .device/rows, else builds
#   ROUNDS=1 bench/rows_behind_cupy.sh   # the products once each instead of twice
#
# BENCH_BIN names another folder of prebuilt bench_linalg, bench_kernels and
# bench_reduction. Logs and JSON are written to out/rows/ and packed into
# $OUT/rows_behind_cupy.tgz (default $OUT: ./out); the last lines printed
# are the ones to read.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
PACK="${OUT:-$root/out}"
OUT="$root/out/rows"
mkdir -p "$OUT" "$PACK"
export NCCL_NVLS_ENABLE=0
BIN="${BENCH_BIN:-$root/.device/rows}"
usable() {
  for b in bench_linalg bench_kernels bench_reduction; do
    [ -x "$BIN/$b" ] || return 1
    ldd "$BIN/$b" 2>/dev/null | grep -q "not found" && return 1
  done
  "$BIN/bench_kernels" --only none >/dev/null 2>&1 || return 1
}
if ! usable; then
  echo "building the three benchmarks (no usable prebuilt ones in $BIN)"
  source scripts/env.sh
  BIN="$root/build-rows/bench"
  cmake -S . -B build-rows -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUPP_BUILD_BENCHMARKS=ON \
    -DCUPP_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/build.log" 2>&1
  timeout 500 cmake --build build-rows -j "$(nproc)" --target bench_linalg bench_kernels \
    bench_reduction >>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
fi
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
  python3 -c 'import cupy; print("cupy", cupy.__version__)'
} >"$OUT/env.txt" 2>&1
fields=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$fields --format=csv,noheader -c 1 >/dev/null 2>&1 ||
  fields=timestamp,clocks.sm,power.draw,temperature.gpu
nvidia-smi --query-gpu=$fields --format=csv,noheader -lms 250 >"$OUT/smi.csv" 2>/dev/null &
smi=$!
mark() { echo "$(date '+%Y/%m/%d %H:%M:%S.%3N') $*" >>"$OUT/marks.txt"; }
step() {  # step NAME SECONDS COMMAND...
  local name=$1 limit=$2
  shift 2
  mark "start $name"
  timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  mark "end $name rc=$rc"
  echo "$name: rc=$rc"
}

# First compile, disk and memory hits.
step kernels 60 "$BIN/bench_kernels" --only raw_kernel --json "$OUT/cupp_kernels.json"
step cupy_kernels 90 python3 bench/cupy_kernels.py --only raw_kernel --json "$OUT/cupy_kernels.json"
# The row sum: cupp under other grids, a block per row, CUB's segmented
# reduce (CuPy's call); then CuPy's own figure (its whole script).
step row_sum 60 "$BIN/bench_reduction" --row-sum
step cupy_reduction 120 python3 bench/cupy_reduction.py --json "$OUT/cupy_reduction.json"
# The products: cupp's process and CuPy's in turn, twice, each after the
# same idle time.
for i in $(seq 1 "${ROUNDS:-2}"); do
  sleep 5
  step "linalg_$i" 120 "$BIN/bench_linalg" --only matmul. --json "$OUT/cupp_linalg_$i.json"
  sleep 5
  step "cupy_linalg_$i" 120 python3 bench/cupy_linalg.py --only matmul. --json "$OUT/cupy_linalg_$i.json"
done
# cupp's products once more with the cuBLAS CuPy loaded, where that is
# another file than the one cupp links.
cupy_blas=$(grep -o '(/[^)]*libcublas\.so[^)]*)' "$OUT/cupy_linalg_1.log" | head -1 | tr -d '()')
if [ -n "$cupy_blas" ] && ! grep -q "($cupy_blas)" "$OUT/linalg_1.log"; then
  sleep 5
  step linalg_cupy_blas 120 env LD_LIBRARY_PATH="$(dirname "$cupy_blas")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$BIN/bench_linalg" --only matmul. --json "$OUT/cupp_linalg_cupy_blas.json"
fi
kill "$smi" 2>/dev/null

python3 bench/cupy_kernels.py --table "$OUT/cupp_kernels.json" "$OUT/cupy_kernels.json" \
  >"$OUT/kernels_table.txt" 2>&1
echo "== kernels"
cat "$OUT/kernels_table.txt" | grep -v "^graph\|^elementwise\|^reduction"
echo "== row sum (cupp's process), then CuPy's sum_axis1"
grep -E "^row_sum|^copy|hand-written" "$OUT/row_sum.log"
grep -E "axis1\.16384|accelerators" "$OUT/cupy_reduction.log"
for f in linalg_1 cupy_linalg_1 linalg_2 cupy_linalg_2 linalg_cupy_blas; do
  [ -f "$OUT/$f.log" ] || continue
  echo "== $f"
  grep -E "^cuBLAS|^matmul\.(8192\.f16|8192\.f32|4096\.f64)|^  |differ" "$OUT/$f.log" |
    grep -v -E "^  (copy|cupp_gbs|vendor_gbs|cupp_of|vendor_of|copy_gbs)" | head -60
done
echo "== clocks: SM MHz and W (min / median / max) per step"
python3 - "$OUT" <<'EOF'
import csv, datetime, statistics, sys
out = sys.argv[1]
def when(s):
    return datetime.datetime.strptime(s.strip()[:23], "%Y/%m/%d %H:%M:%S.%f")
rows = []
for r in csv.reader(open(f"{out}/smi.csv")):
    try:
        rows.append((when(r[0]), float(r[1].split()[0]), float(r[2].split()[0]),
                     r[4].strip() if len(r) > 4 else "?"))
    except (ValueError, IndexError):
        pass
marks = [l.split(" ", 3) for l in open(f"{out}/marks.txt")]
starts = {}
for d, t, what, name in ((m[0], m[1], m[2], m[3].split()[0]) for m in marks):
    at = when(d + " " + t)
    if what == "start":
        starts[name] = at
    elif name in starts:
        s = [r for r in rows if starts[name] <= r[0] <= at and r[1] > 500]
        if s:
            mhz, w = [r[1] for r in s], [r[2] for r in s]
            print(f"{name:18s} SM {min(mhz):5.0f} / {statistics.median(mhz):5.0f} / {max(mhz):5.0f} MHz"
                  f"   {min(w):4.0f} / {statistics.median(w):4.0f} / {max(w):4.0f} W   "
                  f"throttle {sorted(set(r[3] for r in s))}")
EOF
tar czf "$PACK/rows_behind_cupy.tgz" -C "$OUT" . && echo "logs: $PACK/rows_behind_cupy.tgz"
