// What the rounding, sign, selection and classification ufuncs share: the
// bit access of the numerics floor (as fbits), NaN/inf tests that work on
// every dtype, and the loop NumPy picks for ufuncs that only have
// floating-point loops (copysign, nextafter, rint, fabs ...).
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda/std/cmath>
#include <cuda/std/complex>

#include <cupp/detail/numerics/complex_parts.hpp>
#include <cupp/detail/numerics/float_bits.hpp>
#include <cupp/detail/numerics/rounded.hpp>
#include <cupp/detail/ops/arithmetic_element.hpp>
#include <cupp/detail/ops/common.hpp>

namespace cupp::ops {

// The bit layout of the floating-point dtypes and the tests and values made
// on the bits (isnan, signbit, quiet_nan, step_magnitude ...): the numerics
// floor's, under the name the operations use.
namespace fbits = ::cupp::detail::numerics;

namespace misc_detail {

// The component type of complex dtypes; other types unchanged.
using detail::numerics::real_of;
using detail::numerics::real_of_t;

// Predicates of one element of any dtype: integers and bool are finite,
// complex numbers are NaN (infinite) when either part is.
template <class T>
CUPP_HD inline bool value_isnan(T v) {
  if constexpr (is_complex_v<T>)
    return fbits::isnan(v.real()) || fbits::isnan(v.imag());
  else if constexpr (is_floating_v<T>)
    return fbits::isnan(v);
  else
    return false;
}
template <class T>
CUPP_HD inline bool value_isinf(T v) {
  if constexpr (is_complex_v<T>)
    return fbits::isinf(v.real()) || fbits::isinf(v.imag());
  else if constexpr (is_floating_v<T>)
    return fbits::isinf(v);
  else
    return false;
}
template <class T>
CUPP_HD inline bool value_isfinite(T v) {
  if constexpr (is_complex_v<T>)
    return fbits::isfinite(v.real()) && fbits::isfinite(v.imag());
  else if constexpr (is_floating_v<T>)
    return fbits::isfinite(v);
  else
    return true;
}

// |re + i im| as NumPy's absolute computes it (its SIMD loops, used for
// every complex array): larger * sqrt(1 + ratio^2) with a fused
// multiply-add, inf when either part is infinite, else NaN when either is
// NaN. hypot() differs from it in the last bit.
template <class R>
CUPP_HD inline R complex_abs(R re, R im) {
  re = fbits::abs(re);
  im = fbits::abs(im);
  if (fbits::isinf(re) || fbits::isinf(im)) return fbits::from_bits<R>(fbits::float_layout<R>::exp);
  if (fbits::isnan(re) || fbits::isnan(im)) return fbits::quiet_nan<R>();
  const R larger = re < im ? im : re, smaller = re < im ? re : im;
  if (larger == 0) return larger;
  const R ratio = smaller / larger;
  return ::cuda::std::sqrt(::cuda::std::fma(ratio, ratio, R(1))) * larger;
}

// The value the arithmetic on T runs on: float for the 16-bit types.
template <class T>
CUPP_HD inline auto math(T v) {
  if constexpr (detail::is_low_float_v<T>)
    return detail::to_float(v);
  else
    return v;
}

// a * b rounded on its own, never fused with a following addition (CUDA
// contracts a*b + c into an fma by default, NumPy rounds the product).
template <class T>
CUPP_HD inline T mul_rn(T a, T b) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
    return detail::numerics::mul_rn(a, b);
  else
    return a * b;
}

// numpy.can_cast(From, To, "safe") including bfloat16, which ml_dtypes
// casts safely from bool, int8 and uint8 and to float32, float64 and the
// complex types.
template <class From, class To>
inline constexpr bool safe_cast_v = [] {
  constexpr bool from_bf = std::is_same_v<From, __nv_bfloat16>;
  constexpr bool to_bf = std::is_same_v<To, __nv_bfloat16>;
  if constexpr (from_bf && to_bf)
    return true;
  else if constexpr (from_bf)
    return std::is_same_v<To, float> || std::is_same_v<To, double> || is_complex_v<To>;
  else if constexpr (to_bf)
    return std::is_same_v<From, bool> || std::is_same_v<From, std::int8_t> ||
           std::is_same_v<From, std::uint8_t>;
  else
    return detail::can_cast_safe(dtype_id_of<From>, dtype_id_of<To>);
}();

namespace detail_loops {

// NumPy's linear search over the loops of a float-only ufunc (float16,
// float32, float64, in that order, and ml_dtypes' bfloat16 loop, which only
// operands with a bfloat16 among them reach): the first type every operand
// casts to safely. void where there is none (complex operands).
template <bool Bf16Loop, class... Ts>
struct first_float {
  static constexpr bool bf16_candidate = Bf16Loop && (std::is_same_v<Ts, __nv_bfloat16> || ...) &&
                                         (safe_cast_v<Ts, __nv_bfloat16> && ...);
  using type = std::conditional_t<
      bf16_candidate, __nv_bfloat16,
      std::conditional_t<
          (safe_cast_v<Ts, __half> && ...), __half,
          std::conditional_t<(safe_cast_v<Ts, float> && ...), float,
                             std::conditional_t<(safe_cast_v<Ts, double> && ...), double, void>>>>;
};

template <bool AnyWeak, bool Bf16Loop, class... Ts>
struct float_loop {
  using type = typename first_float<Bf16Loop, Ts...>::type;
};
// A weak scalar first takes the type NEP 50 gives it next to the other
// operands (a Python float next to bfloat16 gives float32, as in every
// ufunc); the search then runs on that single type.
template <bool Bf16Loop, class... Ts>
struct float_loop<true, Bf16Loop, Ts...> {
  using type = typename first_float<Bf16Loop, arith::promote_t<Ts...>>::type;
};

}  // namespace detail_loops

// The floating-point loop a float-only ufunc resolves to for operand types
// Ts (dtypes or weak kinds): copysign(int8, uint8) runs in float16,
// copysign(int16, x) in float32, integers of 32 bits and more in float64.
// void for complex operands.
template <bool Bf16Loop, class... Ts>
struct float_loop_of {
  using type = typename detail_loops::float_loop<(is_weak_v<Ts> || ...), Bf16Loop, Ts...>::type;
};
template <bool Bf16Loop, class... Ts>
using float_loop_t = typename float_loop_of<Bf16Loop, Ts...>::type;

// A stand-in for a loop type NumPy does not have, so that only the
// signature's static_assert reports the error.
template <class T>
using or_double_t = std::conditional_t<std::is_void_v<T>, double, T>;

}  // namespace misc_detail

}  // namespace cupp::ops
