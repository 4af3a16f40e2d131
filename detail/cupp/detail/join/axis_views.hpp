// Views of an array along one axis, which splits return and insert and
// delete copy between: the parts of a split, a run of positions, and the
// input of insert and delete (flattened for axis=None). The arrays are
// named through <cupp/array_fwd.hpp>; <cupp/joining.hpp> completes them
// before anything here is instantiated.
#pragma once

#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/shape.hpp>
#include <cupp/join_arguments.hpp>
#include <cupp/detail/join/layout.hpp>

namespace cupp::detail {

template <class T, class S>
std::vector<ndarray<T, S>> split_views(const ndarray<T, S>& a, int axis,
                                       const std::vector<split_part>& parts) {
  std::vector<ndarray<T, S>> v;
  v.reserve(parts.size());
  for (const split_part& p : parts)
    v.push_back(a.view_as(split_view(a.shape(), a.strides(), axis, p)));
  return v;
}

// numpy.insert's and numpy.delete's input: flattened when axis is None,
// and the axis made non-negative.
template <class T, class S>
ndarray<T, S> axis_input(const ndarray<T, S>& arr, join_axis axis, int& ax) {
  if (axis.none()) {
    ax = 0;
    return arr.ndim() == 1 ? arr : arr.ravel();
  }
  ax = checked_axis(axis.value(), arr.ndim());
  return arr;
}

template <class T, class S>
ndarray<T, S> axis_slice(const ndarray<T, S>& a, int axis, index_t start, index_t length) {
  return a.view_as(split_view(a.shape(), a.strides(), axis, {start, length}));
}

}  // namespace cupp::detail
