// The engines of numpy.isin, in1d, intersect1d, union1d, setdiff1d and
// setxor1d over arrays and lazy expressions: the inputs flattened (and
// sorted) in the promoted dtype, a loop or a kernel over positions, the
// selection of the kept ones (one count read back), isin's table and
// search. The comparisons and the kernels are in sets_match.hpp and
// sets_device.hpp. The public functions (include/cupp/sort/sets.hpp) call
// isin_impl, intersect1d_impl, intersect1d_indices_impl, union1d_impl,
// setdiff1d_impl and setxor1d_impl.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/expression/ufunc_expr.hpp>
#include <cupp/detail/sort/sets_match.hpp>
#include <cupp/detail/sort/sort_rows.hpp>
#include <cupp/detail/sort/sort_run.hpp>
#include <cupp/sort/sort_types.hpp>

#if defined(__CUDACC__)
#include <cupp/detail/sort/sets_device.hpp>
#endif

namespace cupp {

namespace detail::sets {

template <class X>
using value_of = typename operand_t<X>::value_type;
template <class X>
using space_of = eval_space_t<typename operand_t<X>::space>;

template <class S>
cudaStream_t stream_of(int device) {
#if defined(__CUDACC__)
  if constexpr (std::is_same_v<S, device_space>)
    return cuda::detail::current_stream_impl(device)->handle;
#endif
  (void)device;
  return nullptr;
}

// Runs f(i) for i < n: a kernel for device arrays, a loop on the host.
template <class S, class F>
void each(index_t n, const F& f, int device) {
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    device_each(n, f, stream_of<S>(device));
#else
    (void)n, (void)f, (void)device;
    CUPP_NEEDS_NVCC(S);
#endif
  } else {
    (void)device;
    for (index_t i = 0; i < n; ++i) f(i);
  }
}

// The positions i < n that keep(i) accepts, into pos; their count into
// *count (in S's memory: read later, with the other counts, at once).
template <class S, class Keep>
void select(const Keep& keep, index_t n, index_t* pos, index_t* count, int device) {
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    ndarray<std::uint8_t, S> flags(shape_t{n});
    device_each(n, keep_flags<Keep>{keep, flags.data()}, stream_of<S>(device));
    device_select(flags.data(), n, pos, count, stream_of<S>(device));
#else
    (void)keep, (void)n, (void)pos, (void)count, (void)device;
    CUPP_NEEDS_NVCC(S);
#endif
  } else {
    (void)device;
    index_t c = 0;
    for (index_t i = 0; i < n; ++i)
      if (keep(i)) pos[c++] = i;
    *count = c;
  }
}

// The counts on the host. (I, always index_t, makes the host array's type
// dependent: its definition comes with the instantiation.)
template <class S, class I = index_t>
host::ndarray<I> read(const ndarray<I, S>& counts) {
  if constexpr (std::is_same_v<S, device_space>)
    return counts.get();
  else
    return counts;
}

// x flattened as R, evaluated once into a contiguous buffer (or read where
// it is when it already is one).
template <class R, class X>
auto flat_source(const X& x) {
  const auto op = as_operand(x);
  if constexpr (std::is_same_v<value_of<X>, R>)
    return sorting::rows_of(op, -1);
  else
    return sorting::rows_of(make_ufunc(ops::cast<R>{}, op), -1);
}

// n contiguous values sorted in NumPy's order into a new array.
template <class R, class S>
ndarray<R, S> sorted_copy(const R* src, index_t n) {
  ndarray<R, S> out(shape_t{n});
  if (n > 0) sort_rows<R, S>(src, out.data(), 1, n, out.device_id());
  return out;
}

// x flattened as R and sorted in NumPy's order.
template <class R, class X>
ndarray<R, space_of<X>> flat_sorted(const X& x) {
  const index_t n = size_of(x.shape());
  if (n == 0) return ndarray<R, space_of<X>>(shape_t{0});
  return sorted_copy<R, space_of<X>>(flat_source<R>(x).data, n);
}

// The elements of the n at `run` that keep() accepts, as a new array (one
// count read back).
template <class T, class S, class Keep>
ndarray<T, S> kept(const T* run, index_t n, int device, const Keep& keep) {
  ndarray<index_t, S> pos(shape_t{n}), count(shape_t{1});
  if (n > 0) select<S>(keep, n, pos.data(), count.data(), device);
  const index_t c = n == 0 ? 0 : read(count).data()[0];
  ndarray<T, S> out(shape_t{c});
  each<S>(c, gather_run<T>{{run, pos.data(), c}, out.data()}, device);
  return out;
}
template <class T, class S, class Keep>
ndarray<T, S> kept(const ndarray<T, S>& run, const Keep& keep) {
  return kept<T, S>(run.data(), run.size(), run.device_id(), keep);
}

inline void check_kind(std::string_view kind) {
  if (!kind.empty() && kind != "sort" && kind != "table")
    throw value_error("Invalid kind: '" + std::string(kind) +
                      "'. Please use None, 'sort' or 'table'.");
}

template <class T>
inline constexpr bool integer_like_v = std::is_integral_v<T>;

// NumPy's range_safe_from_overflow: the table's span must fit the test
// values' dtype (bool counts as uint8).
template <class TT>
bool span_fits(std::uint64_t span) {
  using L = std::conditional_t<std::is_same_v<TT, bool>, std::uint8_t, TT>;
  return span <= static_cast<std::uint64_t>(std::numeric_limits<L>::max());
}

// isin over the flattened element; `shape` is the result's.
template <class E, class T>
auto isin_impl(const E& element, const T& test, bool invert, std::string_view kind,
               const shape_t& shape) {
  using TE = value_of<E>;
  using TT = value_of<T>;
  using S = space_of<E>;
  static_assert(std::is_same_v<S, space_of<T>>,
                "cupp::isin: element and test_elements must live in the same space");
  check_kind(kind);
  constexpr bool integers = integer_like_v<TE> && integer_like_v<TT>;
  if (kind == "table" && !integers)
    throw value_error(
        "The 'table' method is only supported for boolean or integer arrays. Please select "
        "'sort' or None for kind.");
  ndarray<bool, S> out(shape);
  const index_t n = out.size();
  const index_t m = size_of(test.shape());
  const int dev = out.device_id();
  if constexpr (integers) {
    // NumPy's choice of the table: asked for, or (on the host, where
    // reading the range costs nothing) when it is small. The device
    // searches unless asked, to read nothing back.
    const bool may_table = kind == "table" || (kind.empty() && !std::is_same_v<S, device_space>);
    if (may_table && m > 0) {
      const auto t = flat_sorted<TT>(test);
      // Sorted, so its ends are the minimum and the maximum.
      const TT low = t.item(index_t(0)), high = t.item(m - 1);
      const std::uint64_t span = table_offset(high, low);
      const bool fits = span_fits<TT>(span);
      if (!fits && kind == "table")
        throw std::runtime_error(
            "You have specified kind='table', but the range of values in `ar2` or `ar1` exceed "
            "the maximum integer of the datatype. Please set `kind` to None or 'sort'.");
      const bool small = span <= static_cast<std::uint64_t>(6 * (n + m));
      if (fits && (kind == "table" || small)) {
        if (n == 0) return out;
        const std::size_t words = static_cast<std::size_t>(span / 32 + 1);
        ndarray<std::uint32_t, S> bits(shape_t{static_cast<index_t>(words)});
        if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
          device_table_mark(t.data(), m, low, bits.data(), words, stream_of<S>(dev));
#else
          CUPP_NEEDS_NVCC(TE);
#endif
        } else {
          std::fill(bits.data(), bits.data() + words, 0u);
          for (index_t i = 0; i < m; ++i) {
            const std::uint64_t off = table_offset(t.data()[i], low);
            bits.data()[off >> 5] |= 1u << (off & 31);
          }
        }
        const auto q = flat_source<TE>(element);
        each<S>(n, table_membership<TE, TT>{q.data, {bits.data(), low, high}, invert, out.data()},
                dev);
        return out;
      }
    }
  }
  if (n == 0) return out;
  using R = result_type_t<TE, TT>;
  const auto t = flat_sorted<R>(test);
  const auto q = flat_source<TE>(element);
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    // kind=None with integers of one dtype: NumPy's choice of the table,
    // made on the device (see device_isin_search).
    std::uint64_t table_capacity = 0;
    if constexpr (integers && std::is_same_v<TE, TT>)
      if (kind.empty())  // at most 2^28 bits (32 MiB): the search serves past that
        table_capacity =
            std::min<std::uint64_t>(6 * static_cast<std::uint64_t>(n + m), std::uint64_t(1) << 28);
    device_isin_search(q.data, out.data(), n, t.data(), m, invert, dev, stream_of<S>(dev),
                       table_capacity);
#else
    CUPP_NEEDS_NVCC(TE);
#endif
  } else {
    each<S>(n, search_membership<TE, R>{q.data, {t.data(), nullptr, m}, invert, out.data()}, dev);
  }
  return out;
}

template <class R, class S>
ndarray<R, S> common_values(const ndarray<R, S>& a, const ndarray<R, S>& b) {
  return kept(a, keep_rule<R, R>{a.data(), {b.data(), nullptr, b.size()}, true, 1});
}

// numpy.intersect1d(ar1, ar2, assume_unique): the sorted unique values in
// both, in the promoted dtype.
template <class A, class B>
auto intersect1d_impl(const A& ar1, const B& ar2, bool assume_unique) {
  using R = result_type_t<value_of<A>, value_of<B>>;
  (void)assume_unique;
  return common_values(flat_sorted<R>(ar1), flat_sorted<R>(ar2));
}

// numpy.intersect1d(..., return_indices=True): the common values and the
// indices of their first occurrences; each input is evaluated once.
template <class A, class B>
auto intersect1d_indices_impl(const A& ar1, const B& ar2, bool assume_unique) {
  using R = result_type_t<value_of<A>, value_of<B>>;
  using S = space_of<A>;
  (void)assume_unique;
  const index_t n1 = detail::size_of(ar1.shape()), n2 = detail::size_of(ar2.shape());
  const auto src1 = flat_source<R>(ar1);
  const auto src2 = flat_source<R>(ar2);
  intersect1d_result<R, S> out{
      common_values(sorted_copy<R, S>(src1.data, n1), sorted_copy<R, S>(src2.data, n2)), {}, {}};
  const index_t c = out.values.size();
  const int dev = out.values.device_id();
  const sorted_run<R> common{out.values.data(), nullptr, c};
  const auto firsts = [&](const R* src, index_t n) {
    ndarray<std::int64_t, S> first(shape_t{c});
    if (c == 0) return first;
    auto* f = reinterpret_cast<unsigned long long*>(first.data());
    each<S>(c, fill_with<unsigned long long>{f, ~0ull}, dev);
    each<S>(n, first_occurrence<R, R>{src, common, f}, dev);
    return first;
  };
  out.indices1 = firsts(src1.data, n1);
  out.indices2 = firsts(src2.data, n2);
  return out;
}

// numpy.union1d(ar1, ar2): the sorted unique values in either.
template <class A, class B>
auto union1d_impl(const A& ar1, const B& ar2) {
  using R = result_type_t<value_of<A>, value_of<B>>;
  using S = space_of<A>;
  const index_t na = detail::size_of(ar1.shape()), nb = detail::size_of(ar2.shape());
  ndarray<R, S> joined(shape_t{na + nb});
  const auto part = [&](index_t offset, const shape_t& shape) {
    return ndarray<R, S>(joined.data() + offset, shape,
                         detail::contiguous_strides(shape, sizeof(R)), joined.memory(),
                         joined.device_id(), false);
  };
  if (na > 0) detail::assign(part(0, ar1.shape()), make_ufunc(ops::cast<R>{}, as_operand(ar1)));
  if (nb > 0) detail::assign(part(na, ar2.shape()), make_ufunc(ops::cast<R>{}, as_operand(ar2)));
  const auto sorted = flat_sorted<R>(joined);
  return kept(sorted, keep_rule<R, R>{sorted.data(), {}, true, 0});
}

// numpy.setdiff1d(ar1, ar2, assume_unique): ar1's unique values not in ar2
// (with assume_unique, ar1's elements not in ar2, in their order).
template <class A, class B>
auto setdiff1d_impl(const A& ar1, const B& ar2, bool assume_unique) {
  using TA = value_of<A>;
  using R = result_type_t<TA, value_of<B>>;
  using S = space_of<A>;
  const auto b = flat_sorted<R>(ar2);
  const sorted_run<R> in_b{b.data(), nullptr, b.size()};
  if (!assume_unique) {
    const auto a = flat_sorted<TA>(ar1);
    return kept(a, keep_rule<TA, R>{a.data(), in_b, true, -1});
  }
  const index_t n = detail::size_of(ar1.shape());
  if (n == 0) return ndarray<TA, S>(shape_t{0});
  const auto a = flat_source<TA>(ar1);
  return kept<TA, S>(a.data, n, b.device_id(), keep_rule<TA, R>{a.data, in_b, false, -1});
}

// numpy.setxor1d(ar1, ar2, assume_unique): the sorted unique values in
// exactly one of the two.
template <class A, class B>
auto setxor1d_impl(const A& ar1, const B& ar2, bool assume_unique) {
  using R = result_type_t<value_of<A>, value_of<B>>;
  using S = space_of<A>;
  (void)assume_unique;
  const auto a = flat_sorted<R>(ar1);
  const auto b = flat_sorted<R>(ar2);
  const index_t na = a.size(), nb = b.size();
  const int dev = a.device_id();
  ndarray<index_t, S> pos_a(shape_t{na}), pos_b(shape_t{nb}), counts(shape_t{2});
  if constexpr (!std::is_same_v<S, device_space>) std::fill(counts.data(), counts.data() + 2, 0);
  if (na > 0)
    select<S>(keep_rule<R, R>{a.data(), {b.data(), nullptr, nb}, true, -1}, na, pos_a.data(),
              counts.data(), dev);
  if (nb > 0)
    select<S>(keep_rule<R, R>{b.data(), {a.data(), nullptr, na}, true, -1}, nb, pos_b.data(),
              counts.data() + 1, dev);
  index_t ca = 0, cb = 0;
  if (na + nb > 0) {
    const auto c = read(counts);
    ca = na > 0 ? c.data()[0] : 0;
    cb = nb > 0 ? c.data()[1] : 0;
  }
  ndarray<R, S> out(shape_t{ca + cb});
  each<S>(ca + cb,
          merge_runs<R>{{a.data(), pos_a.data(), ca}, {b.data(), pos_b.data(), cb}, out.data()},
          dev);
  return out;
}

}  // namespace detail::sets

}  // namespace cupp
