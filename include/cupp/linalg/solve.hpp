// numpy.linalg.solve, inv, det, slogdet and cholesky on cuSOLVER, cuBLAS
// and cupp's own kernels for device arrays, and on LAPACKE for host arrays.
// Part of <cupp/linalg.hpp>.
//
// Every function takes stacks (..., M, M); solve broadcasts a's and b's
// stacks (b is a stack of vectors only when b.ndim == 1, as in NumPy 2).
// Integers and bool compute in float64. On the device, matrices up to 8 x 8
// take a kernel that factors each in registers (one thread per matrix,
// operands read in place whatever their strides); larger stacks take
// cuBLAS's batched getrf/getrs/getri and cuSOLVER's potrfBatched, single and
// large matrices cuSOLVER's 64-bit API. A singular matrix in solve or inv,
// or one that is not positive definite in cholesky, throws linalg_error
// with NumPy's message, which on the device waits for the stream; inside a
// cupp::linalg::unchecked scope nothing is read and the results hold NaN or
// Inf instead. See docs/linalg.md.
#pragma once

#include <algorithm>
#include <type_traits>
#include <vector>

#include <cupp/space_check.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/solve_run.hpp>
#include <cupp/expression.hpp>
#include <cupp/linalg/matmul.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/ndarray.hpp>

namespace cupp {

namespace linalg {

// numpy.linalg.slogdet's result: the sign (of dtype R; for complex R a
// number of modulus 1) and the natural logarithm of |det| (its real type).
template <class R, class S>
struct slogdet_result {
  ndarray<R, S> sign;
  ndarray<detail::lapack_real_t<R>, S> logabsdet;
};

// The dtype (R) and space (S) a linalg function of one operand computes in.
#define CUPP_LINALG_UNARY(A)                                                  \
  using TA = typename operand_t<A>::value_type;                               \
  static_assert(is_dtype_v<TA>, "cupp::linalg: pass an array, not a scalar"); \
  using R = detail::linalg_type_t<TA>;                                        \
  using S = detail::eval_space_t<typename operand_t<A>::space>

// numpy.linalg.solve(a, b): x with a @ x == b for a (..., M, M) and b
// (..., M, K), or b (M,) (a stack of vectors only when b is 1-d); the
// stacks broadcast. The dtype is the promotion of both operands' linalg
// dtypes. Throws linalg_error("Singular matrix").
template <Expression A, Expression B>
auto solve(const A& a, const B& b) {
  CUPP_SAME_SPACE(A, B);
  using TA = typename operand_t<A>::value_type;
  using TB = typename operand_t<B>::value_type;
  static_assert(is_dtype_v<TA> && is_dtype_v<TB>, "cupp::linalg::solve: pass arrays, not scalars");
  using R = result_type_t<detail::linalg_type_t<TA>, detail::linalg_type_t<TB>>;
  using SA = typename operand_t<A>::space;
  using SB = typename operand_t<B>::space;
  using S = detail::eval_space_t<typename detail::join_space<SA, SB>::type>;
  return detail::solve_arrays<R, S>(detail::product_operand<R, S>(a),
                                    detail::product_operand<R, S>(b));
}

// numpy.linalg.inv(a): the inverses of a (..., M, M). Throws
// linalg_error("Singular matrix").
template <Expression A>
auto inv(const A& a) {
  CUPP_LINALG_UNARY(A);
  return detail::inv_array<R, S>(detail::product_operand<R, S>(a));
}

// numpy.linalg.det(a): the determinants of a (..., M, M), shape a.shape[:-2]
// (a 0-d array for one matrix); 0 for a singular matrix, 1 for 0 x 0.
template <Expression A>
auto det(const A& a) {
  CUPP_LINALG_UNARY(A);
  ndarray<R, S> d;
  detail::slogdet_arrays<R, S>(detail::product_operand<R, S>(a), d, nullptr);
  return d;
}

// numpy.linalg.slogdet(a): {sign, logabsdet} with det = sign *
// exp(logabsdet); sign 0 and logabsdet -inf for a singular matrix.
template <Expression A>
auto slogdet(const A& a) {
  CUPP_LINALG_UNARY(A);
  slogdet_result<R, S> r;
  detail::slogdet_arrays<R, S>(detail::product_operand<R, S>(a), r.sign, &r.logabsdet);
  return r;
}

// numpy.linalg.cholesky(a, upper=False): L lower-triangular with a = L
// L^H, reading only a's lower triangle; with upper, U with a = U^H U,
// reading only the upper one. Throws linalg_error("Matrix is not positive
// definite").
template <Expression A>
auto cholesky(const A& a, bool upper = false) {
  CUPP_LINALG_UNARY(A);
  return detail::cholesky_array<R, S>(detail::product_operand<R, S>(a), upper);
}

#undef CUPP_LINALG_UNARY

}  // namespace linalg

}  // namespace cupp
