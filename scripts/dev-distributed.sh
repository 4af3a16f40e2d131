#!/usr/bin/env bash
# Device helper for the distributed area: build the NCCL, store, process
# group and distributed-array tests, the workers and the two benchmarks (or
# take them prebuilt from PREBUILT=DIR, a build tree made elsewhere for this
# GPU); run the tests (the multi-process ones use every GPU of the machine);
# memcheck the one-rank tests; then the collectives benchmark beside raw NCCL
# and CuPy's NCCLBackend over 2 and over every GPU, and the distributed array's
# scaling. NVLink multicast stays off in every process.
#   BUILD_TIMEOUT=s MEMCHECK=0|1 BENCH=0|1 PREBUILT=dir scripts/dev-distributed.sh
set -uo pipefail
source scripts/device-env.sh
start=$(date +%s)
n=$(nvidia-smi -L | wc -l); echo "GPUs: $n"; nvidia-smi -L
# NCCL from python3's nvidia.nccl package where the system has none.
nccl_lib=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))" 2>/dev/null)
[ -n "$nccl_lib" ] && export LD_LIBRARY_PATH="$nccl_lib:${LD_LIBRARY_PATH:-}"
if [ -n "${PREBUILT:-}" ]; then
  b="$PREBUILT"
  for x in "$b"/tests/distributed_* "$b"/tests/nccl_gpu_test "$b"/bench/bench_distributed*; do
    missing=$(ldd "$x" | grep "not found"); [ -n "$missing" ] && echo "$x: $missing"
  done
else
  b=build-device
  cmake -S . -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUPP_BUILD_BENCHMARKS=ON \
    -DCUPP_GPU_TEST_ARCHITECTURES=90-real -DCMAKE_CUDA_ARCHITECTURES=90-real >"$OUT/cfg.log" 2>&1
  grep -i "nccl\|mpi" "$OUT/cfg.log"
  timeout "${BUILD_TIMEOUT:-300}" cmake --build "$b" -j 32 --target nccl_gpu_test distributed_gpu_test \
    distributed_worker distributed_store_host_test distributed_array_gpu_test bench_distributed \
    bench_distributed_array distributed_mpi_gpu_test distributed_mpi_worker ${EXTRA_TESTS:-} -- -k 0 >"$OUT/build.log" 2>&1
  echo "build rc=$? $(( $(date +%s) - start )) s"; grep -E "error" "$OUT/build.log" | head -20 | cut -c1-300
fi
t="$b/tests"
export CUPP_MPIEXEC="${CUPP_MPIEXEC:-$(command -v mpirun)}"
for x in distributed_store_host_test nccl_gpu_test distributed_gpu_test distributed_array_gpu_test distributed_mpi_gpu_test ${EXTRA_TESTS:-}; do
  [ -x "$t/$x" ] || { echo "$x: not built"; continue; }
  s=$(date +%s)
  timeout 300 "$t/$x" --report_level=short --log_level=message >"$OUT/$x.log" 2>&1
  echo "$x rc=$? $(( $(date +%s) - s )) s"; tail -4 "$OUT/$x.log"
done
if [ "${MEMCHECK:-1}" = 1 ]; then
  m() { local name="$1"; shift; s=$(date +%s)
    timeout 200 compute-sanitizer --tool memcheck --report-api-errors no "$@" --report_level=short >"$OUT/memcheck_$name.log" 2>&1
    echo "memcheck $name rc=$? $(( $(date +%s) - s )) s"; grep -E "ERROR SUMMARY|test cases|failed" "$OUT/memcheck_$name.log" | tail -3; }
  m distributed_array "$t/distributed_array_gpu_test"
  m distributed "$t/distributed_gpu_test" --run_test=one_rank_group
  m nccl "$t/nccl_gpu_test" --run_test='!every_device_of_the_machine'
  [ -x "$t/reduction_gpu_test" ] && m reduction_extrema "$t/reduction_gpu_test" --run_test=reduction_extrema
fi
if [ "${BENCH:-1}" = 1 ] && [ "$n" -ge 2 ]; then
  for k in $( [ "$n" -gt 2 ] && echo 2 "$n" || echo 2 ); do
    timeout 200 bench/run_distributed.sh "$b" "$k" --json "$OUT/bench_distributed_$k.json" >"$OUT/bench_distributed_$k.log" 2>&1
    echo "bench $k GPUs rc=$?"; cat "$OUT/bench_distributed_$k.log"
    timeout 200 python3 bench/cupy_distributed.py "$k" --json "$OUT/cupy_distributed_$k.json" >"$OUT/cupy_distributed_$k.log" 2>&1
    echo "cupy $k GPUs rc=$?"; tail -40 "$OUT/cupy_distributed_$k.log"
  done
  # What NCCL's non-blocking mode costs per call.
  timeout 100 bench/run_distributed.sh "$b" 2 --max-mib 8 --nonblocking >"$OUT/bench_distributed_nonblocking.log" 2>&1
  echo "bench nonblocking rc=$?"; cat "$OUT/bench_distributed_nonblocking.log"
  timeout 200 "$b/bench/bench_distributed_array" --json "$OUT/bench_distributed_array.json" >"$OUT/bench_distributed_array.log" 2>&1
  echo "bench_distributed_array rc=$?"; cat "$OUT/bench_distributed_array.log"
fi
echo "total $(( $(date +%s) - start )) s"
# One archive: the device tool returns a bounded number of files.
(cd "$OUT" && tar czf logs.tgz --remove-files ./*.log ./*.json 2>/dev/null)
