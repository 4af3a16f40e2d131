# The GPUs cupp's own build compiles for, when the user names none
# (CMAKE_CUDA_ARCHITECTURES or the CUDAARCHS environment variable): the GPUs
# of this machine when nvidia-smi finds any, otherwise every data-centre and
# desktop generation CUDA 13 supports, with PTX of the newest for GPUs that
# come later. Included before project(): CMake fixes the variable there.
#
#   75  Turing (T4, RTX 20xx)          89  Ada (L4, L40, RTX 40xx)
#   80  Ampere (A100, A30)             90  Hopper (H100, H200)
#   86  Ampere (A10, A40, RTX 30xx)    100 Blackwell (B200, GB200)
#   120 Blackwell (RTX 50xx, RTX PRO), also as PTX
set(CUPP_PORTABLE_CUDA_ARCHITECTURES 75-real 80-real 86-real 89-real 90-real 100-real 120)

if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader
                  RESULT_VARIABLE cupp_smi_rc OUTPUT_VARIABLE cupp_smi_out ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(cupp_found_archs "")
  if(cupp_smi_rc EQUAL 0)
    string(REPLACE "\n" ";" cupp_smi_out "${cupp_smi_out}")
    foreach(cc IN LISTS cupp_smi_out)
      string(STRIP "${cc}" cc)
      if(cc MATCHES "^([0-9]+)\\.([0-9]+)$")
        list(APPEND cupp_found_archs "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
      endif()
    endforeach()
    list(REMOVE_DUPLICATES cupp_found_archs)
  endif()
  if(cupp_found_archs)
    set(CMAKE_CUDA_ARCHITECTURES ${cupp_found_archs})
    set(CUPP_GPU_AT_CONFIGURE TRUE)
    message(STATUS "cupp: compiling for the GPUs found here: ${cupp_found_archs}")
  else()
    set(CMAKE_CUDA_ARCHITECTURES ${CUPP_PORTABLE_CUDA_ARCHITECTURES})
    set(CUPP_GPU_AT_CONFIGURE FALSE)
    message(STATUS "cupp: no GPU found; compiling for ${CMAKE_CUDA_ARCHITECTURES} "
                   "(set CMAKE_CUDA_ARCHITECTURES to choose)")
  endif()
endif()
if(NOT DEFINED CUPP_GPU_AT_CONFIGURE)
  execute_process(COMMAND nvidia-smi -L RESULT_VARIABLE cupp_smi_rc OUTPUT_QUIET ERROR_QUIET)
  if(cupp_smi_rc EQUAL 0)
    set(CUPP_GPU_AT_CONFIGURE TRUE)
  else()
    set(CUPP_GPU_AT_CONFIGURE FALSE)
  endif()
endif()
