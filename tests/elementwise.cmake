# User element-wise functions, cupp::fuse and cupp::get_array_module: one
# source built for host arrays and for device arrays (CUPP_TEST_DEVICE).
# --extended-lambda adds the checks of __host__ __device__ lambdas.
cupp_add_test(elementwise_host_test host NVCC elementwise_test.cu)
cupp_add_test(elementwise_gpu_test gpu elementwise_test.cu)
target_compile_definitions(elementwise_gpu_test PRIVATE CUPP_TEST_DEVICE=1)
foreach(test IN ITEMS elementwise_host_test elementwise_gpu_test)
  target_compile_options(${test} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>)
endforeach()
