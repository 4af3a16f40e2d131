# Sourced by the device helper scripts: cupp's build environment, Boost's
# headers from the carried .device/boost where the machine has none, $OUT,
# and NVLink multicast off for every process they start.
export NCCL_NVLS_ENABLE=0
OUT="${OUT:-out}"; mkdir -p "$OUT"
source scripts/env.sh
if [ ! -e /usr/include/boost/test/included/unit_test.hpp ] && [ -d .device/boost/include ]; then
  export CPLUS_INCLUDE_PATH="$PWD/.device/boost/include"; export CMAKE_INCLUDE_PATH="$PWD/.device/boost/include"
fi
