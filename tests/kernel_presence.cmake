# Which kernels nvcc compiles into a unit: the strided copy kernels in a
# unit that copies a device array into another layout (a kernel missing from
# the device pass fails only at run time, with "invalid device function"),
# and no kernel of cupp's in a unit that copies nothing (compile time).
#   cmake -DNVCC=... -DCUPP_SOURCE_DIR=... -DWORK_DIR=... -P kernel_presence.cmake
set(dir "${CUPP_SOURCE_DIR}/tests/kernel_presence")
file(MAKE_DIRECTORY "${WORK_DIR}")
function(entries name out)
  execute_process(
    COMMAND "${NVCC}" -std=c++20 -arch=sm_90 --ptx -I "${CUPP_SOURCE_DIR}/include"
            -I "${CUPP_SOURCE_DIR}/detail" "${dir}/${name}.cu" -o "${WORK_DIR}/${name}.ptx"
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nvcc --ptx ${name}.cu failed:\n${err}")
  endif()
  file(STRINGS "${WORK_DIR}/${name}.ptx" lines REGEX "\\.entry ")
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

entries(copies with)
foreach(kernel strided_copy_kernel row_copy_kernel transpose_copy_kernel)
  set(found "${with}")
  list(FILTER found INCLUDE REGEX "${kernel}")
  list(LENGTH found n)
  if(NOT n EQUAL 5)
    message(FATAL_ERROR "copies.cu: ${n} ${kernel} entries in the PTX, expected 5 (one per item size)")
  endif()
endforeach()

entries(no_copies without)
list(FILTER without INCLUDE REGEX "cupp")
list(LENGTH without n)
if(NOT n EQUAL 0)
  message(FATAL_ERROR "no_copies.cu: ${n} kernels of cupp compiled in a unit that launches none:\n${without}")
endif()
message(STATUS "kernel presence: 15 copy kernels where a unit copies, none where it does not")
