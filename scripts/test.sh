#!/usr/bin/env bash
# Builds cupp's test suite with all cores and runs it. GPU tests run when a
# CUDA device is present and are reported as skipped otherwise.
#   scripts/test.sh [ctest arguments, e.g. -L host]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
source "$root/scripts/env.sh"
build="${CUPP_BUILD_DIR:-$root/build}"
# CI (CI=true) treats warnings in cupp's own code as errors.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${CI:+-DCUPP_WARNINGS_AS_ERRORS=ON} \
  -DCUPP_BUILD_BENCHMARKS=OFF ${CUPP_CMAKE_ARGS:-}
# CUPP_BUILD_TARGETS: build only these (the GPU machine skips the host-only
# tests it would not run).
# -k 0: every unit that fails to compile is reported in one run, not only the first.
cmake --build "$build" -j "$(ncores)" ${CUPP_BUILD_TARGETS:+--target $CUPP_BUILD_TARGETS} -- -k 0
cd "$build"
log="$(mktemp)"
status=0
ctest --output-on-failure -j "$(ncores)" "$@" 2>&1 | tee "$log" || status=$?
# ctest's summary last, whatever ctest printed after it.
grep -E '^[0-9]+% tests passed' "$log" | tail -1 || true
rm -f "$log"
exit $status
