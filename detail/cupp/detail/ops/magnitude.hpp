// absolute, fabs, sign, heaviside.
#pragma once

#include <cupp/detail/ops/float_support.hpp>
#include <cupp/detail/ops/hypot.hpp>

namespace cupp::ops {

// |x|: complex numbers give their real magnitude (hypot), integers keep
// their type and wrap as NumPy's do (abs(INT_MIN) == INT_MIN).
struct absolute {
  static constexpr const char* name = "absolute";
  template <class... Ts>
  struct signature
      : common_loop_impl<promote_t<Ts...>, 1, misc_detail::real_of_t<promote_t<Ts...>>> {};
  template <class T>
  CUPP_HD misc_detail::real_of_t<T> operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      return misc_detail::complex_abs(a.real(), a.imag());
    } else if constexpr (is_floating_v<T>) {
      return fbits::abs(a);
    } else if constexpr (is_signed_integer_v<T>) {
      using U = std::make_unsigned_t<T>;
      return a < 0 ? static_cast<T>(static_cast<U>(U(0) - static_cast<U>(a))) : a;
    } else {
      return a;
    }
  }
};

// Only floating-point loops: integers and bool become the float type they
// cast to safely (int8 -> float16, int16 -> float32, int32 -> float64).
struct fabs {
  static constexpr const char* name = "fabs";
  template <class... Ts>
  struct signature
      : common_loop_impl<misc_detail::or_double_t<misc_detail::float_loop_t<true, Ts...>>, 1> {
    static_assert(!std::is_void_v<misc_detail::float_loop_t<true, Ts...>>,
                  "cupp::fabs: complex input is not supported (NumPy raises TypeError); use "
                  "cupp::abs for the magnitude");
  };
  template <class T>
  CUPP_HD T operator()(T a) const {
    return fbits::abs(a);
  }
};

// -1, 0 or 1 (NaN stays NaN, -0.0 gives 0.0 except in bfloat16); NumPy 2 defines the sign of a
// complex z as z / |z|, 0 for 0, and for infinite |z| the unit in the
// direction of the one infinite part (NaN when both are).
struct sign {
  static constexpr const char* name = "sign";
  template <class... Ts>
  struct signature : common_loop<Ts...> {
    static_assert(!is_bool_v<promote_t<Ts...>>,
                  "cupp::sign: boolean input is not supported (NumPy raises TypeError); cast "
                  "with astype<std::int8_t>() first");
  };
  template <class T>
  CUPP_HD T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      const R re = a.real(), im = a.imag();
      const R mag = fmath::hypot(re, im);
      const R nan = fbits::quiet_nan<R>();
      if (fbits::isnan(mag)) return T(nan, nan);
      if (fbits::isinf(mag)) {
        const bool re_inf = fbits::isinf(re), im_inf = fbits::isinf(im);
        if (re_inf && im_inf) return T(nan, nan);
        if (re_inf) return T(re > 0 ? R(1) : R(-1), R(0));
        // NumPy takes the imaginary part for the infinite one here, also
        // when both are finite and only their hypot overflows.
        return T(R(0), im > 0 ? R(1) : R(-1));
      } else if (mag == 0) {
        return T(R(0), R(0));
      }
      return T(re / mag, im / mag);
    } else if constexpr (is_floating_v<T>) {
      if (fbits::isnan(a)) return a;
      const auto m = misc_detail::math(a);
      // ml_dtypes returns a bfloat16 zero as it is (-0.0 stays).
      if (std::is_same_v<T, __nv_bfloat16> && m == 0) return a;
      return detail::convert<T>(m > 0 ? 1.0f : m < 0 ? -1.0f : 0.0f);
    } else if constexpr (is_signed_integer_v<T>) {
      return static_cast<T>((a > 0) - (a < 0));
    } else {
      return static_cast<T>(a > 0);
    }
  }
};

// heaviside(x, h0): 0 below zero, h0 at either zero, 1 above, NaN (the
// default one) for NaN.
struct heaviside {
  static constexpr const char* name = "heaviside";
  template <class... Ts>
  struct signature
      : common_loop_impl<misc_detail::or_double_t<misc_detail::float_loop_t<true, Ts...>>, 2> {
    static_assert(!std::is_void_v<misc_detail::float_loop_t<true, Ts...>>,
                  "cupp::heaviside: complex input is not supported (NumPy raises TypeError)");
  };
  template <class T>
  CUPP_HD T operator()(T x, T h0) const {
    if (fbits::isnan(x)) return fbits::quiet_nan<T>();
    const auto m = misc_detail::math(x);
    if (m == 0) return h0;
    return detail::convert<T>(m > 0 ? 1.0f : 0.0f);
  }
};

}  // namespace cupp::ops
