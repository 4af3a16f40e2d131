// numpy.partition, numpy.argpartition and ndarray.partition
// (partition_inplace) over arrays and lazy expressions of every dtype.
// For each kth, the element at kth is the one a sort would put there, every
// element before it is <= it and every one after it >= it, in NumPy's order
// (NaN last, -0.0 equal to 0.0, complex by real then imaginary part); the
// order within the two sides is unspecified. Device arrays: one long row
// with one kth of a real dtype takes a radix selection and one three-way
// pass; everything else is sorted (CUB), which satisfies every kth. Host
// arrays: std::nth_element. No host synchronisation. See docs/sorting.md.
//
//   auto p = cupp::partition(x, 3);                // along the last axis
//   auto i = cupp::argpartition(x * 2, {0, -1}, 0); // several kth, axis 0
//   auto f = cupp::partition(x, 10, cupp::none);   // flattened
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/axis.hpp>
#include <cupp/expression.hpp>
#include <cupp/sort/sort.hpp>
#include <cupp/sort/sort_types.hpp>
#include <cupp/detail/sort/partition_run.hpp>
#include <cupp/detail/sort/sort_args.hpp>

namespace cupp {

// numpy.partition(x, kth, axis, kind): a partitioned copy, C-contiguous, of
// x's shape. kind must be "introselect", NumPy's only one.
template <Expression E>
auto partition(const E& x, const partition_kth& kth, int axis = -1,
               std::string_view kind = "introselect") {
  detail::partitioning::check_kind(kind);
  return detail::partitioning::partition_along<false>(as_operand(x), axis, false, kth);
}
// numpy.partition(x, kth, axis=None): the flattened elements, partitioned.
template <Expression E>
auto partition(const E& x, const partition_kth& kth, none_t,
               std::string_view kind = "introselect") {
  detail::partitioning::check_kind(kind);
  return detail::partitioning::partition_along<false>(as_operand(x), -1, true, kth);
}

// numpy.argpartition(x, kth, axis, kind): int64 indices along the axis
// that partition x.
template <Expression E>
auto argpartition(const E& x, const partition_kth& kth, int axis = -1,
                  std::string_view kind = "introselect") {
  detail::partitioning::check_kind(kind);
  return detail::partitioning::partition_along<true>(as_operand(x), axis, false, kth);
}
// numpy.argpartition(x, kth, axis=None): indices into the flattened x.
template <Expression E>
auto argpartition(const E& x, const partition_kth& kth, none_t,
                  std::string_view kind = "introselect") {
  detail::partitioning::check_kind(kind);
  return detail::partitioning::partition_along<true>(as_operand(x), -1, true, kth);
}

// ndarray.partition(kth, axis, kind): partitions x's elements in place (x
// may be any view). NumPy's checks, in its order: kind, axis,
// writeability, kth.
template <class T, class S>
void partition_inplace(const ndarray<T, S>& x, const partition_kth& kth, int axis = -1,
                       std::string_view kind = "introselect") {
  detail::partitioning::check_kind(kind);
  detail::sorting::sort_axis(axis, static_cast<int>(x.shape().size()));
  if (!x.flags().writeable) throw value_error("partition array is read-only");
  detail::partitioning::partition_into(x, axis, kth);
}

}  // namespace cupp
