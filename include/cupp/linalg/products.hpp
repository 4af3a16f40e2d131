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

#include <cupp/space_check.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/products_plan.hpp>
#include <cupp/detail/linalg/products_run.hpp>
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

// numpy.inner(a, b): sums over the last axes of both, result shape
// a.shape[:-1] + b.shape[:-1]; a 0-d operand multiplies element-wise. No
// conjugation (that is vdot and linalg.vecdot).
template <Expression A, Expression B>
auto inner(const A& a, const B& b) {
  CUPP_SAME_SPACE(A, B);
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
  CUPP_SAME_SPACE(A, B);
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
  CUPP_SAME_SPACE(A, B);
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
  CUPP_SAME_SPACE(A, B);
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
  CUPP_SAME_SPACE(A, B);
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
  CUPP_SAME_SPACE(A, B);
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
  CUPP_SAME_SPACE(A...);
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
