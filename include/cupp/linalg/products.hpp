// NumPy's other products, built on cupp::matmul (one gemm, or cupp's exact
// kernel for integers and bool, per contraction) and on views, element-wise
// kernels and reductions: numpy.inner, tensordot, kron, trace and cross;
// numpy.linalg's multi_dot, matrix_power, vecdot, cross, diagonal and
// trace. Part of <cupp/linalg.hpp>. See docs/linalg.md.
//
// Contractions never loop per element: tensordot (and inner, vecdot)
// transposes and reshapes both operands into matrices as NumPy does and
// makes one matrix product; the reshapes are views where the strides allow
// and one copy otherwise.
#pragma once

#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/products_plan.hpp>
#include <cupp/expression.hpp>
#include <cupp/generators.hpp>
#include <cupp/linalg/matmul.hpp>
#include <cupp/linalg/solve.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/misc.hpp>

namespace cupp {

namespace detail {

// The dtype (NumPy's promotion) and the space of a product of operands.
template <class... X>
struct product_of {
  static_assert((is_dtype_v<typename operand_t<X>::value_type> && ...),
                "cupp: products take arrays, not scalars");
  using type = typename result_type_fold<typename operand_t<X>::value_type...>::type;
  using space = eval_space_t<typename space_of_all<typename operand_t<X>::space...>::type>;
};

// a as a matrix (rows, cols), b likewise; one matrix product, reshaped.
template <class R, class S>
ndarray<R, S> contract(const ndarray<R, S>& a, const ndarray<R, S>& b, const contraction_plan& p) {
  const ndarray<R, S> at = a.transpose(p.perm_a).reshape(shape_t{p.rows, p.k});
  const ndarray<R, S> bt = b.transpose(p.perm_b).reshape(shape_t{p.k, p.cols});
  return matmul_arrays(at, bt).reshape(p.out);
}

template <class R, class S>
ndarray<R, S> inner_arrays(const ndarray<R, S>& a, const ndarray<R, S>& b) {
  const int na = a.ndim(), nb = b.ndim();
  if (na == 0 || nb == 0) return ndarray<R, S>(multiply(a, b));
  // NumPy checks inner as dot(a, b.swapaxes(-1, -2)) and says so.
  const shape_t bs = nb >= 2 ? b.swapaxes(-1, -2).shape() : b.shape();
  check_dot_aligned(a.shape(), bs);
  contraction_plan p;
  p.k = a.shape()[na - 1];
  p.perm_a = shape_t::filled(0, 0);
  p.perm_b = shape_t::filled(0, 0);
  p.out = shape_t::filled(0, 0);
  for (int i = 0; i < na; ++i) p.perm_a.push_back(i);
  p.perm_b.push_back(nb - 1);
  for (int i = 0; i + 1 < na; ++i) {
    p.rows *= a.shape()[i];
    p.out.push_back(a.shape()[i]);
  }
  for (int i = 0; i + 1 < nb; ++i) {
    p.perm_b.push_back(i);
    p.cols *= b.shape()[i];
    p.out.push_back(b.shape()[i]);
  }
  return contract(a, b, p);
}

// numpy.cross(a, b, axisa, axisb, axisc) on arrays of the result dtype.
template <class R, class S>
ndarray<R, S> cross_arrays(const ndarray<R, S>& a, const ndarray<R, S>& b, index_t axisa,
                           index_t axisb, index_t axisc) {
  static_assert(!std::is_same_v<R, bool>,
                "cupp::cross: numpy boolean subtract, the `-` operator, is not supported; cast "
                "the vectors to an integer dtype first");
  if (a.ndim() < 1 || b.ndim() < 1) throw value_error("At least one array has zero dimension");
  const int xa = checked_axis(axisa, a.ndim(), "axisa");
  const int xb = checked_axis(axisb, b.ndim(), "axisb");
  // Components first: u(i) is component i of every vector of u.
  const ndarray<R, S> u = moveaxis(a, xa, 0), v = moveaxis(b, xb, 0);
  const index_t nu = u.shape()[0], nv = v.shape()[0];
  if ((nu != 2 && nu != 3) || (nv != 2 && nv != 3))
    throw value_error("incompatible dimensions for cross product\n(dimension must be 2 or 3)");
  shape_t shape = cross_batch_shape(without_axis(u.shape(), 0), without_axis(v.shape(), 0));
  if (nu == 2 && nv == 2) return ndarray<R, S>(u(0) * v(1) - u(1) * v(0));
  shape.push_back(3);
  const int xc = checked_axis(axisc, shape.size(), "axisc");
  ndarray<R, S> out(shape);
  const ndarray<R, S> w = moveaxis(out, -1, 0);
  // A missing third component is zero: its products are left out (NumPy's
  // code), so that infinities give no NaN from 0 * inf.
  if (nu == 3 && nv == 3) {
    copyto(w(0), u(1) * v(2) - u(2) * v(1));
    copyto(w(1), u(2) * v(0) - u(0) * v(2));
  } else if (nu == 2) {
    copyto(w(0), u(1) * v(2));
    copyto(w(1), -(u(0) * v(2)));
  } else {
    copyto(w(0), -(u(2) * v(1)));
    copyto(w(1), u(2) * v(0));
  }
  copyto(w(2), u(0) * v(1) - u(1) * v(0));
  return moveaxis(out, -1, xc);
}

template <class R, class S>
ndarray<R, S> chain_product(const std::vector<ndarray<R, S>>& m,
                            const std::vector<std::vector<int>>& split, int i, int j) {
  if (i == j) return m[i];
  return dot_arrays(chain_product(m, split, i, split[i][j]),
                    chain_product(m, split, split[i][j] + 1, j));
}

template <class R, class S>
ndarray<R, S> multi_dot_arrays(std::vector<ndarray<R, S>> m) {
  const std::size_t n = m.size();
  if (n < 2) throw value_error("Expecting at least two arrays.");
  if (n == 2) return dot_arrays(m[0], m[1]);
  // A 1-d first operand is a row, a 1-d last one a column, and their unit
  // axes leave the result.
  const bool row = m.front().ndim() == 1, column = m.back().ndim() == 1;
  if (row) m.front() = m.front().reshape(shape_t{1, m.front().size()});
  if (column) m.back() = m.back().reshape(shape_t{m.back().size(), 1});
  for (const auto& x : m)
    if (x.ndim() != 2)
      throw linalg_error(std::to_string(x.ndim()) +
                         "-dimensional array given. Array must be two-dimensional");
  ndarray<R, S> r;
  if (n == 3) {
    const auto &a = m[0].shape(), &c = m[2].shape();
    r = multiply_left_first(a[0], a[1], c[0], c[1]) ? dot_arrays(dot_arrays(m[0], m[1]), m[2])
                                                    : dot_arrays(m[0], dot_arrays(m[1], m[2]));
  } else {
    std::vector<index_t> dims;
    for (const auto& x : m) dims.push_back(x.shape()[0]);
    dims.push_back(m.back().shape()[1]);
    r = chain_product(m, matrix_chain_order(dims), 0, static_cast<int>(n) - 1);
  }
  if (row && column) return r.reshape(shape_t{});
  if (row || column) return r.reshape(shape_t{r.size()});
  return r;
}

}  // namespace detail

// numpy.inner(a, b): sums over the last axes of both, result shape
// a.shape[:-1] + b.shape[:-1]; a 0-d operand multiplies element-wise. No
// conjugation (that is vdot and linalg.vecdot).
template <Expression A, Expression B>
auto inner(const A& a, const B& b) {
  using P = detail::product_of<A, B>;
  using R = typename P::type;
  using S = typename P::space;
  return detail::inner_arrays(detail::product_operand<R, S>(a), detail::product_operand<R, S>(b));
}

// numpy.tensordot(a, b, axes=2): an int n sums a's last n axes with b's
// first n; {{1, 0}, {0, 1}} sums a's axes 1 and 0 with b's axes 0 and 1.
// One matrix product of the transposed and reshaped operands, shape a's
// remaining axes then b's.
template <Expression A, Expression B>
auto tensordot(const A& a, const B& b, const tensordot_axes& axes = 2) {
  using P = detail::product_of<A, B>;
  using R = typename P::type;
  using S = typename P::space;
  const ndarray<R, S> x = detail::product_operand<R, S>(a), y = detail::product_operand<R, S>(b);
  return detail::contract(x, y, detail::plan_tensordot(x.shape(), y.shape(), axes));
}

// numpy.kron(a, b): the Kronecker product, block (i, j, ...) being
// a[i, j, ...] * b; the operand with fewer axes gets leading unit axes.
// One element-wise product of a as (a0, 1, a1, 1, ...) and b as
// (1, b0, 1, b1, ...) (views), reshaped to (a0 * b0, a1 * b1, ...).
template <Expression A, Expression B>
auto kron(const A& a, const B& b) {
  using P = detail::product_of<A, B>;
  using R = typename P::type;
  using S = typename P::space;
  using TA = typename operand_t<A>::value_type;
  using TB = typename operand_t<B>::value_type;
  const ndarray<TA, S> x = detail::product_operand<TA, S>(a);
  const ndarray<TB, S> y = detail::product_operand<TB, S>(b);
  const int na = x.ndim(), nb = y.ndim(), nd = std::max(na, nb);
  if (nb == 0) return ndarray<R, S>(multiply(x, y));
  shape_t sx = shape_t::filled(0, 0), sy = shape_t::filled(0, 0), out = shape_t::filled(0, 0);
  for (int i = 0; i < nd; ++i) {
    const index_t ex = i < nd - na ? 1 : x.shape()[i - (nd - na)];
    const index_t ey = i < nd - nb ? 1 : y.shape()[i - (nd - nb)];
    sx.push_back(ex);
    sx.push_back(1);
    sy.push_back(1);
    sy.push_back(ey);
    out.push_back(ex * ey);
  }
  return ndarray<R, S>(multiply(x.reshape(sx), y.reshape(sy))).reshape(out);
}

// numpy.trace(a, offset=0, axis1=0, axis2=1): the sums along diagonals of
// the (axis1, axis2) planes, numpy.sum's dtype (bool and small integers in
// the 64-bit integer of their signedness).
template <Expression A>
auto trace(const A& a, index_t offset = 0, index_t axis1 = 0, index_t axis2 = 1) {
  using T = typename operand_t<A>::value_type;
  using S = detail::eval_space_t<typename operand_t<A>::space>;
  const ndarray<T, S> x = detail::product_operand<T, S>(a);
  return cupp::sum(x.diagonal(offset, axis1, axis2), -1);
}

// numpy.cross(a, b, axisa=-1, axisb=-1, axisc=-1): cross products of
// 3-element vectors (or 2-element ones, their missing third component
// zero; two 2-element vectors give the scalar z component), the vectors
// along axisa and axisb, broadcast against each other, the result's
// vectors along axisc.
template <Expression A, Expression B>
auto cross(const A& a, const B& b, index_t axisa = -1, index_t axisb = -1, index_t axisc = -1) {
  using P = detail::product_of<A, B>;
  using R = typename P::type;
  using S = typename P::space;
  return detail::cross_arrays(detail::product_operand<R, S>(a), detail::product_operand<R, S>(b),
                              axisa, axisb, axisc);
}

namespace linalg {

// numpy.linalg.diagonal(x, offset=0) (NumPy 2): the diagonals of the last
// two axes, a read-only view.
template <class T, class S>
ndarray<T, S> diagonal(const ndarray<T, S>& x, index_t offset = 0) {
  return x.diagonal(offset, -2, -1);
}

// numpy.linalg.trace(x, offset=0) (NumPy 2): traces of the last two axes.
template <Expression A>
auto trace(const A& x, index_t offset = 0) {
  return cupp::trace(x, offset, -2, -1);
}

// numpy.linalg.vecdot(x1, x2, axis=-1) (NumPy 2): sum(conj(x1) * x2) along
// axis (normalised for each operand), the other axes broadcast. One
// batched matrix product of (..., 1, n) by (..., n, 1).
template <Expression A, Expression B>
auto vecdot(const A& x1, const B& x2, index_t axis = -1) {
  using P = detail::product_of<A, B>;
  using R = typename P::type;
  using S = typename P::space;
  const ndarray<R, S> x = detail::product_operand<R, S>(x1), y = detail::product_operand<R, S>(x2);
  const auto [ax, bx] = detail::plan_vecdot(x.shape(), y.shape(), axis);
  ndarray<R, S> rows = expand_dims(moveaxis(x, ax, -1), -2);
  if constexpr (detail::is_complex_type_v<R>) rows = ndarray<R, S>(conj(rows));
  const ndarray<R, S> columns = expand_dims(moveaxis(y, bx, -1), -1);
  const ndarray<R, S> r = detail::matmul_arrays(rows, columns);
  return r.reshape(
      detail::without_axis(detail::without_axis(r.shape(), r.ndim() - 1), r.ndim() - 2));
}

// numpy.linalg.cross(x1, x2, axis=-1) (NumPy 2): numpy.cross of
// 3-element vectors along axis, broadcast.
template <Expression A, Expression B>
auto cross(const A& x1, const B& x2, index_t axis = -1) {
  using P = detail::product_of<A, B>;
  using R = typename P::type;
  using S = typename P::space;
  const ndarray<R, S> x = detail::product_operand<R, S>(x1), y = detail::product_operand<R, S>(x2);
  auto extent = [axis](const shape_t& s) {
    const int n = s.size();
    if (axis < -n || axis >= n) throw index_error("tuple index out of range");
    return s[static_cast<int>(axis < 0 ? axis + n : axis)];
  };
  const index_t n1 = extent(x.shape()), n2 = extent(y.shape());
  if (n1 != 3 || n2 != 3)
    throw value_error("Both input arrays must be (arrays of) 3-dimensional vectors, but they are " +
                      std::to_string(n1) + " and " + std::to_string(n2) + " dimensional instead.");
  return detail::cross_arrays(x, y, axis, axis, axis);
}

// numpy.linalg.multi_dot([A, B, C, ...]): the chain of matrix products in
// the order that needs the fewest scalar multiplications (NumPy's dynamic
// programme over the shapes). A 1-d first operand is a row and a 1-d last
// one a column, their unit axes dropped from the result (a 0-d array when
// both are). Two operands: numpy.dot.
template <class T, class S>
ndarray<T, S> multi_dot(const std::vector<ndarray<T, S>>& arrays) {
  return detail::multi_dot_arrays(arrays);
}
template <class T, class S>
ndarray<T, S> multi_dot(std::initializer_list<ndarray<T, S>> arrays) {
  return detail::multi_dot_arrays(std::vector<ndarray<T, S>>(arrays));
}
// multi_dot(a, b, c, ...): operands of any dtypes (and expressions), all
// converted to their common dtype first.
template <Expression... A>
requires(sizeof...(A) >= 2) auto multi_dot(const A&... arrays) {
  using P = detail::product_of<A...>;
  using R = typename P::type;
  using S = typename P::space;
  return detail::multi_dot_arrays(
      std::vector<ndarray<R, S>>{detail::product_operand<R, S>(arrays)...});
}

// numpy.linalg.matrix_power(a, n): a stack of square matrices raised to
// the integer power n by repeated squaring (matrix products); n == 0 gives
// identities of a's dtype, n < 0 powers of linalg::inv(a). n == 1 returns
// a itself (a view), as NumPy does.
template <Expression A>
auto matrix_power(const A& a, index_t n) {
  using T = typename operand_t<A>::value_type;
  using S = detail::eval_space_t<typename operand_t<A>::space>;
  ndarray<T, S> x = detail::product_operand<T, S>(a);
  detail::check_stacked_square(x.shape());
  if (n == 0) {
    ndarray<T, S> identities(x.shape());
    copyto(identities, cupp::eye<T>(x.shape()[x.ndim() - 1]));
    return identities;
  }
  if (n < 0) {
    if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
      throw type_error("array type " + std::string(dtype_of<T>().name) +
                       " is unsupported in linalg");
    } else if constexpr (!detail::lapack_type_v<T>) {
      throw type_error(
          "matrix_power: a negative power of an integer or bool matrix is a float64 matrix "
          "(NumPy's result dtype differs from the input's); cast the matrix to float64 first");
    } else {
      x = linalg::inv(x);
    }
    n = -n;
  }
  if (n == 1) return x;
  if (n == 3) return detail::matmul_arrays(detail::matmul_arrays(x, x), x);
  ndarray<T, S> square = x, result;
  bool first = true;
  // Binary powers as NumPy: n == 2 and n == 3 are x @ x and (x @ x) @ x.
  while (true) {
    if (n & 1) {
      result = first ? square : detail::matmul_arrays(result, square);
      first = false;
    }
    n >>= 1;
    if (n == 0) break;
    square = detail::matmul_arrays(square, square);
  }
  return result;
}

}  // namespace linalg

}  // namespace cupp
