// What a boolean mask selects, driven over the compaction primitives of
// compaction.hpp: the C-order positions where a mask (or any expression)
// is nonzero and their coordinates (nonzero, argwhere), and the rows of x
// under a mask, read (x[mask]) or written (x[mask] = values, place,
// putmask). Every selection learns its count on the host, which sizes its
// result; results are cut from an upper-bound buffer (shrink_selected).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <cupp/cuda/memory.hpp>
#include <cupp/detail/indexing/compaction.hpp>
#include <cupp/detail/indexing/mask_operand.hpp>
// Expression machinery (array_leaf, lower_ctx, assign) and ndarray: to be
// repointed at detail/ once they move.
#include <cupp/detail/expression/launch.hpp>
#include <cupp/array_fwd.hpp>

namespace cupp::detail {

// Calls f(walk) with the walk over e's positions in C order. When e's
// axes do not merge into one dimension, e is laid out densely first (for
// a C-contiguous array leaf, that is the same type again).
template <class S, class E, class F>
void with_mask_walk(const E& e, F&& f) {
  const shape_t& shape = e.shape();
  std::array<strides_t, E::slots + 1> st;
  st[0] = strides_t::filled(shape.size(), 0);
  strides_t* p = st.data() + 1;
  e.collect(p, shape);
  index_t ext[max_ndim];
  std::array<strides_t, E::slots + 1> merged;
  if (merge_c_order(shape, st, ext, merged) > 1) {
    using V = typename E::value_type;
    ndarray<V, S> dense(shape);
    assign(dense, e);
    with_mask_walk<S>(array_leaf<V, S>{dense}, f);
    return;
  }
  check_operand_devices<S>(e);
  lower_ctx L{merged, 1, 1, nullptr, 1};
  using Ev = decltype(e.template lower<typename E::value_type, 1>(L));
  f(mask_walk<Ev>{e.template lower<typename E::value_type, 1>(L)});
}

// The selected part of an upper-bound buffer as an array of `shape`. A
// buffer from cupp's device pool gives its unfilled tail back to the pool.
// With another allocator (and on the host), a selection that fills at least
// 1/CUPP_MASK_KEEP_DIVISOR of the buffer keeps it (the array owns the whole
// block) and a smaller one is copied into memory of its own size, so that a
// sparse mask does not pin down a block as large as the input. The copy
// moves 2 * count elements; a larger divisor trades memory held by results
// for that time.
#ifndef CUPP_MASK_KEEP_DIVISOR
#define CUPP_MASK_KEEP_DIVISOR 2
#endif
template <class V, class S>
ndarray<V, S> shrink_selected(const ndarray<V, S>& buf, index_t count, const shape_t& shape) {
  const strides_t st = contiguous_strides(shape, sizeof(V));
  const ndarray<V, S> head(buf.data(), shape, st, buf.memory(), buf.device_id(), true);
  if constexpr (on_device_v<S>)
    if (count > 0 &&
        cuda::detail::shrink_allocation(buf.memory(), static_cast<std::size_t>(count) * sizeof(V)))
      return head;
  if (count * CUPP_MASK_KEEP_DIVISOR >= buf.size()) return head;
  ndarray<V, S> out(shape);
  if (count > 0) head.copy_into(out);
  return out;
}

// The C-order positions where e is nonzero (an int64 buffer of e's size)
// and how many there are.
template <class S, class E>
std::pair<ndarray<std::int64_t, S>, index_t> nonzero_positions(const E& e) {
  const shape_t& shape = e.shape();
  const index_t n = size_of(shape);
  ndarray<std::int64_t, S> pos(shape_t{n});
  index_t count = 0;
  if (n == 0) return {pos, 0};
  const int dev = on_device_v<S> ? device_for(pos.device_id()) : -1;
  with_mask_walk<S>(e, [&](const auto& w) {
    using W = std::remove_cvref_t<decltype(w)>;
    count = select_flagged<on_device_v<S>>(select_position_fn{}, flag_fn<W>{w}, n, pos.data(), dev);
  });
  return {pos, count};
}

// Coordinates of the selected positions: (ndim, count) rows (nonzero) or
// (count, ndim) rows (argwhere).
template <class S>
ndarray<std::int64_t, S> split_positions(const ndarray<std::int64_t, S>& pos, index_t count,
                                         const shape_t& shape, bool by_axis) {
  const int nd = shape.size();
  ndarray<std::int64_t, S> out(by_axis ? shape_t{nd, count} : shape_t{count, nd});
  coord_split cs;
  cs.nd = nd;
  cs.sa = by_axis ? count : 1;
  cs.sk = by_axis ? 1 : nd;
  for (int a = 0; a < nd; ++a) {
    cs.ext[a] = shape[a];
    cs.div[a] = fast_divmod(static_cast<std::uint64_t>(std::max<index_t>(shape[a], 1)));
  }
  split_coords<on_device_v<S>>(pos.data(), out.data(), cs, count,
                               on_device_v<S> ? device_for(out.device_id()) : -1);
  return out;
}

// The selected rows of `x` under mask operand `m`: their C-order positions,
// how many, and how to reach their elements. `x` may be replaced by a
// dense copy when its axes do not merge into the kernel's dimensions
// (`dense` then tells the caller to write that copy back).
template <class T, class S>
struct selected_rows {
  ndarray<T, S> target;
  bool dense = false;
  ndarray<std::int64_t, S> pos;
  index_t count = 0;
  row_move move;
  shape_t rest;
  index_t r = 1;
};

template <class T, class S>
bool make_row_walks(const ndarray<T, S>& x, int md, offset_walk& lead, offset_walk& rest) {
  return make_offset_walk(shape_prefix(x.shape(), md), shape_prefix(x.strides(), md), lead) &&
         make_offset_walk(shape_suffix(x.shape(), md), shape_suffix(x.strides(), md), rest);
}

template <class T, class S, class E>
selected_rows<T, S> select_rows(const ndarray<T, S>& x, const E& m) {
  selected_rows<T, S> s;
  const int md = m.shape().size();
  s.target = x;
  offset_walk lead, rest;
  if (!make_row_walks(x, md, lead, rest)) {
    s.target = x.copy();
    s.dense = true;
    make_row_walks(s.target, md, lead, rest);
  }
  s.rest = shape_suffix(x.shape(), md);
  s.r = size_of(s.rest);
  const index_t n = size_of(shape_prefix(x.shape(), md));
  s.pos = ndarray<std::int64_t, S>(shape_t{n});
  const int dev = on_device_v<S> ? x.device_id() : -1;
  if (on_device_v<S>) check_current_device(dev);
  s.move.rest = rest;
  s.move.r = fast_divmod(static_cast<std::uint64_t>(std::max<index_t>(s.r, 1)));
  if (n == 0) return s;
  s.move.rows = lead;
  with_mask_walk<S>(m, [&](const auto& w) {
    using W = std::remove_cvref_t<decltype(w)>;
    s.count =
        select_flagged<on_device_v<S>>(select_position_fn{}, flag_fn<W>{w}, n, s.pos.data(), dev);
  });
  return s;
}

// Writes `dense` (C order; index taken modulo `period` when > 0, counted by
// rank or by position) into the selected rows, then the dense copy back.
template <class T, class S>
void scatter_rows(const ndarray<T, S>& x, selected_rows<T, S>& s, const ndarray<T, S>& dense,
                  index_t period = 0, bool by_position = false) {
  s.move.period = period;
  s.move.by_position = by_position;
  if (period > 0) s.move.period_div = fast_divmod(static_cast<std::uint64_t>(period));
  move_rows<on_device_v<S>, true>(reinterpret_cast<char*>(s.target.data()), s.pos.data(),
                                  reinterpret_cast<word_t<T>*>(dense.data()), s.move, s.count * s.r,
                                  on_device_v<S> ? x.device_id() : -1);
  if (s.dense) s.target.copy_into(x);
}

template <class T, class S>
ndarray<T, S> gather_rows(selected_rows<T, S>& s) {
  ndarray<T, S> out(with_lead(s.count, s.rest));
  move_rows<on_device_v<S>, false>(reinterpret_cast<char*>(s.target.data()), s.pos.data(),
                                   reinterpret_cast<word_t<T>*>(out.data()), s.move, s.count * s.r,
                                   on_device_v<S> ? s.target.device_id() : -1);
  return out;
}

// x[mask] read: one selection pass writing the elements themselves when a
// mask position is one element, else positions and a gather of the rows.
template <class T, class S, class E>
ndarray<T, S> masked_read(const ndarray<T, S>& x0, const E& m) {
  const int md = m.shape().size();
  const shape_t rest = shape_suffix(x0.shape(), md);
  const index_t n = size_of(shape_prefix(x0.shape(), md));
  if (n == 0) return ndarray<T, S>(with_lead(0, rest));
  if (size_of(rest) != 1) {
    selected_rows<T, S> s = select_rows(x0, m);
    return gather_rows(s);
  }
  // The selection reads x along one merged dimension: other layouts are
  // copied first.
  ndarray<T, S> x = x0;
  offset_walk lead, rw;
  if (!make_row_walks(x, md, lead, rw) || lead.d.nd != 1) {
    x = x0.copy();
    make_row_walks(x, md, lead, rw);
  }
  const int dev = on_device_v<S> ? x.device_id() : -1;
  if (on_device_v<S>) check_current_device(dev);
  ndarray<T, S> buf(shape_t{n});
  index_t count = 0;
  with_mask_walk<S>(m, [&](const auto& w) {
    using W = std::remove_cvref_t<decltype(w)>;
    count = select_flagged<on_device_v<S>>(
        strided_value_fn<word_t<T>>{reinterpret_cast<const char*>(x.data()), lead.st[0]},
        flag_fn<W>{w}, n, reinterpret_cast<word_t<T>*>(buf.data()), dev);
  });
  return shrink_selected(buf, count, with_lead(count, rest));
}

}  // namespace cupp::detail
