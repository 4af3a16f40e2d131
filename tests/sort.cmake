# Sorting, searching, counting and histograms against NumPy fixtures: one
# source per family, built for host arrays (sort_host_test) and for device
# arrays (sort_gpu_test).
set(cupp_sort_test_sources
    sort_sort_test.cu
    sort_search_test.cu
    sort_histogram_test.cu
    sort_partition_test.cu
    sort_quantile_test.cu
    sort_unique_test.cu
    sort_sets_test.cu)
cupp_add_test(sort_gpu_test gpu ${cupp_sort_test_sources})
target_compile_definitions(sort_gpu_test PRIVATE CUPP_TEST_DEVICE=1)
cupp_add_test(sort_host_test host ${cupp_sort_test_sources})
set_property(TARGET sort_host_test PROPERTY CUPP_HOST_O0 ON)

# One executable per family for working on it (built only when named, not
# run by ctest): sort_sort_host_only, sort_sort_gpu_only, ...
foreach(source IN LISTS cupp_sort_test_sources)
  string(REGEX REPLACE "_test[.]cu$" "" family "${source}")
  cupp_add_test(${family}_host_only host NOT_A_TEST ${source})
  set_property(TARGET ${family}_host_only PROPERTY CUPP_HOST_O0 ON)
  cupp_add_test(${family}_gpu_only gpu NOT_A_TEST BUILT_EVERYWHERE ${source})
  target_compile_definitions(${family}_gpu_only PRIVATE CUPP_TEST_DEVICE=1)
endforeach()
