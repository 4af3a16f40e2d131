// Correctly rounded arithmetic that no compiler may contract: add, sub,
// mul, div, fma and sqrt of float and double, rounded to nearest, giving the
// same bits on the host and the device. nvcc contracts `a * b + c` into one
// FMA in device code by default; NumPy's loops round the product first, and
// the random samplers need the host's bits on the device (see
// random/exact_math.hpp), so the element-wise operations, the quantiles and
// the samplers take their roundings from here.
#pragma once

#include <cupp/config.hpp>

#if !defined(__CUDA_ARCH__)
#include <cmath>  // std::fma and std::sqrt, correctly rounded by IEEE 754
#endif

namespace cupp::detail::numerics {

// On the device each operation is an intrinsic with an explicit rounding
// mode, which nvcc never fuses into an FMA; on the host the operators are
// safe because targets that link cupp::random compile with
// -ffp-contract=off.
CUPP_HD inline float add_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
CUPP_HD inline double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
CUPP_HD inline float sub_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fsub_rn(a, b);
#else
  return a - b;
#endif
}
CUPP_HD inline double sub_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
CUPP_HD inline float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
CUPP_HD inline double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
CUPP_HD inline float div_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}
CUPP_HD inline double div_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}
// One rounding of a * b + c. __fmaf_rn and __fma_rn compile to the same
// fma.rn.f32 and fma.rn.f64 as ::cuda::std::fmaf and ::cuda::std::fma (with
// and without -ftz); on the host both are the C library's fmaf and fma.
CUPP_HD inline float fma_rn(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
CUPP_HD inline double fma_rn(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
CUPP_HD inline float sqrt_rn(float a) {
#if defined(__CUDA_ARCH__)
  return __fsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}
CUPP_HD inline double sqrt_rn(double a) {
#if defined(__CUDA_ARCH__)
  return __dsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}

}  // namespace cupp::detail::numerics
