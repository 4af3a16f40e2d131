#!/usr/bin/env bash
# Builds and runs examples/quickstart: arrays moving between host and GPU.
# Without a GPU it runs the host part and says so. Needs nothing beyond the
# CUDA toolkit, CMake >= 3.26 and ninja (scripts/setup.sh puts the last two
# into .venv/ where they are missing; no apt package is installed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh" build
source "$root/scripts/env.sh"
build="${CUPP_BUILD_DIR:-$root/build}"
# The configure's report (which of the optional libraries it found, whether
# the tests are in) is beside the point here: shown only if it fails.
log="$build/quickstart-configure.log"
mkdir -p "$build"
if ! cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$log" 2>&1; then
  cat "$log"
  exit 1
fi
cmake --build "$build" -j "$(ncores)" --target quickstart
"$build/examples/quickstart"
