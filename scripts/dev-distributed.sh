#!/usr/bin/env bash
# Device helper for the distributed area: build the NCCL, store and process
# group tests, the worker and bench_distributed; run the tests (the
# multi-process ones use every GPU of the machine); memcheck the one-rank
# tests; then the collectives benchmark beside raw NCCL and CuPy's
# NCCLBackend over every GPU. NVLink multicast stays off in every process.
set -uo pipefail
source scripts/device-env.sh
start=$(date +%s)
n=$(nvidia-smi -L | wc -l); echo "GPUs: $n"; nvidia-smi -L
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUPP_BUILD_BENCHMARKS=ON >"$OUT/cfg.log" 2>&1
grep -i "nccl" "$OUT/cfg.log"
timeout "${BUILD_TIMEOUT:-300}" cmake --build build-device -j 32 --target nccl_gpu_test distributed_gpu_test \
  distributed_worker distributed_store_host_test distributed_array_gpu_test bench_distributed \
  bench_distributed_array -- -k 0 >"$OUT/build.log" 2>&1
echo "build rc=$? $(( $(date +%s) - start )) s"; grep -E "error" "$OUT/build.log" | head -20
t=build-device/tests
for x in distributed_store_host_test nccl_gpu_test distributed_gpu_test distributed_array_gpu_test; do
  timeout 300 $t/$x --report_level=short --log_level=message >"$OUT/$x.log" 2>&1; echo "$x rc=$?"; tail -6 "$OUT/$x.log"
done
if [ "${MEMCHECK:-1}" = 1 ]; then
  timeout 200 compute-sanitizer --tool memcheck --report-api-errors no $t/distributed_gpu_test --run_test=one_rank_group --report_level=short >"$OUT/memcheck_distributed.log" 2>&1
  echo "memcheck distributed rc=$?"; tail -3 "$OUT/memcheck_distributed.log"
  timeout 200 compute-sanitizer --tool memcheck --report-api-errors no $t/nccl_gpu_test --report_level=short >"$OUT/memcheck_nccl.log" 2>&1
  echo "memcheck nccl rc=$?"; tail -3 "$OUT/memcheck_nccl.log"
fi
if [ "${BENCH:-1}" = 1 ] && [ "$n" -ge 2 ]; then
  timeout 200 bench/run_distributed.sh build-device "$n" --json "$OUT/bench_distributed.json" >"$OUT/bench_distributed.log" 2>&1
  echo "bench rc=$?"; cat "$OUT/bench_distributed.log"
  timeout 200 python3 bench/cupy_distributed.py "$n" --json "$OUT/cupy_distributed.json" >"$OUT/cupy_distributed.log" 2>&1
  echo "cupy rc=$?"; tail -30 "$OUT/cupy_distributed.log"
  timeout 200 build-device/bench/bench_distributed_array --json "$OUT/bench_distributed_array.json" >"$OUT/bench_distributed_array.log" 2>&1
  echo "bench_distributed_array rc=$?"; cat "$OUT/bench_distributed_array.log"
fi
echo "total $(( $(date +%s) - start )) s"
