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

#include <cupp/space_check.hpp>
#include <cupp/detail/indexing/mask_functions.hpp>
#include <cupp/detail/indexing/mask_operand.hpp>
#include <cupp/detail/indexing/mask_ref.hpp>
#include <cupp/detail/indexing/mask_select.hpp>
#include <cupp/expression.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/reduction_options.hpp>
#include <cupp/ufunc.hpp>

namespace cupp {

// numpy.nonzero(a): the indices of the nonzero elements, one int64 array
// per axis (C order). a is an array or an expression of any dtype.
template <Expression E>
auto nonzero(const E& a) {
  return detail::nonzero_impl(a);
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
  CUPP_SAME_SPACE(C, ndarray<T, S>);
  return detail::compress_impl(detail::dense_values<bool, S>(condition), a, axis);
}

// numpy.extract(condition, arr): arr's elements where condition is true,
// both flattened in C order.
template <Expression C, class T, class S>
ndarray<T, S> extract(const C& condition, const ndarray<T, S>& arr) {
  CUPP_SAME_SPACE(C, ndarray<T, S>);
  return detail::compress_impl(detail::dense_values<bool, S>(condition).ravel(), arr, {});
}

// numpy.place(arr, mask, vals): the elements of arr where mask is true take
// vals' elements in turn (cycled when vals is shorter); mask has arr's size.
template <class T, class S, Expression M, Operand V>
void place(const ndarray<T, S>& arr, const M& mask, const V& vals) {
  CUPP_SAME_SPACE(ndarray<T, S>, M, V);
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
  CUPP_SAME_SPACE(ndarray<T, S>, M, V);
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
// fused where() kernel per condition, from the last to the first. (The
// conditions' space is a parameter of its own so that a mix reaches the
// space check rather than failing deduction.)
template <class T, class S, class D = T, class SC = S>
ndarray<T, S> select(const std::vector<ndarray<bool, SC>>& condlist,
                     const std::vector<ndarray<T, S>>& choicelist, const D& default_value = D(0)) {
  CUPP_SAME_SPACE(ndarray<bool, SC>, ndarray<T, S>, D);
  if (condlist.size() != choicelist.size())
    throw value_error("list of cases must be same length as list of conditions");
  if (condlist.empty()) throw value_error("select with an empty condition list is not possible");
  ndarray<T, S> out(detail::select_shape(condlist, choicelist));
  copyto(out, default_value);
  for (std::size_t i = condlist.size(); i-- > 0;)
    detail::assign(out, where(condlist[i], choicelist[i], out));
  return out;
}

}  // namespace cupp
