// all, any and count_nonzero against NumPy (NaN and complex numbers are
// true when nonzero; empty slices: all True, any False, count 0); out=,
// ndarray.any (tests/support/reduction_harness.hpp).
#include "reduction_harness.hpp"

using namespace reduction_test;

namespace {

struct any_method {
  static constexpr const char* name = "any";
  static constexpr bool lazy = false;
  template <class X>
  static auto call(const X& x, const cupp::axis_arg& a, bool kd, double) {
    return x.any(a, cupp::kw::keepdims = kd);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(reduction_logic)

BOOST_AUTO_TEST_CASE_TEMPLATE(all, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_main<all_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(any, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_main<any_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(count_nonzero, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_main<count_nonzero_fn, T>();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(out, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_out<all_fn, T, bool>();
}

BOOST_AUTO_TEST_CASE(methods) {
  run_main<any_method, float>();
}

BOOST_AUTO_TEST_SUITE_END()
