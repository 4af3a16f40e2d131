// numpy.unique (return_index, return_inverse, return_counts, axis,
// equal_nan) and NumPy 2's unique_values, unique_counts, unique_inverse and
// unique_all, over arrays and lazy expressions of every dtype. Results are
// sorted in NumPy's order (NaNs last); a run of equal values is
// represented by its first occurrence in the input (-0.0 or 0.0, whichever
// comes first). The number of unique values sizes the results, so device
// arrays read it back: one synchronisation of the current stream per call.
// Device arrays sort with CUB (DeviceRadixSort, DeviceMergeSort for slices)
// and select the runs with DeviceSelect; host arrays use the CPU. See
// docs/sorting.md.
//
//   auto v = cupp::unique(x);                               // the values
//   auto r = cupp::unique(x * 2, {.return_counts = true});  // r.values, r.counts
//   auto rows = cupp::unique(m, {.axis = 0}).values;        // unique rows
//   auto [values, counts] = cupp::unique_counts(x);
#pragma once

#include <cstdint>
#include <string>

#include <cupp/axis.hpp>
#include <cupp/expression.hpp>
#include <cupp/sort/sort.hpp>
#include <cupp/sort/sort_types.hpp>
#include <cupp/detail/sort/unique_run.hpp>

namespace cupp {

// NumPy 2's UniqueAllResult, UniqueCountsResult, UniqueInverseResult.
template <class T, class S>
struct unique_all_result {
  ndarray<T, S> values;
  ndarray<std::int64_t, S> indices, inverse_indices, counts;
};
template <class T, class S>
struct unique_counts_result {
  ndarray<T, S> values;
  ndarray<std::int64_t, S> counts;
};
template <class T, class S>
struct unique_inverse_result {
  ndarray<T, S> values;
  ndarray<std::int64_t, S> inverse_indices;
};

// numpy.unique(x): the sorted unique values of the flattened x (NaNs one
// value, as NumPy's default equal_nan=True).
template <Expression E>
auto unique(const E& x) {
  return detail::sorting::unique_of(as_operand(x), unique_options{}).values;
}

// numpy.unique(x, return_index, return_inverse, return_counts, axis,
// equal_nan, sorted): every result in one struct.
template <Expression E>
auto unique(const E& x, const unique_options& options) {
  return detail::sorting::unique_of(as_operand(x), options);
}

// NumPy 2's unique_all(x): np.unique(x, True, True, True, equal_nan=False).
template <Expression E>
auto unique_all(const E& x) {
  auto r = detail::sorting::unique_of(
      as_operand(x),
      {.return_index = true, .return_inverse = true, .return_counts = true, .equal_nan = false});
  using T = typename decltype(r.values)::value_type;
  using S = typename decltype(r.values)::space_type;
  return unique_all_result<T, S>{std::move(r.values), std::move(r.indices), std::move(r.inverse),
                                 std::move(r.counts)};
}

// NumPy 2's unique_counts(x): values and counts, equal_nan=False.
template <Expression E>
auto unique_counts(const E& x) {
  auto r = detail::sorting::unique_of(as_operand(x), {.return_counts = true, .equal_nan = false});
  using T = typename decltype(r.values)::value_type;
  using S = typename decltype(r.values)::space_type;
  return unique_counts_result<T, S>{std::move(r.values), std::move(r.counts)};
}

// NumPy 2's unique_inverse(x): values and the inverse (x's shape),
// equal_nan=False.
template <Expression E>
auto unique_inverse(const E& x) {
  auto r = detail::sorting::unique_of(as_operand(x), {.return_inverse = true, .equal_nan = false});
  using T = typename decltype(r.values)::value_type;
  using S = typename decltype(r.values)::space_type;
  return unique_inverse_result<T, S>{std::move(r.values), std::move(r.inverse)};
}

// NumPy 2's unique_values(x): the values, equal_nan=False. NumPy leaves
// their order unspecified (and returns them unsorted); cupp's are sorted.
template <Expression E>
auto unique_values(const E& x) {
  return detail::sorting::unique_of(as_operand(x), {.equal_nan = false}).values;
}

}  // namespace cupp
