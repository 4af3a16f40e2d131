# Linear algebra against float64 and exact references: one source built for
# host arrays (linalg_host_test: OpenBLAS and cupp's exact loops) and for
# device arrays (linalg_gpu_test: cuBLAS and cupp's exact kernel). Both link
# cupp::linalg, which the other tests do not.
if(TARGET cupp::linalg)
  cupp_add_test(linalg_host_test host linalg_matmul_test.cu)
  cupp_add_test(linalg_gpu_test gpu linalg_matmul_test.cu)
  target_compile_definitions(linalg_gpu_test PRIVATE CUPP_TEST_DEVICE=1)
  target_link_libraries(linalg_host_test PRIVATE cupp::linalg)
  target_link_libraries(linalg_gpu_test PRIVATE cupp::linalg)
  # Host code without optimisation, as the other areas' tests.
  set_property(TARGET linalg_host_test PROPERTY CUPP_HOST_O0 ON)
else()
  message(FATAL_ERROR "the tests need cupp::linalg: run scripts/setup.sh (it installs OpenBLAS and "
                      "LAPACKE)")
endif()
