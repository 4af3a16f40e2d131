// The gathers of numpy.tile, repeat, resize and roll (the engines of
// <cupp/rearranging.hpp>): each output axis mapped to its source axis
// (wrapped, divided or read through a table of source indices), with
// NumPy's errors for negative counts and results too large to address.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/axis.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/indexing/gather.hpp>
#include <cupp/detail/indexing/rearrange_support.hpp>
#include <cupp/detail/views/layout.hpp>
#include <cupp/errors.hpp>
#include <cupp/lazy_fwd.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// numpy.tile: A's axis i wraps reps[i] times (extents of one need no map).
template <class T, class S>
gather_expr<T, S> tile_impl(const ndarray<T, S>& A, const detail::int_list& reps) {
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

// numpy.repeat: one count for all (a division) or one per element (a table
// of source indices, uploaded to S).
template <class T, class S>
gather_expr<T, S> repeat_impl(const ndarray<T, S>& a, const detail::int_list& repeats,
                              const axis_arg& axis) {
  // NumPy reads a 0-d array with an axis as a 1-d array of one element.
  if (a.ndim() == 0 && !axis.all()) return repeat_impl(a.reshape(shape_t{1}), repeats, axis);
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

// numpy.resize: the flat source wrapped over the new shape, or zeros.
template <class T, class S>
gather_expr<T, S> resize_impl(const ndarray<T, S>& a, const detail::int_list& new_shape) {
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

// numpy.roll: the flat array or each rolled axis wraps, shifted.
template <class T, class S>
gather_expr<T, S> roll_impl(const ndarray<T, S>& a, const detail::int_list& shift,
                            const axis_arg& axis) {
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

}  // namespace cupp::detail
