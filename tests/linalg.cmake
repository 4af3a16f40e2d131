# Linear algebra against float64 and exact references: one source built for
# host arrays (linalg_host_test: OpenBLAS and cupp's exact loops) and for
# device arrays (linalg_gpu_test: cuBLAS and cupp's exact kernel). Both link
# cupp::linalg, which the other tests do not. Without OpenBLAS (a GPU
# machine that cannot install it) the host test is skipped (exit 77) and
# says why; scripts/setup.sh installs it where it can.
set(cupp_linalg_test_sources
    linalg_matmul_test.cu
    linalg_fusion_test.cu
    linalg_products_test.cu
    linalg_einsum_test.cu
    linalg_solve_test.cu
    linalg_decomp_test.cu
    linalg_svd_test.cu
    linalg_norms_test.cu
    linalg_correlation_test.cu)
cupp_add_test(linalg_gpu_test gpu ${cupp_linalg_test_sources})
target_compile_definitions(linalg_gpu_test PRIVATE CUPP_TEST_DEVICE=1)
target_link_libraries(linalg_gpu_test PRIVATE cupp::linalg)
if(CUPP_HAVE_HOST_BLAS)
  cupp_add_test(linalg_host_test host ${cupp_linalg_test_sources})
  target_link_libraries(linalg_host_test PRIVATE cupp::linalg)
  # Host code without optimisation, as the other areas' tests.
  set_property(TARGET linalg_host_test PROPERTY CUPP_HOST_O0 ON)
else()
  add_test(NAME linalg_host_test
           COMMAND sh -c "echo 'SKIPPED: OpenBLAS and LAPACKE not found (scripts/setup.sh)'; exit 77")
  set_tests_properties(linalg_host_test PROPERTIES LABELS host SKIP_RETURN_CODE 77)
endif()

# One executable per family for working on it (built only when named, not
# run by ctest): linalg_solve_host_only, linalg_solve_gpu_only, ...
foreach(source IN LISTS cupp_linalg_test_sources)
  string(REGEX REPLACE "_test[.]cu$" "" family "${source}")
  if(CUPP_HAVE_HOST_BLAS)
    cupp_add_test(${family}_host_only host NOT_A_TEST ${source})
    target_link_libraries(${family}_host_only PRIVATE cupp::linalg)
    set_property(TARGET ${family}_host_only PROPERTY CUPP_HOST_O0 ON)
  endif()
  cupp_add_test(${family}_gpu_only gpu NOT_A_TEST BUILT_EVERYWHERE ${source})
  target_compile_definitions(${family}_gpu_only PRIVATE CUPP_TEST_DEVICE=1)
  target_link_libraries(${family}_gpu_only PRIVATE cupp::linalg)
endforeach()
