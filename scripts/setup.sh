#!/usr/bin/env bash
# Installs what a command of this repository needs and is missing, and
# says what and why before it installs anything:
#   scripts/setup.sh [build] [tests] [mpi]
#   build (the default; scripts/quickstart.sh): CMake >= 3.26 and ninja,
#         with pip into the project's own virtual environment .venv/ (never
#         into the system's Python). Nothing through apt unless python3 or
#         its venv module is missing.
#   tests (scripts/test.sh): build, and through apt: the Boost.Test headers
#         (libboost-dev) and python3, which the suite needs; OpenBLAS and
#         LAPACKE (libopenblas-dev, liblapacke-dev), which the host tests
#         of linear algebra use (without them they report themselves
#         skipped); and, where a GPU answers, mpi as well.
#   mpi:  OpenMPI (libopenmpi-dev, openmpi-bin), for cupp::mpi and its test,
#         which runs on GPUs only (without a GPU it only adds compile checks).
# The CUDA toolkit (nvcc, cudart, CCCL) must already be installed. Safe to
# run repeatedly: it installs only what is absent.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv"
say() { printf '[cupp setup] %s\n' "$*"; }

want_tests=0 want_mpi=0
for what in "${@:-build}"; do
  case "$what" in
    build) ;;
    tests) want_tests=1 ;;
    mpi) want_mpi=1 ;;
    *) say "unknown part '$what' (build, tests or mpi)"; exit 2 ;;
  esac
done
if [ $want_tests = 1 ] && command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  want_mpi=1
fi

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    say "need root to run: $*"; return 1; fi
}
apt_updated=0
# apt_install WHY PACKAGE...: says what and why, then installs.
apt_install() {
  local why="$1"; shift
  say "installing with apt, for $why: $*"
  if [ $apt_updated = 0 ]; then as_root apt-get update -q >/dev/null; apt_updated=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null
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
  command -v python3 >/dev/null || apt_install "the virtual environment" python3
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" 2>/dev/null ||
      { rm -rf "$venv"; apt_install "the virtual environment" python3-venv; python3 -m venv "$venv"; }
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${venv_tools[@]}"
  export PATH="$venv/bin:$PATH"
  hash -r
  cmake_ok || { say "CMake >= 3.26 still not on PATH"; exit 1; }
fi

if [ $want_tests = 1 ]; then
  # What the suite cannot do without: Boost.Test (headers only; without
  # them the configure leaves the tests out) and python3 (the layer check).
  boost_ok() {
    printf '#include <boost/test/included/unit_test.hpp>\n' |
      "${CXX:-c++}" -std=c++20 -fsyntax-only -x c++ - -DBOOST_TEST_NO_MAIN >/dev/null 2>&1
  }
  needed=()
  boost_ok || needed+=(libboost-dev)
  command -v python3 >/dev/null || needed+=(python3)
  [ ${#needed[@]} -eq 0 ] || apt_install "the tests (Boost.Test headers, the layer check)" "${needed[@]}"

  # OpenBLAS and LAPACKE: linear algebra of host arrays (cupp::linalg). Not
  # fatal: without them the host tests of linear algebra report themselves
  # skipped, and a machine without a package registry runs the rest.
  linalg_ok() {
    printf '#include <cblas.h>\n#include <lapacke.h>\nint main() { return 0; }\n' |
      "${CXX:-c++}" -x c++ - -o /dev/null -llapacke -lopenblas >/dev/null 2>&1
  }
  linalg_ok || apt_install "the tests of linear algebra on host arrays" libopenblas-dev liblapacke-dev ||
    linalg_ok || say "OpenBLAS/LAPACKE could not be installed: the host tests of linear algebra are skipped"
fi

if [ $want_mpi = 1 ]; then
  # OpenMPI: a launcher and bootstrap for several processes (cupp::mpi). Not
  # fatal either.
  mpi_ok() { command -v mpicxx >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1; }
  mpi_ok || apt_install "cupp::mpi and its test" libopenmpi-dev openmpi-bin || mpi_ok ||
    say "OpenMPI could not be installed: cupp::mpi and its test are not built here"
fi

say "ready: $(nvcc --version | tail -1 | sed 's/^Build //'), $(cmake --version | head -1), ninja $(ninja --version)"
