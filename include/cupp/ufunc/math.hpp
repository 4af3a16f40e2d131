// Math ufuncs: roots, exponentials, logarithms, trigonometric and hyperbolic
// functions, angle conversions, and numpy.sinc.
#pragma once

// Expressions and the array their leaves hold, before the machinery.
#include <cupp/expression.hpp>

#include <cupp/detail/ops/math.hpp>
#include <cupp/detail/expression/ufunc_define.hpp>

namespace cupp {

CUPP_UFUNC_1(sqrt, ops::sqrt)
CUPP_UFUNC_1(cbrt, ops::cbrt)
CUPP_UFUNC_1(square, ops::square)
CUPP_UFUNC_1(exp, ops::exp)
CUPP_UFUNC_1(exp2, ops::exp2)
CUPP_UFUNC_1(expm1, ops::expm1)
CUPP_UFUNC_1(log, ops::log)
CUPP_UFUNC_1(log2, ops::log2)
CUPP_UFUNC_1(log10, ops::log10)
CUPP_UFUNC_1(log1p, ops::log1p)
CUPP_UFUNC_2(logaddexp, ops::logaddexp)
CUPP_UFUNC_2(logaddexp2, ops::logaddexp2)

CUPP_UFUNC_1(sin, ops::sin)
CUPP_UFUNC_1(cos, ops::cos)
CUPP_UFUNC_1(tan, ops::tan)
CUPP_UFUNC_1(arcsin, ops::arcsin)
CUPP_UFUNC_1(arccos, ops::arccos)
CUPP_UFUNC_1(arctan, ops::arctan)
CUPP_UFUNC_2(arctan2, ops::arctan2)
CUPP_UFUNC_2(hypot, ops::hypot)
CUPP_UFUNC_1(sinh, ops::sinh)
CUPP_UFUNC_1(cosh, ops::cosh)
CUPP_UFUNC_1(tanh, ops::tanh)
CUPP_UFUNC_1(arcsinh, ops::arcsinh)
CUPP_UFUNC_1(arccosh, ops::arccosh)
CUPP_UFUNC_1(arctanh, ops::arctanh)
CUPP_UFUNC_1(deg2rad, ops::deg2rad)
CUPP_UFUNC_1(rad2deg, ops::rad2deg)
CUPP_UFUNC_1(degrees, ops::degrees)
CUPP_UFUNC_1(radians, ops::radians)

// NumPy 2's array-API names for the same ufuncs (numpy.asin is
// numpy.arcsin).
CUPP_UFUNC_1(asin, ops::arcsin)
CUPP_UFUNC_1(acos, ops::arccos)
CUPP_UFUNC_1(atan, ops::arctan)
CUPP_UFUNC_2(atan2, ops::arctan2)
CUPP_UFUNC_1(asinh, ops::arcsinh)
CUPP_UFUNC_1(acosh, ops::arccosh)
CUPP_UFUNC_1(atanh, ops::arctanh)

// numpy.sinc(x) = sin(pi x) / (pi x), 1 at 0. Not a ufunc in NumPy (no out=).
template <Operand A>
auto sinc(const A& a) {
  return make_ufunc(ops::sinc{}, a);
}

}  // namespace cupp
