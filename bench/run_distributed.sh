#!/usr/bin/env bash
# Starts N ranks of bench_distributed (one per GPU) on this machine and
# waits for them; rank 0 prints the table (and alone writes the JSON).
# NVLink multicast stays off.
#   bench/run_distributed.sh BUILD_DIR N [--json FILE] [--max-mib M] [--nonblocking]
set -euo pipefail
build="$1"; n="$2"; shift 2
export NCCL_NVLS_ENABLE=0
port=$(( 29500 + RANDOM % 1000 ))
pids=()
for (( r = n - 1; r >= 0; r-- )); do
  if [ "$r" = 0 ]; then
    "$build/bench/bench_distributed" --ranks "$n" --rank 0 --port "$port" "$@" &
  else
    "$build/bench/bench_distributed" --ranks "$n" --rank "$r" --port "$port" "$@" >/dev/null &
  fi
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
exit $rc
