// Element-level arithmetic with NumPy's results, shared by the arithmetic
// ufuncs: wrapping integer arithmetic, integer and floating floor division,
// complex products and quotients as NumPy's loops compute them, and the
// loop types of the arithmetic ufuncs.
#pragma once

#include <cuda/std/cmath>
#include <cuda/std/complex>
#include <cuda/std/limits>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include <cupp/detail/numerics/pair_value.hpp>
#include <cupp/detail/numerics/rounded.hpp>
#include <cupp/detail/ops/common.hpp>

namespace cupp::ops::arith {

// ---------------------------------------------------------------------------
// Loop types

// How a dtype meets bfloat16 in NumPy's loop search when the two have no
// common type: 1 when both cast safely to float32 (int16, uint16, float16),
// 2 when only float64 holds both (wider integers), 0 when they promote.
template <class T>
constexpr int bf16_clash() {
  if constexpr (!is_dtype_v<T>)
    return 0;
  else if constexpr (std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::uint16_t> ||
                     std::is_same_v<T, __half>)
    return 1;
  else if constexpr (is_integer_v<T> && sizeof(T) >= 4)
    return 2;
  else
    return 0;
}

template <bool HasBf16, class... Ts>
struct arith_promote {
  static constexpr int clash = 0;
};
template <class... Ts>
struct arith_promote<true, Ts...> {
  static constexpr int clash = std::max({0, bf16_clash<Ts>()...});
};

template <int Clash, class... Ts>
struct promote_impl {
  using type = std::conditional_t<Clash == 1, float, double>;
};
template <class... Ts>
struct promote_impl<0, Ts...> {
  using base = cupp::promote_t<Ts...>;
  // A Python float meeting bfloat16 gives float32 (ml_dtypes' bfloat16 is
  // not a NumPy float kind, so the weak float does not adopt it); a Python
  // int or bool keeps bfloat16.
  using type = std::conditional_t<
      std::is_same_v<base, __nv_bfloat16> && (std::is_same_v<Ts, weak_float> || ...), float, base>;
};

// The common type of the arithmetic loops: numpy.result_type (NEP 50), and
// where bfloat16 has no common type with the other dtype, the first loop
// both cast to safely, float32 or float64, as NumPy's loop search finds.
template <class... Ts>
using promote_t =
    typename promote_impl<arith_promote<(std::is_same_v<Ts, __nv_bfloat16> || ...), Ts...>::clash,
                          Ts...>::type;

// Ufuncs without a bool loop (floor_divide, remainder, power, reciprocal
// ...) run bool operands in their first loop, int8.
template <class C>
using no_bool_t = std::conditional_t<is_bool_v<C>, std::int8_t, C>;

// The float loop NumPy picks for the integer operands of frexp and modf: the
// first float type they cast to safely.
template <class C>
using float_loop_t =
    std::conditional_t<is_floating_v<C>, C,
                       std::conditional_t<(sizeof(C) == 1), __half,
                                          std::conditional_t<(sizeof(C) == 2), float, double>>>;

// ---------------------------------------------------------------------------
// Integers: two's complement wrapping, as NumPy's C loops produce. The
// arithmetic runs in an unsigned type at least as wide as unsigned int, so
// that narrow operands do not promote to int (where 65535 * 65535
// overflows) and signed overflow never happens.

template <class T>
using wrap_t =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T>
CUPP_HD constexpr T wrap_add(T a, T b) {
  return static_cast<T>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b));
}
template <class T>
CUPP_HD constexpr T wrap_sub(T a, T b) {
  return static_cast<T>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b));
}
template <class T>
CUPP_HD constexpr T wrap_mul(T a, T b) {
  return static_cast<T>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b));
}
template <class T>
CUPP_HD constexpr T wrap_neg(T a) {
#if defined(__CUDA_ARCH__)
  // ptxas 13.0 for sm_90 folds an integer negation into the second source of
  // a three-input min/max (VIMNMX3) and drops it, so max(-x) over the four
  // values of a vector load came out as max(x) for some of them. Written as
  // a complement and an increment in separate asm statements, the negation
  // is not recognised as one and is never folded (13.5 is not affected).
  if constexpr (sizeof(T) <= 4) {
    if (!__builtin_is_constant_evaluated()) {
      auto u = static_cast<std::uint32_t>(static_cast<wrap_t<T>>(a));
      asm("not.b32 %0, %0;" : "+r"(u));
      asm("add.u32 %0, %0, 1;" : "+r"(u));
      return static_cast<T>(u);
    }
  }
#endif
  return static_cast<T>(wrap_t<T>(0) - static_cast<wrap_t<T>>(a));
}

// Quotient and remainder of floor division (Python's divmod). Division by
// zero gives 0 and 0 (NumPy warns and returns zeros); MIN // -1 wraps to
// MIN with remainder 0, as NumPy returns.
template <class T>
CUPP_HD constexpr detail::pair_value<T, T> int_divmod(T a, T b) {
  if (b == 0) return {T(0), T(0)};
#if defined(__CUDA_ARCH__)
  // GPUs divide 64-bit integers in a long software routine; operands that
  // are non-negative and fit in 32 bits (most values in practice, as in
  // x % 3 over an arange) take the 32-bit one, several times shorter, where
  // the floor and the truncated quotient agree.
  if constexpr (sizeof(T) == 8) {
    if (!((static_cast<std::uint64_t>(a) | static_cast<std::uint64_t>(b)) >> 32)) {
      const auto ua = static_cast<std::uint32_t>(a), ub = static_cast<std::uint32_t>(b);
      const std::uint32_t q = ua / ub;
      return {static_cast<T>(q), static_cast<T>(ua - q * ub)};
    }
  }
#endif
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return {wrap_neg(a), T(0)};
    T q = static_cast<T>(a / b);
    T r = static_cast<T>(a % b);
    // C++ truncates toward zero; the floor is one lower when the exact
    // quotient is negative and not whole.
    if (r != 0 && ((r < 0) != (b < 0))) {
      q = static_cast<T>(q - 1);
      r = static_cast<T>(r + b);
    }
    return {q, r};
  } else {
    return {static_cast<T>(a / b), static_cast<T>(a % b)};
  }
}

// C's %: the sign of the dividend; zero for a zero divisor and for MIN % -1.
template <class T>
CUPP_HD constexpr T int_fmod(T a, T b) {
  if (b == 0) return T(0);
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1)) return T(0);
  return static_cast<T>(a % b);
}

// base ** exp by repeated squaring, wrapping. NumPy raises ValueError for a
// negative exponent; cupp's kernels cannot, and give the integer part of
// 1 / base**-exp instead: 1 for base 1, +-1 for base -1, 0 otherwise
// (0 ** -n too, as integer division by zero gives 0).
template <class T>
CUPP_HD constexpr T int_power(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == T(1)) return T(1);
      if (base == T(-1)) return (exp & 1) ? T(-1) : T(1);
      return T(0);
    }
  }
  using U = wrap_t<T>;
  U b = static_cast<U>(base), r = 1;
  for (auto e = static_cast<std::make_unsigned_t<T>>(exp); e != 0; e >>= 1) {
    if (e & 1) r *= b;
    b *= b;
  }
  return static_cast<T>(r);
}

// 1 / x with NumPy's integer loop: 1.0 / x converted back, so 1 and -1 are
// themselves and larger magnitudes give 0. For 0 the conversion of inf
// gives x86's "integer indefinite", INT_MIN, for int32 and int64, and 0 for
// the narrower and the unsigned types.
template <class T>
CUPP_HD constexpr T int_reciprocal(T x) {
  if (x == T(1)) return T(1);
  if constexpr (std::is_signed_v<T>) {
    if (x == T(-1)) return T(-1);
    if (x == T(0) && sizeof(T) >= 4) return ::cuda::std::numeric_limits<T>::min();
  }
  return T(0);
}

// ---------------------------------------------------------------------------
// Floating point

// A product that is never fused with a neighbouring addition: nvcc contracts
// a * b + c into one FMA in device code, NumPy's loops round the product
// first, and the complex formulas below must round alike on both sides.
// fma_rn is one rounding of a * b + c. Both from the numerics floor.
using detail::numerics::fma_rn;
using detail::numerics::mul_rn;

// Python's float divmod: the quotient rounded down, the remainder with the
// divisor's sign, with divmod(a, b)[0] * b + divmod(a, b)[1] as close to a as
// rounding allows. fmod is exact, so a - mod is (nearly) a whole multiple of
// b and the quotient needs only a floor and a correction of the last
// division's rounding. M is float or double.
template <class M>
CUPP_HD inline detail::pair_value<M, M> float_divmod(M a, M b) {
  M mod = ::cuda::std::fmod(a, b);
  // x / 0: inf with the quotient's sign, or NaN for 0 / 0; fmod gave NaN.
  if (b == M(0)) return {a / b, mod};
  M div = (a - mod) / b;
  if (mod != M(0)) {
    // NaN compares false here and stays NaN.
    if ((b < M(0)) != (mod < M(0))) {
      mod += b;
      div -= M(1);
    }
  } else {
    // A zero remainder takes the divisor's sign.
    mod = ::cuda::std::copysign(M(0), b);
  }
  M floordiv;
  if (div != M(0)) {
    floordiv = ::cuda::std::floor(div);
    if (div - floordiv > M(0.5)) floordiv += M(1);
  } else {
    // A zero quotient keeps the sign of the true quotient.
    floordiv = ::cuda::std::copysign(M(0), a / b);
  }
  return {floordiv, mod};
}

// frexp with exponent 0 for zeros, infinities and NaN, as glibc (and so
// NumPy) gives; CUDA leaves it unspecified for the latter two.
template <class M>
CUPP_HD inline detail::pair_value<M, std::int32_t> float_frexp(M x) {
  if (x == M(0) || !::cuda::std::isfinite(x)) return {x, 0};
  int e = 0;
  const M m = ::cuda::std::frexp(x, &e);
  return {m, static_cast<std::int32_t>(e)};
}

// modf: (fractional part, integral part), both with x's sign; inf splits
// into (+-0, +-inf).
template <class M>
CUPP_HD inline detail::pair_value<M, M> float_modf(M x) {
  const M i = ::cuda::std::trunc(x);
  const M f = ::cuda::std::isinf(x) ? M(0) : x - i;
  return {::cuda::std::copysign(f, x), i};
}

// pow with NumPy's exact cases: x**2, x**-1, x**1 and x**0 are a product,
// a quotient, x and 1 (what a correctly rounded pow gives too). With a
// scalar exponent of 0.5 NumPy's float32 and float64 loops take the square
// root, which differs from pow at -0.0 (-0.0) and -inf (NaN).
template <class M>
CUPP_HD inline M float_power(M a, M b, bool scalar_half) {
  if (b == M(2)) return a * a;
  if (b == M(0)) return M(1);
  if (b == M(1)) return a;
  if (b == M(-1)) return M(1) / a;
  if (scalar_half && b == M(0.5)) return ::cuda::std::sqrt(a);
  return ::cuda::std::pow(a, b);
}

// ---------------------------------------------------------------------------
// Complex numbers, computed as NumPy does: products without C99 Annex G's
// recovery of infinities (which libcu++'s operator* adds), Smith's quotient.

// The product inside NumPy's math library (power): rounded term by term.
template <class C>
CUPP_HD inline C cmul(C a, C b) {
  const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  return C(mul_rn(ar, br) - mul_rn(ai, bi), mul_rn(ar, bi) + mul_rn(ai, br));
}

// The product of NumPy's multiply loop on x86-64 (its SIMD kernels, taken
// for every length and layout): each component is one fused multiply-add,
// ar*br - ai*bi as fma(ar, br, -(ai*bi)).
template <class C>
CUPP_HD inline C cmul_fused(C a, C b) {
  const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  return C(fma_rn(ar, br, -mul_rn(ai, bi)), fma_rn(ar, bi, mul_rn(ai, br)));
}

// Smith's algorithm: scale by the larger component of b so that |b|^2 never
// overflows. A zero divisor gives the components divided by +0.
template <class C>
CUPP_HD inline C cdiv(C a, C b) {
  using R = typename C::value_type;
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  const R abr = ::cuda::std::fabs(br), abi = ::cuda::std::fabs(bi);
  if (abr >= abi) {
    if (abr == R(0) && abi == R(0)) return C(ar / abr, ai / abr);
    const R rat = bi / br;
    const R scl = R(1) / (br + mul_rn(bi, rat));
    return C(mul_rn(ar + mul_rn(ai, rat), scl), mul_rn(ai - mul_rn(ar, rat), scl));
  }
  const R rat = br / bi;
  const R scl = R(1) / (bi + mul_rn(br, rat));
  return C(mul_rn(mul_rn(ar, rat) + ai, scl), mul_rn(mul_rn(ai, rat) - ar, scl));
}

// 1 / z, Smith's way without the numerator's products.
template <class C>
CUPP_HD inline C creciprocal(C z) {
  using R = typename C::value_type;
  const R zr = z.real(), zi = z.imag();
  if (::cuda::std::fabs(zi) <= ::cuda::std::fabs(zr)) {
    const R r = zi / zr;
    const R d = zr + mul_rn(zi, r);
    return C(R(1) / d, -r / d);
  }
  const R r = zr / zi;
  const R d = mul_rn(zr, r) + zi;
  return C(r / d, R(-1) / d);
}

// a ** b as NumPy computes it: exact cases for a zero exponent and a zero
// base, repeated multiplication for whole exponents below 100 in magnitude
// (a quotient for negative ones), the library's pow otherwise.
template <class C>
CUPP_HD inline C cpow(C a, C b) {
  using R = typename C::value_type;
  const R br = b.real(), bi = b.imag();
  if (br == R(0) && bi == R(0)) return C(R(1), R(0));
  if (a.real() == R(0) && a.imag() == R(0)) {
    if (br > R(0)) return C(R(0), R(0));
    const R nan = ::cuda::std::numeric_limits<R>::quiet_NaN();
    return C(nan, nan);
  }
  if (bi == R(0) && ::cuda::std::fabs(br) < R(100) && br == ::cuda::std::trunc(br)) {
    const int n = static_cast<int>(br);
    if (n == 1) return a;
    if (n == 2) return cmul(a, a);
    if (n == 3) return cmul(cmul(a, a), a);
    unsigned m = static_cast<unsigned>(n < 0 ? -n : n);
    C acc(R(1), R(0)), p = a;
    for (;;) {
      if (m & 1u) acc = cmul(acc, p);
      m >>= 1;
      if (m == 0) break;
      p = cmul(p, p);
    }
    return n < 0 ? cdiv(C(R(1), R(0)), acc) : acc;
  }
  if constexpr (std::is_same_v<R, float>) {
    // exp(b * log(a)) amplifies the rounding of log(a) by |b|; in double the
    // result is the correctly rounded one far more often, and does not
    // overflow before its final rounding.
    const auto r = ::cuda::std::pow(::cuda::std::complex<double>(a.real(), a.imag()),
                                    ::cuda::std::complex<double>(br, bi));
    return C(static_cast<R>(r.real()), static_cast<R>(r.imag()));
  } else {
    return ::cuda::std::pow(a, b);
  }
}

}  // namespace cupp::ops::arith
