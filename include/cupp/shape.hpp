// Shapes and strides: small inline vectors of index_t, printed as NumPy
// prints tuples, and the layout rules (contiguity, default strides) NumPy
// applies to them.
// cupp-layer: vocabulary
#pragma once

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/errors.hpp>

namespace cupp {

// Memory order of a new array or of a copy, as NumPy's order= argument.
// 'A' and 'K' keep the source's layout where that is C or F.
enum class order : char { C = 'C', F = 'F', A = 'A', K = 'K' };

// A fixed-capacity vector of up to max_ndim extents or strides. It lives
// inside every array handle, so views and copies of handles never allocate.
class dims {
 public:
  using value_type = index_t;
  using iterator = index_t*;
  using const_iterator = const index_t*;

  constexpr dims() noexcept = default;
  // Only the first size() values are meaningful: copying a handle copies no
  // more, which keeps expressions (that hold arrays by value) cheap to build.
  constexpr dims(const dims& o) noexcept : n_(o.n_) {
    for (int i = 0; i < n_; ++i) v_[i] = o.v_[i];
  }
  constexpr dims& operator=(const dims& o) noexcept {
    n_ = o.n_;
    for (int i = 0; i < n_; ++i) v_[i] = o.v_[i];
    return *this;
  }
  dims(std::initializer_list<index_t> values) { assign(values.begin(), values.size()); }
  template <class Int>
  requires std::is_integral_v<Int> dims(std::span<const Int> values) {
    check_rank(static_cast<index_t>(values.size()));
    n_ = static_cast<int>(values.size());
    for (int i = 0; i < n_ && i < max_ndim; ++i) v_[i] = static_cast<index_t>(values[i]);
  }
  template <class Int>
  requires std::is_integral_v<Int> dims(const std::vector<Int>& values)
      : dims(std::span<const Int>(values)) {}

  // n copies of value.
  static dims filled(int n, index_t value) CUPP_HOST_BODY({
    dims d;
    check_rank(n);
    d.n_ = n;
    std::fill_n(d.v_, n, value);
    return d;
  });

  constexpr int size() const noexcept { return n_; }
  constexpr bool empty() const noexcept { return n_ == 0; }
  constexpr index_t& operator[](int i) noexcept { return v_[i]; }
  constexpr const index_t& operator[](int i) const noexcept { return v_[i]; }
  constexpr index_t* data() noexcept { return v_; }
  constexpr const index_t* data() const noexcept { return v_; }
  constexpr iterator begin() noexcept { return v_; }
  constexpr iterator end() noexcept { return v_ + n_; }
  constexpr const_iterator begin() const noexcept { return v_; }
  constexpr const_iterator end() const noexcept { return v_ + n_; }
  index_t& back() noexcept { return v_[n_ - 1]; }
  index_t back() const noexcept { return v_[n_ - 1]; }

  void push_back(index_t value) CUPP_HOST_BODY({
    check_rank(n_ + 1);
    v_[n_++] = value;
  });
  void resize(int n, index_t value = 0) CUPP_HOST_BODY({
    check_rank(n);
    for (int i = n_; i < n; ++i) v_[i] = value;
    n_ = n;
  });

  std::vector<index_t> to_vector() const { return {begin(), end()}; }

  friend bool operator==(const dims& a, const dims& b) noexcept {
    return a.n_ == b.n_ && std::equal(a.begin(), a.end(), b.begin());
  }

  // NumPy's message for a rank past the limit.
  static void check_rank(index_t n) CUPP_HOST_BODY({
    if (n > max_ndim)
      throw value_error("maximum supported dimension for an ndarray is currently " +
                        std::to_string(max_ndim) + ", found " + std::to_string(n));
  });

 private:
  void assign(const index_t* values, std::size_t n) CUPP_HOST_BODY({
    check_rank(static_cast<index_t>(n));
    std::copy_n(values, n, v_);
    n_ = static_cast<int>(n);
  });

  index_t v_[max_ndim];
  int n_ = 0;
};

using shape_t = dims;    // extents of each axis
using strides_t = dims;  // bytes between neighbours along each axis

// A shape as Python prints the tuple: "()", "(3,)", "(2, 3)".
inline std::string to_string(const dims& d) CUPP_HOST_BODY({
  std::string s = "(";
  for (int i = 0; i < d.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(d[i]);
  }
  if (d.size() == 1) s += ",";
  s += ")";
  return s;
});

namespace detail {

// A shape as NumPy's C code writes it in its messages, without spaces:
// "()", "(3,)", "(3,4)" ("operands could not be broadcast together with
// shapes (3,4) (4,3) "); Python-level messages print the tuple (to_string).
inline std::string np_shape(const dims& d) CUPP_HOST_BODY({
  std::string s = "(";
  for (int i = 0; i < d.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(d[i]);
  }
  return s + (d.size() == 1 ? ",)" : ")");
});

// Number of elements; throws NumPy's ValueError for a negative extent or for
// a byte size past what an index can address.
inline index_t checked_size(const shape_t& shape, index_t itemsize) CUPP_HOST_BODY({
  bool empty = false;
  for (index_t e : shape) {
    if (e < 0) throw value_error("negative dimensions are not allowed");
    empty = empty || e == 0;
  }
  // A zero extent anywhere makes the array empty whatever the other extents.
  if (empty) return 0;
  index_t n = 1;
  for (index_t e : shape) {
    if (n > INT64_MAX / e)
      throw value_error(
          "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
          "possible size.");
    n *= e;
  }
  if (n > INT64_MAX / itemsize)
    throw value_error(
        "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible "
        "size.");
  return n;
});

inline index_t size_of(const shape_t& shape) noexcept CUPP_HOST_BODY({
  index_t n = 1;
  for (index_t e : shape) n *= e;
  return n;
});

// Strides of a fresh C- or F-ordered array, in bytes.
inline strides_t contiguous_strides(const shape_t& shape, index_t itemsize, order o = order::C) {
  strides_t s = strides_t::filled(shape.size(), 0);
  index_t step = itemsize;
  if (o == order::F) {
    for (int i = 0; i < shape.size(); ++i) {
      s[i] = step;
      step *= std::max<index_t>(shape[i], 1);
    }
  } else {
    for (int i = shape.size() - 1; i >= 0; --i) {
      s[i] = step;
      step *= std::max<index_t>(shape[i], 1);
    }
  }
  return s;
}

// NumPy's contiguity flags: axes of extent 1 may have any stride, and an
// empty array is both C- and F-contiguous.
inline bool is_c_contiguous(const shape_t& shape, const strides_t& strides, index_t itemsize) {
  index_t expected = itemsize;
  for (int i = shape.size() - 1; i >= 0; --i) {
    if (shape[i] == 0) return true;
  }
  for (int i = shape.size() - 1; i >= 0; --i) {
    if (shape[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

inline bool is_f_contiguous(const shape_t& shape, const strides_t& strides, index_t itemsize) {
  for (int i = 0; i < shape.size(); ++i)
    if (shape[i] == 0) return true;
  index_t expected = itemsize;
  for (int i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

// The lowest and one-past-highest byte offsets an array touches relative to
// its data pointer (negative strides reach below it).
struct byte_extent {
  index_t lo = 0, hi = 0;
};
inline byte_extent extent_of(const shape_t& shape, const strides_t& strides, index_t itemsize) {
  byte_extent e;
  for (index_t x : shape)
    if (x == 0) return e;
  e.hi = itemsize;
  for (int i = 0; i < shape.size(); ++i) {
    const index_t reach = (shape[i] - 1) * strides[i];
    if (reach < 0)
      e.lo += reach;
    else
      e.hi += reach;
  }
  return e;
}

}  // namespace detail
}  // namespace cupp
