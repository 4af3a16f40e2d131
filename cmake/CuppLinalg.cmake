# cupp::linalg: what <cupp/linalg.hpp> links: cuBLAS, cuBLASLt and cuSOLVER for
# device arrays and, where they are found, OpenBLAS (CBLAS) and LAPACKE for
# host arrays (CUPP_HAVE_HOST_BLAS=1; without them, linear algebra of host
# arrays is a compile error that says what to install). A target of its
# own, so that a program without linear algebra links none of them. Used by
# the build tree (after CuppDependencies.cmake) and by the installed package
# config, which makes the target again against the consumer's libraries.
if(NOT TARGET cupp::linalg)
  find_package(CUDAToolkit REQUIRED)
  add_library(cupp_linalg INTERFACE IMPORTED GLOBAL)
  add_library(cupp::linalg ALIAS cupp_linalg)
  target_link_libraries(cupp_linalg INTERFACE cupp::cupp CUDA::cublas CUDA::cublasLt CUDA::cusolver)
  find_path(CUPP_CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas openblas-pthread)
  find_library(CUPP_OPENBLAS_LIBRARY NAMES openblas)
  find_path(CUPP_LAPACKE_INCLUDE_DIR lapacke.h PATH_SUFFIXES openblas)
  find_library(CUPP_LAPACKE_LIBRARY NAMES lapacke)
  if(CUPP_CBLAS_INCLUDE_DIR AND CUPP_OPENBLAS_LIBRARY AND CUPP_LAPACKE_INCLUDE_DIR
     AND CUPP_LAPACKE_LIBRARY)
    set(CUPP_HAVE_HOST_BLAS TRUE)
    target_include_directories(cupp_linalg INTERFACE "${CUPP_CBLAS_INCLUDE_DIR}"
                                                     "${CUPP_LAPACKE_INCLUDE_DIR}")
    target_link_libraries(cupp_linalg INTERFACE "${CUPP_LAPACKE_LIBRARY}" "${CUPP_OPENBLAS_LIBRARY}")
    target_compile_definitions(cupp_linalg INTERFACE CUPP_HAVE_HOST_BLAS=1)
  else()
    set(CUPP_HAVE_HOST_BLAS FALSE)
    message(STATUS "cupp::linalg: OpenBLAS or LAPACKE not found, so linear algebra of host "
                   "arrays is unavailable (Debian: apt install libopenblas-dev liblapacke-dev)")
  endif()
endif()
