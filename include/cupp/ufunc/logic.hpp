// Logical ufuncs (any dtype, bool results), the bitwise ufuncs of integers
// and bool, gcd and lcm, and the operators & | ^ ~ << >> with their in-place
// forms.
#pragma once

// Expressions and the array their leaves hold, before the machinery.
#include <cupp/expression.hpp>

#include <cupp/detail/ops/bitwise.hpp>
#include <cupp/detail/ops/logic.hpp>
#include <cupp/detail/expression/ufunc_define.hpp>

namespace cupp {

CUPP_UFUNC_2(logical_and, ops::logical_and)
CUPP_UFUNC_2(logical_or, ops::logical_or)
CUPP_UFUNC_2(logical_xor, ops::logical_xor)
CUPP_UFUNC_1(logical_not, ops::logical_not)

CUPP_UFUNC_2(bitwise_and, ops::bitwise_and)
CUPP_UFUNC_2(bitwise_or, ops::bitwise_or)
CUPP_UFUNC_2(bitwise_xor, ops::bitwise_xor)
CUPP_UFUNC_1(invert, ops::invert)
CUPP_UFUNC_2(left_shift, ops::left_shift)
CUPP_UFUNC_2(right_shift, ops::right_shift)
// NumPy 2's array-API names for the same ufuncs.
CUPP_UFUNC_1(bitwise_not, ops::invert)
CUPP_UFUNC_1(bitwise_invert, ops::invert)
CUPP_UFUNC_2(bitwise_left_shift, ops::left_shift)
CUPP_UFUNC_2(bitwise_right_shift, ops::right_shift)

CUPP_UFUNC_2(gcd, ops::gcd)
CUPP_UFUNC_2(lcm, ops::lcm)

CUPP_BINARY_OPERATOR(&, bitwise_and)
CUPP_BINARY_OPERATOR(|, bitwise_or)
CUPP_BINARY_OPERATOR(^, bitwise_xor)
CUPP_BINARY_OPERATOR(<<, left_shift)
CUPP_BINARY_OPERATOR(>>, right_shift)

template <Expression A>
auto operator~(const A& a) {
  return invert(a);
}

CUPP_INPLACE_OPERATOR(&=, bitwise_and)
CUPP_INPLACE_OPERATOR(|=, bitwise_or)
CUPP_INPLACE_OPERATOR(^=, bitwise_xor)
CUPP_INPLACE_OPERATOR(<<=, left_shift)
CUPP_INPLACE_OPERATOR(>>=, right_shift)

}  // namespace cupp
