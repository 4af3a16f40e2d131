# The reduction kernels' modes and splits against a float64 loop, on host
# arrays and on device arrays.
cupp_add_test(reduction_modes_host_test host reduction_modes_test.cu)
cupp_add_test(reduction_modes_gpu_test gpu reduction_modes_test.cu)
target_compile_definitions(reduction_modes_gpu_test PRIVATE CUPP_TEST_DEVICE=1)
