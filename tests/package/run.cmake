# Builds a small program against cupp twice: through find_package(cupp)
# after `cmake --install`, and through add_subdirectory. Run by ctest:
#   cmake -DCUPP_SOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -P run.cmake
cmake_minimum_required(VERSION 3.26)

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(consumer "${CMAKE_CURRENT_LIST_DIR}/consumer")
set(common -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release
           "-DCMAKE_CUDA_ARCHITECTURES=${CMAKE_CUDA_ARCHITECTURES}")

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
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
foreach(f include/cupp/cupp.hpp include/cupp/detail/caching_allocator.hpp
          lib/cmake/cupp/cuppConfig.cmake lib/cmake/cupp/cuppTargets.cmake)
  if(NOT EXISTS "${WORK_DIR}/prefix/${f}")
    message(FATAL_ERROR "install is missing ${f}")
  endif()
endforeach()

# 2. The consumer through find_package.
step(${CMAKE_COMMAND} -S "${consumer}" -B "${WORK_DIR}/find-package" ${common}
     "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
step(${CMAKE_COMMAND} --build "${WORK_DIR}/find-package")
step("${WORK_DIR}/find-package/consumer")
step("${WORK_DIR}/find-package/consumer_host")

# 3. The consumer through add_subdirectory.
step(${CMAKE_COMMAND} -S "${consumer}" -B "${WORK_DIR}/subdirectory" ${common}
     -DCONSUMER_USE_SUBDIRECTORY=ON "-DCUPP_SOURCE_DIR=${CUPP_SOURCE_DIR}")
step(${CMAKE_COMMAND} --build "${WORK_DIR}/subdirectory")
step("${WORK_DIR}/subdirectory/consumer")
step("${WORK_DIR}/subdirectory/consumer_host")
