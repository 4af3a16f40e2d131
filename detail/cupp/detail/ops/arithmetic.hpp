// add, subtract, multiply, true_divide, negative, positive, reciprocal; the
// division family (floor_divide, remainder, fmod, divmod) is in
// arithmetic_division.hpp, power and float_power in arithmetic_power.hpp,
// frexp and modf in arithmetic_parts.hpp.
//
// As NumPy: integers wrap around on overflow, float16 and bfloat16 compute
// in float and round back, complex products and quotients use NumPy's
// formulas (see arithmetic_element.hpp).
#pragma once

#include <cupp/detail/ops/arithmetic_element.hpp>
#include <cupp/detail/ops/common.hpp>

namespace cupp::ops {

struct add {
  static constexpr const char* name = "add";
  template <class... Ts>
  struct signature : common_loop_impl<arith::promote_t<Ts...>, 2> {};
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>)
      return a || b;
    else if constexpr (is_integer_v<T>)
      return arith::wrap_add(a, b);
    else
      return via_float<T>([](auto x, auto y) { return x + y; }, a, b);
  }
};

struct subtract {
  static constexpr const char* name = "subtract";
  template <class... Ts>
  struct signature : common_loop_impl<arith::promote_t<Ts...>, 2> {
    static_assert(!is_bool_v<arith::promote_t<Ts...>>,
                  "cupp::subtract: numpy boolean subtract, the '-' operator, is not supported, "
                  "use the bitwise_xor, the '^' operator, or the logical_xor function instead");
  };
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>)
      return arith::wrap_sub(a, b);
    else
      return via_float<T>([](auto x, auto y) { return x - y; }, a, b);
  }
};

struct multiply {
  static constexpr const char* name = "multiply";
  template <class... Ts>
  struct signature : common_loop_impl<arith::promote_t<Ts...>, 2> {};
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>)
      return a && b;
    else if constexpr (is_integer_v<T>)
      return arith::wrap_mul(a, b);
    else if constexpr (is_complex_v<T>)
      return arith::cmul_fused(a, b);
    else
      return via_float<T>([](auto x, auto y) { return x * y; }, a, b);
  }
};

// Division of integers and bools gives float64 (NumPy's true division).
struct true_divide {
  static constexpr const char* name = "true_divide";
  template <class... Ts>
  struct signature : common_loop_impl<inexact_t<arith::promote_t<Ts...>>, 2> {};
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>)
      return arith::cdiv(a, b);
    else
      return via_float<T>([](auto x, auto y) { return x / y; }, a, b);
  }
};

struct negative {
  static constexpr const char* name = "negative";
  template <class... Ts>
  struct signature : common_loop_impl<arith::promote_t<Ts...>, 1> {
    static_assert(!is_bool_v<arith::promote_t<Ts...>>,
                  "cupp::negative: the numpy boolean negative, the '-' operator, is not "
                  "supported, use the '~' operator or the logical_not function instead");
  };
  template <class T>
  CUPP_HD T operator()(T a) const {
    if constexpr (is_integer_v<T>)
      return arith::wrap_neg(a);
    else
      return via_float<T>([](auto x) { return -x; }, a);
  }
};

struct positive {
  static constexpr const char* name = "positive";
  template <class... Ts>
  struct signature : common_loop_impl<arith::promote_t<Ts...>, 1> {
    static_assert(!is_bool_v<arith::promote_t<Ts...>>,
                  "cupp::positive: numpy has no boolean positive, the '+' operator (TypeError); "
                  "cast with astype first");
  };
  template <class T>
  CUPP_HD T operator()(T a) const {
    return a;
  }
};

// Integers keep their type: 1 / x truncated (see arith::int_reciprocal);
// bools use the int8 loop.
struct reciprocal {
  static constexpr const char* name = "reciprocal";
  template <class... Ts>
  struct signature : common_loop_impl<arith::no_bool_t<arith::promote_t<Ts...>>, 1> {};
  template <class T>
  CUPP_HD T operator()(T a) const {
    if constexpr (is_integer_v<T>)
      return arith::int_reciprocal(a);
    else if constexpr (is_complex_v<T>)
      return arith::creciprocal(a);
    else
      return via_float<T>([](auto x) { return decltype(x)(1) / x; }, a);
  }
};

}  // namespace cupp::ops

#include <cupp/detail/ops/arithmetic_division.hpp>
#include <cupp/detail/ops/arithmetic_parts.hpp>
#include <cupp/detail/ops/arithmetic_power.hpp>
