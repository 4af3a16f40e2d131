# The reduction kernels' modes and splits against a float64 loop, on host
# arrays and on device arrays.
cupp_add_test(reduction_modes_host_test host reduction_modes_test.cu)
cupp_add_test(reduction_modes_gpu_test gpu reduction_modes_test.cu)
target_compile_definitions(reduction_modes_gpu_test PRIVATE CUPP_TEST_DEVICE=1)
# The same modes with the device kernels walking at most two dimensions in
# one pass (CUPP_REDUCE_KERNEL_DIMS=2): every wider layout materialised.
cupp_add_test(reduction_modes_narrow_gpu_test gpu reduction_modes_narrow_test.cu)
target_compile_definitions(reduction_modes_narrow_gpu_test PRIVATE CUPP_TEST_DEVICE=1)
