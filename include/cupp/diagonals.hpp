// Diagonals and triangles: numpy.diag, diagonal, diagflat, tril, triu and
// fill_diagonal, for device and host arrays.
//
// diagonal (and diag of a 2-d array) is a read-only view, as NumPy's.
// diagflat is a lazy gather (see <cupp/rearranging.hpp>) and tril/triu are
// lazy expressions, numpy.where over a triangle generator: all three fuse
// into the expression that uses them and are written by one kernel when
// assigned to an array:
//
//   cupp::ndarray<float> l = cupp::tril(x, -1);          // one kernel
//   cupp::ndarray<float> s = cupp::triu(x) * 2 + 1;      // still one kernel
//   auto d = x.diagonal();                               // a view
//   cupp::fill_diagonal(x, 0);                           // in place, through a strided view
#pragma once

#include <cstdlib>

#include <cupp/space_check.hpp>
#include <cupp/detail/generators/make.hpp>
#include <cupp/detail/indexing/gather.hpp>
#include <cupp/detail/views/diagonal_layout.hpp>
#include <cupp/detail/views/diagonals.hpp>
#include <cupp/lazy_fwd.hpp>
#include <cupp/rearranging.hpp>
#include <cupp/ufunc/misc.hpp>

namespace cupp {

// numpy.diagonal(a, offset=0, axis1=0, axis2=1): a read-only view, the
// diagonal last (see ndarray::diagonal).
template <class T, class S>
ndarray<T, S> diagonal(const ndarray<T, S>& a, index_t offset = 0, index_t axis1 = 0,
                       index_t axis2 = 1) {
  return a.diagonal(offset, axis1, axis2);
}

// numpy.diag(v, k=0): for a 1-d v, a new 2-d array with v on diagonal k
// (one kernel); for a 2-d v, its diagonal k as a read-only view. diagflat
// gives the first as a lazy expression.
template <class T, class S>
ndarray<T, S> diag(const ndarray<T, S>& v, index_t k = 0) {
  if (v.ndim() == 1) return detail::diag_matrix(v, k).eval();
  if (v.ndim() == 2) return v.diagonal(k);
  throw value_error("Input must be 1- or 2-d.");
}

// numpy.diagflat(v, k=0): the flattened v on diagonal k of a square matrix,
// lazily.
template <class T, class S>
gather_expr<T, S> diagflat(const ndarray<T, S>& v, index_t k = 0) {
  return detail::diag_matrix(v, k);
}

// numpy.tril(m, k=0): m (an array or an expression) with the elements
// above diagonal k zeroed, along the last two axes; a 1-d m is read as
// the rows of a square matrix (NumPy's broadcast). A lazy
// where(tri(...), m, 0): no mask is stored, and it fuses.
template <Expression E>
auto tril(const E& m, index_t k = 0) {
  using V = typename operand_t<E>::value_type;
  static_assert(is_dtype_v<V>, "cupp::tril: m must be an array or an expression");
  const auto& e = as_operand(m);
  auto mask = detail::tri_mask(e.shape(), k);
  return make_ufunc(ops::where{}, mask, e, scalar_leaf<V>{detail::convert<V>(0)});
}

// numpy.triu(m, k=0): m with the elements below diagonal k zeroed (lazy,
// as tril).
template <Expression E>
auto triu(const E& m, index_t k = 0) {
  using V = typename operand_t<E>::value_type;
  static_assert(is_dtype_v<V>, "cupp::triu: m must be an array or an expression");
  const auto& e = as_operand(m);
  auto mask = detail::tri_mask(e.shape(), k == INT64_MIN ? k : k - 1);
  return make_ufunc(ops::where{}, mask, scalar_leaf<V>{detail::convert<V>(0)}, e);
}

// numpy.fill_diagonal(a, val, wrap=False): writes val (a C++ number, which
// must fit a's dtype as NumPy's Python ints must) on the main diagonal of a
// (all indices equal), in place; for a tall 2-d a, wrap=true continues
// after every m + 1 rows, as NumPy's flat stepping does.
template <class T, class S, class V>
requires Scalar<V>
void fill_diagonal(const ndarray<T, S>& a, const V& val, bool wrap = false) {
  ndarray<T, S> views[2];
  index_t first[2];
  const int n = detail::fill_diagonal_views(a, wrap, views, first);
  const T v = detail::fill_value<T>(val);
  if (!a.flags().writeable) throw value_error("assignment destination is read-only");
  for (int i = 0; i < n; ++i) copyto(views[i], scalar_leaf<T>{v});
}

// The same with an array of values: val's elements in C order, repeated
// as often as needed (NumPy's flat assignment), cast to a's dtype as NumPy
// casts them (unsafe). An empty val writes nothing.
template <class T, class S, class U, class SV>
void fill_diagonal(const ndarray<T, S>& a, const ndarray<U, SV>& val, bool wrap = false) {
  CUPP_SAME_SPACE(ndarray<T, S>, ndarray<U, SV>);
  ndarray<T, S> views[2];
  index_t first[2];
  const int n = detail::fill_diagonal_views(a, wrap, views, first);
  if (!a.flags().writeable) throw value_error("assignment destination is read-only");
  if (val.size() == 0) return;
  for (int i = 0; i < n; ++i) {
    detail::gather_fn<U> g;
    g.mode = detail::gather_fn<U>::flat;
    detail::set_flat_source(g, val);
    g.m[0].kind = detail::axis_map::wrap;
    g.m[0].n = val.size();
    g.m[0].shift = first[i] % val.size();
    copyto(views[i], astype<T>(gather_expr<U, S>(val, views[i].shape(), g)));
  }
}

}  // namespace cupp
