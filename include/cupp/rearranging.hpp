// NumPy's tiling, repeating, rolling, padding and resizing: numpy.tile,
// repeat, roll, rot90, pad and resize, for device and host arrays.
//
// rot90 is a view, as NumPy's. The others return a lazy cupp::gather_expr:
// each output element reads its source element directly, so the result is
// written by one kernel (one host loop), with no intermediate arrays, when
// it is assigned to an array, evaluated with eval(), or used inside an
// expression, whose kernel it joins:
//
//   cupp::ndarray<float> t = cupp::tile(a, {2, 3});        // one kernel
//   auto p = cupp::pad(a, {{1, 1}, {2, 2}}, cupp::pad_mode::reflect).eval();
//   cupp::ndarray<float> r = cupp::roll(a, 1, 0) - a;      // one kernel
//
// Like every cupp expression, a gather holds its source by handle: it reads
// the source's elements when it runs, not when it is made.
#pragma once

#include <array>
#include <cstdlib>
#include <string>
#include <vector>

#include <cupp/detail/generators/make.hpp>
#include <cupp/detail/indexing/gather.hpp>
#include <cupp/detail/indexing/pad.hpp>
#include <cupp/detail/indexing/rearrange.hpp>
#include <cupp/detail/indexing/rearrange_support.hpp>
#include <cupp/lazy_fwd.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/pad_mode.hpp>

namespace cupp {

// ---------------------------------------------------------------------------
// tile, repeat, resize

// numpy.tile(A, reps): A repeated reps[i] times along each axis; reps is an
// int or a list ({2, 3}). The shorter of A's shape and reps is extended with
// leading ones.
template <class T, class S>
gather_expr<T, S> tile(const ndarray<T, S>& A, const detail::int_list& reps) {
  return detail::tile_impl(A, reps);
}

// numpy.repeat(a, repeats, axis=None): each element repeated along `axis`
// (of the flattened array without one); repeats is one count or one count
// per element ({1, 0, 2}).
template <class T, class S>
gather_expr<T, S> repeat(const ndarray<T, S>& a, const detail::int_list& repeats,
                         const axis_arg& axis = {}) {
  if (!axis.all() && axis.size() != 1)
    throw type_error("'tuple' object cannot be interpreted as an integer");
  return detail::repeat_impl(a, repeats, axis);
}

// numpy.resize(a, new_shape): new_shape filled with a's elements in C
// order, repeated as often as needed (zeros when a or the result is empty).
// (ndarray.resize, which changes an array in place, is not offered.)
template <class T, class S>
gather_expr<T, S> resize(const ndarray<T, S>& a, const detail::int_list& new_shape) {
  return detail::resize_impl(a, new_shape);
}

// ---------------------------------------------------------------------------
// roll, rot90

// numpy.roll(a, shift, axis=None): elements shifted along the axes (of the
// flattened array without them), those leaving at one end entering at the
// other. shift and axis are ints or lists, broadcast against each other;
// shifts along a repeated axis add up.
template <class T, class S>
gather_expr<T, S> roll(const ndarray<T, S>& a, const detail::int_list& shift,
                       const axis_arg& axis = {}) {
  return detail::roll_impl(a, shift, axis);
}

// numpy.rot90(m, k=1, axes=(0, 1)): a view of m rotated k times by 90
// degrees from the first axis towards the second.
template <class T, class S>
ndarray<T, S> rot90(const ndarray<T, S>& m, index_t k = 1, const dims& axes = {0, 1}) {
  if (axes.size() != 2) throw value_error("len(axes) must be 2.");
  const int nd = m.ndim();
  const index_t a0 = axes[0], a1 = axes[1];
  if (a0 == a1 || std::abs(a0 - a1) == nd) throw value_error("Axes must be different.");
  if (a0 >= nd || a0 < -nd || a1 >= nd || a1 < -nd)
    throw value_error("Axes=(" + std::to_string(a0) + ", " + std::to_string(a1) +
                      ") out of range for array of ndim=" + std::to_string(nd) + ".");
  k = detail::py_mod(k, 4);
  const int i0 = static_cast<int>(a0 < 0 ? a0 + nd : a0),
            i1 = static_cast<int>(a1 < 0 ? a1 + nd : a1);
  if (k == 0) return m.view();
  if (k == 2) return flip(flip(m, i0), i1);
  shape_t perm = shape_t::filled(nd, 0);
  for (int i = 0; i < nd; ++i) perm[i] = i;
  std::swap(perm[i0], perm[i1]);
  if (k == 1) return flip(m, i1).transpose(perm);
  return flip(m.transpose(perm), i1);
}

// ---------------------------------------------------------------------------
// pad

// pad's mode= is a cupp::pad_mode (<cupp/pad_mode.hpp>).

// pad_width: one int (every side of every axis), one {before, after} pair
// (every axis), or one pair per axis ({{1, 2}, {0, 3}}), as NumPy takes it.
using pad_width = detail::pairs<index_t>;

// numpy.pad(array, pad_width, mode='constant', constant_values=0). For
// mode constant, the value is a C++ number (an int that does not fit the
// dtype raises OverflowError, as NumPy's does) or, in the overload below,
// values per axis and side in pad_width's forms. Pads wider than the axis
// repeat the reflection or wrap as NumPy's do.
template <class T, class S, class V = int>
requires Scalar<V> gather_expr<T, S> pad(const ndarray<T, S>& array, const pad_width& width,
                                         pad_mode mode = pad_mode::constant,
                                         const V& constant_values = 0) {
  const T v = detail::fill_value<T>(constant_values);
  return detail::make_pad<T, S>(array, width, mode, nullptr, v);
}
template <class T, class S>
gather_expr<T, S> pad(const ndarray<T, S>& array, const pad_width& width, pad_mode mode,
                      const std::type_identity_t<detail::pairs<T>>& constant_values) {
  (void)width.as_pairs(array.ndim(), true);  // NumPy checks the widths first
  const auto values = constant_values.as_pairs(array.ndim(), false);
  return detail::make_pad<T, S>(array, width, mode, &values, T{});
}

}  // namespace cupp
