// Arithmetic ufuncs and their operators.
#pragma once

#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/detail/ufunc_define.hpp>

namespace cupp {

CUPP_UFUNC_2(add, ops::add)
CUPP_UFUNC_2(subtract, ops::subtract)
CUPP_UFUNC_2(multiply, ops::multiply)
CUPP_UFUNC_2(true_divide, ops::true_divide)
CUPP_UFUNC_2(divide, ops::true_divide)
CUPP_UFUNC_1(negative, ops::negative)
CUPP_UFUNC_1(positive, ops::positive)

CUPP_BINARY_OPERATOR(+, add)
CUPP_BINARY_OPERATOR(-, subtract)
CUPP_BINARY_OPERATOR(*, multiply)
CUPP_BINARY_OPERATOR(/, true_divide)

template <Expression A>
auto operator-(const A& a) {
  return negative(a);
}
template <Expression A>
auto operator+(const A& a) {
  return positive(a);
}

CUPP_INPLACE_OPERATOR(+=, add)
CUPP_INPLACE_OPERATOR(-=, subtract)
CUPP_INPLACE_OPERATOR(*=, multiply)
CUPP_INPLACE_OPERATOR(/=, true_divide)

}  // namespace cupp
