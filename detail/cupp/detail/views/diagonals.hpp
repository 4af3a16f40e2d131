// The machinery of <cupp/diagonals.hpp>: diag's square matrix with a vector
// on one diagonal (a gather), the triangle mask of tril and triu (a
// generator), and the positions fill_diagonal writes, as strided views.
#pragma once

#include <algorithm>
#include <cstdint>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/generators/make.hpp>
#include <cupp/detail/indexing/gather.hpp>
#include <cupp/detail/indexing/rearrange_support.hpp>
#include <cupp/errors.hpp>
#include <cupp/lazy_fwd.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// The (n + |k|)-square matrix with v's elements (in C order) on diagonal k.
template <class T, class S>
gather_expr<T, S> diag_matrix(const ndarray<T, S>& v, index_t k) {
  if (k == INT64_MIN) throw value_error(too_big);
  const index_t ak = k < 0 ? -k : k;
  if (ak > INT64_MAX - v.size()) throw value_error(too_big);
  const index_t n = v.size() + ak;
  const shape_t out{n, n};
  checked_size(out, sizeof(T));
  gather_fn<T> g;
  g.mode = gather_fn<T>::diag;
  g.k = k;
  g.fill = convert<T>(0);
  set_flat_source(g, v);
  return {v, out, g};
}

// The mask of numpy.tri(N, M, k, dtype=bool) for the last two axes of
// `shape` (a 1-d shape counts as (n, n)), as tril and triu build it.
inline auto tri_mask(const shape_t& shape, index_t k) {
  const int nd = shape.size();
  if (nd == 0) throw type_error("tri() missing 1 required positional argument: 'N'");
  const index_t n = nd >= 2 ? shape[nd - 2] : shape[0], m = shape[nd - 1];
  return make_diagonal<bool, true, any_space>(n, m, k, order::C);
}

// The positions numpy.fill_diagonal writes, a.flat[:end:step], as at most
// two strided views of a (two when a wrapped diagonal of a tall matrix ends
// part-way through a cycle of the columns), with the count of positions
// each view's first element follows.
template <class T, class S>
int fill_diagonal_views(const ndarray<T, S>& a, bool wrap, ndarray<T, S>* views, index_t* first) {
  const int nd = a.ndim();
  if (nd < 2) throw value_error("array must be at least 2-d");
  if (nd > 2) {
    index_t stride = 0;
    for (int i = 0; i < nd; ++i) {
      if (a.shape()[i] != a.shape()[0])
        throw value_error("All dimensions of input must be of equal length");
      stride += a.strides()[i];
    }
    views[0] = a.view_as({0, shape_t{a.shape()[0]}, strides_t{stride}});
    first[0] = 0;
    return 1;
  }
  const index_t n = a.shape()[0], m = a.shape()[1];
  const index_t s0 = a.strides()[0], s1 = a.strides()[1];
  if (!wrap || n <= m + 1 || m == 0) {
    views[0] = a.view_as({0, shape_t{std::min(n, m)}, strides_t{s0 + s1}});
    first[0] = 0;
    return 1;
  }
  // Flat position k(m + 1) with k = q m + r lies at row q(m + 1) + r,
  // column r: full cycles of m form a 2-d view, a last partial one a 1-d view.
  const index_t count = (n * m + m) / (m + 1);  // ceil(n m / (m + 1))
  const index_t q = count / m, r = count % m;
  int v = 0;
  views[v] = a.view_as({0, shape_t{q, m}, strides_t{(m + 1) * s0, s0 + s1}});
  first[v++] = 0;
  if (r > 0) {
    views[v] = a.view_as({q * (m + 1) * s0, shape_t{r}, strides_t{s0 + s1}});
    first[v++] = q * m;
  }
  return v;
}

}  // namespace cupp::detail
