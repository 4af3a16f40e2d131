# Warnings for cupp's own code (tests, examples, benchmarks), never imposed
# on a consumer through cupp::cupp: -Wall -Wextra for the host compiler,
# nvcc's own warnings, and, with CUPP_WARNINGS_AS_ERRORS (CI turns it on),
# every warning an error but g++'s -Wmaybe-uninitialized: its flow analysis
# changes with the release and the optimisation level and reports loads
# that the code guards (a partial chunk's lanes); it is shown, not fatal.
option(CUPP_WARNINGS_AS_ERRORS "Treat warnings in cupp's own targets as errors" OFF)

add_library(cupp_warnings INTERFACE)
target_compile_options(
  cupp_warnings
  INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
            $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Wreorder>)
# g++ 12 reports std::string's own inlined copies under -Wrestrict when a
# literal is prepended ("(" + s): a false positive of that release (GCC bug
# 105329), fixed in 13. It is turned off for g++ 12 alone.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(cupp_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>
                                                 $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wno-restrict>)
endif()
if(CUPP_WARNINGS_AS_ERRORS)
  target_compile_options(
    cupp_warnings
    INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror -Wno-error=maybe-uninitialized>
              $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Werror,-Wno-error=maybe-uninitialized
              --Werror=all-warnings>)
endif()
