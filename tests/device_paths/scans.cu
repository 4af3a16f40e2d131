// Device paths of the scans (cumsum, cumprod, nancumsum, nancumprod and the
// methods, over the flattened array and along each axis, of arrays and
// expressions, with dtype=) and of user reductions (cupp::reduction, CuPy's
// ReductionKernel, with axis, keepdims and out=), on float32 device arrays.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc/arithmetic.hpp>

#include <cuda/std/cmath>

#include <limits>
#include <type_traits>

#include "checks.hpp"

using device_paths::expect;
using device_paths::expect_at;
using device_paths::expect_near;
using device_paths::expect_values;

namespace {

// The functors of a user reduction: sqrt(sum(x * x)).
struct square {
  CUPP_HD float operator()(float x) const { return x * x; }
};
struct plus {
  template <class A>
  CUPP_HD A operator()(A x, A y) const {
    return x + y;
  }
};
struct root {
  CUPP_HD float operator()(float x) const { return ::cuda::std::sqrt(x); }
};
// Two operands: sum(x * y) in float64.
struct times {
  CUPP_HD double operator()(double x, double y) const { return x * y; }
};
struct same {
  template <class A>
  CUPP_HD A operator()(A x) const {
    return x;
  }
};

// a = 1 .. 24 in C order, shape (4, 6): row i holds 6i + 1 .. 6i + 6.
void scans(const cupp::ndarray<float>& a) {
  const auto c = cupp::cumsum(a);
  static_assert(std::is_same_v<decltype(c), const cupp::ndarray<float>>);
  expect(c.shape() == cupp::shape_t{24}, "cumsum flattens");
  expect_at(c, 13, 105, "cumsum");
  expect_at(c, 23, 300, "cumsum last");
  expect_at(cupp::cumsum(a, 1), 11, 57, "cumsum axis 1");
  expect_at(cupp::cumsum(a, 0), 18, 40, "cumsum axis 0");
  expect_at(cupp::cumsum(a, -2), 23, 60, "cumsum axis -2");
  expect_values(cupp::cumprod(a(0)), {1, 2, 6, 24, 120, 720}, "cumprod");
  expect_values(cupp::cumprod(a(cupp::slice(0, 2), cupp::slice(0, 2)), 0), {1, 2, 7, 16},
                "cumprod axis 0");
  const auto cd = cupp::cumsum<double>(a * 2, 1);
  static_assert(std::is_same_v<decltype(cd), const cupp::ndarray<double>>);
  expect_at(cd, 5, 42, "cumsum of an expression, dtype=float64");
  // b is a with NaN in place of 14 (element 13, row 2).
  const cupp::ndarray<float> b = cupp::where(a == 14, std::numeric_limits<float>::quiet_NaN(), a);
  expect_at(cupp::nancumsum(b), 13, 91, "nancumsum");
  expect_values(cupp::nancumprod(b(2)), {13, 13, 195, 3120, 53040, 954720}, "nancumprod");
  expect_at(cupp::nancumsum(b, 1), 17, 79, "nancumsum axis 1");
  expect_at(cupp::nancumprod(b, 0), 19, 2 * 8 * 20, "nancumprod axis 0");
  // The methods.
  expect_at(a.cumsum(), 23, 300, "a.cumsum()");
  expect_at(a.cumsum(1), 5, 21, "a.cumsum(1)");
  expect_at(a(0).cumprod(), 5, 720, "a.cumprod()");
  expect_at((a * 2).cumsum<double>(1), 23, 258, "(a * 2).cumsum<double>(1)");
  expect_at(a.cumprod(0), 18, 1 * 7 * 13 * 19, "a.cumprod(0)");
}

void user_reductions(const cupp::ndarray<float>& a) {
  const auto l2 = cupp::reduction(square{}, plus{}, root{}, 0.0f);
  expect_near(l2(a).item(), 70, "reduction (all axes)");
  expect_values(l2(a, cupp::kw::axis = 1), {9.539392, 23.64318, 38.196857, 52.829914},
                "reduction axis 1");
  const auto kd = l2(a, cupp::kw::axis = 1, cupp::kw::keepdims = true);
  expect(kd.shape() == cupp::shape_t{4, 1}, "reduction keepdims");
  const cupp::ndarray<float> o(cupp::shape_t{4});
  l2(a, cupp::kw::axis = 1, cupp::out(o));
  expect_at(o, 0, 9.539392, "reduction out=");
  const auto dot = cupp::reduction(times{}, plus{}, same{}, 0.0);
  expect_values(dot(a, a, cupp::kw::axis = {1}), {91, 559, 1459, 2791},
                "reduction of two operands");
}

}  // namespace

void device_paths_scans() {
  const cupp::ndarray<float> a = cupp::arange<float>(1, 25).reshape({4, 6});
  scans(a);
  user_reductions(a);
}
