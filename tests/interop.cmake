# Interop (<cupp/dlpack.hpp>, <cupp/iterator.hpp>, <cupp/mdspan.hpp>):
# DLPack exchange of host arrays, iterators over host arrays and the
# capsule-free parts need no GPU (interop_host_test); device arrays, CUB and
# Thrust over iterators and mdspan in a user's kernel do (interop_gpu_test).
cupp_add_test(interop_host_test host interop_dlpack_host_test.cu interop_iterator_host_test.cu)
cupp_add_test(interop_gpu_test gpu interop_dlpack_test.cu interop_iterator_test.cu
              interop_mdspan_test.cu)

# DLPack exchange with CuPy: a library Python loads with ctypes
# (tests/support/dlpack_exchange.cu) and the script that drives it. The
# script reports itself skipped (77) without NumPy, CuPy or a GPU.
if(CUPP_BUILD_GPU_TESTS)
  add_library(cupp_dlpack_exchange MODULE support/dlpack_exchange.cu)
  target_link_libraries(cupp_dlpack_exchange PRIVATE cupp::cupp cupp_warnings)
  target_compile_options(cupp_dlpack_exchange
                         PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${cupp_test_cuda_opt}>)
  set_target_properties(cupp_dlpack_exchange PROPERTIES CUDA_ARCHITECTURES
                                                        "${CUPP_GPU_TEST_ARCHITECTURES}")
  add_dependencies(cupp_gpu_tests cupp_dlpack_exchange)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    add_test(NAME interop_dlpack_cupy_test
             COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/interop_dlpack_cupy.py"
                     "$<TARGET_FILE:cupp_dlpack_exchange>")
  else()
    add_test(NAME interop_dlpack_cupy_test COMMAND sh -c "echo 'SKIPPED: no python3'; exit 77")
  endif()
  set_tests_properties(interop_dlpack_cupy_test PROPERTIES LABELS gpu SKIP_RETURN_CODE 77
                                                           TIMEOUT 300)
endif()
