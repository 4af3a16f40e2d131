#!/usr/bin/env bash
# The GPU machine has no Boost headers and no network: this copies the ones
# the tests include (and what those include) from this machine into
# .device/boost/include, which scripts/device-run.sh puts on the include
# path. Pass .device to the device call's `carry`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.device/boost/include"
rm -rf "$dest"
mkdir -p "$dest"
src="$(mktemp --suffix=.cpp)"
grep -rhoE '#include <boost/[^>]+>' "$root/tests" "$root/bench" | sort -u >"$src"
c++ -std=c++20 -DBOOST_TEST_NO_MAIN -M "$src" | tr ' \\' '\n\n' | grep -E '^/.*/boost/' | sort -u |
  while read -r f; do
    rel="${f#*/include/}"
    mkdir -p "$dest/$(dirname "$rel")"
    cp "$f" "$dest/$rel"
  done
rm -f "$src"
echo "carry-boost: $(find "$dest" -type f | wc -l) headers, $(du -sh "$dest" | cut -f1) in $dest"
