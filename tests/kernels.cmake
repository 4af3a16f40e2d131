# Run-time kernels: the NVRTC compiler and the kernel cache need no GPU
# (kernels_host_test compiles for architectures it names), the launches do
# (kernels_gpu_test). Both link cupp::kernels, which the other tests do not.
cupp_add_test(kernels_host_test host kernels_cache_test.cu kernels_codegen_test.cu)
target_link_libraries(kernels_host_test PRIVATE cupp::kernels)
cupp_add_test(kernels_gpu_test gpu kernels_raw_test.cu kernels_templates_test.cu)
target_link_libraries(kernels_gpu_test PRIVATE cupp::kernels)
