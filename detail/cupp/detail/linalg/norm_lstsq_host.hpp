// numpy.linalg.lstsq on host arrays: LAPACK's ?gelsd (the divide and
// conquer SVD solver NumPy calls), in float64 or complex128 as NumPy
// computes whatever the inputs' dtypes.
#pragma once

#include <algorithm>
#include <complex>
#include <type_traits>
#include <vector>

#include <cupp/detail/linalg/lapack_common.hpp>

namespace cupp::detail {

#if CUPP_HAVE_HOST_BLAS
// ?gelsd through LAPACKE's _work entry point, which passes NaN on to
// LAPACK as NumPy does (the checking one refuses it before LAPACK runs);
// lwork = -1 queries the sizes into work[0], rwork[0] and iwork[0].
template <class D>
lapack_int lapacke_gelsd(lapack_int m, lapack_int n, lapack_int nrhs, D* a, lapack_int lda, D* b,
                         lapack_int ldb, double* s, double rcond, lapack_int* rank, D* work,
                         lapack_int lwork, double* rwork, lapack_int* iwork) {
  if constexpr (std::is_same_v<D, double>)
    return LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work,
                               lwork, iwork);
  else
    return LAPACKE_zgelsd_work(LAPACK_COL_MAJOR, m, n, nrhs,
                               reinterpret_cast<std::complex<double>*>(a), lda,
                               reinterpret_cast<std::complex<double>*>(b), ldb, s, rcond, rank,
                               reinterpret_cast<std::complex<double>*>(work), lwork, rwork, iwork);
}
#endif

// Solves the column-major m x n matrix `a` (leading dimension lda, which
// it overwrites) against the column-major ldb x nrhs right-hand sides `b`,
// which receive the solution in their first n rows (and, when the rank is
// n < m, the residual's components in rows n .. m - 1). Returns LAPACK's
// info, positive for a NaN input (which NumPy reports as non-convergence).
template <class D>
int host_gelsd(index_t m, index_t n, index_t nrhs, D* a, index_t lda, D* b, index_t ldb, double* s,
               double rcond, index_t& rank) {
#if CUPP_HAVE_HOST_BLAS
  const auto M = static_cast<lapack_int>(m), N = static_cast<lapack_int>(n),
             K = static_cast<lapack_int>(nrhs), LDA = static_cast<lapack_int>(lda),
             LDB = static_cast<lapack_int>(ldb);
  lapack_int r = 0;
  D work_query{};
  double rwork_query = 0;
  lapack_int iwork_query = 0;
  lapack_int info = lapacke_gelsd<D>(M, N, K, a, LDA, b, LDB, s, rcond, &r, &work_query, -1,
                                     &rwork_query, &iwork_query);
  if (info != 0) return static_cast<int>(info);
  double lwork;
  if constexpr (std::is_same_v<D, double>)
    lwork = work_query;
  else
    lwork = work_query.real();
  std::vector<D> work(static_cast<std::size_t>(std::max(lwork, 1.0)));
  std::vector<double> rwork(static_cast<std::size_t>(std::max(rwork_query, 1.0)));
  std::vector<lapack_int> iwork(static_cast<std::size_t>(std::max<lapack_int>(iwork_query, 1)));
  info = lapacke_gelsd<D>(M, N, K, a, LDA, b, LDB, s, rcond, &r, work.data(),
                          static_cast<lapack_int>(work.size()), rwork.data(), iwork.data());
  rank = r;
  // A NaN in `a` makes gelsd stop with info -4 (LAPACK's count; LAPACKE
  // adds one for the layout argument) after ?lascl has printed LAPACK's
  // argument message, as under NumPy, which reports it as non-convergence.
  if (info == -5) return 1;
  return static_cast<int>(info);
#else
  static_assert(sizeof(D) == 0, CUPP_DETAIL_NO_HOST_BLAS("cupp::linalg::lstsq"));
  return 0;
#endif
}

}  // namespace cupp::detail
