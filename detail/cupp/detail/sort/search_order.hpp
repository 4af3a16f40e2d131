// NumPy's sort order for searching: NaNs after every number, complex
// numbers by real part then imaginary part with NumPy's NaN rules, and the
// binary searches that searchsorted, digitize and the histograms share on
// the host and in kernels.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::search {

// The type two values are compared in: the 16-bit floats widen to float
// (exactly), everything else compares as itself.
template <class T>
using key_t = std::conditional_t<is_low_float_v<T>, float, T>;

template <class K, class T>
CUPP_HD inline K to_key(const T& v) {
  if constexpr (is_low_float_v<T>)
    return to_float(v);
  else
    return convert<K>(v);
}

// a sorts before b in NumPy's order (npysort's LT).
template <class K>
CUPP_HD inline bool before(const K& a, const K& b) {
  if constexpr (is_complex_type_v<K>) {
    const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    if (ar < br) return ai == ai || bi != bi;
    if (ar > br) return bi != bi && ai == ai;
    if (ar == br || (ar != ar && br != br)) return ai < bi || (bi != bi && ai == ai);
    return br != br;
  } else if constexpr (std::is_floating_point_v<K>) {
    return a < b || (b != b && a == a);
  } else {
    return a < b;
  }
}

// A sorted sequence of n keys read through an optional permutation
// (`sorter`) and an element stride (a reversed view has a negative one).
template <class T, class K, class I>
struct sorted_view {
  const T* data = nullptr;
  index_t stride = 1;  // elements
  const I* sorter = nullptr;
  index_t n = 0;

  CUPP_HD K operator[](index_t i) const {
    index_t j = i;
    if (sorter) {
      j = static_cast<index_t>(sorter[i]);
      j = j < 0 ? 0 : (j >= n ? n - 1 : j);
    }
    return to_key<K>(data[j * stride]);
  }
};

// The first position in [lo, hi) whose key does not sort before v
// (side="left"), or whose key sorts after v (side="right"); hi if none.
template <bool Right, class View, class K>
CUPP_HD inline index_t bound_in(const View& a, const K& v, index_t lo, index_t hi) {
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    const K m = a[mid];
    const bool go_right = Right ? !before(v, m) : before(m, v);
    if (go_right)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

template <bool Right, class View, class K>
CUPP_HD inline index_t bound(const View& a, const K& v) {
  return bound_in<Right>(a, v, 0, a.n);
}

}  // namespace cupp::detail::search
