// The engine of numpy.sort, argsort and lexsort over arrays and lazy
// expressions: the operand's rows along an axis as one contiguous buffer
// (row_source, rows_of, permuted_view, axis_last_shape), the result's rows
// written back into its layout (write_rows), sort_along (values or
// indices, along an axis or flattened) and sort_of, its entry for any
// array or expression, sort_into (ndarray.sort) and lexsort_keys. The
// row sorts themselves are in sort_rows.hpp.
//
//   auto i = cupp::detail::sorting::sort_of<true>(x, -1, false);  // argsort
#pragma once

#include <cstdint>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/sort/sort_args.hpp>
#include <cupp/detail/sort/sort_rows.hpp>

namespace cupp {

namespace detail::sorting {

// The operand's rows along `axis` (-1: flattened) as one contiguous
// (rows, n) buffer: a C-contiguous array sorted along its last axis is
// read where it is; anything else (other layouts, other axes, lazy
// expressions) is written once, in that order, by the expression engine.
template <class T, class S>
struct row_source {
  ndarray<T, S> buffer;
  const T* data;
};

template <class T, class S>
ndarray<T, S> permuted_view(const ndarray<T, S>& buf, const shape_t& shape, int axis) {
  const int nd = shape.size();
  strides_t vs = shape;
  int j = 0;
  for (int i = 0; i < nd; ++i)
    if (i != axis) vs[i] = buf.strides()[j++];
  vs[axis] = buf.strides()[nd - 1];
  return ndarray<T, S>(const_cast<T*>(buf.data()), shape, vs, buf.memory(), buf.device_id(), false);
}

// `shape` with `axis` moved last: the shape of the rows buffer.
inline shape_t axis_last_shape(const shape_t& shape, int axis) {
  const int nd = shape.size();
  shape_t ps = shape;
  int j = 0;
  for (int i = 0; i < nd; ++i)
    if (i != axis) ps[j++] = shape[i];
  ps[nd - 1] = shape[axis];
  return ps;
}

// Lets run(dst) write the result's rows along `ax`: straight into `out`
// when they are its last axis (or it is flattened), else into a rows
// buffer copied back into out's layout once.
template <class R, class S, class Run>
void write_rows(const ndarray<R, S>& out, const shape_t& shape, int ax, bool flat, Run&& run) {
  if (flat || ax == static_cast<int>(shape.size()) - 1) {
    run(out.data());
    return;
  }
  ndarray<R, S> rows(axis_last_shape(shape, ax));
  run(rows.data());
  assign(out, array_leaf<R, S>{permuted_view(rows, shape, ax)});
}

template <class E>
auto rows_of(const E& e, int axis) {
  using T = typename E::value_type;
  using S = eval_space_t<typename E::space>;
  const shape_t& shape = e.shape();
  const int nd = shape.size();
  const bool last = axis < 0 || axis == nd - 1;
  if constexpr (is_array_leaf_v<E>) {
    if (last && e.a.is_c_contiguous()) return row_source<T, S>{{}, e.a.data()};
  }
  if (last) {
    ndarray<T, S> buf(shape);
    assign(buf, e);
    return row_source<T, S>{buf, buf.data()};
  }
  ndarray<T, S> buf(axis_last_shape(shape, axis));
  assign(permuted_view(buf, shape, axis), e);
  return row_source<T, S>{buf, buf.data()};
}

// Sorts (Indices false) or argsorts (true) `e` along `axis`, or flattened.
template <bool Indices, class E>
auto sort_along(const E& e, int axis, bool flat) {
  using T = typename E::value_type;
  static_assert(is_dtype_v<T>, "cupp: sort an array or an expression, not a scalar");
  using S = eval_space_t<typename E::space>;
  using R = std::conditional_t<Indices, std::int64_t, T>;
  const shape_t& shape = e.shape();
  const int nd = shape.size();
  const int ax = flat ? -1 : sort_axis(axis, nd);
  const index_t size = size_of(shape);
  ndarray<R, S> out(flat ? shape_t{size} : shape);
  if (size == 0) return out;
  const index_t n = flat ? size : shape[ax];
  const index_t rows = size / n;
  if constexpr (!Indices) {
    // An operand that must be written out anyway (a lazy expression,
    // another layout) is written where it is sorted: into the result, or
    // into the buffer it is transposed from.
    bool in_place = true;
    if constexpr (is_array_leaf_v<E>) in_place = !((flat || ax == nd - 1) && e.a.is_c_contiguous());
    if (in_place) {
      if (flat || ax == nd - 1) {
        assign(out.reshape(shape), e);
        sort_rows_inplace<T, S>(out.data(), rows, n, out.device_id());
        return out;
      }
      const auto src = rows_of(e, ax);
      sort_rows_inplace<T, S>(src.buffer.data(), rows, n, out.device_id());
      assign(out, array_leaf<T, S>{permuted_view(src.buffer, shape, ax)});
      return out;
    }
  }
  const auto src = rows_of(e, ax);
  auto run = [&](R* dst) {
    if constexpr (Indices)
      argsort_rows<T, S>(src.data, dst, rows, n, out.device_id());
    else
      sort_rows<T, S>(src.data, dst, rows, n, out.device_id());
  };
  write_rows(out, shape, ax, flat, run);
  return out;
}

// numpy.sort_complex's dtype: complex64 for int8, uint8, int16 and uint16,
// complex128 for every other real dtype.
template <class T>
using sort_complex_t = std::conditional_t<
    is_complex_v<T>, T,
    std::conditional_t<std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t> ||
                           std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::uint16_t>,
                       complex64, complex128>>;

// cupp::sort (Indices false) and cupp::argsort (true) of `x`, an array or
// an expression, along `axis`, or flattened.
template <bool Indices, class X>
auto sort_of(const X& x, int axis, bool flat) {
  return sort_along<Indices>(as_operand(x), axis, flat);
}

// ndarray.sort: x's elements sorted along `axis`, written back into x
// (any view).
template <class T, class S>
void sort_into(const ndarray<T, S>& x, int axis) {
  const auto sorted = sort_along<false>(as_operand(x), axis, false);
  detail::assign(x, array_leaf<T, S>{sorted});
}

// numpy.lexsort over the keys' operands: int64 indices that sort along the
// last axis by the last key, then the one before it, ...
template <class E0, class... E>
auto lexsort_keys(const E0& e0, const E&... e) {
  using S = detail::eval_space_t<typename std::remove_cvref_t<decltype(e0)>::space>;
  const shape_t& shape = e0.shape();
  if (!((e.shape() == shape) && ...)) throw value_error("all keys need to be the same shape");
  const int nd = shape.size();
  const index_t size = detail::size_of(shape);
  ndarray<std::int64_t, S> out(shape);
  if (size == 0) return out;
  const index_t n = nd == 0 ? 1 : shape[nd - 1];
  auto run = [&](const auto&... src) {
    detail::lexsort_rows<S>(out.data(), size / n, n, out.device_id(), src.data...);
  };
  run(detail::sorting::rows_of(e0, nd - 1), detail::sorting::rows_of(e, nd - 1)...);
  return out;
}

}  // namespace detail::sorting

}  // namespace cupp
