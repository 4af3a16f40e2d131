# The oldest tools cupp builds with, checked at configure time so that an
# old compiler stops here with what to install instead of failing later in
# a header. Shared by cupp's own build and by the installed package config:
#   cupp_check_toolchain(<out-var>)  sets <out-var> to "" or to the message.
set(CUPP_MIN_NVCC_VERSION 12.4)
set(CUPP_MIN_GCC_VERSION 11)
set(CUPP_MIN_CLANG_VERSION 14)

function(cupp_check_toolchain out)
  set(problems "")
  if(CMAKE_CUDA_COMPILER_LOADED AND CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA"
     AND CMAKE_CUDA_COMPILER_VERSION VERSION_LESS CUPP_MIN_NVCC_VERSION)
    list(APPEND problems "nvcc ${CMAKE_CUDA_COMPILER_VERSION} (${CMAKE_CUDA_COMPILER}) is too old: \
cupp needs the CUDA toolkit ${CUPP_MIN_NVCC_VERSION} or newer")
  endif()
  foreach(lang IN ITEMS CXX CUDA_HOST)
    if(lang STREQUAL "CXX")
      set(id "${CMAKE_CXX_COMPILER_ID}")
      set(version "${CMAKE_CXX_COMPILER_VERSION}")
      set(path "${CMAKE_CXX_COMPILER}")
    else()
      set(id "${CMAKE_CUDA_HOST_COMPILER_ID}")
      set(version "${CMAKE_CUDA_HOST_COMPILER_VERSION}")
      set(path "${CMAKE_CUDA_HOST_COMPILER}")
    endif()
    if(id STREQUAL "GNU" AND version AND version VERSION_LESS CUPP_MIN_GCC_VERSION)
      list(APPEND problems "g++ ${version} (${path}) is too old: \
cupp needs g++ ${CUPP_MIN_GCC_VERSION} or newer (C++20)")
    elseif(id STREQUAL "Clang" AND version AND version VERSION_LESS CUPP_MIN_CLANG_VERSION)
      list(APPEND problems "clang++ ${version} (${path}) is too old: \
cupp needs clang++ ${CUPP_MIN_CLANG_VERSION} or newer (C++20)")
    endif()
  endforeach()
  list(JOIN problems "\n  " text)
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
