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

namespace cupp::detail::darray {

// The input as seen by a reduction of mode `op`: its own mode when that is
// op (every chunk counts whole), otherwise replica, where each element
// counts once, in the chunk that owns it.
template <class T>
std::vector<std::vector<box>> contributing(distributed_array<T>& x, mode op) {
  if (x.get_mode() == op) {
    std::vector<std::vector<box>> whole;
    for (const box& b : x.regions()) whole.push_back({b});
    return whole;
  }
  if (x.get_mode() != mode::replica) x = x.change_mode(mode::replica);
  return owned_boxes(x.regions());
}

// The partial results of a reduction over all axes, gathered on one
// device and reduced once more there.
template <class R, class Red>
ndarray<R> combine_partials(const partial_gatherer<R>& partials, Red red, mode op,
                            const char* name) {
  if (partials.size() == 0 && (op == mode::max || op == mode::min))
    throw value_error(std::string("zero-size array to reduction operation ") + name +
                      " which has no identity");
  cuda::device_scope scope(partials.home());
  return ndarray<R>(red(partials.values()));
}

// Reduction `red` (a callable on cupp arrays) over all axes: one pass per
// contributing region, each partial result copied to the first device as
// soon as it is launched, and reduced once more there.
template <class T, class Red>
auto reduce_all(distributed_array<T> x, mode op, Red red, const char* name) {
  using R = typename decltype(red(std::declval<const ndarray<T>&>()))::value_type;
  const auto parts = contributing(x, op);
  index_t count = 0;
  for (const auto& boxes : parts)
    for (const box& b : boxes) count += b.volume() > 0 ? 1 : 0;
  partial_gatherer<R> partials(x.first_device(), count);
  for (std::size_t k = 0; k < parts.size(); ++k) {
    cuda::device_scope scope(x.chunks()[k].device);
    for (const box& b : parts[k])
      if (b.volume() > 0) partials.add(red(view(x.chunks()[k].data, relative(b, x.region(k)))));
  }
  return combine_partials(partials, red, op, name);
}

// Reduction `red` over all axes of a lazy distributed expression: where a
// chunk owns all of its elements (no earlier chunk overlaps it), one fused
// pass of the chunk's expression (sum(x * y) reads x and y once and stores
// nothing); an overlapped chunk is evaluated once and its owned parts
// reduced. The partial results meet on the first device.
template <class E, class Red>
auto reduce_all_expr(const E& e, Red red, mode op, const char* name) {
  const aligned_expr<E> a = align(e);
  using V = typename std::remove_cvref_t<chunk_expr_t<E>>::value_type;
  using R = typename decltype(red(std::declval<const ndarray<V>&>()))::value_type;
  const auto owned = owned_boxes(a.boxes);
  index_t count = 0;
  for (const auto& boxes : owned)
    for (const box& b : boxes) count += b.volume() > 0 ? 1 : 0;
  partial_gatherer<R> partials(a.devices.empty() ? cuda::runtime::getDevice() : a.devices.front(),
                               count);
  for (std::size_t k = 0; k < a.boxes.size(); ++k) {
    cuda::device_scope scope(a.devices[k]);
    if (owned[k].size() == 1 && owned[k][0] == a.boxes[k]) {
      if (a.boxes[k].volume() > 0) partials.add(red(a.e.chunk_expr(k)));
      continue;
    }
    bool any = false;
    for (const box& b : owned[k]) any = any || b.volume() > 0;
    if (!any) continue;
    ndarray<V> whole(a.boxes[k].extent());
    copyto(whole, a.e.chunk_expr(k));
    for (const box& b : owned[k])
      if (b.volume() > 0) partials.add(red(view(whole, relative(b, a.boxes[k]))));
  }
  return combine_partials(partials, red, op, name);
}

// Reduction along one axis: every chunk reduced alone (elements it does
// not own set to the identity first), the axis dropped from its region;
// the result is in mode `op`.
template <class T, class Red>
auto reduce_axis(distributed_array<T> x, int axis, mode op, Red red) {
  using R = typename decltype(red(std::declval<const ndarray<T>&>(), 0))::value_type;
  const int nd = x.ndim();
  if (axis < -nd || axis >= nd)
    throw axis_error("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                     std::to_string(nd));
  if (axis < 0) axis += nd;
  const auto parts = contributing(x, op);
  std::vector<typename distributed_array<R>::chunk> out;
  distributed::index_map m;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const auto& c = x.chunks()[k];
    cuda::device_scope scope(c.device);
    ndarray<T> source = c.data;
    if (!(parts[k].size() == 1 && parts[k][0] == x.region(k))) {
      source = ndarray<T>(c.data.shape());
      fill(source, identity<T>(op));
      for (const box& b : parts[k])
        copy_between(view(c.data, relative(b, x.region(k))),
                     view(source, relative(b, x.region(k))));
    }
    box region = x.region(k);
    region.begin.erase(region.begin.begin() + axis);
    region.end.erase(region.end.begin() + axis);
    ndarray<R> reduced = red(source, axis);
    m[c.device].push_back(to_index(region));
    out.push_back({c.device, region.begin, region.end, std::move(reduced)});
  }
  shape_t shape;
  for (int d = 0; d < nd; ++d)
    if (d != axis) shape.push_back(x.shape()[d]);
  return distributed_array<R>(shape, m, op, std::move(out),
                              typename distributed_array<R>::unchecked_t{});
}

}  // namespace cupp::detail::darray

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
