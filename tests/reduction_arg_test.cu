// argmax, argmin, nanargmax and nanargmin against NumPy: the first NaN,
// else the first extreme value (ties: the first occurrence); an all-NaN
// slice gives -1 in the nan forms, where NumPy raises; a tuple axis is a
// TypeError; out=, ndarray.argmax (tests/support/reduction_harness.hpp).
#include "reduction_harness.hpp"

using namespace reduction_test;

namespace {

struct argmax_method {
  static constexpr const char* name = "argmax";
  static constexpr bool lazy = false;
  template <class X>
  static auto call(const X& x, const cupp::axis_arg& a, bool kd, double) {
    return x.argmax(a, cupp::kw::keepdims = kd);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(reduction_arg)

BOOST_AUTO_TEST_CASE_TEMPLATE(argmax, T, cupp_test::dtype_list) {
  run_main<argmax_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(argmin, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_main<argmin_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(nanargmax, T, cupp_test::dtype_list) {
  if constexpr (device_nan_dtype_v<T>) run_main<nanargmax_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(nanargmin, T, cupp_test::dtype_list) {
  if constexpr (device_nan_dtype_v<T>) run_main<nanargmin_fn, T>();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(out, T, cupp_test::dtype_list) {
  run_out<argmax_fn, T, std::int64_t>();
}

BOOST_AUTO_TEST_CASE(methods) {
  run_main<argmax_method, float>();
}

BOOST_AUTO_TEST_SUITE_END()
