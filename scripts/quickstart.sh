#!/usr/bin/env bash
# Builds and runs examples/quickstart: arrays moving between host and GPU.
# Without a GPU it runs the host part and says so.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
source "$root/scripts/env.sh"
build="${CUPP_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(ncores)" --target quickstart
"$build/examples/quickstart"
