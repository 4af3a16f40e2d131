// Complex elementary functions for the math ufuncs, on the host and the
// device, for complex<float> and complex<double>.
//
// NumPy computes these with the C library's (or its own FreeBSD-derived)
// complex functions: accurate to a few ulp in each part, with C99 Annex G's
// special values and branch cuts. libcu++'s versions follow Annex G too, but
// several lose most digits in ordinary regions (the real part of log near
// |z| = 1 and of asinh and atanh near 0, the imaginary part of acos next to
// the real axis), so the ones here use formulas that avoid the
// cancellations: log through log1p of an exact x^2 + y^2 - 1, Kahan's tanh,
// and for the inverse functions Hull, Fairgrieve and Tang's real and
// imaginary-part formulas (ACM TOMS 23(3), 1997) and Kahan's atanh.
// Where NumPy itself uses a plain formula (exp2, expm1, log1p, log2, log10,
// square), the same formula is used so that results agree.
#pragma once

#include <cuda/std/cmath>
#include <cuda/std/complex>
#include <cuda/std/limits>

#include <cupp/config.hpp>
#include <cupp/detail/numerics/rounded.hpp>
#include <cupp/detail/ops/hypot.hpp>
#include <cupp/detail/ops/math_common.hpp>

namespace cupp::ops::cmath {

template <class R>
using cx = ::cuda::std::complex<R>;

namespace detail {

using math_detail::ln2;
using math_detail::pi;

template <class R>
CUPP_HD constexpr R inf() {
  return ::cuda::std::numeric_limits<R>::infinity();
}
template <class R>
CUPP_HD constexpr R nan() {
  return ::cuda::std::numeric_limits<R>::quiet_NaN();
}

// Below sqrt_min, z*z underflows (loses digits); above sqrt_max it
// overflows.
template <class R>
CUPP_HD constexpr R sqrt_min() {
  if constexpr (sizeof(R) == 4)
    return R(0x1p-63f);
  else
    return R(0x1p-511);
}
template <class R>
CUPP_HD constexpr R sqrt_max() {
  if constexpr (sizeof(R) == 4)
    return R(0x1p63f);
  else
    return R(0x1p511);
}
// Where e^x overflows although e^x * cos(y) may not.
template <class R>
CUPP_HD constexpr R exp_overflow() {
  if constexpr (sizeof(R) == 4)
    return R(88.0f);
  else
    return R(709.0);
}

// s + e = a + b exactly (Knuth's two-sum).
template <class R>
CUPP_HD void two_sum(R a, R b, R& s, R& e) {
  s = a + b;
  const R bv = s - a;
  e = (a - (s - bv)) + (b - bv);
}

// a * b rounded once and never fused into a later addition (nvcc contracts
// a * b + c into an fma by default), which the exact splits below rely on.
using ::cupp::detail::numerics::mul_rn;

// a^2 + b^2 - 1 without cancellation, for a and b up to about 2: the
// squares are split exactly with fma and summed with their rounding errors.
template <class R>
CUPP_HD R hypot2_minus_one(R a, R b) {
  const R aa = mul_rn(a, a), ea = ::cuda::std::fma(a, a, -aa);
  const R bb = mul_rn(b, b), eb = ::cuda::std::fma(b, b, -bb);
  R s, es, t, et;
  two_sum(aa, R(-1), s, es);
  two_sum(s, bb, t, et);
  return t + ((es + et) + (ea + eb));
}

// (e^x cos y, e^x sin y) for finite y, without overflowing e^x early.
template <class R>
CUPP_HD cx<R> exp_cis(R x, R y) {
  const R c = ::cuda::std::cos(y), s = ::cuda::std::sin(y);
  if (x > exp_overflow<R>()) {
    const R h = ::cuda::std::exp(x * R(0.5));
    return {(h * c) * h, (h * s) * h};
  }
  const R e = ::cuda::std::exp(x);
  return {e * c, e * s};
}

// (sinh x cos y, cosh x sin y) for finite x, y: sinh(x + iy).
template <class R>
CUPP_HD cx<R> sinh_finite(R x, R y) {
  const R c = ::cuda::std::cos(y), s = ::cuda::std::sin(y);
  const R ax = ::cuda::std::fabs(x);
  if (ax > exp_overflow<R>()) {
    // sinh x and cosh x are +-e^|x|/2 here; split e^|x| so that the product
    // overflows only when the result does.
    const R h = ::cuda::std::exp(ax * R(0.5));
    const R hh = h * R(0.5);
    const R re = (hh * c) * h;
    return {x < 0 ? -re : re, (hh * s) * h};
  }
  return {::cuda::std::sinh(x) * c, ::cuda::std::cosh(x) * s};
}

// (cosh x cos y, sinh x sin y) for finite x, y: cosh(x + iy).
template <class R>
CUPP_HD cx<R> cosh_finite(R x, R y) {
  const R c = ::cuda::std::cos(y), s = ::cuda::std::sin(y);
  const R ax = ::cuda::std::fabs(x);
  if (ax > exp_overflow<R>()) {
    const R h = ::cuda::std::exp(ax * R(0.5));
    const R hh = h * R(0.5);
    const R im = (hh * s) * h;
    return {(hh * c) * h, x < 0 ? -im : im};
  }
  return {::cuda::std::cosh(x) * c, ::cuda::std::sinh(x) * s};
}

// asin and acos of x + iy in the first quadrant (x, y >= 0, not NaN):
// real part of asin, real part of acos and the common |imaginary part|.
template <class R>
struct asin_acos_parts {
  R asin_re, acos_re, im;
};

template <class R>
CUPP_HD asin_acos_parts<R> asin_acos_q1(R x, R y) {
  using ::cuda::std::atan;
  using ::cuda::std::log;
  using ::cuda::std::log1p;
  using ::cuda::std::sqrt;
  // Large |z|: asin z = -i log(2iz) to working precision (the neglected
  // terms are O(1/|z|^2)); also covers the infinities.
  const R large = sizeof(R) == 4 ? R(0x1p13f) : R(0x1p27);
  // Small |z|: asin z = z + z^3/6.
  const R small = sizeof(R) == 4 ? R(0x1p-13f) : R(0x1p-28);
  if (x > large || y > large) {
    const R im = log(fmath::hypot(x * R(0.5), y * R(0.5))) + R(2) * ln2<R>();
    return {::cuda::std::atan2(x, y), ::cuda::std::atan2(y, x), im};
  }
  if (x < small && y < small) return {x, pi<R>() * R(0.5) - x, y};

  const R r = fmath::hypot(x + R(1), y);  // |z + 1|
  const R s = fmath::hypot(x - R(1), y);  // |z - 1|
  const R a = R(0.5) * (r + s);           // >= 1
  const R b = x / a;                      // <= 1
  const R yy = y * y;

  asin_acos_parts<R> out;
  // Real parts: asin(b) and acos(b) lose accuracy as b nears 1, where they
  // are rewritten as arctangents of quantities free of cancellation.
  const R b_cross = R(0.6417);
  if (b <= b_cross) {
    out.asin_re = ::cuda::std::asin(b);
    out.acos_re = ::cuda::std::acos(b);
  } else if (x <= R(1)) {
    const R d = sqrt(R(0.5) * (a + x) * (yy / (r + (x + R(1))) + (s + (R(1) - x))));
    out.asin_re = atan(x / d);
    out.acos_re = atan(d / x);
  } else {
    const R apx = a + x;
    const R d = y * sqrt(R(0.5) * (apx / (r + (x + R(1))) + apx / (s + (x - R(1)))));
    out.asin_re = atan(x / d);
    out.acos_re = atan(d / x);
  }
  // Imaginary part: log(a + sqrt(a^2 - 1)), through log1p of a - 1 when a
  // is near 1.
  const R a_cross = R(1.5);
  if (a <= a_cross) {
    const R am1 = x < R(1) ? R(0.5) * (yy / (r + (x + R(1))) + yy / (s + (R(1) - x)))
                           : R(0.5) * (yy / (r + (x + R(1))) + (s + (x - R(1))));
    out.im = log1p(am1 + sqrt(am1 * (a + R(1))));
  } else {
    out.im = log(a + sqrt(a * a - R(1)));
  }
  // y so small that y*y underflows: the first-order term.
  if (x < R(1) && y < sqrt_min<R>()) out.im = y / sqrt((R(1) - x) * (R(1) + x));
  return out;
}

}  // namespace detail

// ---------------------------------------------------------------------------
// Exponentials and logarithms

template <class R>
CUPP_HD cx<R> exp(cx<R> z) {
  const R x = z.real(), y = z.imag();
  if (y == R(0)) return {::cuda::std::exp(x), y};  // exact real axis, NaN and infinite x too
  if (::cuda::std::isinf(x) && !::cuda::std::isfinite(y)) {
    if (x > 0) return {x, detail::nan<R>()};
    return {R(0), ::cuda::std::copysign(R(0), y)};
  }
  if (!::cuda::std::isfinite(y)) return {detail::nan<R>(), detail::nan<R>()};
  return detail::exp_cis(x, y);
}

// NumPy: exp(z * ln 2), the product taken part by part.
template <class R>
CUPP_HD cx<R> exp2(cx<R> z) {
  return cmath::exp(cx<R>(z.real() * detail::ln2<R>(), z.imag() * detail::ln2<R>()));
}

// NumPy's formula: (expm1(x) cos y - 2 sin^2(y/2)) + i e^x sin y.
template <class R>
CUPP_HD cx<R> expm1(cx<R> z) {
  const R x = z.real(), y = z.imag();
  const R h = ::cuda::std::sin(y / R(2));
  return {::cuda::std::expm1(x) * ::cuda::std::cos(y) - R(2) * h * h,
          ::cuda::std::exp(x) * ::cuda::std::sin(y)};
}

template <class R>
CUPP_HD cx<R> log(cx<R> z) {
  const R x = z.real(), y = z.imag();
  const R ax = ::cuda::std::fabs(x), ay = ::cuda::std::fabs(y);
  const R a = ax > ay ? ax : ay, b = ax > ay ? ay : ax;
  R re;
  if (a >= R(0.5) && a <= R(1.5)) {
    // |z| near 1: log|z| = log1p(|z|^2 - 1) / 2, with |z|^2 - 1 exact.
    re = R(0.5) * ::cuda::std::log1p(detail::hypot2_minus_one(a, b));
  } else if (a > detail::sqrt_max<R>()) {
    // |z| may overflow: log(|z| / 4) + 2 log 2.
    re = ::cuda::std::log(fmath::hypot(ax * R(0.25), ay * R(0.25))) + R(2) * detail::ln2<R>();
  } else if (a < detail::sqrt_min<R>() && a > R(0)) {
    // |z| may be subnormal and lose digits: scale up by 2^k first.
    const int k = sizeof(R) == 4 ? 48 : 108;
    const R up = sizeof(R) == 4 ? R(0x1p48f) : R(0x1p108);
    re = ::cuda::std::log(fmath::hypot(ax * up, ay * up)) - R(k) * detail::ln2<R>();
  } else {
    re = ::cuda::std::log(fmath::hypot(x, y));
  }
  return {re, ::cuda::std::atan2(y, x)};
}

template <class R>
CUPP_HD cx<R> log2(cx<R> z) {
  const cx<R> l = cmath::log(z);
  return {l.real() * math_detail::log2e<R>(), l.imag() * math_detail::log2e<R>()};
}

template <class R>
CUPP_HD cx<R> log10(cx<R> z) {
  const cx<R> l = cmath::log(z);
  return {l.real() * math_detail::log10e<R>(), l.imag() * math_detail::log10e<R>()};
}

// NumPy's formula: log|z + 1| + i arg(z + 1), which loses the real part of
// tiny z (log1p(1e-20+0j) is 0 in NumPy too).
template <class R>
CUPP_HD cx<R> log1p(cx<R> z) {
  const R xp1 = z.real() + R(1);
  return {::cuda::std::log(fmath::hypot(xp1, z.imag())), ::cuda::std::atan2(z.imag(), xp1)};
}

template <class R>
CUPP_HD cx<R> sqrt(cx<R> z) {
  const R x = z.real(), y = z.imag();
  if (x == R(0) && y == R(0)) return {R(0), y};
  if (::cuda::std::isinf(y)) return {detail::inf<R>(), y};
  if (::cuda::std::isnan(x)) return {x, x};
  if (::cuda::std::isinf(x)) {
    if (x > 0) return {x, ::cuda::std::isnan(y) ? y : ::cuda::std::copysign(R(0), y)};
    return {::cuda::std::isnan(y) ? y : R(0), ::cuda::std::copysign(detail::inf<R>(), y)};
  }
  if (::cuda::std::isnan(y)) return {y, y};
  // sqrt((|x| + |z|) / 2) is free of cancellation; the other part follows
  // from 2 re im = y. Scaling keeps |x| + |z| finite and subnormal inputs
  // exact.
  R ax = ::cuda::std::fabs(x), ay = ::cuda::std::fabs(y), scale = R(1);
  const R big = ::cuda::std::numeric_limits<R>::max() * R(0.25);
  const R tiny = ::cuda::std::numeric_limits<R>::min() * R(4);
  if (ax > big || ay > big) {
    ax *= R(0.25);
    ay *= R(0.25);
    scale = R(2);
  } else if (ax < tiny && ay < tiny) {
    const R up = sizeof(R) == 4 ? R(0x1p48f) : R(0x1p106);
    ax *= up;
    ay *= up;
    scale = sizeof(R) == 4 ? R(0x1p-24f) : R(0x1p-53);
  }
  const R t = ::cuda::std::sqrt((ax + fmath::hypot(ax, ay)) * R(0.5));
  const R u = ay / (R(2) * t);
  if (x >= R(0)) return {t * scale, ::cuda::std::copysign(u * scale, y)};
  return {u * scale, ::cuda::std::copysign(t * scale, y)};
}

// NumPy's complex square: the real part with one rounding of x*x.
template <class R>
CUPP_HD cx<R> square(cx<R> z) {
  const R x = z.real(), y = z.imag();
  const R xy = x * y;
  return {::cuda::std::fma(x, x, -(y * y)), xy + xy};
}

// ---------------------------------------------------------------------------
// Hyperbolic and trigonometric functions

template <class R>
CUPP_HD cx<R> sinh(cx<R> z) {
  const R x = z.real(), y = z.imag();
  if (y == R(0)) return {::cuda::std::sinh(x), y};
  if (::cuda::std::isinf(x)) {
    if (!::cuda::std::isfinite(y)) return {detail::inf<R>(), detail::nan<R>()};
    return {x * ::cuda::std::cos(y), detail::inf<R>() * ::cuda::std::sin(y)};
  }
  if (x == R(0) && !::cuda::std::isfinite(y)) return {x, detail::nan<R>()};
  if (!::cuda::std::isfinite(x) || !::cuda::std::isfinite(y))
    return {detail::nan<R>(), detail::nan<R>()};
  return detail::sinh_finite(x, y);
}

template <class R>
CUPP_HD cx<R> cosh(cx<R> z) {
  const R x = z.real(), y = z.imag();
  if (y == R(0))
    return {::cuda::std::cosh(x), ::cuda::std::isnan(x) ? y : (::cuda::std::signbit(x) ? -y : y)};
  if (::cuda::std::isinf(x)) {
    if (!::cuda::std::isfinite(y)) return {detail::inf<R>(), detail::nan<R>()};
    return {detail::inf<R>() * ::cuda::std::cos(y), x * ::cuda::std::sin(y)};
  }
  if (x == R(0) && !::cuda::std::isfinite(y)) return {detail::nan<R>(), R(0)};
  if (!::cuda::std::isfinite(x) || !::cuda::std::isfinite(y))
    return {detail::nan<R>(), detail::nan<R>()};
  return detail::cosh_finite(x, y);
}

// Kahan's form: with t = tan y, b = 1 + t^2, s = sinh x,
// tanh z = (b s sqrt(1 + s^2) + i t) / (1 + b s^2); no cancellation.
template <class R>
CUPP_HD cx<R> tanh(cx<R> z) {
  const R x = z.real(), y = z.imag();
  if (::cuda::std::isinf(x)) {
    const R im = ::cuda::std::isfinite(y) ? ::cuda::std::sin(y) * ::cuda::std::cos(y) : y;
    return {::cuda::std::copysign(R(1), x), ::cuda::std::copysign(R(0), im)};
  }
  if (::cuda::std::isnan(x)) return {x, y == R(0) ? y : detail::nan<R>()};
  if (!::cuda::std::isfinite(y)) return {x == R(0) ? x : detail::nan<R>(), detail::nan<R>()};
  // Past this, tanh x rounds to +-1 and the imaginary part is
  // 4 sin y cos y e^(-2|x|).
  const R cutoff = sizeof(R) == 4 ? R(11) : R(22);
  if (::cuda::std::fabs(x) > cutoff) {
    const R e = ::cuda::std::exp(R(-2) * ::cuda::std::fabs(x));
    return {::cuda::std::copysign(R(1), x), R(4) * ::cuda::std::sin(y) * ::cuda::std::cos(y) * e};
  }
  const R t = ::cuda::std::tan(y), b = R(1) + t * t;
  const R s = ::cuda::std::sinh(x), rho = ::cuda::std::sqrt(R(1) + s * s);
  const R d = R(1) + b * s * s;
  return {(b * s * rho) / d, t / d};
}

// sin, tan, asin and atan through their hyperbolic twins with the parts
// swapped (sin(x + iy) = swap(sinh(y + ix))), which gives the signs NumPy
// gives where Annex G leaves them open.
template <class R>
CUPP_HD cx<R> swap(cx<R> z) {
  return {z.imag(), z.real()};
}

template <class R>
CUPP_HD cx<R> sin(cx<R> z) {
  return cmath::swap(cmath::sinh(cmath::swap(z)));
}

template <class R>
CUPP_HD cx<R> cos(cx<R> z) {
  return cmath::cosh(cx<R>(-z.imag(), z.real()));
}

template <class R>
CUPP_HD cx<R> tan(cx<R> z) {
  return cmath::swap(cmath::tanh(cmath::swap(z)));
}

// ---------------------------------------------------------------------------
// Inverse functions

template <class R>
CUPP_HD cx<R> asinh(cx<R> z) {
  const R x = z.real(), y = z.imag();
  if (::cuda::std::isnan(x) || ::cuda::std::isnan(y)) {
    if (::cuda::std::isinf(x)) return {x, y};
    if (::cuda::std::isinf(y)) return {::cuda::std::copysign(detail::inf<R>(), x), x};
    if (y == R(0)) return {x, y};
    return {detail::nan<R>(), detail::nan<R>()};
  }
  // asinh(x + iy) = i conj(asin(y + ix)) in the first quadrant; odd and
  // conjugate-symmetric elsewhere.
  const auto p = detail::asin_acos_q1(::cuda::std::fabs(y), ::cuda::std::fabs(x));
  return {::cuda::std::copysign(p.im, x), ::cuda::std::copysign(p.asin_re, y)};
}

template <class R>
CUPP_HD cx<R> asin(cx<R> z) {
  return cmath::swap(cmath::asinh(cmath::swap(z)));
}

template <class R>
CUPP_HD cx<R> acos(cx<R> z) {
  const R x = z.real(), y = z.imag();
  if (::cuda::std::isnan(x) || ::cuda::std::isnan(y)) {
    if (::cuda::std::isinf(x)) return {y, -::cuda::std::copysign(detail::inf<R>(), y)};
    if (::cuda::std::isinf(y)) return {x, -y};
    if (x == R(0)) return {detail::pi<R>() * R(0.5), -y};
    return {detail::nan<R>(), detail::nan<R>()};
  }
  const auto p = detail::asin_acos_q1(::cuda::std::fabs(x), ::cuda::std::fabs(y));
  const R re = ::cuda::std::signbit(x) ? detail::pi<R>() - p.acos_re : p.acos_re;
  return {re, ::cuda::std::signbit(y) ? p.im : -p.im};
}

template <class R>
CUPP_HD cx<R> acosh(cx<R> z) {
  const R x = z.real(), y = z.imag();
  if (::cuda::std::isnan(x) || ::cuda::std::isnan(y)) {
    if (::cuda::std::isinf(x) || ::cuda::std::isinf(y)) return {detail::inf<R>(), detail::nan<R>()};
    if (x == R(0)) return {detail::nan<R>(), detail::pi<R>() * R(0.5)};  // i acos(0 + iNaN)
    return {detail::nan<R>(), detail::nan<R>()};
  }
  // acosh z = +-i acos z, the sign making the real part non-negative.
  const auto p = detail::asin_acos_q1(::cuda::std::fabs(x), ::cuda::std::fabs(y));
  const R re = ::cuda::std::signbit(x) ? detail::pi<R>() - p.acos_re : p.acos_re;
  return {p.im, ::cuda::std::copysign(re, y)};
}

// Kahan's atanh: re = log1p(4x / ((1 - x)^2 + y^2)) / 4,
// im = atan2(2y, (1 - x)(1 + x) - y^2) / 2, on |x|, |y|.
template <class R>
CUPP_HD cx<R> atanh(cx<R> z) {
  const R x = z.real(), y = z.imag();
  const R half_pi = detail::pi<R>() * R(0.5);
  if (::cuda::std::isinf(y))
    return {::cuda::std::copysign(R(0), x), ::cuda::std::copysign(half_pi, y)};
  if (::cuda::std::isinf(x))
    return {::cuda::std::copysign(R(0), x),
            ::cuda::std::isnan(y) ? y : ::cuda::std::copysign(half_pi, y)};
  if (::cuda::std::isnan(x) || ::cuda::std::isnan(y)) {
    if (x == R(0)) return {x, y};
    return {detail::nan<R>(), detail::nan<R>()};
  }
  const R ax = ::cuda::std::fabs(x), ay = ::cuda::std::fabs(y);
  const R small = sizeof(R) == 4 ? R(0x1p-13f) : R(0x1p-28);
  R re, im;
  if (ax > detail::sqrt_max<R>() || ay > detail::sqrt_max<R>()) {
    // atanh z = 1/z + i pi/2 here; re(1/z) = x/|z|^2 = ((x/2) / h) / h / 2
    // with h = |z|/2, which cannot overflow.
    const R h = fmath::hypot(ax * R(0.5), ay * R(0.5));
    re = ((ax * R(0.5)) / h) / h * R(0.5);
    im = half_pi;
  } else if (ax < small && ay < small) {
    re = ax;
    im = ay;
  } else {
    const R omx = R(1) - ax;
    if (ax == R(1) && ay < detail::sqrt_min<R>())
      re = R(0.5) * (detail::ln2<R>() - ::cuda::std::log(ay));  // y*y underflows
    else
      re = R(0.25) * ::cuda::std::log1p(R(4) * ax / (omx * omx + ay * ay));
    im = R(0.5) * ::cuda::std::atan2(R(2) * ay, omx * (R(1) + ax) - ay * ay);
  }
  return {::cuda::std::copysign(re, x), ::cuda::std::copysign(im, y)};
}

template <class R>
CUPP_HD cx<R> atan(cx<R> z) {
  return cmath::swap(cmath::atanh(cmath::swap(z)));
}

}  // namespace cupp::ops::cmath
