#!/usr/bin/env bash
# On a machine with a GPU: builds the tests with all cores and runs the
# `gpu` label. The last line printed is ctest's summary.
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/test.sh" -L gpu "$@"
