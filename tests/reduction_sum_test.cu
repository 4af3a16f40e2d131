// sum, prod, nansum and nanprod against NumPy: every dtype, every axis form,
// every layout, empty and 0-d operands, NaN and integer wrap-around; their
// initial= and out= forms, and ndarray.sum/prod
// (tests/support/reduction_harness.hpp; built for host and device arrays).
#include "reduction_harness.hpp"

using namespace reduction_test;

namespace {

// ndarray.sum and ndarray.prod (and the expression's methods) on the same
// records as the functions.
struct sum_method {
  static constexpr const char* name = "sum";
  static constexpr bool lazy = false;
  template <class X>
  static auto call(const X& x, const cupp::axis_arg& a, bool kd, double) {
    return x.sum(a, cupp::kw::keepdims = kd);
  }
};
struct prod_method {
  static constexpr const char* name = "prod";
  static constexpr bool lazy = false;
  template <class X>
  static auto call(const X& x, const cupp::axis_arg& a, bool kd, double) {
    return x.prod(a, cupp::kw::keepdims = kd);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(reduction_sum)

BOOST_AUTO_TEST_CASE_TEMPLATE(sum, T, cupp_test::dtype_list) {
  run_main<sum_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(prod, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_main<prod_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(nansum, T, cupp_test::dtype_list) {
  if constexpr (device_nan_dtype_v<T>) run_main<nansum_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(nanprod, T, cupp_test::dtype_list) {
  if constexpr (device_nan_dtype_v<T>) run_main<nanprod_fn, T>();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(initial, T, cupp_test::dtype_list) {
  run_initial<sum_fn, T>();
  if constexpr (device_dtype_v<T>) run_initial<prod_fn, T>();
  if constexpr (device_nan_dtype_v<T>) run_initial<nansum_fn, T>();
  if constexpr (device_nan_dtype_v<T>) run_initial<nanprod_fn, T>();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(out, T, cupp_test::dtype_list) {
  run_out<sum_fn, T, default_result_t<sum_fn, T>>();
  if constexpr (device_dtype_v<T>) run_out<prod_fn, T, default_result_t<prod_fn, T>>();
}

BOOST_AUTO_TEST_CASE(methods) {
  run_main<sum_method, float>();
  run_main<prod_method, float>();
  run_main<sum_method, std::int32_t>();
}

BOOST_AUTO_TEST_SUITE_END()
