// The machinery of numpy.pad (<cupp/rearranging.hpp>): pad_width's and
// constant_values' forms read as NumPy's _as_pairs reads them (detail::pairs,
// which cupp::pad_width names), and make_pad, the gather that reads each
// output element from the array or the constant of its side.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/indexing/gather.hpp>
#include <cupp/detail/indexing/rearrange_support.hpp>
#include <cupp/detail/views/layout.hpp>
#include <cupp/errors.hpp>
#include <cupp/lazy_fwd.hpp>
#include <cupp/pad_mode.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// An int or a nested list of values (pad's pad_width and constant_values),
// with the shape NumPy's asarray would give it.
template <class V>
class pairs {
 public:
  template <class X>
  requires std::is_convertible_v<X, V> pairs(const X& v) : v_{static_cast<V>(v)} {}
  pairs(std::initializer_list<V> v) : v_(v), shape_{static_cast<index_t>(v.size())} {}
  pairs(std::initializer_list<std::initializer_list<V>> rows) {
    index_t cols = rows.size() ? static_cast<index_t>(rows.begin()->size()) : 0;
    for (const auto& r : rows) {
      if (static_cast<index_t>(r.size()) != cols)
        throw value_error(
            "setting an array element with a sequence. The requested array has an inhomogeneous "
            "shape after 1 dimensions. The detected shape was (" +
            std::to_string(rows.size()) + ",) + inhomogeneous part.");
      v_.insert(v_.end(), r.begin(), r.end());
    }
    shape_ = {static_cast<index_t>(rows.size()), cols};
  }
  // Values in C order with the shape NumPy's asarray gives them (0-, 1- or
  // 2-d), for lists built at run time.
  pairs(std::vector<V> values, const shape_t& shape) : v_(std::move(values)), shape_(shape) {
    if (shape_.size() > 2 || size_of(shape_) != static_cast<index_t>(v_.size()))
      throw value_error("pad: the values do not match their shape " + to_string(shape_));
  }
  pairs(const std::vector<std::array<V, 2>>& rows) : shape_{static_cast<index_t>(rows.size()), 2} {
    for (const auto& r : rows) v_.insert(v_.end(), r.begin(), r.end());
  }

  // numpy.lib._arraypad_impl._as_pairs: one (before, after) pair per axis.
  std::vector<std::array<V, 2>> as_pairs(int nd, bool as_index) const {
    auto check = [&] {
      if constexpr (std::is_signed_v<V> && std::is_integral_v<V>)
        if (as_index)
          for (const V& x : v_)
            if (x < 0) throw value_error("index can't contain negative values");
    };
    std::vector<std::array<V, 2>> out(static_cast<std::size_t>(nd));
    if (v_.size() == 1 || (v_.size() == 2 && !(shape_ == shape_t{2, 1}))) {
      check();
      const V b = v_[0], a = v_.size() == 2 ? v_[1] : v_[0];
      for (auto& p : out) p = {b, a};
      return out;
    }
    check();
    const view_layout l =
        broadcast_to_layout(shape_, strides_t::filled(shape_.size(), 0), shape_t{nd, 2});
    (void)l;
    const index_t rows = shape_.size() == 2 ? shape_[0] : 1;
    const index_t cols = shape_.size() == 2 ? shape_[1] : shape_.size() == 1 ? shape_[0] : 1;
    for (int i = 0; i < nd; ++i)
      for (int j = 0; j < 2; ++j)
        out[i][j] = v_[static_cast<std::size_t>((rows == 1 ? 0 : i) * cols + (cols == 1 ? 0 : j))];
    return out;
  }

 private:
  std::vector<V> v_;
  shape_t shape_;
};

// The gather of numpy.pad; `width` is a cupp::pad_width.
template <class T, class S>
gather_expr<T, S> make_pad(const ndarray<T, S>& a, const pairs<index_t>& width, pad_mode mode,
                           const std::vector<std::array<T, 2>>* values,
                           const std::type_identity_t<T>& value) {
  const int nd = a.ndim();
  const auto w = width.as_pairs(nd, true);
  if (mode != pad_mode::constant)
    for (int i = 0; i < nd; ++i)
      if (a.shape()[i] == 0 && (w[i][0] > 0 || w[i][1] > 0))
        throw value_error("can't extend empty axis " + std::to_string(i) +
                          " using modes other than 'constant' or 'empty'");
  gather_fn<T> g;
  shape_t out = a.shape();
  for (int i = 0; i < nd; ++i) {
    const index_t n = a.shape()[i], b = w[i][0], e = w[i][1];
    if (b > INT64_MAX - n - e) throw value_error(too_big);
    out[i] = n + b + e;
    axis_map& m = g.m[i];
    m.stride = a.strides()[i];
    m.n = n;
    g.lo[i] = values ? (*values)[i][0] : value;
    g.hi[i] = values ? (*values)[i][1] : value;
    if (b == 0 && e == 0) continue;
    switch (mode) {
      case pad_mode::constant:
        m.kind = axis_map::constant;
        m.shift = b;
        break;
      case pad_mode::edge:
        m.kind = axis_map::edge;
        m.shift = b;
        break;
      case pad_mode::reflect:
        m.kind = axis_map::reflect;
        m.shift = b;
        break;
      case pad_mode::symmetric:
        m.kind = axis_map::symmetric;
        m.shift = b;
        break;
      case pad_mode::wrap:
        m.kind = axis_map::wrap;
        m.shift = py_mod(-b, n);
        break;
    }
  }
  checked_size(out, sizeof(T));
  return {a, out, g};
}

}  // namespace cupp::detail
