// The views of numpy.broadcast_to, moveaxis and expand_dims as the engines
// of detail/linalg/ take them: made by the same layout functions
// (detail/views/layout.hpp) that the public forms in <cupp/manipulation.hpp>
// call, so that an engine never calls back into the API layer.
#pragma once

#include <cupp/array_fwd.hpp>
#include <cupp/axis.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/views/layout.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// cupp::broadcast_to(a, shape): a read-only view, stride 0 along the
// broadcast axes.
template <class T, class S>
ndarray<T, S> broadcast_view(const ndarray<T, S>& a, const shape_t& shape) {
  ndarray<T, S> r = a.view_as(broadcast_to_layout(a.shape(), a.strides(), shape));
  r.setflags(false);
  return r;
}

// cupp::moveaxis(a, source, destination): an axis or a list of axes each.
template <class T, class S>
ndarray<T, S> moveaxis_view(const ndarray<T, S>& a, const axis_arg& source,
                            const axis_arg& destination) {
  int perm[max_ndim];
  moveaxis_perm(a.ndim(), source, destination, perm);
  return a.view_as(permuted(a.shape(), a.strides(), perm));
}

// cupp::expand_dims(a, axis): unit axes at the given positions of the
// result.
template <class T, class S>
ndarray<T, S> expand_dims_view(const ndarray<T, S>& a, const axis_arg& axis) {
  return a.view_as(expand_dims_layout(a.shape(), a.strides(), axis));
}

}  // namespace cupp::detail
