// The basic operations of exact_math.hpp: correctly rounded arithmetic that
// no compiler may contract and access to the representation (both from the
// numerics floor, under exact_math's names), exact rounding to integers, and
// the double-word helpers of the elementary functions.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/detail/numerics/float_bits.hpp>
#include <cupp/detail/numerics/rounded.hpp>

namespace cupp::detail::random::xm {

// The correctly rounded operations of the numerics floor
// (numerics/rounded.hpp: an intrinsic with an explicit rounding mode on the
// device, which nvcc never fuses into an FMA; the operators on the host,
// safe because targets that link cupp::random compile with
// -ffp-contract=off), under the short names the samplers call.
CUPP_HD inline float add(float a, float b) {
  return numerics::add_rn(a, b);
}
CUPP_HD inline double add(double a, double b) {
  return numerics::add_rn(a, b);
}
CUPP_HD inline float sub(float a, float b) {
  return numerics::sub_rn(a, b);
}
CUPP_HD inline double sub(double a, double b) {
  return numerics::sub_rn(a, b);
}
CUPP_HD inline float mul(float a, float b) {
  return numerics::mul_rn(a, b);
}
CUPP_HD inline double mul(double a, double b) {
  return numerics::mul_rn(a, b);
}
CUPP_HD inline float div(float a, float b) {
  return numerics::div_rn(a, b);
}
CUPP_HD inline double div(double a, double b) {
  return numerics::div_rn(a, b);
}
CUPP_HD inline float fma(float a, float b, float c) {
  return numerics::fma_rn(a, b, c);
}
CUPP_HD inline double fma(double a, double b, double c) {
  return numerics::fma_rn(a, b, c);
}
CUPP_HD inline float sqrt(float a) {
  return numerics::sqrt_rn(a);
}
CUPP_HD inline double sqrt(double a) {
  return numerics::sqrt_rn(a);
}

namespace impl {

// The representation, from the numerics floor (numerics/float_bits.hpp):
// format<T>'s mantissa, bias and integer types (bits_t, int_t), the bit
// casts, |x|, copysign, and +inf, the quiet NaN and the smallest normal
// number made from the bits, all exact.
template <class T>
using format = numerics::float_layout<T>;
using numerics::abs;
using numerics::bits_t;
using numerics::copysign;
using numerics::from_bits;
using numerics::infinity;
using numerics::min_normal;
using numerics::quiet_nan;
using numerics::to_bits;

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
