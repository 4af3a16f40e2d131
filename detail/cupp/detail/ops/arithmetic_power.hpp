// power and float_power.
//
// power: integers by repeated squaring, wrapping on overflow (NumPy raises
// ValueError for negative integer exponents: cupp::power does when the
// exponent is a scalar, a kernel gives the value of arith::int_power);
// bools run in the int8 loop; floats through pow with NumPy's exact cases;
// complex numbers as NumPy's npy_cpow (arith::cpow). float_power runs every
// operand in float64, or complex128 when one is complex.
#pragma once

#include <cupp/detail/ops/arithmetic_element.hpp>
#include <cupp/detail/ops/common.hpp>

namespace cupp::ops {

namespace arith {

template <class T>
CUPP_HD inline T power_of(T a, T b, bool scalar_half) {
  if constexpr (is_integer_v<T>)
    return int_power(a, b);
  else if constexpr (is_complex_v<T>)
    return cpow(a, b);
  else if constexpr (detail::is_low_float_v<T>)
    // NumPy's float16 loop and ml_dtypes' bfloat16 loop call powf, never
    // the square root.
    return detail::convert<T>(float_power(detail::to_float(a), detail::to_float(b), false));
  else
    return float_power(a, b, scalar_half);
}

}  // namespace arith

struct power {
  static constexpr const char* name = "power";
  // The exponent is a scalar equal to 0.5 in a float32 or float64 loop,
  // where NumPy computes a square root (set by cupp::power).
  bool scalar_half = false;

  template <class... Ts>
  struct signature : common_loop_impl<arith::no_bool_t<arith::promote_t<Ts...>>, 2> {};
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return arith::power_of(a, b, scalar_half);
  }
};

struct float_power {
  static constexpr const char* name = "float_power";
  template <class... Ts>
  struct signature
      : common_loop_impl<
            std::conditional_t<is_complex_v<arith::promote_t<Ts...>>, complex128, double>, 2> {};
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return arith::power_of(a, b, false);
  }
};

}  // namespace cupp::ops
