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

#include <cupp/detail/ops/comparison.hpp>
#include <cupp/detail/expression/ufunc_define.hpp>

namespace cupp {

namespace detail {

template <class X>
inline constexpr bool is_int_scalar_v =
    std::is_integral_v<std::remove_cvref_t<X>> && !std::is_same_v<std::remove_cvref_t<X>, bool>;

template <class X>
constexpr bool is_int_operand() {
  if constexpr (Expression<X>)
    return ops::comparison_impl::integer_dtype<typename operand_t<X>::value_type>();
  else
    return false;
}

template <class Op, class A, class B>
auto make_comparison(const A& a, const B& b) {
  if constexpr (is_int_operand<A>() && is_int_scalar_v<B>) {
    using I = typename operand_t<A>::value_type;
    return make_ufunc(ops::compare_with_int<Op::rel, I>{ops::bound_of<I>(b)}, a);
  } else if constexpr (is_int_scalar_v<A> && is_int_operand<B>()) {
    using I = typename operand_t<B>::value_type;
    constexpr ops::relation swapped = ops::comparison_impl::mirror(Op::rel);
    return make_ufunc(ops::compare_with_int<swapped, I>{ops::bound_of<I>(a)}, b);
  } else {
    return make_ufunc(Op{}, a, b);
  }
}

}  // namespace detail

#define CUPP_COMPARISON_UFUNC(NAME)                                               \
  template <Operand A, Operand B>                                                 \
  auto NAME(const A& a, const B& b) {                                             \
    return detail::make_comparison<ops::NAME>(a, b);                              \
  }                                                                               \
  template <Operand A, Operand B, class T_, class S_>                             \
  const ndarray<T_, S_>& NAME(const A& a, const B& b, const out_arg<T_, S_>& o) { \
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
