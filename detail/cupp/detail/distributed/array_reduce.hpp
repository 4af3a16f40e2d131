// The engines of the distributed array's reductions: over all axes (of
// arrays, and of lazy expressions fused chunk by chunk, the partial results
// gathered on the first device) and along one axis (each chunk reduced
// alone). The reduction itself is a callable on cupp arrays that
// <cupp/distributed/array_algorithms.hpp> passes in. The calls to copyto
// are found through the arrays' namespace when a template is used, from
// units that include cupp/distributed/array.hpp.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/distributed/array_evaluate.hpp>
#include <cupp/detail/distributed/array_expr.hpp>
#include <cupp/detail/distributed/array_ops.hpp>
#include <cupp/detail/distributed/array_regions.hpp>
#include <cupp/distributed/array_types.hpp>
#include <cupp/errors.hpp>

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
