#!/usr/bin/env bash
# Device helper: build and run the named distributed-area tests (and their
# workers), then memcheck the named ones in $MEMCHECK; logs in $OUT as they
# are written, so a run cut short still returns what it did.
set -uo pipefail
source scripts/device-env.sh
start=$(date +%s)
echo "mpirun: $(command -v mpirun || echo none)"
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUPP_BUILD_BENCHMARKS=ON >"$OUT/cfg.log" 2>&1
grep -E "cupp::(nccl|mpi)" "$OUT/cfg.log"
workers="distributed_worker"; grep -q "cupp::mpi: /" "$OUT/cfg.log" && workers="$workers distributed_mpi_worker"
timeout "${BUILD_TIMEOUT:-150}" cmake --build build-device -j 16 --target "$@" $workers -- -k 0 >"$OUT/build.log" 2>&1
echo "build rc=$? $(( $(date +%s) - start )) s"; grep -E "error" "$OUT/build.log" | head -20
for x in "$@"; do
  timeout 120 build-device/tests/$x --report_level=short >"$OUT/$x.log" 2>&1; echo "$x rc=$?"; tail -6 "$OUT/$x.log"
done
for x in ${MEMCHECK:-}; do
  timeout 120 compute-sanitizer --tool memcheck --report-api-errors no build-device/tests/$x --report_level=short >"$OUT/memcheck_$x.log" 2>&1
  echo "memcheck $x rc=$?"; tail -3 "$OUT/memcheck_$x.log"
done
echo "total $(( $(date +%s) - start )) s"
