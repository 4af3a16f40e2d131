# Finds what cupp needs: the CUDA toolkit (cudart), CCCL (CUB, libcu++)
# and the Boost headers (Hana, Test). Nothing is downloaded. Shared by the
# build tree and by the installed package config.

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

# Boost is used header-only. Debian/Ubuntu ship BoostConfig with the
# headers; where only the headers exist, find them directly.
if(NOT TARGET cupp_boost)
  find_package(Boost 1.74 CONFIG QUIET)
  add_library(cupp_boost INTERFACE)
  if(TARGET Boost::headers)
    target_link_libraries(cupp_boost INTERFACE Boost::headers)
  else()
    find_path(CUPP_BOOST_INCLUDE_DIR boost/hana.hpp REQUIRED)
    target_include_directories(cupp_boost SYSTEM INTERFACE "${CUPP_BOOST_INCLUDE_DIR}")
  endif()
endif()
