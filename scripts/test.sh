#!/usr/bin/env bash
# Builds cupp's test suite with all cores and runs it. GPU tests run when a
# CUDA device is present and are reported as skipped otherwise.
#   scripts/test.sh [ctest arguments, e.g. -L host]
# Installs what the tests use where it is missing (scripts/setup.sh tests:
# CMake and ninja into .venv/, the Boost.Test headers, OpenBLAS/LAPACKE,
# and OpenMPI where a GPU answers). Ends with one line that counts passed,
# skipped and failed tests apart (ctest's own "100% tests passed" counts a
# skipped test as passed); the exit status is ctest's.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh" tests
source "$root/scripts/env.sh"
build="${CUPP_BUILD_DIR:-$root/build}"
# CI (CI=true) treats warnings in cupp's own code as errors.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${CI:+-DCUPP_WARNINGS_AS_ERRORS=ON} \
  -DCUPP_BUILD_TESTS=ON -DCUPP_BUILD_BENCHMARKS=OFF ${CUPP_CMAKE_ARGS:-}
# CUPP_BUILD_TARGETS: build only these (the GPU machine skips the host-only
# tests it would not run).
# -k 0: every unit that fails to compile is reported in one run, not only the first.
cmake --build "$build" -j "$(ncores)" ${CUPP_BUILD_TARGETS:+--target $CUPP_BUILD_TARGETS} -- -k 0
cd "$build"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
# --no-tests=error: a configure that left the tests out (no Boost) is not a pass.
ctest --output-on-failure --no-tests=error -j "$(ncores)" "$@" 2>&1 | tee "$log" || status=$?

# The summary, from ctest's line per test
#   "  5/89 Test  #5: name ....................***Skipped   0.01 sec":
# Passed, Skipped, Not Run (Disabled), and anything else a failure (Failed,
# Timeout, Exception, Not Run for want of the executable).
have_gpu=0
command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU' && have_gpu=1
gpu_tests="$(ctest -N -L '^gpu$' 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: *//p' | tr '\n' ' ')"
awk -v gpu_tests=" $gpu_tests" -v have_gpu=$have_gpu '
  /^ *[0-9]+\/[0-9]+ +Test +#[0-9]+: / {
    rest = $0
    sub(/^ *[0-9]+\/[0-9]+ +Test +#[0-9]+: +/, "", rest)
    name = rest
    sub(/ .*/, "", name)
    if (rest ~ /\*\*\*Skipped/) {
      if (index(gpu_tests, " " name " ")) ngpu++
      else other = other (nother++ ? ", " : "") name
    } else if (rest ~ /Not Run \(Disabled\)/) ndisabled++
    else if (rest ~ / Passed +[0-9.]+ sec/) npassed++
    else failed = failed (nfailed++ ? ", " : "") name
  }
  END {
    total = npassed + ngpu + nother + ndisabled + nfailed
    if (total == 0) { print "tests: none ran"; exit }
    skipped = ngpu + nother
    s = sprintf("tests: %d passed, %d skipped", npassed, skipped)
    why = ""
    if (ngpu) why = have_gpu ? ngpu " gpu, though a GPU is present" : (nother ? ngpu " for want of a GPU" : "no GPU")
    if (nother) why = why (why != "" ? "; " : "") nother " other: " other
    if (why != "") s = s " (" why ")"
    if (ndisabled) s = s sprintf(", %d disabled", ndisabled)
    s = s sprintf(", %d failed, of %d", nfailed, total)
    if (nfailed) s = s "\nfailed: " failed
    print s
  }' "$log"
exit $status
