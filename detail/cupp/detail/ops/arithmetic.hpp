// add, subtract, multiply, true_divide, negative, positive.
#pragma once

#include <cupp/detail/ops/common.hpp>

namespace cupp::ops {

struct add {
  static constexpr const char* name = "add";
  template <class... Ts>
  struct signature : common_loop<Ts...> {};
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a || b;
    else
      return via_float<T>([](auto x, auto y) { return x + y; }, a, b);
  }
};

struct subtract {
  static constexpr const char* name = "subtract";
  template <class... Ts>
  struct signature : common_loop<Ts...> {
    static_assert(!std::is_same_v<promote_t<Ts...>, bool>,
                  "cupp::subtract: numpy boolean subtract, the `-` operator, is not supported, "
                  "use the bitwise_xor, the `^` operator, or the logical_xor function instead");
  };
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return via_float<T>([](auto x, auto y) { return x - y; }, a, b);
  }
};

struct multiply {
  static constexpr const char* name = "multiply";
  template <class... Ts>
  struct signature : common_loop<Ts...> {};
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a && b;
    else
      return via_float<T>([](auto x, auto y) { return x * y; }, a, b);
  }
};

// Division of integers gives float64 (NumPy's true division).
struct true_divide {
  static constexpr const char* name = "true_divide";
  template <class... Ts>
  struct signature : common_loop_impl<inexact_t<promote_t<Ts...>>, 2> {};
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return via_float<T>([](auto x, auto y) { return x / y; }, a, b);
  }
};

struct negative {
  static constexpr const char* name = "negative";
  template <class... Ts>
  struct signature : common_loop<Ts...> {
    static_assert(!std::is_same_v<promote_t<Ts...>, bool>,
                  "cupp::negative: the numpy boolean negative, the `-` operator, is not "
                  "supported, use the `~` operator or the logical_not function instead");
  };
  template <class T>
  CUPP_HD T operator()(T a) const {
    if constexpr (std::is_unsigned_v<T>)
      return static_cast<T>(T(0) - a);
    else
      return via_float<T>([](auto x) { return -x; }, a);
  }
};

struct positive {
  static constexpr const char* name = "positive";
  template <class... Ts>
  struct signature : common_loop<Ts...> {
    static_assert(!std::is_same_v<promote_t<Ts...>, bool>,
                  "cupp::positive: The numpy boolean positive, the `+` operator, is not "
                  "supported; cast with astype first");
  };
  template <class T>
  CUPP_HD T operator()(T a) const {
    return a;
  }
};

}  // namespace cupp::ops
