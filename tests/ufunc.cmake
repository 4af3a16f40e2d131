# The ufunc tests: every ufunc against NumPy's outputs
# (tests/generate_ufunc_fixtures.py writes fixtures/ufunc/), built twice
# from the same sources: with host arrays (ufunc_host_test, label host, runs
# anywhere) and with device arrays (ufunc_gpu_test, label gpu, exits 77
# without a GPU). And the dtype promotion table (promotion_test, host).
# Included from tests/CMakeLists.txt, after cupp_add_test is defined.

# The device build is the longest of the suite (each of its ~1,200 cases is
# a kernel of its own): switch it off where it would never run.
option(CUPP_UFUNC_GPU_TEST "Build ufunc_gpu_test (the ufunc tests on device arrays)" ON)

# One translation unit per generated case list (fixtures/ufunc/cases_<area>_<n>.inc),
# each inside the Boost.Test suite ufunc_<area>: small enough units for a
# many-core machine to build the suite in parallel.
file(GLOB cupp_ufunc_case_lists CONFIGURE_DEPENDS
     "${CMAKE_CURRENT_SOURCE_DIR}/fixtures/ufunc/cases_*.inc")
set(cupp_ufunc_test_sources)
foreach(case_list IN LISTS cupp_ufunc_case_lists)
  get_filename_component(stem "${case_list}" NAME_WE)
  string(REGEX REPLACE "^cases_([a-z]+)_[0-9]+$" "\\1" area "${stem}")
  set(source "${CMAKE_CURRENT_BINARY_DIR}/ufunc_${stem}.cu")
  file(CONFIGURE OUTPUT "${source}" @ONLY
       CONTENT "// Written by tests/ufunc.cmake: NumPy's outputs for the @area@ ufuncs.
#include \"ufunc_harness.hpp\"

BOOST_AUTO_TEST_SUITE(ufunc_@area@)
#include \"fixtures/ufunc/@stem@.inc\"
BOOST_AUTO_TEST_SUITE_END()
")
  list(APPEND cupp_ufunc_test_sources "${source}")
endforeach()
list(APPEND cupp_ufunc_test_sources ufunc_hypot_test.cu)

set(cupp_ufunc_tests ufunc_host_test)
cupp_add_test(ufunc_host_test host ${cupp_ufunc_test_sources})
if(CUPP_UFUNC_GPU_TEST)
  cupp_add_test(ufunc_gpu_test gpu ${cupp_ufunc_test_sources})
  target_compile_definitions(ufunc_gpu_test PRIVATE CUPP_UFUNC_TEST_DEVICE)
  list(APPEND cupp_ufunc_tests ufunc_gpu_test)
endif()
cupp_add_test(promotion_test host promotion_test.cu)

# Every test case instantiates its ufunc for one dtype signature, some two
# thousand in all, so host code is compiled without optimisation: that halves
# the build, and IEEE arithmetic is the same at every level (no fast-math).
# Device code keeps nvcc's default optimisation (-O only sets the host's).
# The sources include the generated case lists as fixtures/ufunc/*.inc.
foreach(t IN LISTS cupp_ufunc_tests ITEMS promotion_test)
  set_target_properties(${t} PROPERTIES CUPP_HOST_O0 ON)
  target_include_directories(${t} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
endforeach()
