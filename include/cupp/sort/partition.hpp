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
#include <cupp/detail/sort/partition_rows.hpp>
#include <cupp/detail/sort/sort_args.hpp>
#include <cupp/expression.hpp>
#include <cupp/sort/sort.hpp>
#include <cupp/sort/sort_types.hpp>

namespace cupp {

namespace detail::partitioning {

inline void check_kind(std::string_view kind) {
  if (kind != "introselect")
    throw value_error("select kind must be 'introselect' (got '" + std::string(kind) + "')");
}

// The positions in [0, n), sorted and distinct; NumPy reports a negative
// kth that is still out of bounds after adding n as that sum.
inline std::vector<std::int64_t> kth_positions(const partition_kth& kth, index_t n) {
  std::vector<std::int64_t> out;
  out.reserve(kth.positions().size());
  for (index_t k : kth.positions()) {
    if (k < 0) k += n;
    if (k < 0 || k >= n)
      throw value_error("kth(=" + std::to_string(k) + ") out of bounds (" + std::to_string(n) +
                        ")");
    out.push_back(k);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Partitions (Indices false) or argpartitions (true) `e` along `axis`, or
// flattened. argpartition of a 0-d operand along an axis treats it as one
// element of shape (1,), as NumPy does.
template <bool Indices, class E>
auto partition_along(const E& e, int axis, bool flat, const partition_kth& kth) {
  using T = typename E::value_type;
  static_assert(is_dtype_v<T>, "cupp: partition an array or an expression, not a scalar");
  using S = eval_space_t<typename E::space>;
  using R = std::conditional_t<Indices, std::int64_t, T>;
  const shape_t& shape = e.shape();
  const int nd = shape.size();
  int ax = -1;
  if (!flat && Indices && nd == 0) {
    sorting::sort_axis(axis, 1);
    flat = true;
  } else if (!flat) {
    ax = sorting::sort_axis(axis, nd);
  }
  const index_t size = size_of(shape);
  ndarray<R, S> out(flat ? shape_t{size} : shape);
  if (size == 0) return out;
  const index_t n = flat ? size : shape[ax];
  const index_t rows = size / n;
  const auto positions = kth_positions(kth, n);
  if constexpr (std::is_same_v<S, device_space>) {
    // A sort satisfies every kth; sort's own path runs every row in one
    // call and sorts an operand it must copy anyway where it is written.
    if (!takes_radix_path<T>(rows, n, positions.size()))
      return sorting::sort_along<Indices>(e, flat ? -1 : ax, flat);
  }
  const auto src = sorting::rows_of(e, ax);
  auto run = [&](R* dst) {
    partition_rows<Indices, T, S>(src.data, dst, rows, n, positions, out.device_id());
  };
  sorting::write_rows(out, shape, ax, flat, run);
  return out;
}

}  // namespace detail::partitioning

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
  const auto done = detail::partitioning::partition_along<false>(as_operand(x), axis, false, kth);
  detail::assign(x, array_leaf<T, S>{done});
}

}  // namespace cupp
