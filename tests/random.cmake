# Random numbers: the exact math, the samplers, the Generator API and the
# goodness-of-fit suite against SciPy's distributions
# (tests/generate_random_fixtures.py writes fixtures/random/), built for host
# arrays (random_host_test) and for device arrays (random_gpu_test,
# CUPP_TEST_DEVICE=1: the same draws on the GPU, and the host's bits beside
# the device's). Both link cupp::random, which the other tests do not. The
# host test keeps the optimiser (its goodness-of-fit draws are millions of
# values).
set(cupp_random_test_sources random_generator_test.cu random_math_test.cu random_samplers_test.cu
                             random_gof_test.cu random_shuffle_test.cu random_legacy_test.cu)
cupp_add_test(random_host_test host ${cupp_random_test_sources})
target_link_libraries(random_host_test PRIVATE cupp::random)
set_property(TARGET random_host_test PROPERTY CUPP_HOST_O0 OFF)
cupp_add_test(random_gpu_test gpu ${cupp_random_test_sources})
target_compile_definitions(random_gpu_test PRIVATE CUPP_TEST_DEVICE=1)
target_link_libraries(random_gpu_test PRIVATE cupp::random)

# The multivariate draws: multivariate_normal needs linear algebra on both
# sides (cuSOLVER/cuBLAS and OpenBLAS/LAPACKE).
if(CUPP_HAVE_HOST_BLAS)
  cupp_add_test(random_multivariate_host_test host random_multivariate_test.cu)
  target_link_libraries(random_multivariate_host_test PRIVATE cupp::random cupp::linalg)
  cupp_add_test(random_multivariate_gpu_test gpu random_multivariate_test.cu)
  target_compile_definitions(random_multivariate_gpu_test PRIVATE CUPP_TEST_DEVICE=1)
  target_link_libraries(random_multivariate_gpu_test PRIVATE cupp::random cupp::linalg)
endif()
