// What the set routines share between the host and kernels: NumPy's
// equality of two values compared in their promoted dtype R (NaN equals
// nothing, -0.0 equals 0.0), np.unique's grouping (every NaN one group, as
// its equal_nan=True), binary searches over sorted runs read through an
// optional position list, and the predicates that pick the elements a set
// routine keeps.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/sort/sort_keys.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::sets {

// The order key of a value: an unsigned integer, or complex128's two halves.
template <class R>
using order_key_t = decltype(sorting::full_key(R{}));

template <class K>
CUPP_HD inline bool key_less(const K& a, const K& b) {
  if constexpr (std::is_integral_v<K>)
    return a < b;
  else
    return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}
template <class K>
CUPP_HD inline bool key_equal(const K& a, const K& b) {
  if constexpr (std::is_integral_v<K>)
    return a == b;
  else
    return a.hi == b.hi && a.lo == b.lo;
}

template <class R>
CUPP_HD inline bool has_nan(const R& v) {
  if constexpr (sorting::is_complex_v<R>) {
    using F = typename sorting::part_of<R>::type;
    return sorting::is_nan_bits<F>(sorting::bits_of(F(v.real()))) ||
           sorting::is_nan_bits<F>(sorting::bits_of(F(v.imag())));
  } else if constexpr (sorting::is_floating_v<R>) {
    return sorting::is_nan_bits<R>(sorting::bits_of(v));
  } else {
    return false;
  }
}

// np.unique's grouping: equal values, or two values that both hold a NaN.
template <class R>
CUPP_HD inline bool same_group(const R& a, const R& b) {
  if (has_nan(a) || has_nan(b)) return has_nan(a) && has_nan(b);
  return key_equal(sorting::full_key(a), sorting::full_key(b));
}

// A sorted run of R values: data[i], or data[pos[i]] when pos is set.
template <class R>
struct sorted_run {
  const R* data = nullptr;
  const index_t* pos = nullptr;
  index_t n = 0;
  CUPP_HD R operator[](index_t i) const { return pos ? data[pos[i]] : data[i]; }
};

// The first position of `run` whose key is not below k (Right: above k).
template <bool Right, class Run, class K>
CUPP_HD inline index_t key_bound(const Run& run, index_t lo, index_t hi, const K& k) {
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    const K m = sorting::full_key(run[mid]);
    if (Right ? !key_less(k, m) : key_less(m, k))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// NumPy's `v in run` (==): never for a NaN.
template <class R, class Run>
CUPP_HD inline bool contains(const Run& run, const R& v) {
  if (has_nan(v)) return false;
  const auto k = sorting::full_key(v);
  const index_t i = key_bound<false>(run, 0, run.n, k);
  return i < run.n && key_equal(sorting::full_key(run[i]), k);
}

// How a set routine keeps position i of a sorted run `a` (of A values):
// only a group's first element when `dedupe`, and, by `member`, whether
// its value (as R) must be in `b` (+1), must not be (-1), or either (0).
template <class A, class R>
struct keep_rule {
  const A* a = nullptr;
  sorted_run<R> b{};
  bool dedupe = true;
  int member = 0;
  CUPP_HD bool operator()(index_t i) const {
    if (dedupe && i > 0 && same_group(a[i - 1], a[i])) return false;
    if (member == 0) return true;
    return contains(b, convert<R>(a[i])) == (member > 0);
  }
};

// Exact comparisons of integers of any two types (NumPy's table method
// compares through Python ints).
template <class X, class Y>
CUPP_HD inline bool int_less(X x, Y y) {
  if constexpr (std::is_signed_v<X> == std::is_signed_v<Y>)
    return x < y;
  else if constexpr (std::is_signed_v<X>)
    return x < 0 || static_cast<std::uint64_t>(x) < static_cast<std::uint64_t>(y);
  else
    return y >= 0 && static_cast<std::uint64_t>(x) < static_cast<std::uint64_t>(y);
}

// kind="table": one bit per value of [low, low + span] marks the test
// elements; `element` is in it when in range and its bit is set.
template <class Q, class TT>
struct table_lookup {
  const std::uint32_t* bits = nullptr;
  TT low{}, high{};
  CUPP_HD bool operator()(const Q& v) const {
    using W = std::conditional_t<std::is_same_v<Q, bool>, std::uint8_t, Q>;
    using L = std::conditional_t<std::is_same_v<TT, bool>, std::uint8_t, TT>;
    const W x = static_cast<W>(v);
    const L lo = static_cast<L>(low), hi = static_cast<L>(high);
    if (int_less(x, lo) || int_less(hi, x)) return false;
    const std::uint64_t off = static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(lo);
    return (bits[off >> 5] >> (off & 31)) & 1u;
  }
};

template <class TT>
CUPP_HD inline std::uint64_t table_offset(const TT& v, const TT& low) {
  using L = std::conditional_t<std::is_same_v<TT, bool>, std::uint8_t, TT>;
  return static_cast<std::uint64_t>(static_cast<L>(v)) -
         static_cast<std::uint64_t>(static_cast<L>(low));
}

// The per-element steps after a selection, one index each (host loops and
// kernels run the same functors).

// out[k] = run[k]: a selection's values.
template <class T>
struct gather_run {
  sorted_run<T> run;
  T* out;
  CUPP_HD void operator()(index_t k) const { out[k] = run[k]; }
};

// flags[i] = keep(i): the device selection's input.
template <class Keep>
struct keep_flags {
  Keep keep;
  std::uint8_t* flags;
  CUPP_HD void operator()(index_t i) const { flags[i] = keep(i) ? 1 : 0; }
};

template <class T>
struct fill_with {
  T* out;
  T value;
  CUPP_HD void operator()(index_t i) const { out[i] = value; }
};

// intersect1d's indices: for each element i of a flattened input whose
// value is among the sorted common `values`, first[its group] = the least
// such i (the first occurrence, as NumPy's stable sort finds it).
template <class R, class X>
struct first_occurrence {
  const X* src;
  sorted_run<R> values;
  unsigned long long* first;
  CUPP_HD void operator()(index_t i) const {
    const R v = convert<R>(src[i]);
    if (has_nan(v)) return;
    const auto k = sorting::full_key(v);
    const index_t g = key_bound<false>(values, 0, values.n, k);
    if (g == values.n || !key_equal(sorting::full_key(values[g]), k)) return;
#if defined(__CUDA_ARCH__)
    atomicMin(first + g, static_cast<unsigned long long>(i));
#else
    if (static_cast<unsigned long long>(i) < first[g])
      first[g] = static_cast<unsigned long long>(i);
#endif
  }
};

// Merges two sorted runs with no common value except NaN: each element's
// place is its own index plus the count of the other run's elements
// before it (a's NaNs first).
template <class R>
struct merge_runs {
  sorted_run<R> a, b;
  R* out;
  CUPP_HD void operator()(index_t i) const {
    if (i < a.n) {
      const R v = a[i];
      out[i + key_bound<false>(b, 0, b.n, sorting::full_key(v))] = v;
    } else {
      const index_t j = i - a.n;
      const R v = b[j];
      out[j + key_bound<true>(a, 0, a.n, sorting::full_key(v))] = v;
    }
  }
};

// isin by search: whether each query (as R) is in the sorted run, or not.
template <class Q, class R>
struct search_membership {
  const Q* q;
  sorted_run<R> run;
  bool invert;
  bool* out;
  CUPP_HD void operator()(index_t i) const { out[i] = contains(run, convert<R>(q[i])) != invert; }
};

template <class Q, class TT>
struct table_membership {
  const Q* q;
  table_lookup<Q, TT> table;
  bool invert;
  bool* out;
  CUPP_HD void operator()(index_t i) const { out[i] = table(q[i]) != invert; }
};

}  // namespace cupp::detail::sets
