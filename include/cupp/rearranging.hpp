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
  const int d = reps.size(), an = A.ndim();
  const int nd = std::max(d, an);
  dims::check_rank(nd);
  for (index_t r : reps.values())
    if (r < 0) throw value_error("negative dimensions are not allowed");
  shape_t out = shape_t::filled(nd, 1);
  detail::gather_fn<T> g;
  for (int i = 0; i < nd; ++i) {
    const int ai = i - (nd - an), ri = i - (nd - d);
    const index_t n = ai >= 0 ? A.shape()[ai] : 1, r = ri >= 0 ? reps[ri] : 1;
    if (r > 0 && n > INT64_MAX / r) throw value_error(detail::too_big);
    out[i] = n * r;
    if (n > 1) {
      g.m[i].stride = A.strides()[ai];
      if (r != 1) {
        g.m[i].kind = detail::axis_map::wrap;
        g.m[i].n = n;
      }
    }
  }
  detail::checked_size(out, sizeof(T));
  return {A, out, g};
}

// numpy.repeat(a, repeats, axis=None): each element repeated along `axis`
// (of the flattened array without one); repeats is one count or one count
// per element ({1, 0, 2}).
template <class T, class S>
gather_expr<T, S> repeat(const ndarray<T, S>& a, const detail::int_list& repeats,
                         const axis_arg& axis = {}) {
  if (!axis.all() && axis.size() != 1)
    throw type_error("'tuple' object cannot be interpreted as an integer");
  // NumPy reads a 0-d array with an axis as a 1-d array of one element.
  if (a.ndim() == 0 && !axis.all()) return repeat(a.reshape(shape_t{1}), repeats, axis);
  const bool flat = axis.all();
  const int ax = flat ? 0 : detail::checked_axis(axis[0], a.ndim());
  const index_t n = flat ? a.size() : a.shape()[ax];
  detail::gather_fn<T> g;
  detail::axis_map m;
  index_t total = 0;
  std::optional<ndarray<index_t, S>> table;
  if (repeats.size() == 1) {
    const index_t r = repeats[0];
    // (NumPy's error is that of the result's shape: none when n is 0.)
    if (r < 0 && n > 0) throw value_error("negative dimensions are not allowed");
    if (r > 0 && n > INT64_MAX / r) throw value_error(detail::too_big);
    total = r < 0 ? 0 : n * r;
    m.kind = detail::axis_map::divide;
    m.div = r > 0 ? r : 1;
  } else {
    if (repeats.size() != n) throw value_error(detail::broadcast_shape_message(n, repeats.size()));
    for (index_t r : repeats.values())
      if (r < 0) throw value_error("repeats may not contain negative values.");
    for (index_t r : repeats.values()) {
      if (total > INT64_MAX - r) throw value_error(detail::too_big);
      total += r;
    }
    m.kind = detail::axis_map::table;
  }
  shape_t out = flat ? shape_t{total} : a.shape();
  if (!flat) out[ax] = total;
  detail::checked_size(out, sizeof(T));
  if (m.kind == detail::axis_map::table) {
    // The source index of every output position along the axis.
    std::vector<index_t> src;
    src.reserve(static_cast<std::size_t>(total));
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < repeats[static_cast<int>(i)]; ++j) src.push_back(i);
    table = detail::index_table<S>(src);
    m.tab = table->data();
  }
  if (flat) {
    g.mode = detail::gather_fn<T>::flat;
    detail::set_flat_source(g, a);
    g.m[0] = m;
  } else {
    for (int i = 0; i < a.ndim(); ++i) {
      if (i == ax) g.m[i] = m;
      g.m[i].stride = a.strides()[i];
    }
  }
  return {a, out, g, std::move(table)};
}

// numpy.resize(a, new_shape): new_shape filled with a's elements in C
// order, repeated as often as needed (zeros when a or the result is empty).
// (ndarray.resize, which changes an array in place, is not offered.)
template <class T, class S>
gather_expr<T, S> resize(const ndarray<T, S>& a, const detail::int_list& new_shape) {
  const shape_t to(new_shape.values());
  for (index_t e : to)
    if (e < 0) throw value_error("all elements of `new_shape` must be non-negative");
  detail::checked_size(to, sizeof(T));
  detail::gather_fn<T> g;
  if (a.size() == 0 || detail::size_of(to) == 0) {
    g.mode = detail::gather_fn<T>::fill_only;
    g.fill = detail::convert<T>(0);
  } else {
    g.mode = detail::gather_fn<T>::flat;
    detail::set_flat_source(g, a);
    g.m[0].kind = detail::axis_map::wrap;
    g.m[0].n = a.size();
  }
  return {a, to, g};
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
  detail::gather_fn<T> g;
  if (axis.all()) {
    g.mode = detail::gather_fn<T>::flat;
    detail::set_flat_source(g, a);
    const index_t n = a.size();
    if (n > 0) {
      index_t s = 0;  // the shifts add up, modulo n (no overflow)
      for (index_t v : shift.values()) s = detail::py_mod(s + detail::py_mod(v, n), n);
      g.m[0].kind = detail::axis_map::wrap;
      g.m[0].n = n;
      g.m[0].shift = detail::py_mod(-s, n);
    }
    return {a, a.shape(), g};
  }
  const int nd = a.ndim();
  int axes[max_ndim];
  for (int i = 0; i < axis.size(); ++i) axes[i] = detail::checked_axis(axis[i], nd);
  const int ns = shift.size(), na = axis.size();
  if (ns != na && ns != 1 && na != 1)
    throw value_error(
        "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
        "arg 0 with shape (" +
        std::to_string(ns) + ",) and arg 1 with shape (" + std::to_string(na) + ",).");
  index_t total[max_ndim] = {};
  const int count = (ns == 0 || na == 0) ? 0 : std::max(ns, na);
  for (int i = 0; i < count; ++i) {
    const int ax = axes[na == 1 ? 0 : i];
    const index_t n = a.shape()[ax];
    if (n > 0) total[ax] = detail::py_mod(total[ax] + detail::py_mod(shift[ns == 1 ? 0 : i], n), n);
  }
  for (int i = 0; i < nd; ++i) {
    const index_t n = a.shape()[i];
    g.m[i].stride = a.strides()[i];
    if (n > 0 && total[i] != 0) {
      g.m[i].kind = detail::axis_map::wrap;
      g.m[i].n = n;
      g.m[i].shift = n - total[i];
    }
  }
  return {a, a.shape(), g};
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
