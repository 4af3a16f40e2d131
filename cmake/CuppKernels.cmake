# cupp::kernels: what <cupp/kernels.hpp> links: NVRTC, which compiles
# run-time kernels (RawKernel, RawModule). Compiled code is loaded and
# launched through the runtime's library API, so the CUDA driver library is
# not linked. A target of its own, so that a program without run-time
# kernels links neither. Used by the build tree and by the installed package
# config.
if(NOT TARGET cupp::kernels)
  find_package(CUDAToolkit REQUIRED)
  add_library(cupp_kernels INTERFACE IMPORTED GLOBAL)
  add_library(cupp::kernels ALIAS cupp_kernels)
  target_link_libraries(cupp_kernels INTERFACE cupp::cupp CUDA::nvrtc)
  # Generated kernels over float16, bfloat16 and complex dtypes include the
  # toolkit's headers: NVRTC is told where this toolkit keeps them.
  list(GET CUDAToolkit_INCLUDE_DIRS 0 cupp_cuda_include_dir)
  target_compile_definitions(cupp_kernels INTERFACE
                             "CUPP_CUDA_INCLUDE_DIR=\"${cupp_cuda_include_dir}\"")
endif()
