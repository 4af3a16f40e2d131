// LAPACKE's singular value and Hermitian eigenvalue routines for
// cupp::linalg::svd, svdvals and svd(hermitian=true) on host arrays: ?gesdd
// as NumPy calls it (jobz 'A', 'S' or 'N') and ?syevd / ?heevd for the
// Hermitian form, one matrix of the stack at a time (LAPACK has no batched
// form).
#pragma once

#include <type_traits>
#include <vector>

#include <cupp/detail/linalg/lapack_common.hpp>

namespace cupp::detail {

#if CUPP_HAVE_HOST_BLAS
template <class R>
auto lapack_pointer(R* p) {
  if constexpr (std::is_same_v<R, complex64>)
    return reinterpret_cast<std::complex<float>*>(p);
  else if constexpr (std::is_same_v<R, complex128>)
    return reinterpret_cast<std::complex<double>*>(p);
  else
    return p;
}
#endif

// A stack of `count` m x n column-major matrices at `a` (overwritten):
// singular values at `s` (k = min(m, n) each), and for jobz 'A' or 'S' the
// column-major U (m x ucols, ld m) and V^H (vrows x n, ld vrows), ucols and
// vrows being m and n for 'A', k for 'S'.
template <class R>
void host_gesdd(char jobz, R* a, lapack_real_t<R>* s, R* u, R* vt, index_t count, index_t m,
                index_t n) {
#if CUPP_HAVE_HOST_BLAS
  const index_t k = std::min(m, n);
  const index_t ucols = jobz == 'A' ? m : k, vrows = jobz == 'A' ? n : k;
  // jobz 'N' references neither factor; LAPACK still wants valid ones.
  R dummy[1] = {};
  const lapack_int ldu = static_cast<lapack_int>(std::max<index_t>(m, 1));
  const lapack_int ldvt = static_cast<lapack_int>(std::max<index_t>(jobz == 'N' ? 1 : vrows, 1));
  std::vector<int> info(static_cast<std::size_t>(count));
  for (index_t b = 0; b < count; ++b) {
    R* ab = a + b * m * n;
    R* ub = jobz == 'N' ? dummy : u + b * m * ucols;
    R* vb = jobz == 'N' ? dummy : vt + b * vrows * n;
    const lapack_int M = static_cast<lapack_int>(m), N = static_cast<lapack_int>(n);
    lapack_int r;
    if constexpr (std::is_same_v<R, float>)
      r = LAPACKE_sgesdd(LAPACK_COL_MAJOR, jobz, M, N, ab, M, s + b * k, ub, ldu, vb, ldvt);
    else if constexpr (std::is_same_v<R, double>)
      r = LAPACKE_dgesdd(LAPACK_COL_MAJOR, jobz, M, N, ab, M, s + b * k, ub, ldu, vb, ldvt);
    else if constexpr (std::is_same_v<R, complex64>)
      r = LAPACKE_cgesdd(LAPACK_COL_MAJOR, jobz, M, N, lapack_pointer(ab), M, s + b * k,
                         lapack_pointer(ub), ldu, lapack_pointer(vb), ldvt);
    else
      r = LAPACKE_zgesdd(LAPACK_COL_MAJOR, jobz, M, N, lapack_pointer(ab), M, s + b * k,
                         lapack_pointer(ub), ldu, lapack_pointer(vb), ldvt);
    info[static_cast<std::size_t>(b)] = static_cast<int>(r);
  }
  check_host_info(info.data(), count, "SVD did not converge", "?gesdd");
#else
  static_assert(sizeof(R) == 0,
                "cupp::linalg::svd on host arrays needs OpenBLAS and LAPACKE: link cupp::linalg "
                "on a machine where they are installed (scripts/setup.sh)");
#endif
}

// Eigenvalues (ascending) and, with `vectors`, eigenvectors (over `a`,
// column-major) of a stack of n x n Hermitian matrices read from their
// lower triangle (numpy.linalg.eigh's UPLO='L').
template <class R>
void host_hermitian_eigen(R* a, lapack_real_t<R>* w, index_t count, index_t n, bool vectors) {
#if CUPP_HAVE_HOST_BLAS
  const char jobz = vectors ? 'V' : 'N';
  const lapack_int N = static_cast<lapack_int>(n);
  std::vector<int> info(static_cast<std::size_t>(count));
  for (index_t b = 0; b < count; ++b) {
    R* ab = a + b * n * n;
    lapack_real_t<R>* wb = w + b * n;
    lapack_int r;
    if constexpr (std::is_same_v<R, float>)
      r = LAPACKE_ssyevd(LAPACK_COL_MAJOR, jobz, 'L', N, ab, N, wb);
    else if constexpr (std::is_same_v<R, double>)
      r = LAPACKE_dsyevd(LAPACK_COL_MAJOR, jobz, 'L', N, ab, N, wb);
    else if constexpr (std::is_same_v<R, complex64>)
      r = LAPACKE_cheevd(LAPACK_COL_MAJOR, jobz, 'L', N, lapack_pointer(ab), N, wb);
    else
      r = LAPACKE_zheevd(LAPACK_COL_MAJOR, jobz, 'L', N, lapack_pointer(ab), N, wb);
    info[static_cast<std::size_t>(b)] = static_cast<int>(r);
  }
  check_host_info(info.data(), count, "Eigenvalues did not converge", "?syevd/?heevd");
#else
  static_assert(sizeof(R) == 0,
                "cupp::linalg::svd on host arrays needs OpenBLAS and LAPACKE: link cupp::linalg "
                "on a machine where they are installed (scripts/setup.sh)");
#endif
}

}  // namespace cupp::detail
