// The engine of numpy.partition, argpartition and ndarray.partition over
// arrays and lazy expressions: kind= and kth checked, the operand's rows
// along the axis partitioned (partition_rows.hpp) or, on the device where
// a radix selection does not pay, sorted (sort_run.hpp), and the result
// written in its layout or back into the array.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/sort/partition_rows.hpp>
#include <cupp/detail/sort/sort_args.hpp>
#include <cupp/detail/sort/sort_run.hpp>
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

// ndarray.partition: x's elements partitioned along `axis`, written back
// into x (any view).
template <class T, class S>
void partition_into(const ndarray<T, S>& x, int axis, const partition_kth& kth) {
  const auto done = partition_along<false>(as_operand(x), axis, false, kth);
  detail::assign(x, array_leaf<T, S>{done});
}
}  // namespace detail::partitioning

}  // namespace cupp
