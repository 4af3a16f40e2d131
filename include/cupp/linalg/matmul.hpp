// numpy.matmul, dot, vdot and outer (and numpy.linalg's matmul, outer and
// matrix_transpose) on cuBLAS for device arrays and on OpenBLAS for host
// arrays. Part of <cupp/linalg.hpp>.
//
// Layouts reach the vendor call without a copy when either matrix axis has
// unit stride (C order, F order, x.T(), row or column slices): the
// transpose flags and leading dimensions say how to read them; conj(x) of
// a complex array whose rows have unit stride (conj(a.T()), conj of an
// F-order array) is BLAS's conjugate-transpose op. Other layouts, operands
// of another dtype than the result and lazy expressions are evaluated once
// into pooled memory first. matmul returns a lazy product into which
// scalars and an addend fold (2 * matmul(a, b) + c is one gemm). See
// docs/linalg.md.
#pragma once

#include <type_traits>

// The array and the expression machinery before the product's internals.
#include <cupp/expression.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/misc.hpp>

#include <cupp/cuda/runtime.hpp>
#include <cupp/space_check.hpp>
#include <cupp/detail/linalg/dot_run.hpp>
#include <cupp/detail/linalg/gemm.hpp>
#include <cupp/detail/linalg/matmul_plan.hpp>
#include <cupp/detail/linalg/product_expr.hpp>
#include <cupp/detail/linalg/product_operand.hpp>
#include <cupp/detail/linalg/product_run.hpp>

namespace cupp {

// numpy.matmul(a, b) (a @ b): products of the last two axes, a 1-d operand
// taken as a row (first) or a column (second) and its unit axis dropped from
// the result, the leading axes broadcast as stacks of matrices. The result
// dtype is NumPy's promotion of the operands' dtypes; float16 and bfloat16
// accumulate in float32; integers and bool give NumPy's exact (wrapping)
// results. Two 1-d operands give a 0-d array (NumPy: a scalar).
//
// The result is a lazy product (NumPy's shape errors are raised here; the
// gemm runs when it becomes an array): `ndarray<R, S> c = matmul(a, b);`,
// or passing it where an ndarray is taken. s * matmul(a, b),
// matmul(a, b) / s and -matmul(a, b) fold into gemm's alpha, and
// matmul(a, b) + c (or - c, c + t * ..., t * c) with c an array of the
// result's dtype that broadcasts to the result's shape into its beta: one
// gemm. Inside any other expression the product is evaluated once first.
template <Expression A, Expression B>
auto matmul(const A& a, const B& b) {
  CUPP_SAME_SPACE(A, B);
  using TA = typename operand_t<A>::value_type;
  using TB = typename operand_t<B>::value_type;
  static_assert(is_dtype_v<TA> && is_dtype_v<TB>,
                "cupp::matmul: multiply arrays, not scalars "
                "(numpy.matmul rejects scalar operands)");
  using R = result_type_t<TA, TB>;
  using SA = typename operand_t<A>::space;
  using SB = typename operand_t<B>::space;
  using S = detail::eval_space_t<typename detail::join_space<SA, SB>::type>;
  return detail::matmul_expr<R, S>(detail::gemm_operand<R, S>(a), detail::gemm_operand<R, S>(b));
}

// numpy.matmul(a, b, out=out): written into out (NumPy's out= checks and
// messages; nothing is written when one fails), straight from the gemm
// when out is C-contiguous, of the result's dtype and shares no memory
// with an operand, else through a temporary (out of another dtype that
// the result casts to 'same_kind', other layouts, leading axes that the
// result broadcasts to). Returns out.
template <Expression A, Expression B, class T, class S>
const ndarray<T, S>& matmul(const A& a, const B& b, const ndarray<T, S>& out) {
  CUPP_SAME_SPACE(A, B, ndarray<T, S>);
  using R = typename decltype(matmul(a, b))::value_type;
  // Operands that live nowhere in particular (generators) are evaluated on
  // the device.
  static_assert(!same_space_v<A, B, ndarray<T, S>> ||
                    std::is_same_v<typename decltype(matmul(a, b))::space, S>,
                "cupp::matmul: out= lives in another space (host or device) than the operands");
  detail::matmul_into(out, detail::gemm_operand<R, S>(a), detail::gemm_operand<R, S>(b));
  return out;
}
// The same with cupp::out(z), as the ufuncs take it.
template <Expression A, Expression B, class T, class S>
const ndarray<T, S>& matmul(const A& a, const B& b, const out_arg<T, S>& out) {
  return matmul(a, b, out.array);
}

// The operands' result dtype and space, and the operands as arrays of it.
#define CUPP_PRODUCT_OPERANDS(a, b, x, y)                                                     \
  using TA = typename operand_t<decltype(a)>::value_type;                                     \
  using TB = typename operand_t<decltype(b)>::value_type;                                     \
  static_assert(is_dtype_v<TA> && is_dtype_v<TB>, "cupp: products take arrays, not scalars"); \
  using R = result_type_t<TA, TB>;                                                            \
  using S = detail::eval_space_t<typename detail::join_space<                                 \
      typename operand_t<decltype(a)>::space, typename operand_t<decltype(b)>::space>::type>; \
  const ndarray<R, S> x = detail::product_operand<R, S>(a);                                   \
  const ndarray<R, S> y = detail::product_operand<R, S>(b)

// numpy.dot(a, b): a product over a's last axis and b's second to last
// (its only one when 1-d): matmul for 1-d and 2-d operands, every row of a
// with every column of b for more axes (result a.shape[:-1] + b.shape[:-2]
// + b.shape[-1:]), an element-wise product when either is 0-d.
template <Expression A, Expression B>
auto dot(const A& a, const B& b) {
  CUPP_SAME_SPACE(A, B);
  CUPP_PRODUCT_OPERANDS(a, b, x, y);
  return detail::dot_arrays(x, y);
}

// numpy.dot(a, b, out=out): out must be a writeable C-contiguous array of
// exactly the result's dtype and shape (NumPy's messages; nothing written
// otherwise); the gemm writes straight into it unless it shares memory
// with an operand. Returns out.
template <Expression A, Expression B, class TO, class SO>
const ndarray<TO, SO>& dot(const A& a, const B& b, const ndarray<TO, SO>& out) {
  CUPP_SAME_SPACE(A, B, ndarray<TO, SO>);
  CUPP_PRODUCT_OPERANDS(a, b, x, y);
  static_assert(
      !same_space_v<A, B, ndarray<TO, SO>> || (std::is_same_v<TO, R> && std::is_same_v<SO, S>),
      "cupp::dot: output array is not acceptable (must have the right datatype, number "
      "of dimensions, and be a C-Array)");
  detail::dot_into(out, x, y);
  return out;
}
template <Expression A, Expression B, class TO, class SO>
const ndarray<TO, SO>& dot(const A& a, const B& b, const out_arg<TO, SO>& out) {
  return dot(a, b, out.array);
}

// numpy.vdot(a, b): the dot product of the flattened operands, the first
// conjugated; a 0-d array (NumPy: a scalar).
template <Expression A, Expression B>
auto vdot(const A& a, const B& b) {
  CUPP_SAME_SPACE(A, B);
  CUPP_PRODUCT_OPERANDS(a, b, x, y);
  const ndarray<R, S> xf = x.reshape(shape_t{x.size()});
  const ndarray<R, S> yf = y.reshape(shape_t{x.size()});  // NumPy's message when sizes differ
  // The conjugate is BLAS's conjugate-transpose op, not a copy.
  return detail::fresh_product(detail::product_input<R, S>{xf, detail::is_complex_type_v<R>},
                               detail::product_input<R, S>{yf});
}

// numpy.outer(a, b): every element of a (flattened) times every element of
// b (flattened), shape (a.size, b.size).
template <Expression A, Expression B>
auto outer(const A& a, const B& b) {
  CUPP_SAME_SPACE(A, B);
  CUPP_PRODUCT_OPERANDS(a, b, x, y);
  return ndarray<R, S>(multiply(x.reshape(shape_t{x.size(), 1}), y.reshape(shape_t{1, y.size()})));
}

#undef CUPP_PRODUCT_OPERANDS

namespace linalg {

// numpy.linalg.outer (NumPy 2): numpy.outer of two 1-d operands.
template <Expression A, Expression B>
auto outer(const A& a, const B& b) {
  const int n1 = static_cast<int>(a.shape().size()), n2 = static_cast<int>(b.shape().size());
  if (n1 != 1 || n2 != 1)
    throw value_error("Input arrays must be one-dimensional, but they are x1.ndim=" +
                      std::to_string(n1) + " and x2.ndim=" + std::to_string(n2) + ".");
  return cupp::outer(a, b);
}

// numpy.linalg.matrix_transpose (NumPy 2): the last two axes swapped, a
// view.
template <class T, class S>
ndarray<T, S> matrix_transpose(const ndarray<T, S>& x) {
  if (x.ndim() < 2)
    throw value_error("Input array must be at least 2-dimensional, but it is " +
                      std::to_string(x.ndim()));
  return x.swapaxes(-1, -2);
}
// Of conj(x) over an array: conj of the transposed view, still lazy, so
// that matmul(linalg::matrix_transpose(conj(a)), b) is one gemm with the
// conjugate-transpose op (NumPy's a.conj().T @ b).
template <class T, class S>
auto matrix_transpose(const ufunc_expr<ops::conjugate, array_leaf<T, S>>& x) {
  return conj(matrix_transpose(std::get<0>(x.args()).a));
}

// numpy.linalg.matmul (NumPy 2, the array API's): numpy.matmul.
template <Expression A, Expression B>
auto matmul(const A& a, const B& b) {
  return cupp::matmul(a, b);
}
}  // namespace linalg

}  // namespace cupp
