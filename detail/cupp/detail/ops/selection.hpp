// maximum, minimum, fmax, fmin, clip, where: element-wise choices between
// operands.
//
// Complex numbers order lexicographically (real part first), as NumPy's
// do. Which of two equal zeros NumPy returns depends on its SIMD paths;
// here maximum, minimum, fmax and fmin give the first operand for float16
// and complex numbers and the second for the other types, which is what
// NumPy's contiguous loops do (clip: see there).
#pragma once

#include <cupp/detail/ops/float_support.hpp>

namespace cupp::ops {

namespace misc_detail {

// a < b for values without NaN.
template <class T>
CUPP_HD inline bool less(T a, T b) {
  if constexpr (is_complex_v<T>)
    return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  else
    return misc_detail::math(a) < misc_detail::math(b);
}

// The larger (Max) or smaller of two values without NaN.
template <bool Max, class T>
CUPP_HD inline T pick(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return Max ? (a || b) : (a && b);
  } else if constexpr (is_complex_v<T> || std::is_same_v<T, __half>) {
    // Ties keep the first operand.
    return (Max ? less(a, b) : less(b, a)) ? b : a;
  } else {
    return (Max ? less(b, a) : less(a, b)) ? a : b;
  }
}

}  // namespace misc_detail

// The loops are NumPy's for every dtype; the operands' common type is
// arith::promote_t (result_type, except that bfloat16 meets a Python float
// in float32 and dtypes without a common type in the loop both cast to).
//
// NaN propagates: the first NaN operand is the result.
#define CUPP_EXTREMUM(NAME, MAX)                                        \
  struct NAME {                                                         \
    static constexpr const char* name = #NAME;                          \
    template <class... Ts>                                              \
    struct signature : common_loop_impl<arith::promote_t<Ts...>, 2> {}; \
    template <class T>                                                  \
    CUPP_HD T operator()(T a, T b) const {                              \
      if (misc_detail::value_isnan(a)) return a;                        \
      if (misc_detail::value_isnan(b)) return b;                        \
      return misc_detail::pick<MAX>(a, b);                              \
    }                                                                   \
  };

// NaN is ignored: the other operand is the result (for two NaNs, the second
// one for real types and the first for complex ones, as in NumPy).
#define CUPP_FEXTREMUM(NAME, MAX)                                       \
  struct NAME {                                                         \
    static constexpr const char* name = #NAME;                          \
    template <class... Ts>                                              \
    struct signature : common_loop_impl<arith::promote_t<Ts...>, 2> {}; \
    template <class T>                                                  \
    CUPP_HD T operator()(T a, T b) const {                              \
      if constexpr (is_complex_v<T>) {                                  \
        if (misc_detail::value_isnan(b)) return a;                      \
        if (misc_detail::value_isnan(a)) return b;                      \
      } else {                                                          \
        if (misc_detail::value_isnan(a)) return b;                      \
        if (misc_detail::value_isnan(b)) return a;                      \
      }                                                                 \
      return misc_detail::pick<MAX>(a, b);                              \
    }                                                                   \
  };

CUPP_EXTREMUM(maximum, true)
CUPP_EXTREMUM(minimum, false)
CUPP_FEXTREMUM(fmax, true)
CUPP_FEXTREMUM(fmin, false)

#undef CUPP_EXTREMUM
#undef CUPP_FEXTREMUM

// clip(x, lo, hi) = min(max(x, lo), hi) with NumPy's clip min and max: a
// NaN anywhere gives NaN and lo > hi gives hi. A bound equal to x (-0.0
// against 0.0) is the result, as in NumPy's general loop, unless
// scalar_bounds (NumPy's loop for constant bounds keeps x) or in float16,
// which keeps x. NumPy's clip ufunc has no bfloat16 loop: bfloat16 operands
// run (and result) in float32.
struct clip {
  static constexpr const char* name = "clip";
  bool scalar_bounds = false;
  template <class... Ts>
  using loop_type = std::conditional_t<std::is_same_v<arith::promote_t<Ts...>, __nv_bfloat16>,
                                       float, arith::promote_t<Ts...>>;
  template <class... Ts>
  struct signature : common_loop_impl<loop_type<Ts...>, 3> {};

  template <class T>
  CUPP_HD T operator()(T x, T lo, T hi) const {
    if (misc_detail::value_isnan(x)) return x;
    if (misc_detail::value_isnan(lo)) return lo;
    if (misc_detail::value_isnan(hi)) return hi;
    const bool tie_keeps_x = scalar_bounds || std::is_same_v<T, __half>;
    const T t = misc_detail::less(x, lo) ? lo : tie_keeps_x || misc_detail::less(lo, x) ? x : lo;
    return misc_detail::less(hi, t) ? hi : tie_keeps_x || misc_detail::less(t, hi) ? t : hi;
  }
};

// where(cond, a, b): cond (any dtype) as bool; the result has a and b's
// common dtype, numpy.result_type(a, b), which for bfloat16 and a Python
// float is float64.
struct where {
  static constexpr const char* name = "where";
  template <class A, class B>
  using result_t =
      std::conditional_t<std::is_same_v<promote_t<A, B>, __nv_bfloat16> &&
                             (std::is_same_v<A, weak_float> || std::is_same_v<B, weak_float>),
                         double, promote_t<A, B>>;
  template <class C, class A, class B>
  struct signature : loop<result_t<A, B>, bool, result_t<A, B>, result_t<A, B>> {};
  template <class T>
  CUPP_HD T operator()(bool c, T a, T b) const {
    return c ? a : b;
  }
};

}  // namespace cupp::ops
