# cupp::linalg: what <cupp/linalg.hpp> links: cuBLAS, cuBLASLt and cuSOLVER for
# device arrays and, where they are found, OpenBLAS (CBLAS) and LAPACKE for
# host arrays (CUPP_HAVE_HOST_BLAS=1; without them, linear algebra of host
# arrays is a compile error that says what to install, and that CMake must
# run again after installing). A target of its own, so that a program
# without linear algebra links none of them. Used by
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
    message(STATUS "cupp::linalg: host arrays through ${CUPP_OPENBLAS_LIBRARY} and "
                   "${CUPP_LAPACKE_LIBRARY}")
  else()
    set(CUPP_HAVE_HOST_BLAS FALSE)
    # What is missing, by the Debian package that has it: the results of
    # find_path and find_library that failed are searched again by the next
    # run of CMake, so installing and reconfiguring is all it takes.
    set(cupp_linalg_missing)
    if(NOT CUPP_CBLAS_INCLUDE_DIR OR NOT CUPP_OPENBLAS_LIBRARY)
      list(APPEND cupp_linalg_missing "OpenBLAS (cblas.h, libopenblas: libopenblas-dev)")
    endif()
    if(NOT CUPP_LAPACKE_INCLUDE_DIR OR NOT CUPP_LAPACKE_LIBRARY)
      list(APPEND cupp_linalg_missing "LAPACKE (lapacke.h, liblapacke: liblapacke-dev)")
    endif()
    list(JOIN cupp_linalg_missing " and " cupp_linalg_missing)
    message(STATUS "cupp::linalg: ${cupp_linalg_missing} not found, so linear algebra of host "
                   "arrays is a compile error (device arrays are unaffected). To have it: "
                   "sudo apt install libopenblas-dev liblapacke-dev, then rerun CMake")
  endif()
endif()
