// real, imag, conjugate, angle.
#pragma once

#include <cupp/detail/ops/float_support.hpp>

namespace cupp::ops {

// NumPy reads .real/.imag of a Python scalar, and a Python bool's are ints.
namespace misc_detail {
template <class T>
using part_type = std::conditional_t<std::is_same_v<T, weak_bool>, std::int64_t, promote_t<T>>;
}  // namespace misc_detail

// The real part; real input is its own real part (same dtype).
struct real {
  static constexpr const char* name = "real";
  template <class T>
  struct signature
      : loop<misc_detail::real_of_t<misc_detail::part_type<T>>, misc_detail::part_type<T>> {};
  template <class T>
  CUPP_HD misc_detail::real_of_t<T> operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return a.real();
    else
      return a;
  }
};

// The imaginary part; real input has zeros of its own dtype.
struct imag {
  static constexpr const char* name = "imag";
  template <class T>
  struct signature
      : loop<misc_detail::real_of_t<misc_detail::part_type<T>>, misc_detail::part_type<T>> {};
  template <class T>
  CUPP_HD misc_detail::real_of_t<T> operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return a.imag();
    else
      return detail::convert<T>(0);
  }
};

// The complex conjugate; other types unchanged, except bool, which NumPy's
// conjugate (having no bool loop) returns as int8.
struct conjugate {
  static constexpr const char* name = "conjugate";
  template <class... Ts>
  using loop_type = std::conditional_t<is_bool_v<promote_t<Ts...>>, std::int8_t, promote_t<Ts...>>;
  template <class... Ts>
  struct signature : common_loop_impl<loop_type<Ts...>, 1> {};
  template <class T>
  CUPP_HD T operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return T(a.real(), -a.imag());
    else
      return a;
  }
};

// The argument of a complex number, arctan2(imag, real); real input is
// arctan2(0, x) (0 or pi), in the float type NumPy's arctan2 picks for a
// Python int next to x. deg multiplies by 180/pi in the result's type.
struct angle {
  static constexpr const char* name = "angle";
  bool deg = false;

  template <class T>
  using loop_type =
      std::conditional_t<is_complex_v<promote_t<T>>, promote_t<T>,
                         misc_detail::or_double_t<misc_detail::float_loop_t<true, weak_int, T>>>;
  template <class T>
  struct signature : loop<misc_detail::real_of_t<loop_type<T>>, loop_type<T>> {};

  template <class T>
  CUPP_HD misc_detail::real_of_t<T> operator()(T z) const {
    using R = misc_detail::real_of_t<T>;
    R a;
    if constexpr (is_complex_v<T>) {
      a = ::cuda::std::atan2(z.imag(), z.real());
    } else {
      // NaN passes through atan2 and the product unchanged.
      if constexpr (is_floating_v<T>)
        if (fbits::isnan(z)) return z;
      a = via_float<R>([](auto x) { return ::cuda::std::atan2(decltype(x)(0), x); }, z);
    }
    if (!deg) return a;
    // 180 / pi is a Python float: float32 next to bfloat16 (ml_dtypes).
    using F = std::conditional_t<std::is_same_v<R, __nv_bfloat16>, float, R>;
    return detail::convert<R>(misc_detail::math(a) *
                              misc_detail::math(detail::convert<F>(180 / 3.141592653589793)));
  }
};

}  // namespace cupp::ops
