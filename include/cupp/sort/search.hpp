// numpy.searchsorted, numpy.digitize and numpy.bincount over arrays and
// lazy expressions. Device operands search in one kernel, one thread per
// query (through a small index of `a` built per call when both are long);
// digitize adds one flag read back for
// its monotonicity check, bincount one read of the largest value (its
// result's length depends on the data).
//
//   auto i = cupp::searchsorted(a, v, "right");        // int64, v's shape
//   auto d = cupp::digitize(x, bins, /*right=*/true);
//   auto c = cupp::bincount(x, weights, /*minlength=*/8);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <cupp/creation.hpp>
#include <cupp/expression.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/reductions.hpp>
#include <cupp/space_check.hpp>
#include <cupp/detail/sort/search_run.hpp>

namespace cupp {

// numpy.searchsorted(a, v, side): for each element of v, the index where it
// would go in the sorted 1-d `a` (NumPy's order: NaNs last, complex
// lexicographic). v is an array, an expression or a scalar (a 0-d result).
template <Expression A, class V>
requires(Expression<V> || Scalar<V>) auto searchsorted(const A& a, const V& v,
                                                       std::string_view side = "left") {
  CUPP_SAME_SPACE(A, V);
  return detail::search::searchsorted_impl<A, V, void>(a, v, side, nullptr);
}

// searchsorted with `sorter`: integer indices that sort `a` (argsort(a)).
// NumPy checks only its length; an entry outside [0, a.size) is clamped
// into it, so a bad sorter gives meaningless indices, never a bad read.
template <Expression A, class V, class T, class S>
requires(Expression<V> || Scalar<V>) auto searchsorted(const A& a, const V& v,
                                                       std::string_view side,
                                                       const ndarray<T, S>& sorter) {
  CUPP_SAME_SPACE(A, V, ndarray<T, S>);
  return detail::search::searchsorted_impl<A, V, ndarray<T, S>>(a, v, side, &sorter);
}

// numpy.digitize(x, bins, right): the index of the bin of each element of
// x; bins monotonically increasing or decreasing (checked: one flag read
// back on the device).
template <Expression X, Expression B>
auto digitize(const X& x_in, const B& bins_in, bool right = false) {
  CUPP_SAME_SPACE(X, B);
  return detail::search::digitize_impl(x_in, bins_in, right);
}

// numpy.bincount(x, minlength=0): int64 counts of each value of the 1-d
// non-negative integer x, max(x) + 1 (at least minlength) long.
template <Expression X>
auto bincount(const X& x, index_t minlength = 0) {
  return detail::search::bincount_impl<X, void>(x, nullptr, minlength);
}

// numpy.bincount(x, weights, minlength): float64 sums of the weights.
template <Expression X, Expression W>
auto bincount(const X& x, const W& weights, index_t minlength = 0) {
  CUPP_SAME_SPACE(X, W);
  return detail::search::bincount_impl<X, W>(x, &weights, minlength);
}

}  // namespace cupp
