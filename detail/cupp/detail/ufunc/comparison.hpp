// The comparison ufuncs of <cupp/ufunc/comparison.hpp> with a C++ integer
// on one side and an integer operand on the other: the integer is folded
// into the operation (ops::compare_with_int), so that it compares by value
// whatever its range, as NumPy 2 compares a Python int.
#pragma once

#include <type_traits>

#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/expression/ufunc_expr.hpp>
#include <cupp/detail/ops/comparison.hpp>

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

}  // namespace cupp
