// mean, nanmean, var, std, nanvar and nanstd (with ddof) and average (with
// weights, returned) against NumPy; out=, methods
// (tests/support/reduction_harness.hpp).
// average(weights=) multiplies and divides expressions: <cupp/reductions.hpp>
// uses the operators of <cupp/ufunc/arithmetic.hpp> without including it.
#include <cupp/ufunc/arithmetic.hpp>

#include "reduction_harness.hpp"

using namespace reduction_test;

namespace {

struct mean_method {
  static constexpr const char* name = "mean";
  static constexpr bool lazy = false;
  template <class X>
  static auto call(const X& x, const cupp::axis_arg& a, bool kd, double) {
    return x.mean(a, cupp::kw::keepdims = kd);
  }
};
struct std_method {
  static constexpr const char* name = "std";
  static constexpr bool lazy = false;
  template <class X>
  static auto call(const X& x, const cupp::axis_arg& a, bool kd, double ddof) {
    return x.std(a, cupp::kw::keepdims = kd, cupp::kw::ddof = ddof);
  }
};

// numpy.average: without and with weights (float32, of the operand's shape
// or 1-d along the axis), returned or not.
template <class T>
void run_average() {
  failures f;
  for (const record* r : records_of("average", "average", dtype_name<T>())) {
    const operand<T> op = make_operand<T>(r->input);
    const cupp::axis_arg axis = make_axis(r->axis);
    const bool kd = r->keepdims;
    const bool returned = r->opt("returned") != nullptr;
    const std::string* wspec = r->opt("weights");
    arr<float> w;
    if (wspec) {
      const operand<float> wop = make_operand<float>(*wspec);
      w = place(wop, lazy_layout(wop));
    }
    for (layout l : layouts_of(op)) {
      const std::string what = describe(*r, name_of(l));
      const arr<T> x = place(op, l);
      auto check = [&](auto call) {
        try {
          if (r->is_error()) {
            expect_error(what, *r, f, [&] { (void)call(); });
          } else if constexpr (requires { call().first; }) {
            const auto res = call();
            compare(what + " (average)", res.first, *r, f, 0);
            compare(what + " (sum of weights)", res.second, *r, f, 1);
          } else {
            compare(what, call(), *r, f);
          }
        } catch (const std::exception& e) {
          if (f.report()) BOOST_ERROR(what << ": threw " << e.what());
        }
      };
      namespace kw = cupp::kw;
      if (!wspec && !returned)
        check([&] { return cupp::average(x, axis, kw::keepdims = kd); });
      else if (!wspec)
        check([&] { return cupp::average(x, axis, kw::keepdims = kd, kw::returned); });
      else if (!returned)
        check([&] { return cupp::average(x, axis, kw::keepdims = kd, kw::weights = w); });
      else
        check([&] {
          return cupp::average(x, axis, kw::keepdims = kd, kw::weights = w, kw::returned);
        });
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reduction_stats)

BOOST_AUTO_TEST_CASE_TEMPLATE(mean, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_main<mean_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(nanmean, T, cupp_test::dtype_list) {
  if constexpr (device_nan_dtype_v<T>) run_main<nanmean_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(var, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_main<var_fn, T>();
}
// (A test case named std would hide namespace std inside Boost's macros.)
BOOST_AUTO_TEST_CASE_TEMPLATE(std_, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_main<std_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(nanvar, T, cupp_test::dtype_list) {
  if constexpr (device_nan_dtype_v<T>) run_main<nanvar_fn, T>();
}
BOOST_AUTO_TEST_CASE_TEMPLATE(nanstd, T, cupp_test::dtype_list) {
  if constexpr (device_nan_dtype_v<T>) run_main<nanstd_fn, T>();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(out, T, cupp_test::dtype_list) {
  if constexpr (device_dtype_v<T>) run_out<mean_fn, T, default_result_t<mean_fn, T>>();
  if constexpr (device_dtype_v<T>) run_out<var_fn, T, default_result_t<var_fn, T>>();
}

using average_types = std::tuple<std::int32_t, __half, float, double, cuda::std::complex<double>>;
BOOST_AUTO_TEST_CASE_TEMPLATE(average, T, average_types) {
  if constexpr (!on_device || one_of_v<T, std::int32_t, float>) run_average<T>();
}

BOOST_AUTO_TEST_CASE(methods) {
  run_main<mean_method, float>();
  run_main<std_method, float>();
}

BOOST_AUTO_TEST_SUITE_END()
