// frexp and modf: two-output ufuncs that split floating-point numbers.
//
// Their loops are float16, float32 and float64 (and ml_dtypes' bfloat16):
// integer operands take the first float type they cast to safely, so int8
// gives float16, int16 float32, wider integers float64 (and a C++ integer,
// numpy's int64, float64). Complex numbers have no loop (TypeError).
#pragma once

#include <cupp/detail/ops/arithmetic_element.hpp>
#include <cupp/detail/ops/common.hpp>

namespace cupp::ops {

// x = mantissa * 2**exponent with 0.5 <= |mantissa| < 1; the exponent is
// int32 (C's int, as NumPy); zeros, infinities and NaN give exponent 0.
struct frexp {
  static constexpr const char* name = "frexp";
  template <class... Ts>
  struct signature
      : loop<detail::pair_value<arith::float_loop_t<arith::promote_t<Ts...>>, std::int32_t>,
             arith::float_loop_t<arith::promote_t<Ts...>>> {
    static_assert(!is_complex_v<arith::promote_t<Ts...>>,
                  "cupp::frexp: complex numbers have no frexp (NumPy raises TypeError); split "
                  "the real() and imag() parts separately");
  };
  template <class T>
  CUPP_HD detail::pair_value<T, std::int32_t> operator()(T x) const {
    const auto r = arith::float_frexp(detail::convert<detail::math_t<T>>(x));
    return {detail::convert<T>(r.first), r.second};
  }
};

// (fractional part, integral part), both with x's sign, in NumPy's order.
struct modf {
  static constexpr const char* name = "modf";
  template <class... Ts>
  struct signature : loop<detail::pair_value<arith::float_loop_t<arith::promote_t<Ts...>>,
                                             arith::float_loop_t<arith::promote_t<Ts...>>>,
                          arith::float_loop_t<arith::promote_t<Ts...>>> {
    static_assert(!is_complex_v<arith::promote_t<Ts...>>,
                  "cupp::modf: complex numbers have no modf (NumPy raises TypeError); split the "
                  "real() and imag() parts separately");
  };
  template <class T>
  CUPP_HD detail::pair_value<T, T> operator()(T x) const {
    const auto r = arith::float_modf(detail::convert<detail::math_t<T>>(x));
    return {detail::convert<T>(r.first), detail::convert<T>(r.second)};
  }
};

}  // namespace cupp::ops
