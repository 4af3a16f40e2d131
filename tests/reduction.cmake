# The reductions and scans against NumPy's results
# (tests/generate_reduction_fixtures.py writes fixtures/reduction/): one set
# of sources built for host arrays (reduction_host_test, label host) and for
# device arrays (reduction_gpu_test, CUPP_TEST_DEVICE=1, label gpu; exits 77
# without a GPU). Included from tests/CMakeLists.txt after cupp_add_test.
#
# Split by function family so that a many-core machine builds the units in
# parallel; each unit instantiates its functions once per dtype (layouts are
# run-time strides of the same array type). The device build compiles sum,
# max and argmax for every dtype and the rest for a subset
# (device_dtype_v in tests/support/reduction_harness.hpp): on two cores the
# whole suite, host and device, builds in about 8 minutes.
set(cupp_reduction_test_sources
    reduction_sum_test.cu
    reduction_extrema_test.cu
    reduction_arg_test.cu
    reduction_logic_test.cu
    reduction_stats_test.cu
    reduction_scan_test.cu
    reduction_where_test.cu
    reduction_options_test.cu)

cupp_add_test(reduction_host_test host ${cupp_reduction_test_sources})
cupp_add_test(reduction_gpu_test gpu ${cupp_reduction_test_sources})
target_compile_definitions(reduction_gpu_test PRIVATE CUPP_TEST_DEVICE=1)

# Host code without optimisation, as the ufunc tests (it halves the build;
# IEEE arithmetic is the same at every level). Device code keeps nvcc's
# default optimisation. --extended-lambda: cupp::reduction with
# __host__ __device__ lambdas.
foreach(t IN ITEMS reduction_host_test reduction_gpu_test)
  set_target_properties(${t} PROPERTIES CUPP_HOST_O0 ON)
  target_compile_options(${t} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>)
endforeach()
