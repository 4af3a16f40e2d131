// Boolean-mask indexing and the nonzero family, for device and host arrays.
//
//   auto r = x(mask).eval();                     // x[mask]: a copy, shape (count,) + rest
//   cupp::ndarray<std::int64_t> s = x(x % 3 == 1);  // the predicate is fused, never stored
//   x(mask) = 0;                                 // one fused kernel over x
//   x(mask) = values;                            // values in order to the selected places
//   x(mask) += 1;                                // in place
//   auto [i, j] = ...cupp::nonzero(a);           // one int64 array per axis
//
// A mask is a cupp::ndarray<bool, S>, a lazy expression of dtype bool, or a
// C++ bool (NumPy's x[True]); its shape must be the leading part of x's.
// Reading through a mask, and every function here that returns a selection,
// must learn how many elements were selected to size its result: that is
// one read-back of a count and a synchronization of the current stream
// (see detail/indexing/compaction.hpp). Assigning a single value (a scalar, or a
// value broadcast along the selected rows) needs no count: it is one
// element-wise kernel over x.
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/detail/indexing/compaction.hpp>
#include <cupp/detail/reduce/plan.hpp>
#include <cupp/expression.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/reduction_options.hpp>
#include <cupp/ufunc.hpp>

namespace cupp {

namespace detail {

inline shape_t shape_prefix(const dims& s, int n) {
  dims r;
  for (int i = 0; i < n; ++i) r.push_back(s[i]);
  return r;
}
inline shape_t shape_suffix(const dims& s, int n) {
  dims r;
  for (int i = n; i < s.size(); ++i) r.push_back(s[i]);
  return r;
}
inline shape_t with_lead(index_t lead, const shape_t& rest) {
  shape_t r{lead};
  for (int i = 0; i < rest.size(); ++i) r.push_back(rest[i]);
  return r;
}

// NumPy's IndexError for a mask that does not fit the array it indexes.
inline void check_mask_shape(const shape_t& mask, const shape_t& x) {
  if (mask.size() > x.size()) throw index_error(index_count_message(mask.size(), x.size()));
  for (int a = 0; a < mask.size(); ++a)
    if (mask[a] != x[a])
      throw index_error("boolean index did not match indexed array along axis " +
                        std::to_string(a) + "; size of axis is " + std::to_string(x[a]) +
                        " but size of corresponding boolean axis is " + std::to_string(mask[a]));
}

// The operand a mask becomes: an array leaf, the expression itself, or a
// 0-d constant for a C++ bool.
template <class M>
auto mask_operand(const M& m) {
  if constexpr (std::is_same_v<M, bool>)
    return scalar_leaf<bool>{m};
  else
    return operand_t<M>(as_operand(m));
}
template <class M>
using mask_operand_t = decltype(mask_operand(std::declval<const M&>()));

// A mask over x's leading axes seen with x's rank: its shape followed by
// `r` unit axes, so that it broadcasts against x along the trailing ones.
template <class E>
struct lead_axes {
  using is_cupp_expression = void;
  using value_type = typename E::value_type;
  using space = typename E::space;
  static constexpr int slots = E::slots;
  static constexpr int max_itemsize = E::max_itemsize;
  E e;
  int r = 0;
  shape_t shape_;

  lead_axes(const E& inner, int trailing) : e(inner), r(trailing), shape_(inner.shape()) {
    for (int i = 0; i < r; ++i) shape_.push_back(1);
  }
  const shape_t& shape() const { return shape_; }
  void collect(strides_t*& p, const shape_t& out) const {
    strides_t* first = p;
    e.collect(p, shape_prefix(out, out.size() - r));
    for (strides_t* q = first; q != p; ++q)
      for (int i = 0; i < r; ++i) q->push_back(0);
  }
  template <class To, int N>
  auto lower(lower_ctx& L) const {
    return e.template lower<To, N>(L);
  }
  template <class F>
  void for_each_array(F&& f) const {
    e.for_each_array(f);
  }
};

template <class S, class E>
void check_operand_devices(const E& e) {
  if constexpr (std::is_same_v<S, device_space>)
    e.for_each_array([&](const array_info& a) { check_current_device(a.device); });
}

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

template <class S>
inline constexpr bool on_device_v = std::is_same_v<S, device_space>;

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

inline int device_for(int array_device) {
  return array_device >= 0 ? array_device : cuda::runtime::getDevice();
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

template <class T>
inline constexpr bool is_masked_ref_v = false;
template <class A, class M>
inline constexpr bool is_masked_ref_v<masked_ref<A, M>> = true;

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

// The value of an operand as a dense C-ordered array of dtype T.
template <class T, class S, class V>
ndarray<T, S> dense_values(const V& v) {
  const auto o = as_operand(v);
  using VT = typename std::remove_cvref_t<decltype(o)>::value_type;
  ndarray<T, S> out(o.shape());
  if constexpr (is_weak_v<VT>)
    assign(out, scalar_leaf<T>{o.template as<T>()});
  else
    assign(out, astype<T>(o));
  return out;
}

// The proxy x(mask) returns: converts to the selected copy, and writes
// through assignment.
template <class A, class M>
class masked_ref : public lazy_members_t<A> {
  using T = typename A::value_type;
  using S = typename A::space_type;
  using Mop = mask_operand_t<M>;
  static_assert(std::is_same_v<typename Mop::space, any_space> ||
                    std::is_same_v<typename Mop::space, S>,
                "cupp: a mask must live where the array does; move it with cupp::asarray or "
                "cupp::asnumpy");

 public:
  masked_ref(const A& x, const M& mask) : x_(x), m_(mask_operand(mask)) {
    check_mask_shape(m_.shape(), x_.shape());
  }
  masked_ref(const masked_ref&) = default;

  // NumPy's x[mask]: a new array of shape (count,) + x.shape[mask.ndim:],
  // elements in the C order of the mask.
  A eval() const { return masked_read(x_, m_); }
  A copy() const { return eval(); }
  operator A() const { return eval(); }

  // x[mask] = value. A value that is one element per selected row (a
  // scalar, or a shape that broadcasts to (1,) + rest) is written by one
  // fused kernel over x; otherwise the value broadcasts to (count,) + rest
  // and goes to the selected rows in order.
  template <class V>
  const masked_ref& operator=(const V& v) const {
    set(v);
    return *this;
  }
  const masked_ref& operator=(const masked_ref& o) const {
    set(o.eval());
    return *this;
  }

#define CUPP_MASKED_INPLACE(SYMBOL, NAME)                                   \
  template <class V>                                                        \
  const masked_ref& operator SYMBOL(const V& v) const {                     \
    update(                                                                 \
        v, [](const auto& a, const auto& b) { return ::cupp::NAME(a, b); }, \
        [](const auto& a, const auto& b) { a SYMBOL b; });                  \
    return *this;                                                           \
  }
  CUPP_MASKED_INPLACE(+=, add)
  CUPP_MASKED_INPLACE(-=, subtract)
  CUPP_MASKED_INPLACE(*=, multiply)
  CUPP_MASKED_INPLACE(/=, true_divide)
  CUPP_MASKED_INPLACE(%=, remainder)
  CUPP_MASKED_INPLACE(&=, bitwise_and)
  CUPP_MASKED_INPLACE(|=, bitwise_or)
  CUPP_MASKED_INPLACE(^=, bitwise_xor)
  CUPP_MASKED_INPLACE(<<=, left_shift)
  CUPP_MASKED_INPLACE(>>=, right_shift)
#undef CUPP_MASKED_INPLACE

 private:
  int md() const {
    return m_.shape().size();
  }

  // True when the value is the same for every selected row.
  bool one_per_row(const shape_t& vs) const {
    if (md() == x_.ndim()) {
      if (vs.size() >= 2)
        throw type_error(
            "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input "
            "has " +
            std::to_string(vs.size()) + " dimensions");
      return vs.size() == 0 || vs[0] == 1;
    }
    return broadcasts_to(vs, with_lead(1, shape_suffix(x_.shape(), md())));
  }

  void check_writeable() const {
    if (!x_.flags().writeable) throw value_error("assignment destination is read-only");
  }

  // where(mask, value, x) into x: one kernel, nothing selected or counted.
  template <class E>
  void fused(const E& value) const {
    assign(x_, make_ufunc(ops::where{}, lead_axes<Mop>(m_, x_.ndim() - md()), value, x_));
  }

  void check_count(const shape_t& vs, index_t count) const {
    const shape_t want = with_lead(count, shape_suffix(x_.shape(), md()));
    if (md() == x_.ndim()) {
      if (vs[0] != count)
        throw value_error("NumPy boolean array indexing assignment cannot assign " +
                          std::to_string(vs[0]) + " input values to the " + std::to_string(count) +
                          " output values where the mask is true");
    } else if (!broadcasts_to(vs, want)) {
      throw value_error("shape mismatch: value array of shape " + np_shape(vs) +
                        " could not be broadcast to indexing result of shape " + np_shape(want));
    }
  }

  template <class V>
  void set(const V& v) const {
    if constexpr (is_masked_ref_v<V>) {
      set(v.eval());
    } else {
      const auto e = as_operand(v);
      using VT = typename std::remove_cvref_t<decltype(e)>::value_type;
      static_assert(assignable<VT, T>(),
                    "cupp: x(mask) = value: Cannot cast the value's dtype to the array's with "
                    "casting rule 'same_kind'; convert it with .astype<T>()");
      check_writeable();
      if constexpr (is_weak_v<VT>) {
        e.template check_fits<T>();
        fused(scalar_leaf<T>{e.template as<T>()});
      } else {
        const shape_t vs = e.shape();
        if (vs.size() > x_.ndim() && one_per_row(vs)) {
          // (1,) + x.shape under a 0-d mask: the leading unit axis goes.
          set(dense_values<T, S>(v)(0));
          return;
        }
        if (one_per_row(vs)) {
          fused(astype<T>(e));
          return;
        }
        selected_rows<T, S> s = select_rows(x_, m_);
        check_count(vs, s.count);
        ndarray<T, S> dense(with_lead(s.count, s.rest));
        assign(dense, astype<T>(e));
        scatter_rows(x_, s, dense);
      }
    }
  }

  template <class V, class Op, class InPlace>
  void update(const V& v, Op op, InPlace in_place) const {
    if constexpr (is_masked_ref_v<V>) {
      update(v.eval(), op, in_place);
    } else {
      using R = typename decltype(op(x_, v))::value_type;
      static_assert(can_cast_same_kind_v<R, T>,
                    "cupp: in-place operator on x(mask): Cannot cast the result to the array's "
                    "dtype with casting rule 'same_kind'");
      check_writeable();
      const shape_t vs = as_operand(v).shape();
      bool single;
      if (md() == x_.ndim())
        single = vs.size() == 0 || (vs.size() == 1 && vs[0] == 1);
      else
        single = broadcasts_to(vs, with_lead(1, shape_suffix(x_.shape(), md())));
      if constexpr (Expression<V>) {
        if (single && vs.size() > x_.ndim()) {
          using VT = typename operand_t<V>::value_type;
          update(dense_values<VT, S>(v)(0), op, in_place);
          return;
        }
      }
      if (single) {
        fused(astype<T>(op(x_, v)));
        return;
      }
      // NumPy's x[mask] = x[mask] + v: gather, update, write back.
      selected_rows<T, S> s = select_rows(x_, m_);
      ndarray<T, S> g = gather_rows(s);
      in_place(g, v);
      scatter_rows(x_, s, g);
    }
  }

  A x_;
  Mop m_;
};

// numpy.compress along one axis of an array (or its flattened form).
template <class T, class S>
ndarray<T, S> compress_impl(const ndarray<bool, S>& c0, const ndarray<T, S>& a0,
                            const axis_arg& axis) {
  if (c0.ndim() != 1) throw value_error("condition must be a 1-d array");
  ndarray<T, S> a = axis.all() ? a0.ravel() : a0;
  if (axis.size() > 1) throw type_error("'tuple' object cannot be interpreted as an integer");
  const int ax = axis.all() ? 0 : static_cast<int>(normalize_axis(axis[0], a.ndim()));
  const index_t len = a.shape()[ax];
  ndarray<bool, S> c = c0;
  if (c.size() > len) {
    if (len == 0 && nonzero_positions<S>(array_leaf<bool, S>{c}).second > 0)
      throw index_error("cannot do a non-empty take from an empty axes.");
    auto [pos, count] = nonzero_positions<S>(array_leaf<bool, S>{c(cupp::slice(len, _))});
    if (count > 0) {
      // NumPy's take checks the indices only when the result has elements;
      // an empty result still counts every true of the condition.
      if (a.size() == 0) {
        shape_t rs = a.shape();
        rs[ax] = nonzero_positions<S>(array_leaf<bool, S>{c}).second;
        return ndarray<T, S>(rs);
      }
      const std::int64_t first = pos.item(0);
      throw index_error("index " + std::to_string(len + first) + " is out of bounds for axis " +
                        std::to_string(ax) + " with size " + std::to_string(len));
    }
    c = c(cupp::slice(0, len));
  }
  const ndarray<T, S> moved = moveaxis(a, ax, 0);
  const ndarray<T, S> part = c.size() < len ? moved(cupp::slice(0, c.size())) : moved;
  const ndarray<T, S> r = masked_read(part, array_leaf<bool, S>{c});
  return ax == 0 ? r : moveaxis(r, 0, ax).copy();
}

// A mask of the same size as `a`, seen with a's shape (place, putmask).
template <class S, class T, class M>
ndarray<bool, S> mask_like(const ndarray<T, S>& a, const M& mask, const char* fn) {
  const ndarray<bool, S> m = dense_values<bool, S>(mask);
  if (m.size() != a.size())
    throw value_error(std::string(fn) + ": mask and data must be the same size");
  return m.reshape(a.shape());
}

}  // namespace detail

// numpy.nonzero(a): the indices of the nonzero elements, one int64 array
// per axis (C order). a is an array or an expression of any dtype.
template <Expression E>
auto nonzero(const E& a) {
  using Op = operand_t<E>;
  using S = detail::eval_space_t<typename Op::space>;
  const Op e = as_operand(a);
  const shape_t shape = e.shape();
  if (shape.size() == 0)
    throw value_error(
        "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
        "instead.");
  auto [pos, count] = detail::nonzero_positions<S>(e);
  std::vector<ndarray<std::int64_t, S>> out;
  if (shape.size() == 1) {
    out.push_back(detail::shrink_selected(pos, count, shape_t{count}));
    return out;
  }
  const ndarray<std::int64_t, S> all = detail::split_positions(pos, count, shape, true);
  for (int a_ = 0; a_ < shape.size(); ++a_) out.push_back(all(a_));
  return out;
}

// numpy.where(condition) with one argument: nonzero(condition).
template <Expression C>
auto where(const C& condition) {
  return nonzero(condition);
}

// numpy.flatnonzero(a): indices of the nonzero elements of a's C-order
// flattening (any rank, 0-d too).
template <Expression E>
auto flatnonzero(const E& a) {
  using Op = operand_t<E>;
  using S = detail::eval_space_t<typename Op::space>;
  auto [pos, count] = detail::nonzero_positions<S>(Op(as_operand(a)));
  return detail::shrink_selected(pos, count, shape_t{count});
}

// numpy.argwhere(a): the indices of the nonzero elements as a (count,
// a.ndim) int64 array.
template <Expression E>
auto argwhere(const E& a) {
  using Op = operand_t<E>;
  using S = detail::eval_space_t<typename Op::space>;
  const Op e = as_operand(a);
  auto [pos, count] = detail::nonzero_positions<S>(e);
  return detail::split_positions(pos, count, e.shape(), false);
}

// numpy.compress(condition, a, axis=None): the slices of a along axis
// (of a flattened when axis is None) where the 1-d condition is true;
// positions past the end of a shorter condition are not selected.
template <Expression C, class T, class S>
ndarray<T, S> compress(const C& condition, const ndarray<T, S>& a, axis_arg axis = {}) {
  return detail::compress_impl(detail::dense_values<bool, S>(condition), a, axis);
}

// numpy.extract(condition, arr): arr's elements where condition is true,
// both flattened in C order.
template <Expression C, class T, class S>
ndarray<T, S> extract(const C& condition, const ndarray<T, S>& arr) {
  return detail::compress_impl(detail::dense_values<bool, S>(condition).ravel(), arr, {});
}

// numpy.place(arr, mask, vals): the elements of arr where mask is true take
// vals' elements in turn (cycled when vals is shorter); mask has arr's size.
template <class T, class S, Expression M, Operand V>
void place(const ndarray<T, S>& arr, const M& mask, const V& vals) {
  if (!arr.flags().writeable) throw value_error("assignment destination is read-only");
  const ndarray<bool, S> m = detail::mask_like(arr, mask, "place");
  const ndarray<T, S> v = detail::dense_values<T, S>(vals).ravel();
  detail::selected_rows<T, S> s = detail::select_rows(arr, array_leaf<bool, S>{m});
  if (s.count == 0) return;
  if (v.size() == 0) throw value_error("Cannot insert from an empty array!");
  detail::scatter_rows(arr, s, v.is_c_contiguous() ? v : v.copy(), v.size(), false);
}

// numpy.putmask(a, mask, values): a.flat[n] = values.flat[n % values.size]
// where mask.flat[n]; mask has a's size. Values of a's shape are one fused
// kernel.
template <class T, class S, Expression M, Operand V>
void putmask(const ndarray<T, S>& a, const M& mask, const V& values) {
  if (!a.flags().writeable) throw value_error("assignment destination is read-only");
  const ndarray<bool, S> m = detail::mask_like(a, mask, "putmask");
  if constexpr (Expression<V>) {
    const auto ve = as_operand(values);
    if (ve.shape() == a.shape()) {
      detail::assign(a, where(m, astype<T>(ve), a));
      return;
    }
  }
  const ndarray<T, S> v = detail::dense_values<T, S>(values).ravel();
  if (v.size() == 0) return;  // NumPy writes nothing
  detail::selected_rows<T, S> s = detail::select_rows(a, array_leaf<bool, S>{m});
  detail::scatter_rows(a, s, v.is_c_contiguous() ? v : v.copy(), v.size(), true);
}

// numpy.select(condlist, choicelist, default=0): element-wise, the choice
// of the first true condition, else default; all broadcast together. One
// fused where() kernel per condition, from the last to the first.
template <class T, class S, class D = T>
ndarray<T, S> select(const std::vector<ndarray<bool, S>>& condlist,
                     const std::vector<ndarray<T, S>>& choicelist, const D& default_value = D(0)) {
  if (condlist.size() != choicelist.size())
    throw value_error("list of cases must be same length as list of conditions");
  if (condlist.empty()) throw value_error("select with an empty condition list is not possible");
  // NumPy broadcasts the conditions together (broadcast_arrays, whose
  // message names the arguments), then the choices with the default, then
  // the first of each.
  std::vector<shape_t> conds, choices;
  for (const auto& c : condlist) conds.push_back(c.shape());
  for (const auto& c : choicelist) choices.push_back(c.shape());
  choices.push_back(shape_t{});
  const shape_t first[] = {detail::broadcast_all(conds), detail::broadcast_all(choices)};
  const shape_t shape = first[1].size() == 0 ? first[0] : detail::broadcast_all(first);
  ndarray<T, S> out(shape);
  copyto(out, default_value);
  for (std::size_t i = condlist.size(); i-- > 0;)
    detail::assign(out, where(condlist[i], choicelist[i], out));
  return out;
}

}  // namespace cupp

namespace cupp::detail {
// ndarray::nonzero() (detail/views/array_views.hpp).
template <class T, class S>
auto nonzero_of(const ndarray<T, S>& a) {
  return cupp::nonzero(a);
}
}  // namespace cupp::detail
