// numpy.cumsum, cumprod, nancumsum and nancumprod over arrays and lazy
// expressions: axis=None scans the flattened operand (C order), an axis
// scans each line along it. Device operands go through cub::DeviceScan, one
// call for all lines; the result has NumPy's dtype (the platform integer for
// bool and small integers) unless dtype= (the template argument) is given.
//
//   auto c = cupp::cumsum(x);          // 1-d, x.size() elements
//   auto p = cupp::cumprod(x * 2, 1);  // x * 2 is never stored
//
// The engine lives in detail/reduce/scan_run.hpp.
#pragma once

#include <cupp/detail/reduce/scan_run.hpp>
#include <cupp/expression.hpp>

namespace cupp {

// numpy.cumsum(x, axis=None, dtype=Dt).
template <class Dt = void, Expression E>
auto cumsum(const E& x, axis_arg axis = {}) {
  return detail::cumulative<Dt, false, false>(as_operand(x), axis);
}
// numpy.cumprod(x, axis=None, dtype=Dt).
template <class Dt = void, Expression E>
auto cumprod(const E& x, axis_arg axis = {}) {
  return detail::cumulative<Dt, true, false>(as_operand(x), axis);
}
// numpy.nancumsum: NaN counts as 0.
template <class Dt = void, Expression E>
auto nancumsum(const E& x, axis_arg axis = {}) {
  return detail::cumulative<Dt, false, true>(as_operand(x), axis);
}
// numpy.nancumprod: NaN counts as 1.
template <class Dt = void, Expression E>
auto nancumprod(const E& x, axis_arg axis = {}) {
  return detail::cumulative<Dt, true, true>(as_operand(x), axis);
}

}  // namespace cupp
