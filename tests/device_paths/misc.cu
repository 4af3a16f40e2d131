// Device paths of the miscellaneous ufuncs: rounding, sign and magnitude,
// selection (maximum, fmin, clip, where), floating-point representation and
// classification, complex parts of real arrays, and the functions built on
// them (round/around, isclose, nan_to_num, angle), on float32 device arrays.
// (Their complex paths are in math.cu.)
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/ufunc.hpp>

#include <optional>

#include "checks.hpp"

using device_paths::expect_at;

namespace {

void misc(const cupp::ndarray<float>& a, const cupp::ndarray<float>& s,
          const cupp::ndarray<float>& u, const cupp::ndarray<std::int32_t>& n) {
  // Element 2: s = -9.5; element 13: a = 14, s = 1.5.
  expect_at(cupp::absolute(s), 2, 9.5, "absolute");
  expect_at(cupp::abs(s), 2, 9.5, "abs");
  expect_at(cupp::fabs(s), 2, 9.5, "fabs");
  expect_at(cupp::sign(s), 2, -1.0, "sign");
  expect_at(cupp::heaviside(s, 0.5), 2, 0.0, "heaviside");
  expect_at(cupp::heaviside(s, 0.5), 13, 1.0, "heaviside (positive)");
  expect_at(cupp::floor(s), 2, -10.0, "floor");
  expect_at(cupp::ceil(s), 2, -9.0, "ceil");
  expect_at(cupp::trunc(s), 2, -9.0, "trunc");
  expect_at(cupp::fix(s), 2, -9.0, "fix");
  expect_at(cupp::rint(s), 2, -10.0, "rint (half to even)");
  expect_at(cupp::maximum(a, 10), 13, 14.0, "maximum");
  expect_at(cupp::minimum(a, 10), 13, 10.0, "minimum");
  expect_at(cupp::fmax(a, s), 13, 14.0, "fmax");
  expect_at(cupp::fmin(a, s), 13, 1.5, "fmin");
  expect_at(cupp::isnan(a), 13, 0, "isnan");
  expect_at(cupp::isinf(a), 13, 0, "isinf");
  expect_at(cupp::isfinite(a), 13, 1, "isfinite");
  expect_at(cupp::isnan(cupp::log(s)), 2, 1, "isnan(log(negative))");
  expect_at(cupp::signbit(s), 2, 1, "signbit");
  expect_at(cupp::copysign(a, s), 2, -3.0, "copysign");
  expect_at(cupp::nextafter(a, 100), 13, 14.000000953674316, "nextafter", 0.0);
  expect_at(cupp::spacing(a), 13, 9.5367431640625e-07, "spacing", 0.0);
  expect_at(cupp::ldexp(a, n), 13, 14.0 * 16384, "ldexp (int32 array)");
  expect_at(cupp::ldexp(a, 2), 13, 56.0, "ldexp (scalar)");
  expect_at(cupp::conjugate(a), 13, 14.0, "conjugate");
  expect_at(cupp::conj(a), 13, 14.0, "conj");
  expect_at(cupp::real(a), 13, 14.0, "real");
  expect_at(cupp::imag(a), 13, 0.0, "imag");
  expect_at(cupp::round(u, 2), 13, 0.4399999976158142, "round");
  expect_at(cupp::round(s), 2, -10.0, "round (decimals 0)");
  expect_at(cupp::around(u, 1), 13, 0.4000000059604645, "around");
  const cupp::ndarray<float> o(a.shape());
  cupp::round(u, 2, cupp::out(o));
  expect_at(o, 13, 0.4399999976158142, "round out=");
  cupp::round(s, cupp::out(o));
  expect_at(o, 2, -10.0, "round out= (decimals 0)");
  cupp::around(u, 1, cupp::out(o));
  expect_at(o, 13, 0.4000000059604645, "around out=");
  cupp::around(s, cupp::out(o));
  expect_at(o, 2, -10.0, "around out= (decimals 0)");
  expect_at(cupp::angle(s), 2, 3.1415927410125732, "angle");
  expect_at(cupp::angle(s, true), 2, 180.0, "angle (degrees)");
  expect_at(cupp::angle(s), 13, 0.0, "angle (positive)");
  expect_at(cupp::isclose(a, a + 1e-6f), 13, 1, "isclose");
  expect_at(cupp::isclose(a, a + 1, 1e-05, 1e-08, true), 13, 0, "isclose (not close)");
  expect_at(cupp::nan_to_num(cupp::log(s), 7.0), 2, 7.0, "nan_to_num (nan)");
  expect_at(cupp::nan_to_num(cupp::log(s)), 13, 0.40546509623527527, "nan_to_num (finite)");
  expect_at(cupp::nan_to_num(s / 0, 0.0, 1.0, -1.0), 2, -1.0, "nan_to_num (-inf)");
  expect_at(cupp::nan_to_num(s / 0), 2, -3.4028234663852886e+38, "nan_to_num (default -inf)");
  expect_at(cupp::clip(a, 5, 10), 13, 10.0, "clip");
  expect_at(cupp::clip(a, std::nullopt, 10), 13, 10.0, "clip (no lower bound)");
  expect_at(cupp::clip(a, 20, std::nullopt), 13, 20.0, "clip (no upper bound)");
  expect_at(cupp::clip(a, std::nullopt, std::nullopt), 13, 14.0, "clip (no bounds)");
  expect_at(cupp::clip(a, s, s + 1), 13, 2.5, "clip (array bounds)");
  cupp::clip(a, 5, 10, cupp::out(o));
  expect_at(o, 2, 5.0, "clip out=");
  expect_at(cupp::where(a > 10, a, s), 13, 14.0, "where (true)");
  expect_at(cupp::where(a > 10, a, s), 2, -9.5, "where (false)");
  expect_at(cupp::where(a, 1, 0), 13, 1, "where (float condition, int64 result)");
  expect_at(cupp::where(a > 10, a, 0), 2, 0.0, "where (scalar)");
}

}  // namespace

void device_paths_misc() {
  // a = 1 .. 24 in C order, shape (4, 6); s = a - 12.5; u = a / 32; n = a as
  // int32.
  const cupp::ndarray<float> a = cupp::arange<float>(1, 25).reshape({4, 6});
  const cupp::ndarray<float> s = a - 12.5f;
  const cupp::ndarray<float> u = a / 32;
  const cupp::ndarray<std::int32_t> n = cupp::arange<std::int32_t>(1, 25).reshape({4, 6});
  misc(a, s, u, n);
}
