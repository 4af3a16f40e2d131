// numpy.isin, in1d, intersect1d, union1d, setdiff1d and setxor1d over
// arrays and lazy expressions of every dtype, device and host. Values are
// compared in the inputs' promoted dtype with NumPy's ==: NaN is in
// nothing, -0.0 equals 0.0; np.unique's grouping (all NaNs one value)
// makes the results unique. Inputs are flattened (isin keeps element's
// shape). Device operands run on CUB (radix sorts, DeviceSelect::Flagged) and a
// few kernels; isin never synchronises (kind="table" reads the test
// values' minimum and maximum, as the table's size depends on them), the
// other routines read one count. See docs/sorting.md.
//
//   auto m = cupp::isin(x, ids);                      // bool, x's shape
//   auto c = cupp::intersect1d(a, b * 2);
//   auto [v, i, j] = cupp::intersect1d(a, b, false, cupp::return_indices);
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <cupp/expression.hpp>
#include <cupp/sort/sort.hpp>
#include <cupp/sort/sort_types.hpp>
#include <cupp/space_check.hpp>
#include <cupp/detail/sort/sets_run.hpp>

namespace cupp {

// numpy.isin(element, test_elements, assume_unique, invert, kind): whether
// each element of `element` is in the flattened test_elements (bool,
// element's shape). kind is "" (None), "sort" or "table" (integers and
// bool only); assume_unique changes nothing here but is accepted.
template <Expression E, Expression T>
auto isin(const E& element, const T& test_elements, bool assume_unique = false, bool invert = false,
          std::string_view kind = {}) {
  CUPP_SAME_SPACE(E, T);
  (void)assume_unique;
  return detail::sets::isin_impl(element, test_elements, invert, kind, element.shape());
}

// numpy.in1d (removed in NumPy 2.4): isin of the flattened element, 1-d.
template <Expression E, Expression T>
auto in1d(const E& element, const T& test_elements, bool assume_unique = false, bool invert = false,
          std::string_view kind = {}) {
  CUPP_SAME_SPACE(E, T);
  (void)assume_unique;
  return detail::sets::isin_impl(element, test_elements, invert, kind,
                                 shape_t{detail::size_of(element.shape())});
}

// numpy.intersect1d(ar1, ar2, assume_unique): the sorted unique values in
// both, in the promoted dtype.
template <Expression A, Expression B>
auto intersect1d(const A& ar1, const B& ar2, bool assume_unique = false) {
  CUPP_SAME_SPACE(A, B);
  return detail::sets::intersect1d_impl(ar1, ar2, assume_unique);
}

// numpy.intersect1d(ar1, ar2, assume_unique, return_indices=True). Each
// input is still evaluated once: its flattened values serve the sort and
// the search for first occurrences.
template <Expression A, Expression B>
auto intersect1d(const A& ar1, const B& ar2, bool assume_unique, return_indices_t) {
  CUPP_SAME_SPACE(A, B);
  return detail::sets::intersect1d_indices_impl(ar1, ar2, assume_unique);
}

// numpy.union1d(ar1, ar2): the sorted unique values in either.
template <Expression A, Expression B>
auto union1d(const A& ar1, const B& ar2) {
  CUPP_SAME_SPACE(A, B);
  return detail::sets::union1d_impl(ar1, ar2);
}

// numpy.setdiff1d(ar1, ar2, assume_unique): the unique values of ar1 not in
// ar2, sorted, in ar1's dtype; with assume_unique, ar1's elements in their
// (flattened) order.
template <Expression A, Expression B>
auto setdiff1d(const A& ar1, const B& ar2, bool assume_unique = false) {
  CUPP_SAME_SPACE(A, B);
  return detail::sets::setdiff1d_impl(ar1, ar2, assume_unique);
}

// numpy.setxor1d(ar1, ar2, assume_unique): the sorted unique values in
// exactly one of the two.
template <Expression A, Expression B>
auto setxor1d(const A& ar1, const B& ar2, bool assume_unique = false) {
  CUPP_SAME_SPACE(A, B);
  return detail::sets::setxor1d_impl(ar1, ar2, assume_unique);
}

}  // namespace cupp
