// numpy.linalg.lstsq on host arrays: LAPACK's ?gelsd (the divide and
// conquer SVD solver NumPy calls), in float64 or complex128 as NumPy
// computes whatever the inputs' dtypes.
#pragma once

#include <complex>
#include <type_traits>

#include <cupp/detail/linalg/lapack_common.hpp>

namespace cupp::detail {

// Solves the column-major m x n matrix `a` (leading dimension lda, which
// it overwrites) against the column-major ldb x nrhs right-hand sides `b`,
// which receive the solution in their first n rows (and, when the rank is
// n < m, the residual's components in rows n .. m - 1). Returns LAPACK's
// info.
template <class D>
int host_gelsd(index_t m, index_t n, index_t nrhs, D* a, index_t lda, D* b, index_t ldb, double* s,
               double rcond, index_t& rank) {
#if CUPP_HAVE_HOST_BLAS
  lapack_int r = 0;
  lapack_int info;
  if constexpr (std::is_same_v<D, double>)
    info = LAPACKE_dgelsd(LAPACK_COL_MAJOR, static_cast<lapack_int>(m), static_cast<lapack_int>(n),
                          static_cast<lapack_int>(nrhs), a, static_cast<lapack_int>(lda), b,
                          static_cast<lapack_int>(ldb), s, rcond, &r);
  else
    info = LAPACKE_zgelsd(LAPACK_COL_MAJOR, static_cast<lapack_int>(m), static_cast<lapack_int>(n),
                          static_cast<lapack_int>(nrhs), reinterpret_cast<std::complex<double>*>(a),
                          static_cast<lapack_int>(lda), reinterpret_cast<std::complex<double>*>(b),
                          static_cast<lapack_int>(ldb), s, rcond, &r);
  rank = r;
  return static_cast<int>(info);
#else
  static_assert(sizeof(D) == 0,
                "cupp::linalg::lstsq on host arrays needs OpenBLAS and LAPACKE: link "
                "cupp::linalg on a machine that has them (scripts/setup.sh)");
  return 0;
#endif
}

}  // namespace cupp::detail
