// numpy.linalg.eigh, eigvalsh, eig and eigvals on cuSOLVER for device
// arrays and on LAPACKE for host arrays. Part of <cupp/linalg.hpp>.
//
//   auto [w, v] = cupp::linalg::eigh(a);        // ascending w, a @ v == v * w
//   auto w = cupp::linalg::eigvalsh(a, 'U');     // the upper triangle read
//   auto [l, x] = cupp::linalg::eig(a);          // always complex (NumPy:
//                                                // real when every l is)
// See docs/linalg.md.
#pragma once

#include <string>
#include <type_traits>

#include <cupp/detail/linalg/eigen_run.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/expression.hpp>
#include <cupp/linalg/matmul.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc/misc.hpp>

namespace cupp {

namespace linalg {

// numpy.linalg.EighResult: eigenvalues (..., M) ascending, real;
// eigenvectors (..., M, M), column i for eigenvalue i.
template <class T, class S>
struct eigh_result {
  ndarray<detail::lapack_real_t<T>, S> eigenvalues;
  ndarray<T, S> eigenvectors;
};

// numpy.linalg.EigResult, always complex: eigenvalues (..., M) in
// LAPACK's order, eigenvectors (..., M, M) of unit 2-norm, column i for
// eigenvalue i.
template <class C, class S>
struct eig_result {
  ndarray<C, S> eigenvalues;
  ndarray<C, S> eigenvectors;
};

#define CUPP_EIGEN_OPERAND(a, x, name)                                                         \
  using T = typename operand_t<A>::value_type;                                                 \
  static_assert(is_dtype_v<T>, "cupp::linalg::" name ": a must be an array or an expression"); \
  using R = detail::linalg_type_t<T>;                                                          \
  using S = detail::eval_space_t<typename operand_t<A>::space>

// numpy.linalg.eigh(a, UPLO='L'): the eigenvalues (ascending) and
// orthonormal eigenvectors of every Hermitian (real symmetric) matrix of a
// (..., M, M) stack, reading only the UPLO triangle ('L' or 'U', either
// case; anything else throws value_error). Device: cusolverDnXsyevd,
// cusolverDnXsyevBatched for stacks of matrices up to 32 x 32. Throws
// linalg_error("Eigenvalues did not converge") when LAPACK reports so.
template <Expression A>
auto eigh(const A& a, char UPLO = 'L') {
  CUPP_EIGEN_OPERAND(a, x, "eigh");
  const char uplo = detail::parse_uplo(UPLO);
  return detail::eigh_arrays<R, S>(detail::product_operand<R, S>(a), uplo, true);
}

// numpy.linalg.eigvalsh(a, UPLO='L'): eigh's eigenvalues alone.
template <Expression A>
auto eigvalsh(const A& a, char UPLO = 'L') {
  CUPP_EIGEN_OPERAND(a, x, "eigvalsh");
  const char uplo = detail::parse_uplo(UPLO);
  return detail::eigh_arrays<R, S>(detail::product_operand<R, S>(a), uplo, false).eigenvalues;
}

// numpy.linalg.eig(a): the eigenvalues and right eigenvectors (unit
// 2-norm, largest component real, as LAPACK's geev) of every square matrix
// of a (..., M, M) stack, always complex (complex64 for float32 and
// complex64 inputs, complex128 otherwise). Device: cusolverDnXgeev, one
// matrix at a time. Throws linalg_error for NaN or Inf in a ("Array must
// not contain infs or NaNs") and "Eigenvalues did not converge".
template <Expression A>
auto eig(const A& a) {
  CUPP_EIGEN_OPERAND(a, x, "eig");
  return detail::eig_arrays<R, S>(detail::product_operand<R, S>(a), true);
}

// numpy.linalg.eigvals(a): eig's eigenvalues alone.
template <Expression A>
auto eigvals(const A& a) {
  CUPP_EIGEN_OPERAND(a, x, "eigvals");
  return detail::eig_arrays<R, S>(detail::product_operand<R, S>(a), false).eigenvalues;
}

#undef CUPP_EIGEN_OPERAND

}  // namespace linalg

}  // namespace cupp
