// cumsum, cumprod, nancumsum and nancumprod against NumPy: the flattened
// operand (axis=None, C order) and each axis; ndarray.cumsum
// (tests/support/reduction_harness.hpp).
#include "reduction_harness.hpp"

using namespace reduction_test;

namespace {

struct cumsum_method {
  static constexpr const char* name = "cumsum";
  static constexpr bool lazy = false;
  template <class X>
  static auto call(const X& x, const cupp::axis_arg& a, bool, double) {
    return x.cumsum(a);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(reduction_scan)

BOOST_AUTO_TEST_CASE_TEMPLATE(cumsum, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_main<cumsum_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(cumprod, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_main<cumprod_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(nancumsum, T, cupp_test::dtype_list) {
  if constexpr (device_nan_dtype_v<T>) run_main<nancumsum_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(nancumprod, T, cupp_test::dtype_list) {
  if constexpr (device_nan_dtype_v<T>) run_main<nancumprod_fn, T>();
}

BOOST_AUTO_TEST_CASE(methods) {
  run_main<cumsum_method, float>();
}

BOOST_AUTO_TEST_SUITE_END()
