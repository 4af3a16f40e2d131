// NumPy's joining, splitting, inserting and deleting, for device and host
// arrays alike:
//
//   concatenate, stack, vstack, hstack, dstack, column_stack   new arrays
//   split, array_split, hsplit, vsplit, dsplit                 views
//   append, insert, delete_ (delete is a C++ keyword)          new arrays
//   trim_zeros                                                 a view
//
// Arrays to join are given as a std::vector, a std::span or braces
// ({a, b, c}) when they share a dtype, or as a std::tuple of arrays of any
// dtypes, joined in NumPy 2's result_type. Every check runs (and throws
// NumPy's exception and message) before anything is allocated or written.
// Joins move their data with one batched copy kernel on the current stream
// (detail/join/copy.hpp); nothing synchronizes, except trim_zeros, whose
// result's shape depends on the data.
//
// An axis argument of concatenate, append, insert and delete_ is a
// cupp::join_axis (an integer, or cupp::none to flatten first); the `obj`
// of insert and delete_ is a cupp::positions (an integer, a cupp::slice or
// a list of integers). Both are in <cupp/join_arguments.hpp>.
#pragma once

#include <concepts>
#include <initializer_list>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/join_arguments.hpp>
#include <cupp/space_check.hpp>
#include <cupp/detail/join/axis_views.hpp>
#include <cupp/detail/join/concat.hpp>
#include <cupp/detail/join/insert_delete.hpp>
#include <cupp/detail/join/layout.hpp>
#include <cupp/detail/join/trim.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/reductions.hpp>

namespace cupp {

// ---------------------------------------------------------------------------
// concatenate and stacks

// numpy.concatenate(arrays, axis=0); axis = cupp::none joins the arrays
// flattened. The result is laid out as NumPy lays it out (F-ordered inputs
// give an F-ordered result).
template <class T, class S>
ndarray<T, S> concatenate(std::span<const ndarray<T, S>> arrays, join_axis axis = 0) {
  return detail::concat_same(arrays, axis);
}
template <class T, class S>
ndarray<T, S> concatenate(const std::vector<ndarray<T, S>>& arrays, join_axis axis = 0) {
  return detail::concat_same<T, S>(arrays, axis);
}
template <class T, class S>
ndarray<T, S> concatenate(std::initializer_list<ndarray<T, S>> arrays, join_axis axis = 0) {
  return detail::concat_same<T, S>({arrays.begin(), arrays.size()}, axis);
}
// Arrays of different dtypes, in a std::tuple (std::tuple{a, b}): the
// result has their result_type.
template <class A0, class... A>
requires(is_ndarray_v<A0> &&
         (is_ndarray_v<A> && ...)) auto concatenate(const std::tuple<A0, A...>& arrays,
                                                    join_axis axis = 0) {
  CUPP_SAME_SPACE(A0, A...);
  using S = typename A0::space_type;
  using R = result_type_t<typename A0::value_type, typename A::value_type...>;
  return detail::concat_tuple<R, S>(arrays, axis);
}

// numpy.concatenate(arrays, axis, out=out): writes into `out` (its shape
// must be the result's; casting 'same_kind') and returns it. (out's space
// is a parameter of its own so that a mix reaches the space check rather
// than failing deduction.)
template <class U, class T, class S, class SO>
const ndarray<U, SO>& concatenate(std::span<const ndarray<T, S>> arrays, join_axis axis,
                                  const out_arg<U, SO>& o) {
  CUPP_SAME_SPACE(ndarray<T, S>, out_arg<U, SO>);
  static_assert(detail::assignable<T, U>(),
                "cupp::concatenate: Cannot cast the arrays' dtype to out's with casting rule "
                "'same_kind'");
  detail::concat_same<T, S>(arrays, axis, &o.array);
  return o.array;
}
template <class U, class T, class S, class SO>
const ndarray<U, SO>& concatenate(const std::vector<ndarray<T, S>>& arrays, join_axis axis,
                                  const out_arg<U, SO>& o) {
  return concatenate<U, T, S>(std::span<const ndarray<T, S>>(arrays), axis, o);
}
template <class U, class T, class S, class SO>
const ndarray<U, SO>& concatenate(std::initializer_list<ndarray<T, S>> arrays, join_axis axis,
                                  const out_arg<U, SO>& o) {
  return concatenate<U, T, S>(std::span<const ndarray<T, S>>(arrays.begin(), arrays.size()), axis,
                              o);
}

// numpy.stack(arrays, axis=0): the arrays (all of one shape) along a new
// axis.
template <class T, class S>
ndarray<T, S> stack(std::span<const ndarray<T, S>> arrays, index_t axis = 0) {
  const int ax = detail::stack_axis(detail::shapes_of(arrays), axis);
  const auto v = detail::map_arrays(arrays, [&](const auto& a) { return expand_dims(a, ax); });
  return detail::concat_same<T, S>(v, ax);
}

// numpy.vstack: at least 2-d, joined along axis 0.
template <class T, class S>
ndarray<T, S> vstack(std::span<const ndarray<T, S>> arrays) {
  const auto v = detail::map_arrays(arrays, [](const auto& a) { return atleast_2d(a); });
  return detail::concat_same<T, S>(v, 0);
}

// numpy.hstack: at least 1-d, joined along axis 1 (axis 0 for 1-d arrays).
template <class T, class S>
ndarray<T, S> hstack(std::span<const ndarray<T, S>> arrays) {
  const auto v = detail::map_arrays(arrays, [](const auto& a) { return atleast_1d(a); });
  return detail::concat_same<T, S>(v, !v.empty() && v[0].ndim() == 1 ? 0 : 1);
}

// numpy.dstack: at least 3-d, joined along axis 2.
template <class T, class S>
ndarray<T, S> dstack(std::span<const ndarray<T, S>> arrays) {
  const auto v = detail::map_arrays(arrays, [](const auto& a) { return atleast_3d(a); });
  return detail::concat_same<T, S>(v, 2);
}

// numpy.column_stack: 0-d and 1-d arrays become columns, then joined along
// axis 1.
template <class T, class S>
ndarray<T, S> column_stack(std::span<const ndarray<T, S>> arrays) {
  const auto v = detail::map_arrays(
      arrays, [](const auto& a) { return a.ndim() < 2 ? atleast_2d(a).T() : a; });
  return detail::concat_same<T, S>(v, 1);
}

// The same calls with a std::vector or braces.
#define CUPP_JOIN_FORMS(name)                                                         \
  template <class T, class S>                                                         \
  ndarray<T, S> name(const std::vector<ndarray<T, S>>& arrays) {                      \
    return name<T, S>(std::span<const ndarray<T, S>>(arrays));                        \
  }                                                                                   \
  template <class T, class S>                                                         \
  ndarray<T, S> name(std::initializer_list<ndarray<T, S>> arrays) {                   \
    return name<T, S>(std::span<const ndarray<T, S>>(arrays.begin(), arrays.size())); \
  }
CUPP_JOIN_FORMS(vstack)
CUPP_JOIN_FORMS(hstack)
CUPP_JOIN_FORMS(dstack)
CUPP_JOIN_FORMS(column_stack)
#undef CUPP_JOIN_FORMS

template <class T, class S>
ndarray<T, S> stack(const std::vector<ndarray<T, S>>& arrays, index_t axis = 0) {
  return stack<T, S>(std::span<const ndarray<T, S>>(arrays), axis);
}
template <class T, class S>
ndarray<T, S> stack(std::initializer_list<ndarray<T, S>> arrays, index_t axis = 0) {
  return stack<T, S>(std::span<const ndarray<T, S>>(arrays.begin(), arrays.size()), axis);
}

// ---------------------------------------------------------------------------
// splits: views of the array

// numpy.array_split(a, sections, axis=0): `sections` parts, the first
// (n % sections) one element longer.
// (The count is a template so that braces, split(a, {2}), always mean a
// list of indices, as NumPy's [2] does.)
template <class T, class S, std::integral I>
std::vector<ndarray<T, S>> array_split(const ndarray<T, S>& a, I sections, index_t axis = 0) {
  const int ax = detail::split_axis(axis, a.ndim());
  return detail::split_views(a, ax, detail::array_split_parts(a.shape()[ax], sections));
}
// numpy.array_split(a, indices, axis=0): the parts a[:i0], a[i0:i1], ...,
// a[ik:] (Python's slice rules: negative indices count from the end).
template <class T, class S>
std::vector<ndarray<T, S>> array_split(const ndarray<T, S>& a, const std::vector<index_t>& indices,
                                       index_t axis = 0) {
  const int ax = detail::split_axis(axis, a.ndim());
  return detail::split_views(a, ax, detail::split_parts_at(a.shape()[ax], indices));
}

// numpy.split: as array_split, but `sections` must divide the axis.
template <class T, class S, std::integral I>
std::vector<ndarray<T, S>> split(const ndarray<T, S>& a, I sections, index_t axis = 0) {
  const int ax = detail::split_axis(axis, a.ndim());
  return detail::split_views(a, ax, detail::split_parts(a.shape()[ax], sections));
}
template <class T, class S>
std::vector<ndarray<T, S>> split(const ndarray<T, S>& a, const std::vector<index_t>& indices,
                                 index_t axis = 0) {
  return array_split(a, indices, axis);
}

// numpy.hsplit (axis 1, or 0 for 1-d arrays), vsplit (axis 0, at least
// 2-d) and dsplit (axis 2, at least 3-d).
#define CUPP_SPLIT_FORMS(name, check, message, axis_expr)                                        \
  template <class T, class S, std::integral I>                                                   \
  std::vector<ndarray<T, S>> name(const ndarray<T, S>& a, I sections) {                          \
    if (check) throw value_error(message);                                                       \
    return split(a, sections, axis_expr);                                                        \
  }                                                                                              \
  template <class T, class S>                                                                    \
  std::vector<ndarray<T, S>> name(const ndarray<T, S>& a, const std::vector<index_t>& indices) { \
    if (check) throw value_error(message);                                                       \
    return split(a, indices, axis_expr);                                                         \
  }
CUPP_SPLIT_FORMS(hsplit, a.ndim() == 0, "hsplit only works on arrays of 1 or more dimensions",
                 a.ndim() > 1 ? 1 : 0)
CUPP_SPLIT_FORMS(vsplit, a.ndim() < 2, "vsplit only works on arrays of 2 or more dimensions", 0)
CUPP_SPLIT_FORMS(dsplit, a.ndim() < 3, "dsplit only works on arrays of 3 or more dimensions", 2)
#undef CUPP_SPLIT_FORMS

// ---------------------------------------------------------------------------
// append, insert, delete_

// numpy.append(arr, values, axis=None): both flattened when axis is none,
// else concatenated along axis; the result has their result_type.
template <class T, class U, class S, class SV>
ndarray<result_type_t<T, U>, S> append(const ndarray<T, S>& arr, const ndarray<U, SV>& values,
                                       join_axis axis = none) {
  CUPP_SAME_SPACE(ndarray<T, S>, ndarray<U, SV>);
  using R = result_type_t<T, U>;
  if (axis.none()) {
    const ndarray<T, S> a = arr.ndim() == 1 ? arr : arr.ravel();
    return detail::concat_tuple<R, S>(std::tuple<ndarray<T, S>, ndarray<U, S>>(a, values.ravel()),
                                      0);
  }
  return detail::concat_tuple<R, S>(std::tuple<ndarray<T, S>, ndarray<U, S>>(arr, values),
                                    axis.value());
}

// numpy.insert(arr, obj, values, axis=None): `values` (cast to arr's dtype,
// broadcast as NumPy does) inserted before the positions `obj` names (an
// integer, a slice or a list) along axis, or in the flattened array.
template <class T, class U, class S, class SV>
ndarray<T, S> insert(const ndarray<T, S>& arr, const positions& obj, const ndarray<U, SV>& values,
                     join_axis axis = none) {
  CUPP_SAME_SPACE(ndarray<T, S>, ndarray<U, SV>);
  return detail::insert_impl(arr, obj, values, axis);
}

// numpy.insert with one value (cast to arr's dtype).
template <class T, class S, class V>
requires(std::is_arithmetic_v<V> ||
         is_dtype_v<V>) ndarray<T, S> insert(const ndarray<T, S>& arr, const positions& obj,
                                             const V& value, join_axis axis = none) {
  ndarray<T, S> v{shape_t{}};
  copyto(v, value);
  return insert(arr, obj, v, axis);
}

// numpy.delete(arr, obj, axis=None), named delete_ because delete is a C++
// keyword: a copy without the positions obj names (an integer, a slice or
// a list) along axis, or in the flattened array.
template <class T, class S>
ndarray<T, S> delete_(const ndarray<T, S>& arr, const positions& obj, join_axis axis = none) {
  return detail::delete_impl(arr, obj, axis);
}

// ---------------------------------------------------------------------------
// trim_zeros

// numpy.trim_zeros(filt, trim="fb", axis=None): a view without the leading
// ("f") and/or trailing ("b") positions that hold only zeros, along the
// given axes (all by default): the bounding box of the non-zero elements.
// An array of zeros gives an empty view. Device arrays wait for the few
// small reductions that find the box.
template <class T, class S>
ndarray<T, S> trim_zeros(const ndarray<T, S>& filt, std::string trim = "fb",
                         const axis_arg& axis = {}) {
  const int nd = filt.ndim();
  const detail::trim_spec spec = detail::trim_zeros_spec(std::move(trim), axis, nd);
  if (spec.axes == 0) return filt;
  // Per axis: the first and last positions with a non-zero element.
  detail::nonzero_bounds b{std::vector<index_t>(nd), std::vector<index_t>(nd), filt.size() > 0};
  for (int k = 0; k < nd && b.any; ++k) {
    ndarray<bool, S> v = moveaxis(filt, k, 0) != 0;
    while (v.ndim() > 1) v = cupp::any(v, -1);
    const index_t f = cupp::argmax(v).item();
    if (!v.item(f)) {
      b.any = false;
      break;
    }
    b.first[k] = f;
    b.last[k] = v.shape()[0] - 1 - cupp::argmax(flip(v)).item();
  }
  return filt(detail::trim_items(spec, b, nd));
}

}  // namespace cupp
