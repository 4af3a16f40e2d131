#!/usr/bin/env bash
# Installs what building cupp needs and is missing: CMake >= 3.26 and ninja
# (through pip), the Boost headers (through apt). The CUDA toolkit (nvcc,
# cudart, CCCL) must already be installed. Safe to run repeatedly: it only
# installs what is absent.
set -euo pipefail

say() { printf '[cupp setup] %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    say "need root to run: $*"; return 1; fi
}

pip_install() {
  python3 -m pip install --quiet --disable-pip-version-check "$@" 2>/dev/null ||
    python3 -m pip install --quiet --disable-pip-version-check --user "$@" ||
    python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "$@"
}

# nvcc: from the CUDA toolkit; PATH may simply lack it.
if ! command -v nvcc >/dev/null; then
  for d in /usr/local/cuda/bin /usr/local/cuda-*/bin /opt/cuda/bin; do
    if [ -x "$d/nvcc" ]; then export PATH="$d:$PATH"; break; fi
  done
fi
if ! command -v nvcc >/dev/null; then
  say "nvcc not found: install the CUDA toolkit 12.4 or newer (https://developer.nvidia.com/cuda-downloads)"
  exit 1
fi

version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -1)" = "$2" ]; }

cmake_ok() {
  command -v cmake >/dev/null && version_ge "$(cmake --version | head -1 | awk '{print $3}')" 3.26
}
if ! cmake_ok; then
  say "installing CMake >= 3.26 with pip (older CMake cannot ask nvcc for C++20)"
  command -v python3 >/dev/null || as_root apt-get install -y -q python3 python3-pip
  python3 -m pip --version >/dev/null 2>&1 || as_root apt-get install -y -q python3-pip
  pip_install "cmake>=3.26"
  hash -r
  export PATH="$HOME/.local/bin:$PATH"
  cmake_ok || { say "CMake >= 3.26 still not on PATH"; exit 1; }
fi

if ! command -v ninja >/dev/null; then
  say "installing ninja with pip"
  pip_install ninja || as_root apt-get install -y -q ninja-build
  hash -r
  export PATH="$HOME/.local/bin:$PATH"
fi

boost_ok() {
  printf '#include <boost/hana.hpp>\n#include <boost/test/included/unit_test.hpp>\n' |
    "${CXX:-c++}" -std=c++20 -fsyntax-only -x c++ - -DBOOST_TEST_NO_MAIN >/dev/null 2>&1
}
if ! boost_ok; then
  say "installing the Boost headers with apt (libboost-dev)"
  as_root apt-get update -q >/dev/null
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q libboost-dev >/dev/null
fi

say "ready: $(nvcc --version | tail -1 | sed 's/^Build //'), $(cmake --version | head -1), ninja $(ninja --version)"
