// where= (a bool mask broadcast against the operand, with initial= for the
// reductions without an identity) against NumPy: sum and max on every
// dtype (the device build: device_dtype_v), the others on a few (each
// masked reduction is a kernel of its own) (tests/support/reduction_harness.hpp).
#include "reduction_harness.hpp"

using namespace reduction_test;

using few_types = std::tuple<std::int32_t, __half, float, cuda::std::complex<double>>;

BOOST_AUTO_TEST_SUITE(reduction_where)

BOOST_AUTO_TEST_CASE_TEMPLATE(sum, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_where<sum_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(max, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) {
    run_where<max_fn, T>();
    // Without initial=: NumPy's ValueError.
    run_where<max_fn, T>("max_noinitial");
  }
}
// (The device build: float32.)
BOOST_AUTO_TEST_CASE_TEMPLATE(others, T, few_types) {
  if constexpr (!on_device || std::is_same_v<T, float>) {
    run_where<prod_fn, T>();
    run_where<min_fn, T>();
    run_where<nanmax_fn, T>();
    run_where<nanmax_fn, T>("nanmax_noinitial");
    run_where<nansum_fn, T>();
    run_where<mean_fn, T>();
    run_where<nanmean_fn, T>();
    run_where<var_fn, T>();
    run_where<std_fn, T>();
  }
}
using logic_types = std::tuple<bool, float>;
BOOST_AUTO_TEST_CASE_TEMPLATE(logic, T, logic_types) {
  if constexpr (!on_device || std::is_same_v<T, bool>) {
    run_where<all_fn, T>();
    run_where<any_fn, T>();
  }
}

BOOST_AUTO_TEST_SUITE_END()
