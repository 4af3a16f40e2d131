# Linear algebra against float64 and exact references: one source built for
# host arrays (linalg_host_test: OpenBLAS and cupp's exact loops) and for
# device arrays (linalg_gpu_test: cuBLAS and cupp's exact kernel). Both link
# cupp::linalg, which the other tests do not. Without OpenBLAS (a GPU
# machine that cannot install it) the host test is skipped (exit 77) and
# says why; scripts/setup.sh installs it where it can.
cupp_add_test(linalg_gpu_test gpu linalg_matmul_test.cu)
target_compile_definitions(linalg_gpu_test PRIVATE CUPP_TEST_DEVICE=1)
target_link_libraries(linalg_gpu_test PRIVATE cupp::linalg)
if(CUPP_HAVE_HOST_BLAS)
  cupp_add_test(linalg_host_test host linalg_matmul_test.cu)
  target_link_libraries(linalg_host_test PRIVATE cupp::linalg)
  # Host code without optimisation, as the other areas' tests.
  set_property(TARGET linalg_host_test PROPERTY CUPP_HOST_O0 ON)
else()
  add_test(NAME linalg_host_test
           COMMAND sh -c "echo 'SKIPPED: OpenBLAS and LAPACKE not found (scripts/setup.sh)'; exit 77")
  set_tests_properties(linalg_host_test PROPERTIES LABELS host SKIP_RETURN_CODE 77)
endif()
