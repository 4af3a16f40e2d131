// numpy.median, percentile, quantile and their nan-variants over arrays and
// lazy expressions, device and host, with NumPy 2's 13 methods, axis as an
// int, a list of axes or cupp::none, keepdims, and weighted inverted_cdf.
// Rows (the reduced axes moved last, the operand evaluated once) are
// sorted, then one kernel computes every q of every row; a single long row
// selects only the order statistics it needs. See docs/sorting.md.
//
//   auto m = cupp::median(x);                                  // all axes
//   auto p = cupp::percentile(x, {1, 50, 99});                 // shape (3,)
//   auto q = cupp::quantile(x * 2, 0.25, 1, {.method = "lower", .keepdims = true});
//   auto w = cupp::quantile(x, 0.5, 0, weights, {.method = "inverted_cdf"});
//   auto n = cupp::nanmedian(x, {0, 2});
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <cupp/axis.hpp>
#include <cupp/creation.hpp>
#include <cupp/expression.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/reductions.hpp>
#include <cupp/sort/sort.hpp>
#include <cupp/sort/sort_types.hpp>
#include <cupp/space_check.hpp>
#include <cupp/detail/sort/quantile_run.hpp>

namespace cupp {

// A quantile's q: a number (result of the reduced shape) or a list
// (a leading axis of its length).
template <class Q>
concept quantile_scalar = std::is_arithmetic_v<Q>;

#define CUPP_QUANTILE_FAMILY(NAME, PERCENT, SKIPNAN)                                              \
  template <Expression E, quantile_scalar Q>                                                      \
  auto NAME(const E& a, Q q, axis_arg axis = {}, quantile_options o = {}) {                       \
    return detail::quantiles::quantile_entry<true, PERCENT, SKIPNAN>(a, {static_cast<double>(q)}, \
                                                                     axis, o);                    \
  }                                                                                               \
  template <Expression E>                                                                         \
  auto NAME(const E& a, const std::vector<double>& q, axis_arg axis = {},                         \
            quantile_options o = {}) {                                                            \
    return detail::quantiles::quantile_entry<false, PERCENT, SKIPNAN>(a, q, axis, o);             \
  }                                                                                               \
  template <Expression E>                                                                         \
  auto NAME(const E& a, std::initializer_list<double> q, axis_arg axis = {},                      \
            quantile_options o = {}) {                                                            \
    return detail::quantiles::quantile_entry<false, PERCENT, SKIPNAN>(a, std::vector<double>(q),  \
                                                                      axis, o);                   \
  }                                                                                               \
  template <Expression E, quantile_scalar Q, Expression W>                                        \
  auto NAME(const E& a, Q q, axis_arg axis, const W& weights, quantile_options o) {               \
    CUPP_SAME_SPACE(E, W);                                                                        \
    return detail::quantiles::weighted_entry<true, PERCENT, SKIPNAN>(                             \
        a, weights, {static_cast<double>(q)}, axis, o);                                           \
  }                                                                                               \
  template <Expression E, Expression W>                                                           \
  auto NAME(const E& a, const std::vector<double>& q, axis_arg axis, const W& weights,            \
            quantile_options o) {                                                                 \
    CUPP_SAME_SPACE(E, W);                                                                        \
    return detail::quantiles::weighted_entry<false, PERCENT, SKIPNAN>(a, weights, q, axis, o);    \
  }                                                                                               \
  template <Expression E, Expression W>                                                           \
  auto NAME(const E& a, std::initializer_list<double> q, axis_arg axis, const W& weights,         \
            quantile_options o) {                                                                 \
    CUPP_SAME_SPACE(E, W);                                                                        \
    return detail::quantiles::weighted_entry<false, PERCENT, SKIPNAN>(                            \
        a, weights, std::vector<double>(q), axis, o);                                             \
  }

// numpy.quantile(a, q, axis, method=, keepdims=, weights=): q in [0, 1].
CUPP_QUANTILE_FAMILY(quantile, false, false)
// numpy.percentile: q in [0, 100].
CUPP_QUANTILE_FAMILY(percentile, true, false)
// numpy.nanquantile: NaNs ignored; an all-NaN slice gives NaN.
CUPP_QUANTILE_FAMILY(nanquantile, false, true)
// numpy.nanpercentile.
CUPP_QUANTILE_FAMILY(nanpercentile, true, true)

#undef CUPP_QUANTILE_FAMILY

// numpy.median(a, axis, keepdims=): float64 for integers and bool, the
// input's dtype otherwise (complex included); NaN for a slice with a NaN.
template <Expression E>
auto median(const E& a, axis_arg axis = {}, median_options o = {}) {
  return detail::quantiles::median_entry<false>(a, axis, o);
}
// numpy.nanmedian: NaNs ignored; an all-NaN slice gives NaN.
template <Expression E>
auto nanmedian(const E& a, axis_arg axis = {}, median_options o = {}) {
  return detail::quantiles::median_entry<true>(a, axis, o);
}

}  // namespace cupp
