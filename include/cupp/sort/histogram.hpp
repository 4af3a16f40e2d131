// numpy.histogram, histogram_bin_edges, histogram2d and histogramdd over
// arrays and lazy expressions. Equal bins count with NumPy's own arithmetic
// ((x - lo) / (hi - lo) * n, corrected against the edges, the last bin
// closed) in one kernel with per-block bins in shared memory; explicit
// edges search edges held in shared memory. Without a range the data's min
// and max are read back (the edges depend on them); string rules read the
// data back to the host to size the bins.
//
//   auto [hist, edges] = cupp::histogram(x, 256, std::pair{0.0, 1.0});
//   auto [p, e] = cupp::histogram(x, "auto", std::nullopt, cupp::density);
//   auto [h2, xe, ye] = cupp::histogram2d(x, y, 32);
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/manipulation.hpp>
#include <cupp/sort/search.hpp>
#include <cupp/sort/sort_types.hpp>
#include <cupp/space_check.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/detail/sort/histogram_run.hpp>
#include <cupp/detail/sort/histogramdd_run.hpp>

namespace cupp {

// numpy.histogram(a, bins=10, range=None): int64 counts and the edges.
// bins: an int (equal bins), a 1-d array of increasing edges, or one of
// NumPy's rules ("auto", "fd", "doane", "scott", "stone", "rice",
// "sturges", "sqrt"). `a` is flattened.
template <Expression A, detail::hist::histogram_bins B = int>
auto histogram(const A& a, const B& bins = 10, const histogram_range& range = std::nullopt) {
  CUPP_SAME_SPACE(A, B);
  return detail::hist::histogram_impl<false, A, B, void>(a, bins, range, nullptr);
}
// density=True: float64 densities (integrating to 1 over the range).
template <Expression A, detail::hist::histogram_bins B>
auto histogram(const A& a, const B& bins, const histogram_range& range, density_t) {
  CUPP_SAME_SPACE(A, B);
  return detail::hist::histogram_impl<true, A, B, void>(a, bins, range, nullptr);
}
// weights=w: sums of the weights (w's dtype), same shape as a.
template <Expression A, detail::hist::histogram_bins B, Expression W>
auto histogram(const A& a, const B& bins, const histogram_range& range, const W& weights) {
  CUPP_SAME_SPACE(A, B, W);
  return detail::hist::histogram_impl<false, A, B, W>(a, bins, range, &weights);
}
template <Expression A, detail::hist::histogram_bins B, Expression W>
auto histogram(const A& a, const B& bins, const histogram_range& range, density_t,
               const W& weights) {
  CUPP_SAME_SPACE(A, B, W);
  return detail::hist::histogram_impl<true, A, B, W>(a, bins, range, &weights);
}

// numpy.histogram_bin_edges(a, bins=10, range=None): the edges alone.
template <Expression A, detail::hist::histogram_bins B = int>
auto histogram_bin_edges(const A& a, const B& bins = 10,
                         const histogram_range& range = std::nullopt) {
  return histogram(a, bins, range).bin_edges;
}
template <Expression A, detail::hist::histogram_bins B, Expression W>
auto histogram_bin_edges(const A& a, const B& bins, const histogram_range& range,
                         const W& weights) {
  return histogram(a, bins, range, weights).bin_edges;
}

// numpy.histogramdd(sample, bins=10, range=None, density=False, weights):
// sample is (N, D) (or 1-d: D = 1); bins an int for every dimension, one
// int per dimension, or one edges array per dimension; range one optional
// (lo, hi) per dimension (empty: None). float64 hist, float64 edges.
template <Expression X>
auto histogramdd(const X& sample, index_t bins = 10, const histogramdd_range& range = {},
                 bool density = false) {
  return detail::hist::histogramdd_impl<X, void>(sample, detail::hist::count_bins_dd({bins}), true,
                                                 range, density, nullptr);
}
template <Expression X>
auto histogramdd(const X& sample, const std::vector<index_t>& bins,
                 const histogramdd_range& range = {}, bool density = false) {
  return detail::hist::histogramdd_impl<X, void>(sample, detail::hist::count_bins_dd(bins), false,
                                                 range, density, nullptr);
}
template <Expression X, class E, class S>
auto histogramdd(const X& sample, const std::vector<ndarray<E, S>>& bins,
                 const histogramdd_range& range = {}, bool density = false) {
  CUPP_SAME_SPACE(X, ndarray<E, S>);
  return detail::hist::histogramdd_impl<X, void>(sample, detail::hist::edges_bins(bins), false,
                                                 range, density, nullptr);
}
// ... with weights (one per sample).
template <Expression X, Expression W>
auto histogramdd(const X& sample, index_t bins, const histogramdd_range& range, bool density,
                 const W& weights) {
  CUPP_SAME_SPACE(X, W);
  return detail::hist::histogramdd_impl<X, W>(sample, detail::hist::count_bins_dd({bins}), true,
                                              range, density, &weights);
}
template <Expression X, Expression W>
auto histogramdd(const X& sample, const std::vector<index_t>& bins, const histogramdd_range& range,
                 bool density, const W& weights) {
  CUPP_SAME_SPACE(X, W);
  return detail::hist::histogramdd_impl<X, W>(sample, detail::hist::count_bins_dd(bins), false,
                                              range, density, &weights);
}
template <Expression X, class E, class S, Expression W>
auto histogramdd(const X& sample, const std::vector<ndarray<E, S>>& bins,
                 const histogramdd_range& range, bool density, const W& weights) {
  CUPP_SAME_SPACE(X, W, ndarray<E, S>);
  return detail::hist::histogramdd_impl<X, W>(sample, detail::hist::edges_bins(bins), false, range,
                                              density, &weights);
}

// numpy.histogram2d(x, y, bins=10, range=None, density=False, weights):
// bins an int, {nx, ny}, one edges array for both, or {xedges, yedges}.
template <Expression X, Expression Y>
auto histogram2d(const X& x, const Y& y, index_t bins = 10, const histogramdd_range& range = {},
                 bool density = false) {
  CUPP_SAME_SPACE(X, Y);
  return detail::hist::histogram2d_impl<X, Y, void>(x, y, detail::hist::count_bins_dd({bins}),
                                                    range, density, nullptr);
}
template <Expression X, Expression Y>
auto histogram2d(const X& x, const Y& y, const std::vector<index_t>& bins,
                 const histogramdd_range& range = {}, bool density = false) {
  CUPP_SAME_SPACE(X, Y);
  return detail::hist::histogram2d_impl<X, Y, void>(x, y, detail::hist::count_bins_dd(bins), range,
                                                    density, nullptr);
}
template <Expression X, Expression Y, class E, class S>
auto histogram2d(const X& x, const Y& y, const std::vector<ndarray<E, S>>& bins,
                 const histogramdd_range& range = {}, bool density = false) {
  CUPP_SAME_SPACE(X, Y, ndarray<E, S>);
  return detail::hist::histogram2d_impl<X, Y, void>(x, y, detail::hist::edges_bins(bins), range,
                                                    density, nullptr);
}
template <Expression X, Expression Y, class E, class S>
auto histogram2d(const X& x, const Y& y, const ndarray<E, S>& bins,
                 const histogramdd_range& range = {}, bool density = false) {
  CUPP_SAME_SPACE(X, Y, ndarray<E, S>);
  return detail::hist::histogram2d_impl<X, Y, void>(x, y, detail::hist::edges_bins<S, E>({bins}),
                                                    range, density, nullptr);
}
template <Expression X, Expression Y, Expression W>
auto histogram2d(const X& x, const Y& y, index_t bins, const histogramdd_range& range, bool density,
                 const W& weights) {
  CUPP_SAME_SPACE(X, Y, W);
  return detail::hist::histogram2d_impl<X, Y, W>(x, y, detail::hist::count_bins_dd({bins}), range,
                                                 density, &weights);
}
template <Expression X, Expression Y, Expression W>
auto histogram2d(const X& x, const Y& y, const std::vector<index_t>& bins,
                 const histogramdd_range& range, bool density, const W& weights) {
  CUPP_SAME_SPACE(X, Y, W);
  return detail::hist::histogram2d_impl<X, Y, W>(x, y, detail::hist::count_bins_dd(bins), range,
                                                 density, &weights);
}

template <Expression X, Expression Y, class E, class S, Expression W>
auto histogram2d(const X& x, const Y& y, const std::vector<ndarray<E, S>>& bins,
                 const histogramdd_range& range, bool density, const W& weights) {
  CUPP_SAME_SPACE(X, Y, W, ndarray<E, S>);
  return detail::hist::histogram2d_impl<X, Y, W>(x, y, detail::hist::edges_bins(bins), range,
                                                 density, &weights);
}

}  // namespace cupp
