// A lazy gather: an array whose every element is an element of another
// array (or a fill value), chosen from the element's own coordinates. It is
// what tile, repeat, roll, pad, resize and diagflat return: one kernel
// writes the result, reading each output element straight from the source,
// with no intermediate arrays, and the gather fuses into expressions like a
// generator (`cupp::tile(a, 2) * 3` is one kernel).
//
// The output coordinates come from one generator position (packed bits, see
// coord_decoder) or from the C-order flat index; per axis, an axis_map turns
// an output coordinate into a source coordinate. The host prepares every
// constant when the gather is built.
#pragma once

#include <initializer_list>
#include <optional>
#include <type_traits>
#include <vector>

#include <cupp/detail/generators/functions.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/lazy_fwd.hpp>

namespace cupp::detail {

// NumPy's "int or tuple of ints" argument (reps, repeats, shift, new_shape).
class int_list {
 public:
  template <std::integral I>
  requires(!std::is_same_v<I, bool>) int_list(I v) : v_{static_cast<index_t>(v)}, scalar_(true) {}
  int_list(std::initializer_list<index_t> v) : v_(v) {}
  int_list(const dims& d) : v_(d.begin(), d.end()) {}
  template <std::integral I>
  int_list(const std::vector<I>& v) : v_(v.begin(), v.end()) {}

  // True for a single integer given as such (not a one-element tuple).
  bool scalar() const { return scalar_; }
  int size() const { return static_cast<int>(v_.size()); }
  index_t operator[](int i) const { return v_[static_cast<std::size_t>(i)]; }
  const std::vector<index_t>& values() const { return v_; }

 private:
  std::vector<index_t> v_;
  bool scalar_ = false;
};

// How one output coordinate finds its source coordinate along an axis.
struct axis_map {
  enum kind_t : int { same, wrap, divide, table, edge, reflect, symmetric, constant };
  kind_t kind = same;
  index_t n = 1;      // the source's extent
  index_t shift = 0;  // wrap: added before the modulo; pad modes: the width before
  index_t div = 1;    // divide: the repeat count
  const index_t* tab = nullptr;
  index_t stride = 0;  // the source's byte stride along this axis

  // The source coordinate; for constant pads, -1 before the source and -2
  // after it.
  CUPP_HD index_t operator()(index_t c) const {
    switch (kind) {
      case same:
        return c;
      case wrap:
        return (c + shift) % n;
      case divide:
        return c / div;
      case table:
        return tab[c];
      default:
        break;
    }
    const index_t x = c - shift;
    if (kind == constant) return x < 0 ? -1 : x >= n ? -2 : x;
    if (kind == edge) return x < 0 ? 0 : x >= n ? n - 1 : x;
    // Reflections repeat with a period of 2(n - 1) (reflect) or 2n
    // (symmetric): NumPy's iterated padding for pads wider than the axis
    // gives the same elements.
    if (kind == reflect && n == 1) return 0;
    const index_t p = kind == reflect ? 2 * (n - 1) : 2 * n;
    index_t r = x % p;
    if (r < 0) r += p;
    if (r < n) return r;
    return kind == reflect ? p - r : p - 1 - r;
  }
};

template <class T>
struct gather_fn {
  using value_type = T;
  static constexpr int coords = 1;
  // axes: each output axis maps to a source axis; flat: the output's flat
  // index maps to the source's; diag: (i, j) holds source element i (or j)
  // on diagonal k; fill: every element is `fill`.
  enum mode_t : int { axes, flat, diag, fill_only };
  mode_t mode = axes;
  const char* src = nullptr;
  int nd = 0;                 // output axes (axes, diag)
  coord_decoder<max_ndim> d;  // the output coordinates (axes, diag)
  axis_map m[max_ndim];       // per output axis (axes); m[0]: the flat map (flat)
  int src_nd = 0;             // the source, read in C order (flat, diag)
  index_t src_ext[max_ndim] = {};
  index_t src_st[max_ndim] = {};
  index_t k = 0;  // diag: the diagonal
  T fill{};
  T lo[max_ndim] = {}, hi[max_ndim] = {};  // constant pads, before and after, per axis

  CUPP_HD T at_flat(index_t f) const {
    index_t off = 0;
    for (int a = src_nd - 1; a >= 0; --a) {
      const index_t e = src_ext[a];
      const index_t q = f / e;
      off += (f - q * e) * src_st[a];
      f = q;
    }
    return *reinterpret_cast<const T*>(src + off);
  }

  CUPP_HD T operator()(const index_t* pos) const {
    switch (mode) {
      case fill_only:
        return fill;
      case flat:
        return at_flat(m[0](pos[0]));
      case diag: {
        const index_t i = d.coord(pos[0], 0), j = d.coord(pos[0], 1);
        return j - i == k ? at_flat(k >= 0 ? i : j) : fill;
      }
      default:
        break;
    }
    // A constant pad takes the value of the last axis the element lies
    // outside of: NumPy pads axis by axis, each over the others' full extent
    // so far.
    index_t off = 0;
    int outside = -1;
    bool after = false;
    for (int a = 0; a < nd; ++a) {
      const index_t s = m[a](d.coord(pos[0], a));
      if (s < 0) {
        outside = a;
        after = s == -2;
      } else {
        off += s * m[a].stride;
      }
    }
    if (outside >= 0) return after ? hi[outside] : lo[outside];
    return *reinterpret_cast<const T*>(src + off);
  }
};

// The source read in C order by flat index (flat and diag modes).
template <class T, class S>
void set_flat_source(gather_fn<T>& g, const ndarray<T, S>& a) {
  g.src_nd = a.ndim();
  for (int i = 0; i < a.ndim(); ++i) {
    g.src_ext[i] = a.shape()[i];
    g.src_st[i] = a.strides()[i];
  }
}

// An index table (repeat with counts) in the array's space.
template <class S>
ndarray<index_t, S> index_table(const std::vector<index_t>& v) {
  ndarray<index_t, S> t(shape_t{static_cast<index_t>(v.size())});
  if (v.empty()) return t;
  if constexpr (std::is_same_v<S, device_space>)
    t.set(std::span<const index_t>(v.data(), v.size()));
  else
    std::copy(v.begin(), v.end(), t.data());
  return t;
}

}  // namespace cupp::detail

namespace cupp {

// The lazy result of a gather (tile, repeat, roll, pad, resize, diagflat):
// an expression of dtype T over the source array, which it holds by handle
// (as every cupp expression holds its arrays). Assign it to an array, call
// eval(), or use it in an expression; it runs in that expression's kernel.
// (Declared in <cupp/lazy_fwd.hpp>.)
template <class T, class S>
class gather_expr : public expression_base<gather_expr<T, S>> {
 public:
  using is_cupp_expression = void;
  using value_type = T;
  using space = S;
  static constexpr int slots = 1;
  static constexpr int max_itemsize = sizeof(T);

  // `shape` laid out in C order; positions are the C-order flat index
  // (flat mode) or packed coordinates (the other modes).
  gather_expr(const ndarray<T, S>& src, const shape_t& shape, const detail::gather_fn<T>& g,
              std::optional<ndarray<index_t, S>> table = {})
      : src_(src), table_(std::move(table)), shape_(shape), g_(g) {
    if (g_.mode == detail::gather_fn<T>::flat)
      st_ = detail::contiguous_strides(shape_, 1);
    else
      g_.d = detail::make_decoder<max_ndim>(shape_, order::C, st_);
    g_.nd = shape_.size();
    g_.src = reinterpret_cast<const char*>(src_.data());
  }

  const shape_t& shape() const { return shape_; }
  using expression_base<gather_expr>::ndim;
  using expression_base<gather_expr>::size;

  void collect(strides_t*& p, const shape_t& out) const {
    *p++ = detail::broadcast_strides(shape_, st_, out);
  }
  template <class To, int N>
  detail::generator_eval<detail::gather_fn<T>, N> lower(detail::lower_ctx& L) const {
    detail::generator_eval<detail::gather_fn<T>, N> e;
    e.g = g_;
    const int s = L.take();
    e.base[0] = L.base(s);
    L.kernel_strides(s, e.st[0]);
    return e;
  }
  // The source, for the overlap check of assignments (`copyto(a, roll(a,
  // 1))` reads a through a temporary).
  template <class F>
  void for_each_array(F&& f) const {
    f(detail::array_info{reinterpret_cast<const char*>(src_.data()), &src_.shape(), &src_.strides(),
                         src_.itemsize(), src_.device_id(), false});
  }

 private:
  ndarray<T, S> src_;
  std::optional<ndarray<index_t, S>> table_;  // keeps a repeat's table alive
  shape_t shape_;
  strides_t st_;
  detail::gather_fn<T> g_;
};

}  // namespace cupp
