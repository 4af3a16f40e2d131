// max, min (and their names amax, amin), nanmax, nanmin and ptp against
// NumPy: the first NaN wins in max and min, nanmax skips it; empty operands
// raise NumPy's ValueError; initial= and out=, ndarray.max/min
// (tests/support/reduction_harness.hpp).
#include "reduction_harness.hpp"

using namespace reduction_test;

namespace {

struct max_method {
  static constexpr const char* name = "max";
  static constexpr bool lazy = false;
  template <class X>
  static auto call(const X& x, const cupp::axis_arg& a, bool kd, double) {
    return x.max(a, cupp::kw::keepdims = kd);
  }
};
struct min_method {
  static constexpr const char* name = "min";
  static constexpr bool lazy = false;
  template <class X>
  static auto call(const X& x, const cupp::axis_arg& a, bool kd, double) {
    return x.min(a, cupp::kw::keepdims = kd);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(reduction_extrema)

BOOST_AUTO_TEST_CASE_TEMPLATE(max, T, cupp_test::dtype_list) {
  run_main<max_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(min, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_main<min_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(amax, T, cupp_test::dtype_list) {
  run_main<amax_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(amin, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_main<amin_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(nanmax, T, cupp_test::dtype_list) {
  if constexpr (device_nan_dtype_v<T>) run_main<nanmax_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(nanmin, T, cupp_test::dtype_list) {
  if constexpr (device_nan_dtype_v<T>) run_main<nanmin_fn, T>();
}
// NumPy has no boolean subtract (and cupp::ptp of bool does not compile).
BOOST_AUTO_TEST_CASE_TEMPLATE(ptp, T, cupp_test::dtype_list) {
  if constexpr (!std::is_same_v<T, bool> && device_dtype_v<T>) run_main<ptp_fn, T>();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(initial, T, cupp_test::dtype_list) {
  run_initial<max_fn, T>();
  if constexpr (device_dtype_v<T>) run_initial<min_fn, T>();
  if constexpr (device_nan_dtype_v<T>) run_initial<nanmax_fn, T>();
  if constexpr (device_nan_dtype_v<T>) run_initial<nanmin_fn, T>();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(out, T, cupp_test::dtype_list) {
  run_out<max_fn, T, T>();
  if constexpr (device_nan_dtype_v<T>) run_out<nanmin_fn, T, T>();
}

BOOST_AUTO_TEST_CASE(methods) {
  run_main<max_method, float>();
  run_main<min_method, float>();
  run_main<max_method, std::int8_t>();
}

BOOST_AUTO_TEST_SUITE_END()
