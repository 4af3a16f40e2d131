// The parts of boolean_indexing.hpp's functions that are not a plain mask
// over x: nonzero's index arrays (also ndarray::nonzero()), compress's
// condition along one axis (shorter or longer than the axis, with NumPy's
// errors for the part past its end), the flat masks of place and putmask,
// and the result shape of select.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <cupp/detail/indexing/mask_operand.hpp>
#include <cupp/detail/indexing/mask_select.hpp>
#include <cupp/detail/reduce/plan.hpp>
#include <cupp/detail/views/layout.hpp>
#include <cupp/errors.hpp>
// Expression machinery (array_leaf) and ndarray: to be repointed at
// detail/ once they move.
#include <cupp/detail/expression/launch.hpp>
#include <cupp/array_fwd.hpp>

namespace cupp::detail {

// The view cupp::moveaxis(a, from, to) makes, from the same layout
// functions (manipulation.hpp is an API header).
template <class T, class S>
ndarray<T, S> moved_axis(const ndarray<T, S>& a, int from, int to) {
  int perm[max_ndim];
  moveaxis_perm(a.ndim(), from, to, perm);
  return a.view_as(permuted(a.shape(), a.strides(), perm));
}

// numpy.compress along one axis of an array (or its flattened form).
template <class T, class S>
ndarray<T, S> compress_impl(const ndarray<bool, S>& c0, const ndarray<T, S>& a0,
                            const axis_arg& axis) {
  if (c0.ndim() != 1) throw value_error("condition must be a 1-d array");
  ndarray<T, S> a = axis.all() ? a0.ravel() : a0;
  if (axis.size() > 1) throw type_error("'tuple' object cannot be interpreted as an integer");
  const int ax = axis.all() ? 0 : static_cast<int>(normalize_axis(axis[0], a.ndim()));
  const index_t len = a.shape()[ax];
  ndarray<bool, S> c = c0;
  if (c.size() > len) {
    if (len == 0 && nonzero_positions<S>(array_leaf<bool, S>{c}).second > 0)
      throw index_error("cannot do a non-empty take from an empty axes.");
    auto [pos, count] = nonzero_positions<S>(array_leaf<bool, S>{c(cupp::slice(len, _))});
    if (count > 0) {
      // NumPy's take checks the indices only when the result has elements;
      // an empty result still counts every true of the condition.
      if (a.size() == 0) {
        shape_t rs = a.shape();
        rs[ax] = nonzero_positions<S>(array_leaf<bool, S>{c}).second;
        return ndarray<T, S>(rs);
      }
      const std::int64_t first = pos.item(0);
      throw index_error("index " + std::to_string(len + first) + " is out of bounds for axis " +
                        std::to_string(ax) + " with size " + std::to_string(len));
    }
    c = c(cupp::slice(0, len));
  }
  const ndarray<T, S> moved = moved_axis(a, ax, 0);
  const ndarray<T, S> part = c.size() < len ? moved(cupp::slice(0, c.size())) : moved;
  const ndarray<T, S> r = masked_read(part, array_leaf<bool, S>{c});
  return ax == 0 ? r : moved_axis(r, 0, ax).copy();
}

// A mask of the same size as `a`, seen with a's shape (place, putmask).
template <class S, class T, class M>
ndarray<bool, S> mask_like(const ndarray<T, S>& a, const M& mask, const char* fn) {
  const ndarray<bool, S> m = dense_values<bool, S>(mask);
  if (m.size() != a.size())
    throw value_error(std::string(fn) + ": mask and data must be the same size");
  return m.reshape(a.shape());
}

// numpy.select's result shape. NumPy broadcasts the conditions together
// (broadcast_arrays, whose message names the arguments), then the choices
// with the default, then the first of each.
template <class T, class S>
shape_t select_shape(const std::vector<ndarray<bool, S>>& condlist,
                     const std::vector<ndarray<T, S>>& choicelist) {
  std::vector<shape_t> conds, choices;
  for (const auto& c : condlist) conds.push_back(c.shape());
  for (const auto& c : choicelist) choices.push_back(c.shape());
  choices.push_back(shape_t{});
  const shape_t first[] = {broadcast_all(conds), broadcast_all(choices)};
  return first[1].size() == 0 ? first[0] : broadcast_all(first);
}

// numpy.nonzero(a): one int64 array of indices per axis (C order), for an
// array or an expression of any dtype.
template <class E>
auto nonzero_impl(const E& a) {
  using Op = operand_t<E>;
  using S = detail::eval_space_t<typename Op::space>;
  const Op e = as_operand(a);
  const shape_t shape = e.shape();
  if (shape.size() == 0)
    throw value_error(
        "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
        "instead.");
  auto [pos, count] = detail::nonzero_positions<S>(e);
  std::vector<ndarray<std::int64_t, S>> out;
  if (shape.size() == 1) {
    out.push_back(detail::shrink_selected(pos, count, shape_t{count}));
    return out;
  }
  const ndarray<std::int64_t, S> all = detail::split_positions(pos, count, shape, true);
  for (int a_ = 0; a_ < shape.size(); ++a_) out.push_back(all(a_));
  return out;
}

// ndarray::nonzero() (detail/views/array_views.hpp).
template <class T, class S>
auto nonzero_of(const ndarray<T, S>& a) {
  return nonzero_impl(a);
}

}  // namespace cupp::detail
