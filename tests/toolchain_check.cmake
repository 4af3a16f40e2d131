# cupp_check_toolchain (cmake/CuppToolchain.cmake) against made-up tools:
# too old ones must be named with what is needed, current ones must pass.
#   cmake -DCUPP_SOURCE_DIR=... -P toolchain_check.cmake
include("${CUPP_SOURCE_DIR}/cmake/CuppToolchain.cmake")

function(expect what pattern)
  cupp_check_toolchain(m)
  if(pattern STREQUAL "")
    if(NOT m STREQUAL "")
      message(FATAL_ERROR "${what}: expected no complaint, got: ${m}")
    endif()
  elseif(NOT m MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: expected '${pattern}', got: '${m}'")
  endif()
  message(STATUS "${what}: ok")
endfunction()

set(CMAKE_CUDA_COMPILER_LOADED TRUE)
set(CMAKE_CUDA_COMPILER_ID NVIDIA)
set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
set(CMAKE_CXX_COMPILER_ID GNU)
set(CMAKE_CXX_COMPILER /usr/bin/g++)

set(CMAKE_CUDA_COMPILER_VERSION 13.0.88)
set(CMAKE_CXX_COMPILER_VERSION 12.2.0)
expect("current tools" "")

set(CMAKE_CUDA_COMPILER_VERSION 12.2.140)
expect("nvcc 12.2" "nvcc 12.2.140 .* too old: cupp needs the CUDA toolkit 12.4 or newer")

set(CMAKE_CUDA_COMPILER_VERSION 12.4.0)
set(CMAKE_CXX_COMPILER_VERSION 10.2.1)
expect("g++ 10" "g\\+\\+ 10.2.1 .* too old: cupp needs g\\+\\+ 11 or newer")

set(CMAKE_CXX_COMPILER_ID Clang)
set(CMAKE_CXX_COMPILER_VERSION 13.0.1)
expect("clang 13" "clang\\+\\+ 13.0.1 .* too old: cupp needs clang\\+\\+ 14 or newer")

set(CMAKE_CXX_COMPILER_VERSION 17.0.0)
expect("clang 17" "")
