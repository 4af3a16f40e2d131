// Comparison ufuncs and their operators.
//
// A C++ integer compared with an integer operand is folded into the
// operation (ops::compare_with_int): NumPy 2 compares a Python int with an
// integer array by value, whatever its range, so `x < 300` on int8 is all
// True rather than an OverflowError.
#pragma once

#include <type_traits>

// Expressions and the array their leaves hold, before the machinery.
#include <cupp/expression.hpp>

#include <cupp/space_check.hpp>
#include <cupp/detail/ops/comparison.hpp>
#include <cupp/detail/ufunc/comparison.hpp>
#include <cupp/detail/expression/ufunc_define.hpp>

namespace cupp {

#define CUPP_COMPARISON_UFUNC(NAME)                                               \
  template <Operand A, Operand B>                                                 \
  auto NAME(const A& a, const B& b) {                                             \
    CUPP_SAME_SPACE(A, B);                                                        \
    return detail::make_comparison<ops::NAME>(a, b);                              \
  }                                                                               \
  template <Operand A, Operand B, class T_, class S_>                             \
  const ndarray<T_, S_>& NAME(const A& a, const B& b, const out_arg<T_, S_>& o) { \
    CUPP_SAME_SPACE(A, B, out_arg<T_, S_>);                                       \
    detail::check_ufunc_out(o.array, a, b);                                       \
    return detail::write_out(o, NAME(a, b));                                      \
  }

CUPP_COMPARISON_UFUNC(equal)
CUPP_COMPARISON_UFUNC(not_equal)
CUPP_COMPARISON_UFUNC(less)
CUPP_COMPARISON_UFUNC(less_equal)
CUPP_COMPARISON_UFUNC(greater)
CUPP_COMPARISON_UFUNC(greater_equal)

#undef CUPP_COMPARISON_UFUNC

CUPP_BINARY_OPERATOR(==, equal)
CUPP_BINARY_OPERATOR(!=, not_equal)
CUPP_BINARY_OPERATOR(<, less)
CUPP_BINARY_OPERATOR(<=, less_equal)
CUPP_BINARY_OPERATOR(>, greater)
CUPP_BINARY_OPERATOR(>=, greater_equal)

}  // namespace cupp
