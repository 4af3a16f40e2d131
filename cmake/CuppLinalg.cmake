# cupp::linalg: what <cupp/linalg.hpp> links: cuBLAS and cuSOLVER for
# device arrays, OpenBLAS (CBLAS) and LAPACKE for host arrays. A target of
# its own, so that a program without linear algebra links none of them.
# Used by the build tree (after CuppDependencies.cmake) and by the installed
# package config, which makes the target again against the consumer's
# libraries. Where OpenBLAS or LAPACKE is missing there is no cupp::linalg,
# and a message says what to install.
if(NOT TARGET cupp::linalg)
  find_package(CUDAToolkit REQUIRED)
  find_path(CUPP_CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas openblas-pthread)
  find_library(CUPP_OPENBLAS_LIBRARY NAMES openblas)
  find_path(CUPP_LAPACKE_INCLUDE_DIR lapacke.h PATH_SUFFIXES openblas)
  find_library(CUPP_LAPACKE_LIBRARY NAMES lapacke)
  if(CUPP_CBLAS_INCLUDE_DIR AND CUPP_OPENBLAS_LIBRARY AND CUPP_LAPACKE_INCLUDE_DIR
     AND CUPP_LAPACKE_LIBRARY AND TARGET CUDA::cublas AND TARGET CUDA::cusolver)
    add_library(cupp_linalg INTERFACE IMPORTED GLOBAL)
    add_library(cupp::linalg ALIAS cupp_linalg)
    target_include_directories(cupp_linalg INTERFACE "${CUPP_CBLAS_INCLUDE_DIR}"
                                                     "${CUPP_LAPACKE_INCLUDE_DIR}")
    target_link_libraries(cupp_linalg INTERFACE cupp::cupp CUDA::cublas CUDA::cusolver
                                                "${CUPP_LAPACKE_LIBRARY}" "${CUPP_OPENBLAS_LIBRARY}")
  else()
    message(STATUS "cupp::linalg is not available: it needs cuBLAS, cuSOLVER, OpenBLAS and "
                   "LAPACKE (Debian: apt install libopenblas-dev liblapacke-dev)")
  endif()
endif()
