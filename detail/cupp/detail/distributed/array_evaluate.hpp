// Element-wise expressions of distributed arrays as they run: the operands
// aligned to the first distributed operand (replica mode, its chunks), then
// one cupp kernel per chunk, on the chunk's device. Used by
// <cupp/distributed/array.hpp> (distributed_array's constructor from an
// expression, evaluate) and by the reductions of lazy expressions. The
// calls to copyto are found through the arrays' namespace when a template
// is used, from units that include cupp/distributed/array.hpp.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/detail/distributed/array_expr.hpp>
#include <cupp/detail/distributed/array_regions.hpp>
#include <cupp/detail/expression/ufunc_expr.hpp>
#include <cupp/distributed/array_types.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::darray {

using distributed::distributed_array;
using distributed::mode;

// A distributed expression with its operands aligned to the first
// distributed operand (replica mode, that operand's chunks), and that
// layout.
template <class E>
struct aligned_expr {
  E e;
  shape_t shape;
  distributed::index_map map;
  std::vector<int> devices;
  std::vector<box> boxes;
};

// Shapes are checked before anything runs; then operands in a reduction
// mode are changed to replica and operands with other chunks resharded.
template <class E>
aligned_expr<E> align(const E& e) {
  aligned_expr<E> out{e, {}, {}, {}, {}};
  const shape_t* shape = nullptr;
  out.e.for_each_array([&](const auto& a) {
    if (!shape)
      shape = &a.shape();
    else if (a.shape() != *shape)
      throw value_error("operands could not be broadcast together with shapes " +
                        ::cupp::detail::np_shape(*shape) + " " +
                        ::cupp::detail::np_shape(a.shape()));
  });
  out.shape = *shape;
  bool first = true;
  out.e.for_each_array([&](auto& a) {
    if (a.get_mode() != mode::replica) a = a.change_mode(mode::replica);
    if (first) {
      first = false;
      out.map = a.index_map();
      for (const auto& c : a.chunks()) {
        out.devices.push_back(c.device);
        out.boxes.push_back({c.begin, c.end});
      }
      return;
    }
    bool same = a.chunks().size() == out.boxes.size();
    for (std::size_t k = 0; same && k < out.boxes.size(); ++k)
      same = a.chunks()[k].device == out.devices[k] && a.chunks()[k].begin == out.boxes[k].begin &&
             a.chunks()[k].end == out.boxes[k].end;
    if (!same) a = a.reshard(out.map);
  });
  return out;
}

// Chunk k of the result is the cupp expression of the operands' chunks k,
// run on chunk k's device into R: one kernel per chunk.
template <class R, class E>
distributed_array<R> evaluate_as(const E& e) {
  const aligned_expr<E> a = align(e);
  std::vector<typename distributed_array<R>::chunk> out;
  for (std::size_t k = 0; k < a.boxes.size(); ++k) {
    cuda::device_scope scope(a.devices[k]);
    ndarray<R> data(a.boxes[k].extent());
    const auto ce = a.e.chunk_expr(k);
    using V = typename std::remove_cvref_t<decltype(ce)>::value_type;
    if constexpr (std::is_same_v<V, R>)
      copyto(data, ce);
    else
      copyto(data, ::cupp::make_ufunc(::cupp::ops::cast<R>{}, ce));
    out.push_back({a.devices[k], a.boxes[k].begin, a.boxes[k].end, std::move(data)});
  }
  return {a.shape, a.map, mode::replica, std::move(out),
          typename distributed_array<R>::unchecked_t{}};
}

}  // namespace cupp::detail::darray
