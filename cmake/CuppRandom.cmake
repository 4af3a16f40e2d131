# cupp::random: what <cupp/random.hpp> links: cuRAND (the legacy XORWOW stream
# of RandomState, as CuPy's). The counter-based generators need no library;
# the target also keeps host compilers from contracting a * b + c into one
# fused multiply-add, so that the host computes every draw with the same
# roundings as the device (the device code says so itself). A target of its
# own, so that a program without random numbers links none of it. Used by the
# build tree and by the installed package config.
if(NOT TARGET cupp::random)
  find_package(CUDAToolkit REQUIRED)
  add_library(cupp_random INTERFACE IMPORTED GLOBAL)
  add_library(cupp::random ALIAS cupp_random)
  target_link_libraries(cupp_random INTERFACE cupp::cupp CUDA::curand)
  target_compile_options(
    cupp_random
    INTERFACE
      "$<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU,Clang>>:-ffp-contract=off>"
      "$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CXX_COMPILER_ID:GNU,Clang>>:-Xcompiler=-ffp-contract=off>")
endif()
