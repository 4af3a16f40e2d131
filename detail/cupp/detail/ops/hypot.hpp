// sqrt(x^2 + y^2) without undue overflow or underflow, rounded as glibc's
// hypot rounds it (NumPy's hypot, its complex sign and its logarithms call
// glibc's). CUDA's double hypot can be an ulp away and overflows for
// hypot(1, DBL_MAX): on the device, float64 takes the route below; the host
// keeps the C library's.
#pragma once

#include <cuda/std/cmath>
#include <cuda/std/limits>

#include <cupp/config.hpp>
#include <cupp/detail/ops/arithmetic_element.hpp>

namespace cupp::ops::fmath {

// x >= y > 0, both finite, x <= 2^511, y >= 2^-459 (the residual's small
// products stay normal): the rounded square root of the rounded sum of
// squares, corrected by one Newton step whose residual h^2 - x^2 - y^2 is
// formed from differences that are exact (Borges' correction without fused
// multiply-adds, the variant glibc builds for x86-64; bit for bit the same
// results as glibc 2.36 on 20 million pairs). Products go through mul_rn so
// that nvcc does not fuse them into the additions.
CUPP_HD inline double hypot_scaled(double x, double y) {
  using arith::mul_rn;
  const double h = ::cuda::std::sqrt(mul_rn(x, x) + mul_rn(y, y));
  double residual;
  if (h <= 2 * y) {
    const double d = h - y;
    residual = mul_rn(x, 2 * d - x) + mul_rn(d - 2 * (x - y), d);
  } else {
    const double d = h - x;
    residual = mul_rn(2 * d, x - 2 * y) + (mul_rn(4 * d - y, y) + mul_rn(d, d));
  }
  return h - residual / (2 * h);
}

CUPP_HD inline double hypot_double(double a, double b) {
  a = ::cuda::std::fabs(a);
  b = ::cuda::std::fabs(b);
  if (::cuda::std::isinf(a) || ::cuda::std::isinf(b))
    return ::cuda::std::numeric_limits<double>::infinity();
  if (::cuda::std::isnan(a) || ::cuda::std::isnan(b)) return a + b;
  const double x = a < b ? b : a, y = a < b ? a : b;
  // Scale by a power of two (exact) into the range where the squares
  // neither overflow nor lose bits to underflow. Where y is at most a
  // quarter of an ulp of x (or zero), x + y is the rounded result; the test
  // is written so that it does not underflow itself.
  if (x > 0x1p+511) {
    if (y <= x * 0x1p-54) return x + y;
    return hypot_scaled(x * 0x1p-600, y * 0x1p-600) * 0x1p+600;
  }
  if (y < 0x1p-459) {
    if (x >= y * 0x1p+54) return x + y;
    return hypot_scaled(x * 0x1p+600, y * 0x1p+600) * 0x1p-600;
  }
  if (y <= x * 0x1p-54) return x + y;
  return hypot_scaled(x, y);
}

// The hypot of the math ufuncs and the complex functions.
template <class R>
CUPP_HD inline R hypot(R a, R b) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(R) == sizeof(double)) return hypot_double(a, b);
#endif
  return ::cuda::std::hypot(a, b);
}

}  // namespace cupp::ops::fmath
