#!/usr/bin/env bash
# The run-time kernels and CUDA graphs on the GPU machine, from binaries built here for
# sm_90 (PREBUILT, default build-devbin: tests/ and bench/): the host and GPU
# tests, the GPU tests under memcheck, bench_kernels beside CuPy. Logs go to
# $OUT.
#   PREBUILT=build-devbin bash scripts/dev-kernels.sh
set -u
p="${PREBUILT:-build-devbin}"
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
step() {  # step NAME SECONDS COMMAND...
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
  echo "== $name rc=$? ($((SECONDS - t0)) s)"
  grep -E "test cases|assertions|ERROR SUMMARY|error" "$OUT/$name.log" | tail -4
}
step kernels_host_test 120 "$p/tests/kernels_host_test" --report_level=short
step kernels_gpu_test 120 "$p/tests/kernels_gpu_test" --report_level=short
# The tests provoke CUDA errors on purpose (an unknown kernel name), and the
# signature probe ends at the driver's "no such parameter": memory errors only.
step kernels_memcheck 200 compute-sanitizer --tool memcheck --report-api-errors no "$p/tests/kernels_gpu_test" --report_level=short
# CUDA graphs (tests/cuda_graph_test.cu, in cuda_gpu_test).
if [ -x "$p/tests/cuda_gpu_test" ]; then
  step graphs_gpu_test 120 "$p/tests/cuda_gpu_test" --run_test=graphs --report_level=short
  step ipc_gpu_test 120 "$p/tests/cuda_gpu_test" --run_test=ipc --report_level=short
  step graphs_memcheck 200 compute-sanitizer --tool memcheck --report-api-errors no "$p/tests/cuda_gpu_test" --run_test=graphs --report_level=short
fi
step bench_kernels 120 "$p/bench/bench_kernels" --json "$OUT/cupp_kernels.json"
step cupy_kernels 120 python3 bench/cupy_kernels.py --json "$OUT/cupy_kernels.json"
python3 bench/cupy_kernels.py --table "$OUT/cupp_kernels.json" "$OUT/cupy_kernels.json" | tee "$OUT/kernels_table.txt"
