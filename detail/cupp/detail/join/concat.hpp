// numpy.concatenate's machinery, which the stacks and append reuse: the
// result allocated in NumPy's layout (or out= checked), each input's region
// of it, and the copies into those regions. Inputs of one dtype come as a
// span, inputs of several as a std::tuple; both reach one routine that
// sees them through a callback. The arrays are named through
// <cupp/array_fwd.hpp>; <cupp/joining.hpp> completes them before anything
// here is instantiated.
#pragma once

#include <cstddef>
#include <span>
#include <tuple>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>
#include <cupp/join_arguments.hpp>
#include <cupp/detail/join/layout.hpp>
#include <cupp/detail/join/writer.hpp>

namespace cupp::detail {

// A new array of `shape` with the given byte strides (a dense permutation).
template <class R, class S>
ndarray<R, S> alloc_strided(const shape_t& shape, const strides_t& st) {
  const ndarray<R, S> flat(shape_t{size_of(shape)});
  return ndarray<R, S>(flat.data(), shape, st, flat.memory(), flat.device_id(), true);
}

inline void check_out(const shape_t& out, const shape_t& want, bool writeable) CUPP_HOST_BODY({
  if (out.size() != want.size()) throw value_error("Output array has wrong dimensionality");
  if (out != want) throw value_error("Output array is the wrong shape");
  if (!writeable) throw value_error("output array is read-only");
});

// numpy.concatenate over arrays of possibly different dtypes: `each(f)`
// calls f(i, array_i) for every input. R is the result's dtype.
template <class R, class S, class Each>
ndarray<R, S> concat_impl(std::span<const shape_t> shapes, std::span<const strides_t> strides,
                          join_axis axis, const ndarray<R, S>* out, Each each) {
  ndarray<R, S> r;
  std::vector<view_layout> at(shapes.size());
  if (axis.none()) {
    if (shapes.empty()) throw value_error("need at least one array to concatenate");
    index_t total = 0;
    for (const shape_t& s : shapes) total += size_of(s);
    if (out) {
      if (out->ndim() != 1) throw value_error("Output array must be 1D");
      if (out->size() != total) throw value_error("Output array is the wrong size");
      if (!out->flags().writeable) throw value_error("output array is read-only");
    }
    r = out ? *out : ndarray<R, S>(shape_t{total});
    index_t off = 0;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      // Element k of input i (C order) lands at off + k of the result.
      at[i] = {off * r.strides()[0], shapes[i], contiguous_strides(shapes[i], r.strides()[0])};
      off += size_of(shapes[i]);
    }
  } else {
    shape_t joined;
    const int ax = concat_shape(shapes, axis.value(), joined);
    if (out) {
      check_out(out->shape(), joined, out->flags().writeable);
      r = *out;
    } else {
      r = alloc_strided<R, S>(joined, concat_strides(joined, shapes, strides, r.itemsize()));
    }
    index_t off = 0;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      at[i] = {shapes[i][ax] > 0 ? off * r.strides()[ax] : 0, shapes[i], r.strides()};
      off += shapes[i][ax];
    }
  }
  join_writer<R, S> w(r);
  each([&](std::size_t i, const auto& a) { w.put(r.view_as(at[i]), a); });
  w.run();
  return r;
}

// Arrays of one dtype T, joined into a new array of T or into `out` of
// dtype R (a cast).
template <class T, class S, class R = T>
ndarray<R, S> concat_same(std::span<const ndarray<T, S>> arrays, join_axis axis,
                          const ndarray<R, S>* out = nullptr) {
  std::vector<shape_t> shapes;
  std::vector<strides_t> strides;
  for (const auto& a : arrays) {
    shapes.push_back(a.shape());
    strides.push_back(a.strides());
  }
  return concat_impl<R, S>(shapes, strides, axis, out, [&](auto&& f) {
    for (std::size_t i = 0; i < arrays.size(); ++i) f(i, arrays[i]);
  });
}

template <class R, class S, class... A>
ndarray<R, S> concat_tuple(const std::tuple<A...>& arrays, join_axis axis,
                           const ndarray<R, S>* out = nullptr) {
  const std::vector<shape_t> shapes =
      std::apply([](const auto&... a) { return std::vector<shape_t>{a.shape()...}; }, arrays);
  const std::vector<strides_t> strides =
      std::apply([](const auto&... a) { return std::vector<strides_t>{a.strides()...}; }, arrays);
  return concat_impl<R, S>(shapes, strides, axis, out, [&](auto&& f) {
    std::size_t i = 0;
    std::apply([&](const auto&... a) { (f(i++, a), ...); }, arrays);
  });
}

// The inputs' shapes, for the checks that run before a stack reshapes them.
template <class T, class S>
std::vector<shape_t> shapes_of(std::span<const ndarray<T, S>> arrays) {
  std::vector<shape_t> shapes;
  for (const auto& a : arrays) shapes.push_back(a.shape());
  return shapes;
}

// The stacks' inputs, each seen through f (atleast_2d, expand_dims ...).
template <class T, class S, class F>
std::vector<ndarray<T, S>> map_arrays(std::span<const ndarray<T, S>> arrays, F f) {
  std::vector<ndarray<T, S>> v;
  v.reserve(arrays.size());
  for (const auto& a : arrays) v.push_back(f(a));
  return v;
}

}  // namespace cupp::detail
