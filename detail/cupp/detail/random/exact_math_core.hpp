// The basic operations of exact_math.hpp: correctly rounded arithmetic that
// no compiler may contract, access to the representation, exact rounding
// to integers, and the double-word helpers of the elementary functions.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <cupp/config.hpp>

#if !defined(__CUDA_ARCH__)
#include <cmath>  // std::fma and std::sqrt, correctly rounded by IEEE 754
#endif

namespace cupp::detail::random::xm {

// On the device each operation is an intrinsic with an explicit rounding
// mode, which nvcc never fuses into an FMA; on the host the operators are
// safe because targets that link cupp::random compile with
// -ffp-contract=off.
CUPP_HD inline float add(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
CUPP_HD inline double add(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
CUPP_HD inline float sub(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fsub_rn(a, b);
#else
  return a - b;
#endif
}
CUPP_HD inline double sub(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
CUPP_HD inline float mul(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
CUPP_HD inline double mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
CUPP_HD inline float div(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}
CUPP_HD inline double div(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}
CUPP_HD inline float fma(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
CUPP_HD inline double fma(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
CUPP_HD inline float sqrt(float a) {
#if defined(__CUDA_ARCH__)
  return __fsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}
CUPP_HD inline double sqrt(double a) {
#if defined(__CUDA_ARCH__)
  return __dsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}

namespace impl {

// The layout of the binary formats.
template <class T>
struct format;
template <>
struct format<float> {
  using bits_t = std::uint32_t;
  using int_t = std::int32_t;
  static constexpr int mantissa = 23, bias = 127;
};
template <>
struct format<double> {
  using bits_t = std::uint64_t;
  using int_t = std::int64_t;
  static constexpr int mantissa = 52, bias = 1023;
};
template <class T>
using bits_t = typename format<T>::bits_t;

template <class T>
CUPP_HD inline bits_t<T> to_bits(T x) {
  bits_t<T> b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
template <class T>
CUPP_HD inline T from_bits(bits_t<T> b) {
  T x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

template <class T>
inline constexpr bits_t<T> sign_mask = bits_t<T>(1) << (sizeof(T) * 8 - 1);

template <class T>
CUPP_HD inline T abs(T x) {
  return from_bits<T>(to_bits(x) & ~sign_mask<T>);
}
// |magnitude| with the sign of `sign`.
template <class T>
CUPP_HD inline T copysign(T magnitude, T sign) {
  return from_bits<T>((to_bits(magnitude) & ~sign_mask<T>) | (to_bits(sign) & sign_mask<T>));
}

// From the bits (std::numeric_limits is host-only code without
// --expt-relaxed-constexpr): all exponent bits, and the top mantissa bit
// for a quiet NaN.
template <class T>
CUPP_HD inline T infinity() {
  constexpr int exponent_bits = sizeof(T) == 4 ? 8 : 11;
  return from_bits<T>(((bits_t<T>(1) << exponent_bits) - 1) << format<T>::mantissa);
}
template <class T>
CUPP_HD inline T quiet_nan() {
  return from_bits<T>(to_bits(infinity<T>()) | (bits_t<T>(1) << (format<T>::mantissa - 1)));
}
// The smallest normal number.
template <class T>
CUPP_HD inline T min_normal() {
  return from_bits<T>(bits_t<T>(1) << format<T>::mantissa);
}

// 2^k for k in the normal range [1 - bias, bias], by writing the exponent.
template <class T>
CUPP_HD inline T pow2(int k) {
  return from_bits<T>(static_cast<bits_t<T>>(k + format<T>::bias) << format<T>::mantissa);
}

// x * 2^k for k in [2 - 2 bias, 2 bias]: two exact scalings of normal
// range, so that only the last multiplication can round (into subnormals
// or infinity), once.
template <class T>
CUPP_HD inline T scale2(T x, int k) {
  const int half = k / 2;
  return mul(mul(x, pow2<T>(half)), pow2<T>(k - half));
}

// a0 + x (a1 + x (a2 + ...)) by Horner's rule with FMAs, coefficients in
// increasing degree.
template <class T>
CUPP_HD inline T horner(T, T a0) {
  return a0;
}
template <class T, class... Rest>
CUPP_HD inline T horner(T x, T a0, Rest... rest) {
  return fma(x, horner(x, static_cast<T>(rest)...), a0);
}

// Double-word numbers hi + lo with |lo| <= ulp(hi) / 2: the extra precision
// that pow and loggam need to stay within a few ulps.
template <class T>
struct dword {
  T hi, lo;
};
// a + b exactly (Knuth's TwoSum; no ordering assumption).
template <class T>
CUPP_HD inline dword<T> two_sum(T a, T b) {
  const T s = add(a, b);
  const T bb = sub(s, a);
  return {s, add(sub(a, sub(s, bb)), sub(b, bb))};
}
// a + b exactly when |a| >= |b| (Dekker's Fast2Sum).
template <class T>
CUPP_HD inline dword<T> fast_two_sum(T a, T b) {
  const T s = add(a, b);
  return {s, sub(b, sub(s, a))};
}
template <class T>
CUPP_HD inline dword<T> dw_add(dword<T> a, dword<T> b) {
  const dword<T> s = two_sum(a.hi, b.hi);
  return fast_two_sum(s.hi, add(s.lo, add(a.lo, b.lo)));
}
template <class T>
CUPP_HD inline dword<T> dw_mul(dword<T> a, dword<T> b) {
  const T p = mul(a.hi, b.hi);
  const T e = fma(a.hi, b.hi, -p);
  return fast_two_sum(p, add(e, fma(a.hi, b.lo, mul(a.lo, b.hi))));
}

}  // namespace impl

// Rounding to integers: exact, through an integer conversion wherever the
// value may have a fraction (|x| < 2^mantissa); larger values, infinities
// and NaNs are integers already and pass through.
template <class T>
CUPP_HD inline T trunc(T x) {
  static_assert(std::is_floating_point_v<T>);
  constexpr T limit = T(std::uint64_t(1) << impl::format<T>::mantissa);
  if (!(impl::abs(x) < limit)) return x;
  using int_t = typename impl::format<T>::int_t;
  return impl::copysign(static_cast<T>(static_cast<int_t>(x)), x);
}
template <class T>
CUPP_HD inline T floor(T x) {
  const T t = trunc(x);
  return t > x ? sub(t, T(1)) : t;
}
template <class T>
CUPP_HD inline T ceil(T x) {
  const T t = trunc(x);
  return t < x ? add(t, T(1)) : t;
}

}  // namespace cupp::detail::random::xm
