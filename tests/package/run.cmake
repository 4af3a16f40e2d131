# Builds a small program against cupp twice: through find_package(cupp)
# after `cmake --install` with whole-program compilation, and through
# add_subdirectory with separable compilation, and runs what it built. The
# program has three .cu files and a .cpp file, so it also checks that
# cupp's headers link into several translation units. Run by ctest:
#   cmake -DCUPP_SOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... \
#         -DCMAKE_CUDA_ARCHITECTURES=... -P run.cmake
cmake_minimum_required(VERSION 3.26)

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(consumer "${CMAKE_CURRENT_LIST_DIR}/consumer")
set(common -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release
           "-DCMAKE_CUDA_ARCHITECTURES=${CMAKE_CUDA_ARCHITECTURES}")

# Runs a command in WORK_DIR (where the programs write their .npy files).
function(step)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(JOIN " " cmd ${ARGN})
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}")
  endif()
  message(STATUS "${out}")
endfunction()

# 1. Install cupp into a prefix (headers, targets, package config).
step(${CMAKE_COMMAND} -S "${CUPP_SOURCE_DIR}" -B "${WORK_DIR}/cupp-build" ${common}
     -DCUPP_BUILD_TESTS=OFF -DCUPP_BUILD_EXAMPLES=OFF -DCUPP_BUILD_BENCHMARKS=OFF
     -DCUPP_INSTALL=ON "-DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix")
step(${CMAKE_COMMAND} --install "${WORK_DIR}/cupp-build")
foreach(f include/cupp/cupp.hpp include/cupp/cuda/caching_allocator.hpp
          lib/cmake/cupp/cuppConfig.cmake lib/cmake/cupp/cuppTargets.cmake)
  if(NOT EXISTS "${WORK_DIR}/prefix/${f}")
    message(FATAL_ERROR "install is missing ${f}")
  endif()
endforeach()

# 2. The consumer through find_package and through add_subdirectory, each
# with whole-program and with separable compilation; its programs run.
function(consumer_build name)
  string(TIMESTAMP start "%s")
  step(${CMAKE_COMMAND} -S "${consumer}" -B "${WORK_DIR}/${name}" ${common} ${ARGN})
  step(${CMAKE_COMMAND} --build "${WORK_DIR}/${name}")
  # A program of arrays alone links none of the vendor libraries that the
  # other areas bring (cuBLAS, cuSOLVER, NCCL, MPI).
  find_program(READELF readelf)
  if(READELF)
    execute_process(COMMAND "${READELF}" -d "${WORK_DIR}/${name}/consumer" OUTPUT_VARIABLE dynamic)
    if(dynamic MATCHES "lib(nccl|cublas|cusolver|mpi)")
      message(FATAL_ERROR "${name}: the consumer links ${CMAKE_MATCH_0}, which it does not use")
    endif()
  endif()
  step("${WORK_DIR}/${name}/consumer")
  step("${WORK_DIR}/${name}/consumer_host")
  string(TIMESTAMP end "%s")
  math(EXPR seconds "${end} - ${start}")
  message(STATUS "${name}: built and ran in ${seconds} s")
endfunction()

set(find_package "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
# The source-tree builds also leave NCCL out (CUPP_WITH_NCCL=OFF): cupp
# configures and builds without it.
set(subdirectory -DCONSUMER_USE_SUBDIRECTORY=ON "-DCUPP_SOURCE_DIR=${CUPP_SOURCE_DIR}"
                 -DCUPP_WITH_NCCL=OFF)
# Two builds cover the four cases: how cupp is found and how the program is
# compiled do not touch each other (the package's targets are the source
# tree's, exported), and each build is a configure with CUDA's detection and
# four units of cupp (about a minute of a CI machine's two cores).
consumer_build(find-package ${find_package})
consumer_build(subdirectory-rdc ${subdirectory} -DCONSUMER_SEPARABLE=ON)
