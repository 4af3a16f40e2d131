#!/usr/bin/env bash
# Device helper for the sort area: build the named sort test executables and
# bench_sort, run the tests, then the benchmark rows matching $BENCH_ONLY.
set -uo pipefail
OUT="${OUT:-out}"; mkdir -p "$OUT"
source scripts/env.sh
if [ ! -e /usr/include/boost/test/included/unit_test.hpp ] && [ -d .device/boost/include ]; then
  export CPLUS_INCLUDE_PATH="$PWD/.device/boost/include"; export CMAKE_INCLUDE_PATH="$PWD/.device/boost/include"
fi
start=$(date +%s)
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUPP_BUILD_BENCHMARKS=ON >"$OUT/cfg.log" 2>&1
timeout "${BUILD_TIMEOUT:-400}" cmake --build build-device -j 16 --target "$@" bench_sort -- -k 0 >"$OUT/build.log" 2>&1
echo "build rc=$? $(( $(date +%s) - start )) s"; grep -E "error" "$OUT/build.log" | head -20
for t in "$@"; do
  timeout 200 build-device/tests/$t --report_level=short >"$OUT/$t.log" 2>&1; echo "$t rc=$?"; tail -5 "$OUT/$t.log"
done
[ "${BENCH:-1}" = 1 ] && timeout 300 build-device/bench/bench_sort --json "$OUT/bench_sort.json" > "$OUT/bench_sort.log" 2>&1; echo "bench rc=$?"; tail -40 "$OUT/bench_sort.log"
echo "total $(( $(date +%s) - start )) s"
