#!/usr/bin/env bash
# Installs what building cupp needs and is missing, and says what before it
# installs anything:
#   - CMake >= 3.26 and ninja: into the project's own Python virtual
#     environment, .venv/ (never into the system's Python);
#   - the Boost headers (libboost-dev), OpenBLAS and LAPACKE
#     (libopenblas-dev, liblapacke-dev), python3-venv and, optionally,
#     OpenMPI (libopenmpi-dev, openmpi-bin): through apt.
# The CUDA toolkit (nvcc, cudart, CCCL) must already be installed. Safe to
# run repeatedly: it only installs what is absent.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv"
say() { printf '[cupp setup] %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    say "need root to run: $*"; return 1; fi
}
apt_updated=0
apt_install() {
  say "installing with apt: $*"
  if [ $apt_updated = 0 ]; then as_root apt-get update -q >/dev/null; apt_updated=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null
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
[ -x "$venv/bin/cmake" ] && export PATH="$venv/bin:$PATH"

cmake_ok() {
  command -v cmake >/dev/null && version_ge "$(cmake --version | head -1 | awk '{print $3}')" 3.26
}
venv_tools=()
cmake_ok || venv_tools+=("cmake>=3.26")
command -v ninja >/dev/null || venv_tools+=(ninja)
if [ ${#venv_tools[@]} -gt 0 ]; then
  say "need ${venv_tools[*]}: installing into $venv with pip (older CMake cannot ask nvcc for C++20)"
  command -v python3 >/dev/null || apt_install python3
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" 2>/dev/null || { rm -rf "$venv"; apt_install python3-venv; python3 -m venv "$venv"; }
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${venv_tools[@]}"
  export PATH="$venv/bin:$PATH"
  hash -r
  cmake_ok || { say "CMake >= 3.26 still not on PATH"; exit 1; }
fi

boost_ok() {
  printf '#include <boost/test/included/unit_test.hpp>\n' |
    "${CXX:-c++}" -std=c++20 -fsyntax-only -x c++ - -DBOOST_TEST_NO_MAIN >/dev/null 2>&1
}
boost_ok || apt_install libboost-dev

# OpenBLAS and LAPACKE: linear algebra of host arrays (cupp::linalg).
linalg_ok() {
  printf '#include <cblas.h>\n#include <lapacke.h>\nint main() { return 0; }\n' |
    "${CXX:-c++}" -x c++ - -o /dev/null -lopenblas -llapacke >/dev/null 2>&1
}
# Not fatal: a GPU machine without a package registry still builds and runs
# everything else; linalg_host_test then reports itself skipped.
linalg_ok || apt_install libopenblas-dev liblapacke-dev || linalg_ok ||
  say "OpenBLAS/LAPACKE could not be installed: linear algebra of host arrays is unavailable here"

# OpenMPI: an optional launcher and bootstrap for several processes
# (cupp::mpi). Not fatal either.
mpi_ok() { command -v mpicxx >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1; }
mpi_ok || apt_install libopenmpi-dev openmpi-bin || mpi_ok ||
  say "OpenMPI could not be installed: the MPI bootstrap (cupp::mpi) is not built here"

say "ready: $(nvcc --version | tail -1 | sed 's/^Build //'), $(cmake --version | head -1), ninja $(ninja --version)"
