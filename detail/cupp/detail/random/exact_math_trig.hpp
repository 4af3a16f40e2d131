// sin and cos of pi x, acos and atan of exact_math.hpp, built from its
// correctly rounded operations only.
#pragma once

#include <cupp/detail/random/exact_math_core.hpp>

namespace cupp::detail::random::xm {
namespace impl {

template <class T>
struct pi_constants;
template <>
struct pi_constants<float> {
  static constexpr float pi_hi = 0x1.921fb6p+1f, pi_lo = -0x1.777a5cp-24f;
  static constexpr float shifter = 0x1.8p23f;
};
template <>
struct pi_constants<double> {
  static constexpr double pi_hi = 0x1.921fb54442d18p+1, pi_lo = 0x1.1a62633145c07p-53;
  static constexpr double shifter = 0x1.8p52;
};

// sin(pi r) / r - pi and (cos(pi r) - 1) / r^2 as polynomials in z = r^2,
// |r| <= 1/4: minimax (tests/random_math_coefficients.py).
CUPP_HD inline float sinpi_poly(float z) {
  return horner(z, -0x1.4abbc00000000p+2f, 0x1.46607e0000000p+1f, -0x1.2ddcec0000000p-1f);
}
CUPP_HD inline double sinpi_poly(double z) {
  return horner(z, -0x1.4abbce625be53p+2, 0x1.466bc6775ab7ep+1, -0x1.32d2cce63b545p-1,
                0x1.5078349e58717p-4, -0x1.e307701fa9ec5p-8, 0x1.e909fce4c9cd4p-12,
                -0x1.7433e35b53ff7p-16);
}
CUPP_HD inline float cospi_poly(float z) {
  return horner(z, -0x1.3bd3cc0000000p+2f, 0x1.03c1b00000000p+2f, -0x1.55b29a0000000p+0f,
                0x1.d4e4200000000p-3f);
}
CUPP_HD inline double cospi_poly(double z) {
  return horner(z, -0x1.3bd3cc9be45dep+2, 0x1.03c1f081b5a38p+2, -0x1.55d3c7e3b99cfp+0,
                0x1.e1f506643d20ap-3, -0x1.a6d1caf60a201p-6, 0x1.f9a4804ff03f9p-10,
                -0x1.99eb16e0f0d61p-14, -0x1.871fb8a2c0e0ep-16);
}
// (atan(t) / t - 1) / t^2 and (asin(t) / t - 1) / t^2 in z = t^2 <= 1/4.
CUPP_HD inline float atan_poly(float z) {
  return horner(z, -0x1.5555520000000p-2f, 0x1.9997440000000p-3f, -0x1.2450300000000p-3f,
                0x1.c072680000000p-4f, -0x1.480d400000000p-4f, 0x1.3fd5540000000p-5f);
}
CUPP_HD inline double atan_poly(double z) {
  return horner(z, -0x1.5555555555552p-2, 0x1.99999999990d6p-3, -0x1.249249245365ap-3,
                0x1.c71c71aaf0335p-4, -0x1.745d138f6047bp-4, 0x1.3b1360b2039b8p-4,
                -0x1.110c71384c7d1p-4, 0x1.e182d94101fa8p-5, -0x1.ac72bc5500ee5p-5,
                0x1.77fc5e5060de0p-5, -0x1.301dd0875c9cep-5, 0x1.83aacee21b5c4p-6,
                -0x1.123f7c37e3dcep-7);
}
CUPP_HD inline float asin_poly(float z) {
  return horner(z, 0x1.5555c80000000p-3f, 0x1.3302060000000p-4f, 0x1.747b720000000p-5f,
                0x1.8c415a0000000p-6f, 0x1.5959aa0000000p-5f);
}
CUPP_HD inline double asin_poly(double z) {
  return horner(z, 0x1.5555555555390p-3, 0x1.333333336e807p-4, 0x1.6db6db427acecp-5,
                0x1.f1c72c38c6656p-6, 0x1.6e89f44601ac7p-6, 0x1.1c6be140ff524p-6,
                0x1.c6fdca5099945p-7, 0x1.8ec2bf655efbdp-7, 0x1.abd18eca73653p-8,
                0x1.3ff316ef5edccp-6, -0x1.09d098ef30c33p-6, 0x1.056c855794386p-5);
}

}  // namespace impl

// sin(pi x) and cos(pi x). x - 2 trunc(x/2) is exact for every finite x,
// so the reduction loses nothing at any magnitude (unlike sin(pi * x),
// whose product rounds); then x = n/2 + r, |r| <= 1/4, exactly. Zeros
// follow IEEE 754's sinPi and cosPi: sinpi(n) has the sign of n,
// cospi(n + 1/2) is +0.
template <class T>
CUPP_HD inline void sincospi(T x, T& s, T& c) {
  using P = impl::pi_constants<T>;
  const T xr = fma(T(-2), trunc(mul(x, T(0.5))), x);  // in (-2, 2); NaN for inf
  const T shifted = fma(xr, T(2), P::shifter);
  const T n = sub(shifted, P::shifter);
  const unsigned quadrant =
      static_cast<unsigned>(impl::to_bits(shifted) - impl::to_bits(P::shifter)) & 3u;
  const T r = fma(n, T(-0.5), xr);
  const T z = mul(r, r);
  const T sin_r = fma(r, P::pi_hi, mul(r, fma(z, impl::sinpi_poly(z), P::pi_lo)));
  const T cos_r = fma(z, impl::cospi_poly(z), T(1));
  T sv = (quadrant & 1u) ? cos_r : sin_r;
  T cv = (quadrant & 1u) ? sin_r : cos_r;
  if (quadrant & 2u) sv = -sv;
  if ((quadrant + 1u) & 2u) cv = -cv;
  s = sv == T(0) ? impl::copysign(T(0), x) : sv;
  c = add(cv, T(0));  // -0 -> +0, nothing else changes
}
template <class T>
CUPP_HD inline T sinpi(T x) {
  T s, c;
  sincospi(x, s, c);
  return s;
}
template <class T>
CUPP_HD inline T cospi(T x) {
  T s, c;
  sincospi(x, s, c);
  return c;
}

// acos(x): pi/2 - asin(x) for |x| <= 1/2, else 2 asin(sqrt((1 - |x|)/2))
// with the rounding error of the square root carried along.
template <class T>
CUPP_HD inline T acos(T x) {
  using P = impl::pi_constants<T>;
  const T half_pi_hi = mul(P::pi_hi, T(0.5)), half_pi_lo = mul(P::pi_lo, T(0.5));
  const T ax = impl::abs(x);
  if (ax <= T(0.5)) {
    const T z = mul(x, x);
    const T tail = mul(mul(x, z), impl::asin_poly(z));
    return add(half_pi_hi, sub(half_pi_lo, add(x, tail)));
  }
  const T w = mul(sub(T(1), ax), T(0.5));  // exact; NaN stays, |x| > 1 goes negative
  const T s = sqrt(w);
  const T s_lo = s > T(0) ? div(fma(-s, s, w), add(s, s)) : T(0);
  const T tail = fma(mul(s, w), impl::asin_poly(w), s_lo);  // asin(s) = s + tail
  if (x > T(0)) return mul(T(2), add(s, tail));
  return add(P::pi_hi, sub(P::pi_lo, mul(T(2), add(s, tail))));
}

// atan(x) = base + atan(t): t = |x| (base 0) for |x| <= 1/2, (|x| - 1)/(|x| + 1)
// (base pi/4) up to 2, -1/|x| (base pi/2) beyond, with the rounding error
// of the quotient carried as a correction.
template <class T>
CUPP_HD inline T atan(T x) {
  using P = impl::pi_constants<T>;
  const T ax = impl::abs(x);
  T num = ax, den_hi = T(1), den_lo = T(0), base_hi = T(0), base_lo = T(0);
  if (ax > T(0.5)) {
    if (ax <= T(2)) {
      num = sub(ax, T(1));  // exact (Sterbenz)
      const impl::dword<T> d = impl::two_sum(ax, T(1));
      den_hi = d.hi;
      den_lo = d.lo;
      base_hi = mul(P::pi_hi, T(0.25));
      base_lo = mul(P::pi_lo, T(0.25));
    } else {
      num = T(-1);
      den_hi = ax;
      base_hi = mul(P::pi_hi, T(0.5));
      base_lo = mul(P::pi_lo, T(0.5));
    }
  }
  const T t = div(num, den_hi);
  T delta = T(0);
  if (ax < impl::infinity<T>()) delta = div(sub(fma(-t, den_hi, num), mul(t, den_lo)), den_hi);
  const T z = mul(t, t);
  const T lo = add(base_lo, fma(mul(t, z), impl::atan_poly(z), fma(-delta, z, delta)));
  return impl::copysign(add(base_hi, add(t, lo)), x);
}

}  // namespace cupp::detail::random::xm
