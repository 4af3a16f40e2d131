#!/usr/bin/env bash
# On a GPU machine: build the GPU tests with all cores, run the `gpu` label
# and the multi-file consumer (package_test) on the GPU, run the GPU tests
# again under compute-sanitizer memcheck, then the benchmarks beside CuPy.
# Logs go to $OUT (default ./out):
#   env.txt build.log tests.log package.log memcheck.log bench.log results.json summary.txt
# The last lines printed are the test summary, the memcheck summary and the
# benchmark table.
#   scripts/device-run.sh [all|build|tests|ctest|package|memcheck|bench|run TARGET...]
# all by default; build (compile only), tests (build what is left, run,
# package_test, memcheck) and bench split the work for machines that limit
# the length of one call; tests splits further into ctest, package and
# memcheck. A warm machine keeps build-device/ between calls.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${OUT:-$root/out}"
mkdir -p "$OUT"
cd "$root"
# Boost headers carried in .device/ serve where the machine has none.
if [ ! -e /usr/include/boost/test/included/unit_test.hpp ] && [ -d "$root/.device/boost/include" ]; then
  export CPLUS_INCLUDE_PATH="$root/.device/boost/include${CPLUS_INCLUDE_PATH:+:$CPLUS_INCLUDE_PATH}"
  export CMAKE_INCLUDE_PATH="$root/.device/boost/include"
fi
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
  nvcc --version | tail -2
  g++ --version | head -1
  cmake --version | head -1
  python3 -c 'import numpy, cupy; print("numpy", numpy.__version__, "cupy", cupy.__version__)'
  nproc
} >"$OUT/env.txt" 2>&1

mode="${1:-all}"
export CUPP_BUILD_DIR="$root/build-device"
source "$root/scripts/env.sh"
# The GPU tests, and what this script runs besides them (under memcheck).
# The largest test executable first, so that its units start with the
# first free cores.
targets="reduction_gpu_test cupp_gpu_tests npy_test print_test quickstart memory_and_streams readme"
# run TARGET...: build only these test executables and run each (a quick
# check of one area; the full suite is ctest).
if [ "$mode" = run ]; then
  shift
  start=$(date +%s)
  scripts/setup.sh >"$OUT/build.log" 2>&1
  cmake -S "$root" -B "$CUPP_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCUPP_BUILD_BENCHMARKS=OFF >>"$OUT/build.log" 2>&1
  timeout "${BUILD_TIMEOUT:-540}" cmake --build "$CUPP_BUILD_DIR" -j "$(ncores)" --target "$@" -- -k 0 \
    >>"$OUT/build.log" 2>&1
  echo "build: rc=$?, $(( $(date +%s) - start )) s"
  grep -E "error" "$OUT/build.log" | head -20
  for t in "$@"; do
    "$CUPP_BUILD_DIR/tests/$t" --log_level=test_suite --report_level=short >"$OUT/$t.log" 2>&1
    echo "$t: rc=$?"
    grep -E "error|fail|passed|Leaving test suite" "$OUT/$t.log" | grep -v "Leaving test suite" | head -30
  done
  exit 0
fi
if [ "$mode" = build ]; then
  start=$(date +%s)
  scripts/setup.sh >"$OUT/build.log" 2>&1
  cmake -S "$root" -B "$CUPP_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCUPP_BUILD_BENCHMARKS=OFF >>"$OUT/build.log" 2>&1
  timeout "${BUILD_TIMEOUT:-540}" cmake --build "$CUPP_BUILD_DIR" -j "$(ncores)" --target $targets \
    >>"$OUT/build.log" 2>&1
  echo "build: rc=$?, $(( $(date +%s) - start )) s"
  grep -E "error|warning" "$OUT/build.log" | head -20
  exit 0
fi
if [ "$mode" = all ] || [ "$mode" = tests ] || [ "$mode" = ctest ]; then
start=$(date +%s)
CUPP_BUILD_TARGETS="$targets" timeout 510 scripts/gpu-test.sh >"$OUT/tests.log" 2>&1
test_rc=$?
test_summary=$(grep -E '^[0-9]+% tests passed|^tests: ' "$OUT/tests.log" | tail -2 | tr '\n' ' ')
echo "tests: rc=$test_rc, $(( $(date +%s) - start )) s: $test_summary"
if [ ! -x "$CUPP_BUILD_DIR/tests/array_gpu_test" ]; then
  tail -60 "$OUT/tests.log"
  exit 1
fi
fi
if [ "$mode" = all ] || [ "$mode" = tests ] || [ "$mode" = package ]; then
# The multi-file consumer (find_package and add_subdirectory, whole-program
# and separable compilation), run on the GPU.
start=$(date +%s)
(cd "$CUPP_BUILD_DIR" && timeout 400 ctest -R '^package_test$' -V) >"$OUT/package.log" 2>&1
echo "package_test: rc=$?, $(( $(date +%s) - start )) s: $(grep -E 'tests passed' "$OUT/package.log" | tail -1)"
grep -E '^-- consumer|consumer' "$OUT/package.log" | head -12
fi
if [ "$mode" = all ] || [ "$mode" = tests ] || [ "$mode" = memcheck ]; then
start=$(date +%s)
: >"$OUT/memcheck.log"
for t in $(cd "$CUPP_BUILD_DIR/tests" && find . -name '*_gpu_test' -type f) npy_test print_test; do
  echo "== memcheck $t" >>"$OUT/memcheck.log"
  timeout 100 compute-sanitizer --tool memcheck --report-api-errors no \
    "$CUPP_BUILD_DIR/tests/$t" --log_level=test_suite >>"$OUT/memcheck.log" 2>&1
  echo "== $t: rc=$?" >>"$OUT/memcheck.log"
done
echo "== memcheck array_gpu_test, copies through the host (CUPP_PEER_ACCESS=0)" >>"$OUT/memcheck.log"
CUPP_PEER_ACCESS=0 timeout 120 compute-sanitizer --tool memcheck --report-api-errors no \
  "$CUPP_BUILD_DIR/tests/array_gpu_test" --run_test=transfers/copies_between_devices \
  --log_level=test_suite >>"$OUT/memcheck.log" 2>&1
echo "== array_gpu_test (host-staged): rc=$?" >>"$OUT/memcheck.log"
echo "== readme example" >>"$OUT/memcheck.log"
"$CUPP_BUILD_DIR/examples/readme" >>"$OUT/memcheck.log" 2>&1
echo "== readme: rc=$?" >>"$OUT/memcheck.log"
for e in quickstart memory_and_streams; do
  echo "== memcheck $e" >>"$OUT/memcheck.log"
  timeout 60 compute-sanitizer --tool memcheck "$CUPP_BUILD_DIR/examples/$e" >>"$OUT/memcheck.log" 2>&1
  echo "== $e: rc=$?" >>"$OUT/memcheck.log"
done
echo "memcheck: $(( $(date +%s) - start )) s"
grep -E '^== .*rc=|ERROR SUMMARY' "$OUT/memcheck.log"

fi
{ [ "${SKIP_BENCH:-0}" = 1 ] || { [ "$mode" != all ] && [ "$mode" != bench ]; }; } && exit 0
timeout 500 bench/run_benchmarks.sh "$OUT" "$root/build-bench-device"
echo "bench rc=$?"
echo "${test_summary:-}"
