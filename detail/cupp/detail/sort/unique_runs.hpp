// What unique() calls equal, shared by the host and device paths: NumPy's
// sort order decides which elements tie (sort_keys.hpp), and equality is
// NumPy's `!=` between neighbours in that order, with equal_nan's special
// case (every NaN, of any complex class, one value). Slices of unique(axis=)
// compare element by element as NumPy's structured dtype does: ordered
// lexicographically with NumPy's element order, equal only when every pair
// of elements is == (so a slice holding a NaN equals no other slice, and
// equal_nan does not apply).
#pragma once

#include <cstdint>

#include <cupp/config.hpp>
#include <cupp/detail/sort/sort_keys.hpp>

namespace cupp::detail::sorting {

template <class T>
CUPP_HD bool unique_is_nan(const T& v) {
  if constexpr (is_complex_v<T>) {
    using F = typename part_of<T>::type;
    return is_nan_bits<F>(bits_of(v.real())) || is_nan_bits<F>(bits_of(v.imag()));
  } else if constexpr (is_floating_v<T>) {
    return is_nan_bits<T>(bits_of(v));
  } else {
    return false;
  }
}

template <class T>
CUPP_HD bool unique_is_zero(const T& v) {
  if constexpr (is_floating_v<T>)
    return (bits_of(v) & float_layout<T>::magnitude) == 0;
  else
    return false;
}

// -1, 0 or 1: a against b in NumPy's sort order (NaNs tie with each other
// within a complex NaN class, -0.0 with 0.0).
template <class T>
CUPP_HD int unique_compare(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, complex128>) {
    const auto x = complex_keys(a), y = complex_keys(b);
    if (x.hi != y.hi) return x.hi < y.hi ? -1 : 1;
    if (x.lo != y.lo) return x.lo < y.lo ? -1 : 1;
    return 0;
  } else {
    const auto x = full_key(a), y = full_key(b);
    return x < y ? -1 : (y < x ? 1 : 0);
  }
}

// NumPy's a == b: NaN equals nothing, -0.0 equals 0.0.
template <class T>
CUPP_HD bool unique_equal(const T& a, const T& b) {
  return !unique_is_nan(a) && !unique_is_nan(b) && unique_compare(a, b) == 0;
}

// Whether sorted element i starts a run of equal values.
template <class T>
struct unique_head_fn {
  using value_type = bool;
  const T* sorted;
  bool equal_nan;
  CUPP_HD bool operator()(index_t i) const {
    if (i == 0) return true;
    const T& a = sorted[i - 1];
    const T& b = sorted[i];
    // NaNs sort last, so with equal_nan only the first of them starts a run.
    if (equal_nan && unique_is_nan(b)) return !unique_is_nan(a);
    return !unique_equal(a, b);
  }
};

// The slices of unique(axis=): slice s's element j sits at keys[j * n + s]
// (the (m, n) buffer of the operand's lines along the axis).
template <class T>
struct unique_slices {
  const T* keys;
  index_t n, m;
  // Lexicographic order of two slices (the merge sort's comparator).
  CUPP_HD bool operator()(std::int64_t a, std::int64_t b) const {
    for (index_t j = 0; j < m; ++j) {
      const int c = unique_compare(keys[j * n + a], keys[j * n + b]);
      if (c != 0) return c < 0;
    }
    return false;
  }
  CUPP_HD bool equal(std::int64_t a, std::int64_t b) const {
    for (index_t j = 0; j < m; ++j)
      if (!unique_equal(keys[j * n + a], keys[j * n + b])) return false;
    return true;
  }
};

// The device's form of the slices: each element's NumPy-order key (two
// for complex128, most significant first), keys[j * n + s], and whether
// slice s holds a NaN (then it equals no slice). Comparing keys instead of
// values lets every dtype of one key width share one merge sort.
template <class U>
struct unique_key_slices {
  const U* keys;
  const std::uint8_t* has_nan;
  index_t n, width;
  CUPP_HD bool operator()(std::int64_t a, std::int64_t b) const {
    for (index_t j = 0; j < width; ++j) {
      const U x = keys[j * n + a], y = keys[j * n + b];
      if (x != y) return x < y;
    }
    return false;
  }
  CUPP_HD bool equal(std::int64_t a, std::int64_t b) const {
    if (has_nan[a] || has_nan[b]) return false;
    for (index_t j = 0; j < width; ++j)
      if (keys[j * n + a] != keys[j * n + b]) return false;
    return true;
  }
};

// Run heads stored as bytes (the device's form: the selection and the
// scan over them are then one instantiation for every dtype).
struct unique_flag_fn {
  using value_type = bool;
  const std::uint8_t* heads;
  CUPP_HD bool operator()(index_t i) const { return heads[i] != 0; }
};

// Whether the slice at sorted position i starts a run of equal slices.
template <class Slices>
struct unique_slice_head_fn {
  using value_type = bool;
  Slices slices;
  const std::int64_t* order;
  CUPP_HD bool operator()(index_t i) const {
    return i == 0 || !slices.equal(order[i - 1], order[i]);
  }
};

// The run number of sorted position i, less the one of position 0: a
// head counted from position 1 on, which the inverse's inclusive scan sums.
template <class Head>
struct unique_later_head_fn {
  using value_type = std::int64_t;
  Head head;
  CUPP_HD std::int64_t operator()(index_t i) const { return i > 0 && head(i) ? 1 : 0; }
};

// The first zero of x (n when there is none), for the representative of
// the run of zeros when the values were sorted without their positions.
template <class T>
struct unique_zero_at_fn {
  using value_type = std::int64_t;
  const T* x;
  index_t n;
  CUPP_HD std::int64_t operator()(index_t i) const { return unique_is_zero(x[i]) ? i : n; }
};

}  // namespace cupp::detail::sorting
