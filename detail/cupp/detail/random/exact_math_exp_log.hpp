// Logarithms, exponentials, powers and the log-gamma function of
// exact_math.hpp, built from its correctly rounded operations only.
#pragma once

#include <cupp/detail/random/exact_math_core.hpp>

namespace cupp::detail::random::xm {
namespace impl {

// ln 2 = ln2_hi + ln2_lo, ln2_hi short enough that k * ln2_hi is exact for
// every exponent k of the format (9 bits for float, 11 for double).
template <class T>
struct ln2;
template <>
struct ln2<float> {
  static constexpr float hi = 0x1.62e4p-1f, lo = 0x1.7f7d1cp-20f;
};
template <>
struct ln2<double> {
  static constexpr double hi = 0x1.62e42fefa38p-1, lo = 0x1.ef35793c7673p-45;
};

// x = 2^k m, m in [m_low, 2 m_low) with m_low = 2/3 or sqrt(1/2): the
// reduction of every logarithm here. x must be positive and finite.
template <class T>
struct reduced {
  int k;
  T m;
};
template <class T>
CUPP_HD inline reduced<T> reduce_log(T x, bits_t<T> m_low_bits) {
  constexpr int p = format<T>::mantissa;
  int k = 0;
  if (x < min_normal<T>()) {  // subnormal: make it normal first
    x = mul(x, pow2<T>(p + 1));
    k = -(p + 1);
  }
  using int_t = typename format<T>::int_t;
  const bits_t<T> shifted = to_bits(x) - m_low_bits;
  const int e = static_cast<int>(static_cast<int_t>(shifted) >> p);
  const bits_t<T> exponent_field = shifted & (~bits_t<T>(0) << p);
  return {k + e, from_bits<T>(to_bits(x) - exponent_field)};
}

inline constexpr std::uint32_t two_thirds_bits_f = 0x3f2aaaabu;
inline constexpr std::uint32_t sqrt_half_bits_f = 0x3f3504f3u;
inline constexpr std::uint64_t sqrt_half_bits_d = 0x3fe6a09e667f3bcdull;

// (2 atanh(s) - 2s - 2s^3/3) / s^5 as a polynomial in z = s^2, for
// |s| <= (sqrt2 - 1) / (sqrt2 + 1): minimax (tests/random_math_coefficients.py),
// to 2^-59 of the logarithm for log, to 2^-39 (float) and 2^-70 (double)
// for the double-word logarithm.
CUPP_HD inline double atanh_tail(double z) {
  return horner(z, 0x1.999999998ff50p-2, 0x1.24924935d90f9p-2, 0x1.c71c5ab497654p-3,
                0x1.7464a365aaa6dp-3, 0x1.39c7da68afc7fp-3, 0x1.2d9ff1c83baddp-3);
}
CUPP_HD inline float atanh_tail_dw(float z) {
  return horner(z, 0x1.9999980000000p-2f, 0x1.2493b60000000p-2f, 0x1.c63d9c0000000p-3f,
                0x1.9086ec0000000p-3f);
}
CUPP_HD inline double atanh_tail_dw(double z) {
  return horner(z, 0x1.9999999999996p-2, 0x1.2492492492f51p-2, 0x1.c71c71c596901p-3,
                0x1.745d182955e71p-3, 0x1.3b1364c991645p-3, 0x1.11206f1e88a62p-3,
                0x1.de3d73c6e8a40p-4, 0x1.eac59dcb6c2afp-4);
}

// k ln2 + log1p(f) + c for f = m - 1, m from reduce_log(x, 2/3), c a small
// correction: the float logarithm, a polynomial in f with no division.
CUPP_HD inline float log_core(int k, float f, float c) {
  const float q = horner(f, -0x1.0000000000000p-1f, 0x1.5555560000000p-2f, -0x1.ffff160000000p-3f,
                         0x1.9997f40000000p-3f, -0x1.5597de0000000p-3f, 0x1.24ea820000000p-3f,
                         -0x1.f3a7ec0000000p-4f, 0x1.b935fe0000000p-4f, -0x1.06d3aa0000000p-3f,
                         0x1.e9754e0000000p-4f);  // (log1p(f) - f) / f^2
  const float kf = static_cast<float>(k);
  // k ln2_hi + f exactly (Fast2Sum: |k ln2_hi| >= |f| unless k = 0, where
  // it is exact anyway): its rounding would cost up to an ulp.
  const float k_hi = mul(kf, ln2<float>::hi);
  const float head = add(k_hi, f);
  const float head_err = sub(f, sub(head, k_hi));
  const float lo = fma(kf, ln2<float>::lo, fma(mul(f, f), q, add(c, head_err)));
  return add(head, lo);
}
// The double logarithm from reduce_log(x, sqrt(1/2)): log1p(f) = 2 atanh(s)
// with s = f / (2 + f), arranged as in fdlibm so that f enters exactly.
CUPP_HD inline double log_core(int k, double f, double c) {
  const double s = div(f, add(2.0, f));
  const double z = mul(s, s);
  const double r = mul(z, fma(z, atanh_tail(z), 0x1.5555555555555p-1));  // 2 atanh(s)/s - 2
  const double half_f2 = mul(0.5, mul(f, f));
  const double kd = static_cast<double>(k);
  const double tail = fma(s, add(half_f2, r), fma(kd, ln2<double>::lo, c));
  return fma(kd, ln2<double>::hi, sub(f, sub(half_f2, tail)));
}
template <class T>
CUPP_HD inline bits_t<T> log_core_low() {
  if constexpr (std::is_same_v<T, float>)
    return two_thirds_bits_f;
  else
    return sqrt_half_bits_d;
}

// C's results where x is not positive and finite; false elsewhere.
template <class T>
CUPP_HD inline bool log_special(T x, T& result) {
  if (x > T(0) && x < infinity<T>()) return false;
  if (x == T(0))
    result = -infinity<T>();
  else if (x > T(0))
    result = x;  // +inf
  else if (x < T(0))
    result = quiet_nan<T>();
  else
    result = add(x, x);  // NaN
  return true;
}

// log(x + x_lo) as a double-word number with about 2p - 12 good bits, for
// x positive and finite and |x_lo| <= ulp(x): pow's and loggam's logarithm.
template <class T>
CUPP_HD inline dword<T> log_dw(T x, T x_lo) {
  const bits_t<T> low = std::is_same_v<T, float> ? bits_t<T>(sqrt_half_bits_f)
                                                 : static_cast<bits_t<T>>(sqrt_half_bits_d);
  const reduced<T> r = reduce_log(x, low);
  const T f = sub(r.m, T(1));
  // s = f / (2 + f) = s_hi + s_lo, with 2 + f = d_hi + d_lo exactly.
  const T d_hi = add(T(2), f);
  const T d_lo = sub(f, sub(d_hi, T(2)));
  const T inv = div(T(1), d_hi);
  const T s_hi = mul(f, inv);
  const T s_lo = mul(sub(fma(-s_hi, d_hi, f), mul(s_hi, d_lo)), inv);
  // 2s^3/3 in double-word: it is up to 1% of the result.
  const T z = mul(s_hi, s_hi);
  const T z_lo = fma(s_hi, s_hi, -z);
  const T s3 = mul(z, s_hi);
  const T s3_lo = fma(z, s_hi, fma(z_lo, s_hi, -s3));
  constexpr T two_thirds_hi = T(2) / T(3);
  constexpr T two_thirds_lo =
      std::is_same_v<T, float> ? T(-0x1.555556p-26f) : T(0x1.5555555555555p-55);
  const T c3 = mul(s3, two_thirds_hi);
  const T c3_lo = fma(s3, two_thirds_hi, -c3);
  const T kt = static_cast<T>(r.k);
  const dword<T> a = two_sum(mul(kt, ln2<T>::hi), mul(T(2), s_hi));
  const dword<T> b = two_sum(a.hi, c3);
  T lo = fma(mul(s3, z), atanh_tail_dw(z), mul(T(2), fma(z, s_lo, s_lo)));
  lo = add(lo, fma(s3, two_thirds_lo, fma(s3_lo, two_thirds_hi, c3_lo)));
  lo = add(lo, fma(kt, ln2<T>::lo, add(a.lo, b.lo)));
  lo = add(lo, div(x_lo, x));
  return fast_two_sum(b.hi, lo);
}

// (exp(r) - 1 - r) / r^2 and exp(r) - 1 for |r| <= ln2 / 2 (slightly
// more), minimax.
CUPP_HD inline float expm1_quotient(float r) {
  return horner(r, 0x1.fffffc0000000p-2f, 0x1.5554920000000p-3f, 0x1.5558ae0000000p-5f,
                0x1.1239840000000p-7f, 0x1.6a4f360000000p-10f);
}
CUPP_HD inline double expm1_quotient(double r) {
  return horner(r, 0x1.000000000000ap-1, 0x1.5555555555504p-3, 0x1.55555555506b3p-5,
                0x1.11111111255a1p-7, 0x1.6c16c18479f13p-10, 0x1.a01a0136adafep-13,
                0x1.a0199955634e1p-16, 0x1.71df0ac2ce6f7p-19, 0x1.28ae06e443b3fp-22,
                0x1.ada84a4601388p-26);
}

template <class T>
CUPP_HD inline T expm1_reduced(T r) {
  return fma(mul(r, r), expm1_quotient(r), r);
}

template <class T>
struct exp_limits;
template <>
struct exp_limits<float> {
  // exp overflows above 88.72 and rounds to 0 below -103.97.
  static constexpr float low = -104.0f, high = 89.0f, shifter = 0x1.8p23f;
  static constexpr float log2e = 0x1.715476p+0f;
};
template <>
struct exp_limits<double> {
  static constexpr double low = -746.0, high = 710.0, shifter = 0x1.8p52;
  static constexpr double log2e = 0x1.71547652b82fep+0;
};

// x = k ln2 + r, |r| <= ln2/2, for |x| well below 2^(p-2). k comes from the
// bits of x/ln2 + 1.5 * 2^p (round to nearest), not from a conversion, so
// that a NaN gives garbage k but no undefined behaviour.
template <class T>
struct exp_reduced {
  int k;
  T r;
};
template <class T>
CUPP_HD inline exp_reduced<T> reduce_exp(T x, T x_lo) {
  using L = exp_limits<T>;
  const T shifted = fma(x, L::log2e, L::shifter);
  const T kt = sub(shifted, L::shifter);
  const int k = static_cast<int>(
      static_cast<typename format<T>::int_t>(to_bits(shifted) - to_bits(L::shifter)));
  const T r_hi = fma(-kt, ln2<T>::hi, x);  // exact: k ln2_hi is, and cancels
  return {k, add(r_hi, fma(-kt, ln2<T>::lo, x_lo))};
}

// exp(x + x_lo) for |x_lo| <= ulp(x), x not NaN.
template <class T>
CUPP_HD inline T exp_dw(T x, T x_lo) {
  using L = exp_limits<T>;
  if (x < L::low || x > L::high) {  // includes the infinities
    x = x < L::low ? L::low : L::high;
    x_lo = T(0);
  }
  const exp_reduced<T> e = reduce_exp(x, x_lo);
  return scale2(add(T(1), expm1_reduced(e.r)), e.k);
}

}  // namespace impl

template <class T>
CUPP_HD inline T log(T x) {
  T special;
  if (impl::log_special(x, special)) return special;
  const impl::reduced<T> r = impl::reduce_log(x, impl::log_core_low<T>());
  return impl::log_core(r.k, sub(r.m, T(1)), T(0));
}

template <class T>
CUPP_HD inline T log1p(T x) {
  constexpr T tiny = T(1) / T(std::uint64_t(1) << (impl::format<T>::mantissa + 1));
  if (impl::abs(x) < tiny) return x;  // keeps -0; x^2/2 is below half an ulp
  const T u = add(T(1), x);
  T special;
  if (impl::log_special(u, special)) return special;
  // The rounding error of 1 + x (Fast2Sum), carried into the logarithm as
  // c / u, with 1/u = 2^-k / (1 + f) ~ 2^-k (1 - f + f^2): it is below half
  // an ulp of u, so a few good bits suffice.
  const T c = x > T(1) ? sub(T(1), sub(u, x)) : sub(x, sub(u, T(1)));
  const impl::reduced<T> r = impl::reduce_log(u, impl::log_core_low<T>());
  const T f = sub(r.m, T(1));
  constexpr int min_exp = 1 - impl::format<T>::bias;
  const T c_scaled = mul(c, impl::pow2<T>(-r.k < min_exp ? min_exp : -r.k));
  return impl::log_core(r.k, f, mul(c_scaled, fma(f, sub(f, T(1)), T(1))));
}

template <class T>
CUPP_HD inline T exp(T x) {
  if (x != x) return add(x, x);
  return impl::exp_dw(x, T(0));
}

template <class T>
CUPP_HD inline T expm1(T x) {
  // Beyond these, expm1 rounds to exp(x) or to -1 (the cut-offs leave
  // exp(x) >= 2^(p+3) and exp(x) <= 2^-(p+2)).
  constexpr T high = std::is_same_v<T, float> ? T(20) : T(40);
  constexpr T low = std::is_same_v<T, float> ? T(-18) : T(-38);
  if (x > high) return exp(x);
  if (x < low) return T(-1);
  if (x == T(0)) return x;  // keeps -0
  const impl::exp_reduced<T> e = impl::reduce_exp(x, T(0));
  // 2^k (1 + r + r^2 Q) - 1 = (2^k r + (2^k - 1)) + 2^k r^2 Q, the first
  // sum exact (TwoSum; 2^k r and 2^k - 1 are), so only the last addition
  // rounds at the size of the result; k = 0 gives r + r^2 Q.
  const T t = impl::pow2<T>(e.k);
  const impl::dword<T> head = impl::two_sum(mul(t, e.r), sub(t, T(1)));
  const T tail = mul(t, mul(mul(e.r, e.r), impl::expm1_quotient(e.r)));
  return add(head.hi, add(head.lo, tail));
}

namespace impl {
// y odd integer (|y| >= 2^(p+1) are all even).
template <class T>
CUPP_HD inline bool is_odd_integer(T y) {
  constexpr T limit = T(std::uint64_t(1) << (format<T>::mantissa + 1));
  if (!(abs(y) < limit) || trunc(y) != y) return false;
  return (static_cast<std::int64_t>(y) & 1) != 0;
}
}  // namespace impl

// x^y with C's special cases (negative x too). exp(y log x) with log x in
// double-word and y log x split exactly, so that the error of the
// logarithm is not multiplied by |y log x|: within 4 ulps (the tests
// measure 1.0 for float, 2.9 for double).
template <class T>
CUPP_HD inline T pow(T x, T y) {
  bool negate = false;
  T ax = x;
  if (!(x > T(0) && x < impl::infinity<T>() && x != T(1) && impl::abs(y) < impl::infinity<T>() &&
        y != T(0))) {
    if (y == T(0) || x == T(1)) return T(1);
    if (x != x || y != y) return add(x, y);
    ax = impl::abs(x);
    if (!(impl::abs(y) < impl::infinity<T>())) {
      if (ax == T(1)) return T(1);
      return (ax < T(1)) == (y < T(0)) ? impl::infinity<T>() : T(0);
    }
    negate = (impl::to_bits(x) >> (sizeof(T) * 8 - 1)) != 0 && impl::is_odd_integer(y);
    const T sign = negate ? T(-1) : T(1);
    if (ax == T(0)) return y < T(0) ? sign * impl::infinity<T>() : sign * T(0);
    if (ax == impl::infinity<T>()) return y < T(0) ? sign * T(0) : sign * impl::infinity<T>();
    if (x < T(0) && trunc(y) != y) return impl::quiet_nan<T>();
    if (ax == T(1)) return sign;
  }
  const impl::dword<T> l = impl::log_dw(ax, T(0));
  const T p = mul(y, l.hi);
  const T p_lo = fma(y, l.lo, fma(y, l.hi, -p));
  const T r = impl::exp_dw(p, p_lo);
  return negate ? -r : r;
}

namespace impl {
// Stirling's series from where it is accurate enough, the rest by the
// recurrence lgamma(x) = lgamma(x + n) - log(x (x+1) ... (x+n-1)).
template <class T>
struct stirling;
template <>
struct stirling<float> {
  static constexpr float start = 5.0f;
  static constexpr float half_log_2pi_hi = 0x1.d67f1cp-1f, half_log_2pi_lo = 0x1.0c97d6p-26f;
  // B_2k / (2k (2k - 1)), k = 1..4: the next term is below 2^-31 at x = 5.
  CUPP_HD static float series(float w) {
    return horner(w, 0x1.555556p-4f, -0x1.6c16c2p-9f, 0x1.a01a02p-11f, -0x1.381382p-11f);
  }
};
template <>
struct stirling<double> {
  static constexpr double start = 7.0;
  static constexpr double half_log_2pi_hi = 0x1.d67f1c864beb5p-1,
                          half_log_2pi_lo = -0x1.65b5a1b7ff5dfp-55;
  // k = 1..10: the next term is below 2.5e-17 at x = 7.
  CUPP_HD static double series(double w) {
    return horner(w, 0x1.5555555555555p-4, -0x1.6c16c16c16c17p-9, 0x1.a01a01a01a01ap-11,
                  -0x1.3813813813814p-11, 0x1.b951e2b18ff23p-11, -0x1.f6ab0d9993c7dp-10,
                  0x1.a41a41a41a41ap-8, -0x1.e4286cb0f5398p-6, 0x1.6fe96381e068p-3,
                  -0x1.6476701181f3ap+0);
  }
};
}  // namespace impl

// log(Gamma(x)) for x > 0 (NaN below 0, +inf at 0 and +inf), evaluated in
// double-word: relative error within a few ulps away from the zeros at 1
// and 2, absolute error a few ulps of 1 near them.
template <class T>
CUPP_HD inline T loggam(T x) {
  using S = impl::stirling<T>;
  if (!(x > T(0) && x < impl::infinity<T>())) {
    if (x == T(0) || x > T(0)) return impl::infinity<T>();
    return x < T(0) ? impl::quiet_nan<T>() : add(x, x);
  }
  // Beyond 2^(p+1), (x - 1/2) log x - x + log(2 pi)/2 rounds to x (log x - 1).
  constexpr T big = T(std::uint64_t(1) << (impl::format<T>::mantissa + 1));
  if (x >= big) return mul(x, sub(log(x), T(1)));
  impl::dword<T> x0{x, T(0)}, product{T(1), T(0)};
  const bool shift = x < S::start;
  if (shift) {
    CUPP_UNROLL
    for (int i = 0; i < static_cast<int>(S::start); ++i) {
      if (x0.hi < S::start) {
        product = impl::dw_mul(product, x0);
        x0 = impl::dw_add(x0, impl::dword<T>{T(1), T(0)});
      }
    }
  }
  const impl::dword<T> log_x0 = impl::log_dw(x0.hi, x0.lo);
  const impl::dword<T> a = impl::dw_mul(impl::dw_add(x0, impl::dword<T>{T(-0.5), T(0)}), log_x0);
  const T inv = div(T(1), x0.hi);
  const T series = mul(inv, S::series(mul(inv, inv)));
  impl::dword<T> r = impl::dw_add(a, impl::dword<T>{-x0.hi, -x0.lo});
  r = impl::dw_add(r, impl::dword<T>{S::half_log_2pi_hi, add(S::half_log_2pi_lo, series)});
  if (shift) {
    const impl::dword<T> log_p = impl::log_dw(product.hi, product.lo);
    r = impl::dw_add(r, impl::dword<T>{-log_p.hi, -log_p.lo});
  }
  return add(r.hi, r.lo);
}

}  // namespace cupp::detail::random::xm
