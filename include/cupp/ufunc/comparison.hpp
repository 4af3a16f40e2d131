// Comparison ufuncs and their operators.
#pragma once

#include <cupp/detail/ops/comparison.hpp>
#include <cupp/detail/ufunc_define.hpp>

namespace cupp {

CUPP_UFUNC_2(equal, ops::equal)
CUPP_UFUNC_2(not_equal, ops::not_equal)
CUPP_UFUNC_2(less, ops::less)
CUPP_UFUNC_2(less_equal, ops::less_equal)
CUPP_UFUNC_2(greater, ops::greater)
CUPP_UFUNC_2(greater_equal, ops::greater_equal)

CUPP_BINARY_OPERATOR(==, equal)
CUPP_BINARY_OPERATOR(!=, not_equal)
CUPP_BINARY_OPERATOR(<, less)
CUPP_BINARY_OPERATOR(<=, less_equal)
CUPP_BINARY_OPERATOR(>, greater)
CUPP_BINARY_OPERATOR(>=, greater_equal)

}  // namespace cupp
