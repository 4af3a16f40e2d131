// Reductions (over all axes, of arrays and of lazy expressions fused chunk
// by chunk, and along an axis) and the block matmul of distributed arrays;
// included by <cupp/distributed/array.hpp>.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <cupp/distributed/array.hpp>
#include <cupp/linalg.hpp>
#include <cupp/reductions.hpp>

#include <cupp/detail/distributed/array_reduce.hpp>

namespace cupp::distributed {

#define CUPP_DARRAY_REDUCTION(NAME, MODE)                                          \
  template <class T>                                                               \
  auto NAME(const distributed_array<T>& x) {                                       \
    return ::cupp::detail::darray::reduce_all(                                     \
        x, MODE, [](const auto& a) { return ::cupp::NAME(a); }, #NAME);            \
  }                                                                                \
  template <class F, class... A>                                                   \
  auto NAME(const ::cupp::detail::darray::expr<F, A...>& e) {                      \
    return ::cupp::detail::darray::reduce_all_expr(                                \
        e, [](const auto& a) { return ::cupp::NAME(a); }, MODE, #NAME);            \
  }                                                                                \
  template <class T>                                                               \
  auto NAME(const distributed_array<T>& x, int axis) {                             \
    return ::cupp::detail::darray::reduce_axis(                                    \
        x, axis, MODE, [](const auto& a, int ax) { return ::cupp::NAME(a, ax); }); \
  }
// sum, prod, max, min over all axes (a 0-d array on the first device; of a
// lazy expression, fused with it chunk by chunk) or along one axis (a
// distributed array in the matching reduction mode).
CUPP_DARRAY_REDUCTION(sum, mode::sum)
CUPP_DARRAY_REDUCTION(prod, mode::prod)
CUPP_DARRAY_REDUCTION(max, mode::max)
CUPP_DARRAY_REDUCTION(min, mode::min)
#undef CUPP_DARRAY_REDUCTION

// a @ b for 2-d arrays whose chunks form block grids, a's column split
// equal to b's row split: each block product (cupp::matmul) runs on the
// device of a's block; the result is in mode sum, one chunk per product.
template <class T>
distributed_array<T> matmul(distributed_array<T> a, distributed_array<T> b) {
  namespace dd = ::cupp::detail::darray;
  if (a.ndim() != 2 || b.ndim() != 2) throw value_error("distributed matmul needs 2-d arrays");
  if (a.shape()[1] != b.shape()[0])
    throw value_error("matmul: Input operand 1 has a mismatch in its core dimension 0 (size " +
                      std::to_string(b.shape()[0]) + " is different from " +
                      std::to_string(a.shape()[1]) + ")");
  const dd::block_grid ga = dd::grid_of(a.regions(), a.shape(), "a");
  const dd::block_grid gb = dd::grid_of(b.regions(), b.shape(), "b");
  if (ga.cols != gb.rows)
    throw value_error("matmul: the column split of a differs from the row split of b");
  if (a.get_mode() != mode::replica) a = a.change_mode(mode::replica);
  if (b.get_mode() != mode::replica) b = b.change_mode(mode::replica);
  std::vector<typename distributed_array<T>::chunk> out;
  index_map m;
  for (std::size_t i = 0; i + 1 < ga.rows.size(); ++i)
    for (std::size_t j = 0; j + 1 < gb.cols.size(); ++j)
      for (std::size_t k = 0; k + 1 < ga.cols.size(); ++k) {
        const auto& ca = a.chunks()[ga.cell[i][k]];
        const auto& cb = b.chunks()[gb.cell[k][j]];
        cuda::device_scope scope(ca.device);
        const ndarray<T> right = dd::on_device(cb.data, ca.device);
        ndarray<T> product = ::cupp::matmul(ca.data, right);
        const dd::box region{{ga.rows[i], gb.cols[j]}, {ga.rows[i + 1], gb.cols[j + 1]}};
        m[ca.device].push_back(dd::to_index(region));
        out.push_back({ca.device, region.begin, region.end, std::move(product)});
      }
  // Chunks in index-map order (devices ascending), as every array keeps them.
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& x, const auto& y) { return x.device < y.device; });
  return {shape_t{a.shape()[0], b.shape()[1]}, m, mode::sum, std::move(out),
          typename distributed_array<T>::unchecked_t{}};
}

}  // namespace cupp::distributed
