// The argument and result types of cupp's sorting, searching, set,
// order-statistics and histogram routines (include/cupp/sort/): partition's
// kth, unique's options and result, the quantile and median options,
// histogram's density, ranges and results, intersect1d's return_indices
// and result. A vocabulary header, so that the machinery of detail/sort/
// can take and build them as the public functions do.
// cupp-layer: vocabulary
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/axis.hpp>
#include <cupp/config.hpp>

namespace cupp {

// Of partition and argpartition (sort/partition.hpp).

// numpy.partition's kth: one position (an integer) or several (a braced
// list or a std::vector); negative positions count from the end of the axis.
class partition_kth {
 public:
  partition_kth(index_t kth) : positions_{kth} {}
  partition_kth(std::initializer_list<index_t> kth) : positions_(kth) {}
  partition_kth(std::vector<index_t> kth) : positions_(std::move(kth)) {}
  const std::vector<index_t>& positions() const { return positions_; }

 private:
  std::vector<index_t> positions_;
};

// Of unique (sort/unique.hpp).

// numpy.unique's keyword arguments, in NumPy's order (designated
// initializers must keep it). sorted=false is accepted, as NumPy allows,
// and changes nothing: the results are always sorted.
struct unique_options {
  bool return_index = false;
  bool return_inverse = false;
  bool return_counts = false;
  axis_arg axis = none;
  bool equal_nan = true;
  bool sorted = true;
};

// numpy.unique's results: int64 indices of the first occurrences, the
// inverse (input shape with axis=None or a 1-d input, else one entry per
// slice along the axis) and the counts. The ones not asked for are empty
// (shape (0,)).
template <class T, class S>
struct unique_result {
  ndarray<T, S> values;
  ndarray<std::int64_t, S> indices, inverse, counts;
};

// Of the quantiles and medians (sort/quantile.hpp).

// quantile/percentile options: NumPy's method= (one of its 13 names),
// keepdims=, and overwrite_input= (accepted; the input is never written).
struct quantile_options {
  std::string_view method = "linear";
  bool keepdims = false;
  bool overwrite_input = false;
};

// median/nanmedian options.
struct median_options {
  bool keepdims = false;
  bool overwrite_input = false;
};

// Of the histograms (sort/histogram.hpp).

// density=True: the histogram as a probability density (float64).
struct density_t {
  explicit constexpr density_t() = default;
};
inline constexpr density_t density{};

// NumPy's range=(lo, hi); std::nullopt is range=None.
using histogram_range = std::optional<std::pair<double, double>>;

template <class H, class E, class S>
struct histogram_result {
  ndarray<H, S> hist;
  ndarray<E, S> bin_edges;
};

template <class S>
struct histogramdd_result {
  ndarray<double, S> hist;
  std::vector<ndarray<double, S>> bin_edges;
};

template <class S>
struct histogram2d_result {
  ndarray<double, S> hist;
  ndarray<double, S> xedges, yedges;
};

using histogramdd_range = std::vector<histogram_range>;

// Of intersect1d (sort/sets.hpp).

// intersect1d(..., return_indices): the common values and the indices of
// their first occurrences in each (flattened) input.
struct return_indices_t {
  explicit return_indices_t() = default;
};
inline constexpr return_indices_t return_indices{};

template <class T, class S>
struct intersect1d_result {
  ndarray<T, S> values;
  ndarray<std::int64_t, S> indices1;
  ndarray<std::int64_t, S> indices2;
};

}  // namespace cupp
