# Finds what cupp needs: the CUDA toolkit (cudart) and CCCL (CUB, libcu++).
# Nothing is downloaded. Shared by the build tree and by the installed
# package config. (The Boost headers are the tests' alone: tests/CMakeLists.txt.)

find_package(CUDAToolkit REQUIRED)

# CCCL ships with the toolkit; its headers are on nvcc's default path but
# not on a host compiler's, which needs them for <cuda/std/complex>.
if(NOT TARGET cupp_cccl)
  find_package(CCCL CONFIG QUIET COMPONENTS CUB libcudacxx
               HINTS "${CUDAToolkit_LIBRARY_DIR}/cmake" "${CUDAToolkit_LIBRARY_ROOT}/lib64/cmake")
  add_library(cupp_cccl INTERFACE)
  if(TARGET CCCL::CCCL)
    target_link_libraries(cupp_cccl INTERFACE CCCL::CCCL)
  else()
    find_path(CUPP_CCCL_INCLUDE_DIR cuda/std/complex
              HINTS ${CUDAToolkit_INCLUDE_DIRS} PATH_SUFFIXES cccl REQUIRED)
    target_include_directories(cupp_cccl SYSTEM INTERFACE "${CUPP_CCCL_INCLUDE_DIR}")
  endif()
endif()
