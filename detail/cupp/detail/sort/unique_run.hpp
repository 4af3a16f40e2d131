// The engine of numpy.unique and NumPy 2's unique_* functions over arrays
// and lazy expressions: unique_of reads the axis= option, writes the
// operand's rows (flattened, or the slices along the axis) once, runs the
// flat or the slice engine (unique_engine.hpp) and lays the values out in
// the result's shape.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/axis.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/sort/sort_args.hpp>
#include <cupp/detail/sort/sort_run.hpp>
#include <cupp/detail/sort/unique_engine.hpp>
#include <cupp/sort/sort_types.hpp>

namespace cupp {

namespace detail::sorting {

template <class S>
int unique_device_id() {
  if constexpr (std::is_same_v<S, device_space>)
    return cuda::runtime::getDevice();
  else
    return -1;
}

template <class E>
auto unique_of(const E& e, const unique_options& o) {
  using T = typename E::value_type;
  static_assert(is_dtype_v<T>, "cupp: unique takes an array or an expression, not a scalar");
  using S = eval_space_t<typename E::space>;
  using I = std::int64_t;
  const shape_t& shape = e.shape();
  const int nd = shape.size();
  int ax = -1;
  if (!o.axis.all()) {
    // NumPy moves the axes to the front, which wants as many as one.
    if (o.axis.size() != 1)
      throw value_error(
          "`source` and `destination` arguments must have the same number of elements");
    ax = sort_axis(o.axis[0], nd);
  }
  const unique_request req{o.return_index, o.return_inverse, o.return_counts, o.equal_nan};
  const int device = unique_device_id<S>();
  const index_t size = size_of(shape);
  unique_result<T, S> r;
  auto sized = [&](index_t u) {
    if (req.index) r.indices = ndarray<I, S>(shape_t{u});
    if (req.counts) r.counts = ndarray<I, S>(shape_t{u});
  };
  if (ax < 0 || nd == 1) {
    // Flattened: NumPy's _unique1d, where equal_nan applies.
    if (req.inverse) r.inverse = ndarray<I, S>(ax < 0 ? shape : shape_t{size});
    auto alloc = [&](index_t u) {
      r.values = ndarray<T, S>(shape_t{u});
      sized(u);
      return unique_outputs<T>{r.values.data(), req.index ? r.indices.data() : nullptr,
                               req.counts ? r.counts.data() : nullptr};
    };
    I* inverse = req.inverse ? r.inverse.data() : nullptr;
    if (size == 0) {
      unique_flat<T, S>(static_cast<const T*>(nullptr), nullptr, 0, req, inverse, device, alloc);
    } else {
      // An operand written out for the call is the sort's own buffer.
      auto src = rows_of(e, -1);
      T* own = src.buffer.size() == size ? src.buffer.data() : nullptr;
      unique_flat<T, S>(src.data, own, size, req, inverse, device, alloc);
    }
    return r;
  }
  // Slices along the axis: the operand's lines along it, one per element
  // of a slice, as the (m, n) buffer unique_slices_of reads.
  const index_t n = shape[ax];
  index_t m = 1;
  for (int d = 0; d < nd; ++d)
    if (d != ax) m *= shape[d];
  if (req.inverse) r.inverse = ndarray<I, S>(shape_t{n});
  shape_t slab_shape = shape;  // the buffer's shape: the axis last
  int j = 0;
  for (int d = 0; d < nd; ++d)
    if (d != ax) slab_shape[j++] = shape[d];
  ndarray<T, S> slab;
  index_t unique_count = 0;
  auto alloc = [&](index_t u) {
    unique_count = u;
    slab_shape[nd - 1] = u;
    slab = ndarray<T, S>(slab_shape);
    sized(u);
    return unique_outputs<T>{slab.data(), req.index ? r.indices.data() : nullptr,
                             req.counts ? r.counts.data() : nullptr};
  };
  I* inverse = req.inverse ? r.inverse.data() : nullptr;
  if (size == 0) {
    unique_slices_of<T, S>(static_cast<const T*>(nullptr), n, m, req, inverse, device, alloc);
  } else {
    const auto src = rows_of(e, ax);
    unique_slices_of<T, S>(src.data, n, m, req, inverse, device, alloc);
  }
  shape_t values_shape = shape;
  values_shape[ax] = unique_count;
  if (ax == nd - 1) {
    r.values = slab;  // the buffer's layout is already the result's
    return r;
  }
  r.values = ndarray<T, S>(values_shape);
  if (size_of(values_shape) > 0)
    assign(r.values, array_leaf<T, S>{permuted_view(slab, values_shape, ax)});
  return r;
}

}  // namespace detail::sorting

}  // namespace cupp
