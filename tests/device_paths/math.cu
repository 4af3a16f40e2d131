// Device paths of the math ufuncs (roots, exponentials, logarithms,
// trigonometric and hyperbolic functions, angle conversions, sinc) on
// float32 device arrays, and complex64 calls of the ufuncs that have a
// complex path (arithmetic, math, sign, rounding, parts, comparison).
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/ufunc.hpp>

#include <vector>

#include "checks.hpp"

using device_paths::expect_at;
using device_paths::expect_near;

namespace {

using c64 = cupp::complex64;

// Element k of a complex expression or array is re + im i.
template <class E>
void expect_complex(const E& e, long k, double re, double im, const std::string& what) {
  const cupp::ndarray<c64> r = e;
  const c64 v = r.item(k);
  expect_near(v.real(), re, what + " (real part)", 1e-5, 1e-6);
  expect_near(v.imag(), im, what + " (imaginary part)", 1e-5, 1e-6);
}

void math(const cupp::ndarray<float>& a, const cupp::ndarray<float>& u) {
  // Element 13: a = 14, u = 14 / 32 = 0.4375 (values from NumPy, float32).
  expect_at(cupp::sqrt(a), 13, 3.7416574954986572, "sqrt");
  expect_at(cupp::cbrt(a), 13, 2.410142183303833, "cbrt");
  expect_at(cupp::square(a), 13, 196.0, "square");
  expect_at(cupp::exp(u), 13, 1.548830270767212, "exp");
  expect_at(cupp::exp2(u), 13, 1.3542555570602417, "exp2");
  expect_at(cupp::expm1(u), 13, 0.5488302707672119, "expm1");
  expect_at(cupp::log(a), 13, 2.6390573978424072, "log");
  expect_at(cupp::log2(a), 13, 3.8073549270629883, "log2");
  expect_at(cupp::log10(a), 13, 1.1461280584335327, "log10");
  expect_at(cupp::log1p(a), 13, 2.70805025100708, "log1p");
  expect_at(cupp::logaddexp(u, u), 13, 1.1306471824645996, "logaddexp");
  expect_at(cupp::logaddexp2(u, u), 13, 1.4375, "logaddexp2");
  expect_at(cupp::sin(a), 13, 0.9906073808670044, "sin");
  expect_at(cupp::cos(a), 13, 0.13673722743988037, "cos");
  expect_at(cupp::tan(u), 13, 0.46773001551628113, "tan");
  expect_at(cupp::arcsin(u), 13, 0.45281660556793213, "arcsin");
  expect_at(cupp::arccos(u), 13, 1.1179797649383545, "arccos");
  expect_at(cupp::arctan(a), 13, 1.4994889497756958, "arctan");
  expect_at(cupp::arctan2(u, a), 13, 0.031239835545420647, "arctan2");
  expect_at(cupp::hypot(a, u), 13, 14.006834030151367, "hypot");
  expect_at(cupp::sinh(u), 13, 0.451590895652771, "sinh");
  expect_at(cupp::cosh(u), 13, 1.097239375114441, "cosh");
  expect_at(cupp::tanh(u), 13, 0.4115700423717499, "tanh");
  expect_at(cupp::arcsinh(a), 13, 3.33347749710083, "arcsinh");
  expect_at(cupp::arccosh(a), 13, 3.3309266567230225, "arccosh");
  expect_at(cupp::arctanh(u), 13, 0.4691348075866699, "arctanh");
  expect_at(cupp::deg2rad(a), 13, 0.24434609711170197, "deg2rad");
  expect_at(cupp::rad2deg(u), 13, 25.06690216064453, "rad2deg");
  expect_at(cupp::degrees(u), 13, 25.06690216064453, "degrees");
  expect_at(cupp::radians(a), 13, 0.24434609711170197, "radians");
  expect_at(cupp::sinc(u), 13, 0.7135854959487915, "sinc");
  // NumPy 2's array-API names.
  expect_at(cupp::asin(u), 13, 0.45281660556793213, "asin");
  expect_at(cupp::acos(u), 13, 1.1179797649383545, "acos");
  expect_at(cupp::atan(a), 13, 1.4994889497756958, "atan");
  expect_at(cupp::atan2(u, a), 13, 0.031239835545420647, "atan2");
  expect_at(cupp::asinh(a), 13, 3.33347749710083, "asinh");
  expect_at(cupp::acosh(a), 13, 3.3309266567230225, "acosh");
  expect_at(cupp::atanh(u), 13, 0.4691348075866699, "atanh");
  // out= of a math ufunc, and a fused chain.
  const cupp::ndarray<float> o(a.shape());
  cupp::sqrt(a, cupp::out(o));
  expect_at(o, 13, 3.7416574954986572, "sqrt out=");
  expect_at(cupp::log(cupp::exp(u)) * 2, 13, 0.875, "log(exp(u)) * 2");
}

void complex_paths() {
  // z = [1+2i, 3-1i, 1.5+2.5i] (values from NumPy, complex64).
  const std::vector<c64> zs{c64(1, 2), c64(3, -1), c64(1.5f, 2.5f)};
  const cupp::ndarray<c64> z = cupp::asarray(zs);
  expect_complex(z + 1, 0, 2, 2, "complex add");
  expect_complex(z - z, 1, 0, 0, "complex subtract");
  expect_complex(z * z, 0, -3, 4, "complex multiply");
  expect_complex(z / z, 2, 1, 0, "complex divide");
  expect_complex(cupp::power(z, 2), 0, -3, 4, "complex power");
  expect_complex(cupp::square(z), 1, 8, -6, "complex square");
  expect_complex(cupp::reciprocal(z), 0, 0.2, -0.4, "complex reciprocal");
  expect_complex(cupp::negative(z), 0, -1, -2, "complex negative");
  expect_complex(cupp::exp(z), 0, -1.1312044, 2.4717267, "complex exp");
  expect_complex(cupp::expm1(z), 0, -2.1312044, 2.4717267, "complex expm1");
  expect_complex(cupp::log(z), 0, 0.804719, 1.1071488, "complex log");
  expect_complex(cupp::log1p(z), 0, 1.0397208, 0.7853982, "complex log1p");
  expect_complex(cupp::sqrt(z), 0, 1.2720196, 0.7861514, "complex sqrt");
  expect_complex(cupp::sin(z), 0, 3.1657786, 1.9596009, "complex sin");
  expect_complex(cupp::cos(z), 0, 2.032723, -3.0518978, "complex cos");
  expect_complex(cupp::tanh(z), 0, 1.1667362, -0.24345821, "complex tanh");
  expect_complex(cupp::arcsin(z), 0, 0.42707852, 1.528571, "complex arcsin");
  expect_complex(cupp::sign(z), 0, 0.4472136, 0.8944272, "complex sign");
  expect_complex(cupp::rint(z), 2, 2, 2, "complex rint");
  expect_complex(cupp::conj(z), 0, 1, -2, "complex conj");
  expect_at(cupp::absolute(z), 0, 2.236068, "complex absolute");
  expect_at(cupp::angle(z), 0, 1.1071488, "complex angle");
  expect_at(cupp::real(z), 1, 3.0, "complex real");
  expect_at(cupp::imag(z), 1, -1.0, "complex imag");
  expect_at(cupp::isnan(z), 0, 0, "complex isnan");
  expect_at(cupp::isfinite(z), 0, 1, "complex isfinite");
  expect_at(z == z, 0, 1, "complex equal");
  expect_at(cupp::logical_and(z, z), 0, 1, "complex logical_and");
  expect_complex(cupp::where(cupp::real(z) > 2, z, 0), 0, 0, 0, "complex where");
  expect_complex(cupp::maximum(z, z), 1, 3, -1, "complex maximum");
  const cupp::ndarray<c64> o(z.shape());
  cupp::multiply(z, z, cupp::out(o));
  expect_complex(o, 0, -3, 4, "complex multiply out=");
}

}  // namespace

void device_paths_math() {
  // a = 1 .. 24 in C order, shape (4, 6); u = a / 32.
  const cupp::ndarray<float> a = cupp::arange<float>(1, 25).reshape({4, 6});
  const cupp::ndarray<float> u = a / 32;
  math(a, u);
  complex_paths();
}
