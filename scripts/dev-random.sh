#!/usr/bin/env bash
# The random-number area on the GPU machine, from binaries built here for
# sm_90 (PREBUILT, default build-devbin: tests/ and bench/): the GPU tests,
# bench_random beside CuPy, memcheck of the suites that are not the
# goodness-of-fit runs, and the multivariate tests. Logs go to $OUT.
#   PREBUILT=build-devbin bash scripts/dev-random.sh
set -u
p="${PREBUILT:-build-devbin}"
# The fixtures' path is compiled in as /work/main/tests/fixtures.
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
step() {  # step NAME SECONDS COMMAND...
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
  echo "== $name rc=$? ($((SECONDS - t0)) s)"
  grep -E "test cases|assertions|ERROR SUMMARY|failed|error" "$OUT/$name.log" | tail -4
}
step random_gpu_test 200 "$p/tests/random_gpu_test" --log_level=test_suite --report_level=short
step bench_random 120 "$p/bench/bench_random" --json "$OUT/cupp_random.json"
step cupy_random 150 python3 bench/cupy_random.py --json "$OUT/cupy_random.json"
python3 bench/cupy_random.py --table "$OUT/cupp_random.json" "$OUT/cupy_random.json" | tee "$OUT/table.txt"
step memcheck 150 compute-sanitizer --tool memcheck "$p/tests/random_gpu_test" \
  --run_test=random_samplers,random_math,random_generator --report_level=short
step random_multivariate_gpu_test 60 "$p/tests/random_multivariate_gpu_test" --report_level=short
