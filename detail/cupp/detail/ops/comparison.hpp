// equal, not_equal, less, less_equal, greater, greater_equal.
#pragma once

#include <cupp/detail/ops/common.hpp>

namespace cupp::ops {

#define CUPP_COMPARISON(NAME, EXPR, ORDERING)                                                 \
  struct NAME {                                                                               \
    static constexpr const char* name = #NAME;                                                \
    template <class... Ts>                                                                    \
    struct signature : predicate_loop<Ts...> {                                                \
      static_assert(!(ORDERING) || !is_complex_v<promote_t<Ts...>>,                           \
                    "cupp::" #NAME                                                            \
                    ": ordering comparisons of complex numbers are not "                      \
                    "supported (NumPy 2 raises TypeError); compare real() or abs() instead"); \
    };                                                                                        \
    template <class T>                                                                        \
    CUPP_HD bool operator()(T a, T b) const {                                                 \
      if constexpr (detail::is_low_float_v<T>) {                                              \
        const float x = detail::to_float(a), y = detail::to_float(b);                         \
        return EXPR;                                                                          \
      } else {                                                                                \
        const T& x = a;                                                                       \
        const T& y = b;                                                                       \
        return EXPR;                                                                          \
      }                                                                                       \
    }                                                                                         \
  };

CUPP_COMPARISON(equal, x == y, false)
CUPP_COMPARISON(not_equal, x != y, false)
CUPP_COMPARISON(less, x < y, true)
CUPP_COMPARISON(less_equal, x <= y, true)
CUPP_COMPARISON(greater, x > y, true)
CUPP_COMPARISON(greater_equal, x >= y, true)

#undef CUPP_COMPARISON

}  // namespace cupp::ops
