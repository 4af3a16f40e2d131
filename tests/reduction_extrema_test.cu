// max, min (and their names amax, amin), nanmax, nanmin and ptp against
// NumPy: the first NaN wins in max and min, nanmax skips it; empty operands
// raise NumPy's ValueError; initial= and out=, ndarray.max/min
// (tests/support/reduction_harness.hpp).
#include <cupp/ufunc/arithmetic.hpp>

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

// max and min of negated integers, read through vector loads: for sm_90,
// ptxas 13.0 dropped the negation of some of the four loaded values when it
// fused the comparisons (see arith::wrap_neg). Every length and offset puts
// the largest value in each lane of a load in turn.
using negatable = std::tuple<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                             std::uint32_t, float>;
BOOST_AUTO_TEST_CASE_TEMPLATE(of_negated_values, T, negatable) {
  for (const index_t n : {index_t{5}, index_t{12}, index_t{1000}, index_t{100003}}) {
    for (index_t offset = 0; offset < 4; ++offset) {
      harr<T> h(shape_t{n + offset});
      for (index_t i = 0; i < n + offset; ++i) h.data()[i] = static_cast<T>((i * 7 + 1) % 11 + 1);
      const arr<T> whole = to_space(h);
      const arr<T> x = whole(cupp::slice(offset, n + offset));
      T lo = T(100), hi = T(0);
      for (index_t i = offset; i < n + offset; ++i) {
        lo = std::min(lo, h.data()[i]);
        hi = std::max(hi, h.data()[i]);
      }
      const T want_max = static_cast<T>(-lo), want_min = static_cast<T>(-hi);
      const std::string at =
          dtype_name<T>() + " n " + std::to_string(n) + " offset " + std::to_string(offset);
      BOOST_TEST(double(cupp::max(-x).item()) == double(want_max), at);
      BOOST_TEST(double(cupp::min(-x).item()) == double(want_min), at);
      const arr<T> rows = x(cupp::slice(0, n - n % 4)).reshape(shape_t{n / 4, 4});
      const harr<T> row_max = to_host(arr<T>(cupp::max(-rows, 1)));
      for (index_t r = 0; r < n / 4; ++r) {
        T m = static_cast<T>(-h.data()[offset + 4 * r]);
        for (index_t j = 1; j < 4; ++j)
          m = std::max(m, static_cast<T>(-h.data()[offset + 4 * r + j]));
        BOOST_TEST(double(row_max.data()[r]) == double(m), at << " row " << r);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(methods) {
  run_main<max_method, float>();
  run_main<min_method, float>();
  run_main<max_method, std::int8_t>();
}

BOOST_AUTO_TEST_SUITE_END()
