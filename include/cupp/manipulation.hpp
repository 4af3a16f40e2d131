// NumPy's array manipulation functions that give views: reshape, ravel,
// transpose and its relatives, squeeze/expand_dims, broadcast_to and
// broadcast_arrays, atleast_Nd, flips, as_strided and sliding_window_view,
// plus ascontiguousarray/asfortranarray, which copy only when needed.
// They work on host and device arrays alike: the shape and stride
// arithmetic is in detail/views/layout.hpp, and a view is a new handle to the
// same memory.
#pragma once

#include <array>
#include <optional>
#include <tuple>

#include <cupp/space_check.hpp>
#include <cupp/detail/views/layout.hpp>
#include <cupp/ndarray.hpp>

namespace cupp {

// numpy.reshape(a, shape, order): see ndarray::reshape.
template <class T, class S>
ndarray<T, S> reshape(const ndarray<T, S>& a, const shape_t& shape, order o = order::C) {
  return a.reshape(shape, o);
}

// numpy.ravel(a, order): a view when possible (ndarray::ravel).
template <class T, class S>
ndarray<T, S> ravel(const ndarray<T, S>& a, order o = order::C) {
  return a.ravel(o);
}

// numpy.transpose(a) and numpy.transpose(a, axes).
template <class T, class S>
ndarray<T, S> transpose(const ndarray<T, S>& a) {
  return a.T();
}
template <class T, class S>
ndarray<T, S> transpose(const ndarray<T, S>& a, const shape_t& axes) {
  return a.transpose(axes);
}

// numpy.swapaxes(a, axis1, axis2).
template <class T, class S>
ndarray<T, S> swapaxes(const ndarray<T, S>& a, index_t axis1, index_t axis2) {
  return a.swapaxes(axis1, axis2);
}

// numpy.moveaxis(a, source, destination): an axis or a list of axes each
// ({0, 1}); the other axes keep their order.
template <class T, class S>
ndarray<T, S> moveaxis(const ndarray<T, S>& a, const axis_arg& source,
                       const axis_arg& destination) {
  int perm[max_ndim];
  detail::moveaxis_perm(a.ndim(), source, destination, perm);
  return a.view_as(detail::permuted(a.shape(), a.strides(), perm));
}

// numpy.rollaxis(a, axis, start=0) (moveaxis is the clearer spelling).
template <class T, class S>
ndarray<T, S> rollaxis(const ndarray<T, S>& a, index_t axis, index_t start = 0) {
  int perm[max_ndim];
  detail::rollaxis_perm(a.ndim(), axis, start, perm);
  return a.view_as(detail::permuted(a.shape(), a.strides(), perm));
}

// numpy.expand_dims(a, axis): axis is an int or a list ({0, -1}), positions
// in the result.
template <class T, class S>
ndarray<T, S> expand_dims(const ndarray<T, S>& a, const axis_arg& axis) {
  return a.view_as(detail::expand_dims_layout(a.shape(), a.strides(), axis));
}

// numpy.squeeze(a, axis=None).
template <class T, class S>
ndarray<T, S> squeeze(const ndarray<T, S>& a, const axis_arg& axis = {}) {
  return a.squeeze(axis);
}

// numpy.broadcast_to(a, shape): a read-only view, stride 0 along the
// broadcast axes.
template <class T, class S>
ndarray<T, S> broadcast_to(const ndarray<T, S>& a, const shape_t& shape) {
  ndarray<T, S> r = a.view_as(detail::broadcast_to_layout(a.shape(), a.strides(), shape));
  r.setflags(false);
  return r;
}

// numpy.broadcast_arrays(a, b, ...): views of every argument at their
// common shape, as a std::tuple (the arrays may differ in dtype). As in
// NumPy they keep their arguments' write flag (see numpy-differences.md).
// (Any arrays are taken, so that a mix of spaces reaches the space check
// rather than failing deduction.)
template <class... A>
requires(is_ndarray_v<A>&&...) std::tuple<A...> broadcast_arrays(const A&... a) {
  CUPP_SAME_SPACE(A...);
  const std::array<shape_t, sizeof...(A)> shapes{a.shape()...};
  const shape_t to = detail::broadcast_all(shapes);
  return {a.view_as(detail::broadcast_to_layout(a.shape(), a.strides(), to))...};
}

// numpy.atleast_1d/2d/3d for one array: views with unit axes added.
template <class T, class S>
ndarray<T, S> atleast_1d(const ndarray<T, S>& a) {
  return a.view_as(detail::atleast_layout(a.shape(), a.strides(), 1));
}
template <class T, class S>
ndarray<T, S> atleast_2d(const ndarray<T, S>& a) {
  return a.view_as(detail::atleast_layout(a.shape(), a.strides(), 2));
}
template <class T, class S>
ndarray<T, S> atleast_3d(const ndarray<T, S>& a) {
  return a.view_as(detail::atleast_layout(a.shape(), a.strides(), 3));
}

// numpy.atleast_1d/2d/3d(a, b, ...) of several arrays: a std::tuple of
// their views (the arrays may differ in dtype), as broadcast_arrays returns.
template <class... A>
requires(sizeof...(A) >= 2 && (is_ndarray_v<A> && ...)) std::tuple<A...> atleast_1d(const A&... a) {
  CUPP_SAME_SPACE(A...);
  return {atleast_1d(a)...};
}
template <class... A>
requires(sizeof...(A) >= 2 && (is_ndarray_v<A> && ...)) std::tuple<A...> atleast_2d(const A&... a) {
  CUPP_SAME_SPACE(A...);
  return {atleast_2d(a)...};
}
template <class... A>
requires(sizeof...(A) >= 2 && (is_ndarray_v<A> && ...)) std::tuple<A...> atleast_3d(const A&... a) {
  CUPP_SAME_SPACE(A...);
  return {atleast_3d(a)...};
}

// numpy.ascontiguousarray(a): `a` itself (a view, at least 1-d) when it is
// C-contiguous, else a C-ordered copy.
template <class T, class S>
ndarray<T, S> ascontiguousarray(const ndarray<T, S>& a) {
  const ndarray<T, S> b = atleast_1d(a);
  return b.is_c_contiguous() ? b : b.copy(order::C);
}

// numpy.asfortranarray(a): the same for F order.
template <class T, class S>
ndarray<T, S> asfortranarray(const ndarray<T, S>& a) {
  const ndarray<T, S> b = atleast_1d(a);
  return b.is_f_contiguous() ? b : b.copy(order::F);
}

// numpy.flip(a, axis=None): the axes read backwards (negative strides).
template <class T, class S>
ndarray<T, S> flip(const ndarray<T, S>& a, const axis_arg& axis = {}) {
  return a.view_as(detail::flip_layout(a.shape(), a.strides(), axis));
}

// numpy.fliplr: axis 1 reversed (arrays of two or more dimensions).
template <class T, class S>
ndarray<T, S> fliplr(const ndarray<T, S>& a) {
  if (a.ndim() < 2) throw value_error("Input must be >= 2-d.");
  return flip(a, 1);
}

// numpy.flipud: axis 0 reversed.
template <class T, class S>
ndarray<T, S> flipud(const ndarray<T, S>& a) {
  if (a.ndim() < 1) throw value_error("Input must be >= 1-d.");
  return flip(a, 0);
}

// numpy.lib.stride_tricks.as_strided(x, shape, strides, writeable): any
// shape and byte strides over x's memory, unchecked, as in NumPy: a view
// that reaches outside the memory reads or writes whatever lies there.
// Without strides, a C-contiguous x is read as contiguous in the new shape
// and any other x keeps its strides (NumPy's __array_interface__ rule).
template <class T, class S>
ndarray<T, S> as_strided(const ndarray<T, S>& x, const std::optional<shape_t>& shape = {},
                         const std::optional<strides_t>& strides = {}, bool writeable = true) {
  const shape_t sh = shape ? *shape : x.shape();
  const strides_t st = strides               ? *strides
                       : x.is_c_contiguous() ? detail::contiguous_strides(sh, x.itemsize())
                                             : x.strides();
  if (st.size() != sh.size()) throw value_error("mismatch in length of strides and shape");
  ndarray<T, S> r = x.view_as({0, sh, st});
  if (!writeable) r.setflags(false);
  return r;
}

// numpy.lib.stride_tricks.sliding_window_view(x, window_shape, axis=None,
// writeable=False): every window position along the windowed axes, the
// window's own axes last. Read-only unless asked otherwise.
template <class T, class S>
ndarray<T, S> sliding_window_view(const ndarray<T, S>& x, const shape_t& window_shape,
                                  const axis_arg& axis = {}, bool writeable = false) {
  ndarray<T, S> r =
      x.view_as(detail::sliding_window_layout(x.shape(), x.strides(), window_shape, axis));
  if (!writeable) r.setflags(false);
  return r;
}

}  // namespace cupp
