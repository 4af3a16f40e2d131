# Generators (arange, linspace, eye, full, meshgrid ...) against NumPy's
# values: one source built for host arrays and for device arrays
# (CUPP_TEST_DEVICE).
cupp_add_test(generators_host_test host NVCC generators_test.cu)
cupp_add_test(generators_gpu_test gpu generators_test.cu)
target_compile_definitions(generators_gpu_test PRIVATE CUPP_TEST_DEVICE=1)
