// numpy.linalg.svd and numpy.linalg.svdvals on cuSOLVER for device arrays
// and on LAPACKE for host arrays. Part of <cupp/linalg.hpp>.
//
// Device arrays: stacks of matrices no larger than 32 x 32 go through one
// cusolverDn<t>gesvdjBatched call; larger matrices through
// cusolverDnXgesvdp (polar decomposition, economy factors), with
// cusolverDnXgesvd for full_matrices of non-square matrices and for any
// matrix on which gesvdp had to perturb a near-zero singular value; wide
// matrices are decomposed through their transpose. Host arrays: ?gesdd, as
// NumPy. hermitian=true goes through an eigendecomposition (XsyevBatched /
// Xsyevd, ?syevd / ?heevd). See docs/linalg.md.
#pragma once

#include <type_traits>

// take_along_axis and the product operator are called by the
// engine's templates (svd_run.hpp) when they are instantiated from here.
#include <cupp/advanced_indexing.hpp>
#include <cupp/creation.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/svd_run.hpp>
#include <cupp/expression.hpp>
#include <cupp/generators.hpp>
#include <cupp/index_types.hpp>
#include <cupp/linalg/matmul.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/misc.hpp>

namespace cupp {

namespace linalg {

// numpy.linalg.svd's SVDResult: a = U @ (S[..., None] * Vh). With
// compute_uv=false U and Vh are empty arrays of shape (0,).
template <class R, class Space>
struct svd_result {
  ndarray<R, Space> U;
  ndarray<detail::lapack_real_t<R>, Space> S;
  ndarray<R, Space> Vh;
};

// numpy.linalg.svd(a, full_matrices, compute_uv, hermitian): a (..., M, N)
// stack as U @ (S[..., None] * Vh), S real, descending. full_matrices: U
// (..., M, M) and Vh (..., N, N); otherwise (..., M, K) and (..., K, N),
// K = min(M, N). compute_uv=false: S only, U and Vh of shape (0,).
// hermitian=true: a is taken as Hermitian (its lower triangle read) and
// decomposed through its eigenvalues. Integers and bool compute in float64.
// Throws cupp::linalg_error for fewer than two dimensions ("SVD did not
// converge" on a failure of the solver, unless in a linalg::unchecked
// scope).
template <Expression A>
auto svd(const A& a, bool full_matrices = true, bool compute_uv = true, bool hermitian = false) {
  using T = typename operand_t<A>::value_type;
  static_assert(is_dtype_v<T>, "cupp::linalg::svd: decompose an array, not a scalar");
  using R = detail::linalg_type_t<T>;
  using S = detail::eval_space_t<typename operand_t<A>::space>;
  return detail::svd_of(detail::product_operand<R, S>(a), full_matrices, compute_uv, hermitian);
}

// numpy.linalg.svdvals(x): the singular values of a (..., M, N) stack,
// descending, shape (..., min(M, N)); svd(x, compute_uv=false).S.
template <Expression A>
auto svdvals(const A& x) {
  return linalg::svd(x, false, false, false).S;
}

}  // namespace linalg

}  // namespace cupp
