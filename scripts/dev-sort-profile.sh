#!/usr/bin/env bash
# Device helper: build bench_sort and print per-kernel durations (Nsight
# Compute's SpeedOfLight section) of the selection, split and search
# kernels behind partition, percentile and searchsorted.
set -uo pipefail
OUT="${OUT:-out}"; mkdir -p "$OUT"
source scripts/env.sh
start=$(date +%s)
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUPP_BUILD_TESTS=OFF \
  -DCUPP_BUILD_EXAMPLES=OFF -DCUPP_BUILD_BENCHMARKS=ON >"$OUT/cfg.log" 2>&1
cmake --build build-bench --target bench_sort -j 16 >"$OUT/build.log" 2>&1
echo "build rc=$? $(( $(date +%s) - start )) s"; grep -E "error" "$OUT/build.log" | head
b=${BENCH_BIN:-build-bench/bench/bench_sort}
for only in partition percentile searchsorted; do
  $b --only $only --runs 3 2>&1 | grep -E "^ +(cupp|cub)" | head -3
done
prof() {  # name regex count
  timeout 120 ncu --kernel-name regex:"$2" --launch-count "$3" --section SpeedOfLight \
    $b --only "$1" --runs 1 --loop-ms 1 > "$OUT/ncu_$1.log" 2>&1
  echo "== $1"; awk '/^  [a-zA-Z_].*\(/{name=$0} /Duration/{print $3, $2, substr(name, 1, 90)}' "$OUT/ncu_$1.log"
}
prof partition "radix_|three_way" 10
prof percentile "radix_|select_|Reduce" 12
prof searchsorted "index_from|indexed_search" 6
echo "total $(( $(date +%s) - start )) s"
