# Basic indexing, assignment through views and the view functions against
# NumPy (tests/generate_indexing_fixtures.py): the same sources built for
# host arrays and for device arrays (CUPP_TEST_DEVICE).
set(cupp_indexing_sources indexing_views_test.cu indexing_assign_test.cu)
# Integer-array indexing, take/put and scatter (tests/generate_advanced_indexing_fixtures.py).
list(APPEND cupp_indexing_sources indexing_advanced_test.cu)
# Boolean masks and the nonzero family (tests/generate_mask_fixtures.py).
list(APPEND cupp_indexing_sources indexing_mask_test.cu)
# Joining and splitting (tests/generate_join_fixtures.py).
list(APPEND cupp_indexing_sources indexing_join_test.cu)
# Tiling, padding and diagonals (tests/generate_rearrange_fixtures.py).
list(APPEND cupp_indexing_sources indexing_rearrange_test.cu)
cupp_add_test(indexing_host_test host ${cupp_indexing_sources})
cupp_add_test(indexing_gpu_test gpu ${cupp_indexing_sources})
target_compile_definitions(indexing_gpu_test PRIVATE CUPP_TEST_DEVICE=1)
