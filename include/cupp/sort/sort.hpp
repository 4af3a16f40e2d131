// numpy.sort, argsort, ndarray.sort (sort_inplace), lexsort and
// sort_complex over arrays and lazy expressions of every dtype. NaNs sort
// last, -0.0 and 0.0 tie, complex numbers sort by real then imaginary part
// with NumPy's NaN classes, and every kind= is stable. Device arrays sort
// with CUB (DeviceRadixSort for one row, DeviceSegmentedRadixSort for many,
// one call for all rows), asynchronously; host arrays with
// std::stable_sort. See docs/sorting.md.
//
//   auto s = cupp::sort(x);                 // along the last axis
//   auto i = cupp::argsort(x * 2, 0);       // x * 2 is never stored
//   auto f = cupp::sort(x, cupp::none);     // flattened
//   auto k = cupp::lexsort(b, a);           // by a, then b
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include <cupp/axis.hpp>
#include <cupp/expression.hpp>
#include <cupp/space_check.hpp>
#include <cupp/detail/sort/sort_args.hpp>
#include <cupp/detail/sort/sort_run.hpp>

namespace cupp {

// numpy.sort(x, axis, kind): a sorted copy, C-contiguous, of x's shape.
template <Expression E>
auto sort(const E& x, int axis = -1, std::string_view kind = {}) {
  detail::sorting::check_kind(kind);
  return detail::sorting::sort_of<false>(x, axis, false);
}
// numpy.sort(x, axis=None): the flattened elements, sorted.
template <Expression E>
auto sort(const E& x, none_t, std::string_view kind = {}) {
  detail::sorting::check_kind(kind);
  return detail::sorting::sort_of<false>(x, -1, true);
}

// numpy.argsort(x, axis, kind): int64 indices along the axis; stable.
template <Expression E>
auto argsort(const E& x, int axis = -1, std::string_view kind = {}) {
  detail::sorting::check_kind(kind);
  return detail::sorting::sort_of<true>(x, axis, false);
}
// numpy.argsort(x, axis=None): indices into the flattened x.
template <Expression E>
auto argsort(const E& x, none_t, std::string_view kind = {}) {
  detail::sorting::check_kind(kind);
  return detail::sorting::sort_of<true>(x, -1, true);
}

// ndarray.sort(axis, kind): sorts x's elements in place (x may be any
// view). NumPy's checks, in its order: kind, axis, then writeability.
template <class T, class S>
void sort_inplace(const ndarray<T, S>& x, int axis = -1, std::string_view kind = {}) {
  detail::sorting::check_kind(kind);
  detail::sorting::sort_axis(axis, static_cast<int>(x.shape().size()));
  if (!x.flags().writeable) throw value_error("sort array is read-only");
  detail::sorting::sort_into(x, axis);
}

// numpy.lexsort((k0, k1, ..., kn)): int64 indices that sort along the last
// axis by kn, then k(n-1), ..., k0 (the LAST key is primary); keys of one
// shape, any dtypes.
template <Expression K0, Expression... K>
auto lexsort(const K0& first, const K&... rest) {
  CUPP_SAME_SPACE(K0, K...);
  return detail::sorting::lexsort_keys(as_operand(first), as_operand(rest)...);
}

// numpy.sort_complex(x): sorted along the last axis, as complex numbers.
template <Expression E>
auto sort_complex(const E& x) {
  using T = typename operand_t<E>::value_type;
  using C = detail::sorting::sort_complex_t<T>;
  auto sorted = sort(x);
  if constexpr (std::is_same_v<C, T>) {
    return sorted;
  } else {
    using S = typename decltype(sorted)::space_type;
    ndarray<C, S> out(sorted.shape());
    detail::assign(out, astype<C>(sorted));
    return out;
  }
}

// ndarray.sort(axis, kind), declared in ndarray.
template <class T, class S>
void ndarray<T, S>::sort(int axis, std::string_view kind) const {
  sort_inplace(*this, axis, kind);
}

}  // namespace cupp
