// LAPACKE's singular value and Hermitian eigenvalue routines for
// cupp::linalg::svd, svdvals and svd(hermitian=true) on host arrays: ?gesdd
// as NumPy calls it (jobz 'A', 'S' or 'N') and ?syevd / ?heevd for the
// Hermitian form, one matrix of the stack at a time (LAPACK has no batched
// form).
#pragma once

#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/dtype.hpp>

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

#if CUPP_HAVE_HOST_BLAS
// LAPACK's answer to a workspace query (lwork = -1), a count stored in
// the dtype, as an int of at least 1.
template <class W>
lapack_int queried_work_size(const W& w) {
  double v;
  if constexpr (is_complex_type_v<W>)
    v = static_cast<double>(w.real());
  else
    v = static_cast<double>(w);
  return std::max<lapack_int>(1, static_cast<lapack_int>(v));
}

// ?gesdd through LAPACKE's _work entry point, which passes NaN on to
// LAPACK as NumPy does (the checking entry point refuses it with info -4
// before LAPACK runs). rwork is read by the complex routines only.
template <class R>
lapack_int lapacke_gesdd(char jobz, lapack_int m, lapack_int n, R* a, lapack_real_t<R>* s, R* u,
                         lapack_int ldu, R* vt, lapack_int ldvt, R* work, lapack_int lwork,
                         lapack_real_t<R>* rwork, lapack_int* iwork) {
  if constexpr (std::is_same_v<R, float>)
    return LAPACKE_sgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, m, s, u, ldu, vt, ldvt, work, lwork,
                               iwork);
  else if constexpr (std::is_same_v<R, double>)
    return LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, m, s, u, ldu, vt, ldvt, work, lwork,
                               iwork);
  else if constexpr (std::is_same_v<R, complex64>)
    return LAPACKE_cgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, lapack_pointer(a), m, s,
                               lapack_pointer(u), ldu, lapack_pointer(vt), ldvt,
                               lapack_pointer(work), lwork, rwork, iwork);
  else
    return LAPACKE_zgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, lapack_pointer(a), m, s,
                               lapack_pointer(u), ldu, lapack_pointer(vt), ldvt,
                               lapack_pointer(work), lwork, rwork, iwork);
}

// ?syevd / ?heevd through the _work entry points, for the same reason.
template <class R>
lapack_int lapacke_hermitian_eigen(char jobz, lapack_int n, R* a, lapack_real_t<R>* w, R* work,
                                   lapack_int lwork, lapack_real_t<R>* rwork, lapack_int lrwork,
                                   lapack_int* iwork, lapack_int liwork) {
  if constexpr (std::is_same_v<R, float>)
    return LAPACKE_ssyevd_work(LAPACK_COL_MAJOR, jobz, 'L', n, a, n, w, work, lwork, iwork, liwork);
  else if constexpr (std::is_same_v<R, double>)
    return LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, jobz, 'L', n, a, n, w, work, lwork, iwork, liwork);
  else if constexpr (std::is_same_v<R, complex64>)
    return LAPACKE_cheevd_work(LAPACK_COL_MAJOR, jobz, 'L', n, lapack_pointer(a), n, w,
                               lapack_pointer(work), lwork, rwork, lrwork, iwork, liwork);
  else
    return LAPACKE_zheevd_work(LAPACK_COL_MAJOR, jobz, 'L', n, lapack_pointer(a), n, w,
                               lapack_pointer(work), lwork, rwork, lrwork, iwork, liwork);
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
  using Re = lapack_real_t<R>;
  const index_t k = std::min(m, n), big = std::max(m, n);
  const index_t ucols = jobz == 'A' ? m : k, vrows = jobz == 'A' ? n : k;
  // jobz 'N' references neither factor; LAPACK still wants valid ones.
  R dummy[1] = {};
  const lapack_int ldu = static_cast<lapack_int>(std::max<index_t>(m, 1));
  const lapack_int ldvt = static_cast<lapack_int>(std::max<index_t>(jobz == 'N' ? 1 : vrows, 1));
  const lapack_int M = static_cast<lapack_int>(m), N = static_cast<lapack_int>(n);
  // LAPACK 3.7's sizes for the complex routines' rwork (its query does not
  // report them).
  const index_t lrwork =
      jobz == 'N' ? 7 * k : std::max(5 * k * k + 5 * k, 2 * big * k + 2 * k * k + k);
  std::vector<Re> rwork(static_cast<std::size_t>(std::max<index_t>(lrwork, 1)));
  std::vector<lapack_int> iwork(static_cast<std::size_t>(8 * k));
  R query{};
  lapack_int r =
      lapacke_gesdd<R>(jobz, M, N, a, s, jobz == 'N' ? dummy : u, ldu, jobz == 'N' ? dummy : vt,
                       ldvt, &query, -1, rwork.data(), iwork.data());
  throw_on_info(&r, 1, "SVD did not converge", "?gesdd");
  std::vector<R> work(static_cast<std::size_t>(queried_work_size(query)));
  std::vector<int> info(static_cast<std::size_t>(count));
  for (index_t b = 0; b < count; ++b) {
    R* ub = jobz == 'N' ? dummy : u + b * m * ucols;
    R* vb = jobz == 'N' ? dummy : vt + b * vrows * n;
    r = lapacke_gesdd<R>(jobz, M, N, a + b * m * n, s + b * k, ub, ldu, vb, ldvt, work.data(),
                         static_cast<lapack_int>(work.size()), rwork.data(), iwork.data());
    // gesdd answers a NaN in A with info -4 before iterating (LAPACK's
    // count; LAPACKE adds one for the layout argument); NumPy reports any
    // failure of gesdd as non-convergence.
    info[static_cast<std::size_t>(b)] = r == -5 ? 1 : static_cast<int>(r);
    if (r != 0) {
      // What an unchecked scope sees of a failed matrix: NaN, as NumPy's
      // results of a failed gesdd (gesdd leaves them unwritten).
      const Re nan = std::numeric_limits<Re>::quiet_NaN();
      std::fill(s + b * k, s + (b + 1) * k, nan);
      if (jobz != 'N') {
        std::fill(ub, ub + m * ucols, R(nan));
        std::fill(vb, vb + vrows * n, R(nan));
      }
    }
  }
  check_host_info(info.data(), count, "SVD did not converge", "?gesdd");
#else
  static_assert(sizeof(R) == 0, CUPP_DETAIL_NO_HOST_BLAS("cupp::linalg::svd"));
#endif
}

// Eigenvalues (ascending) and, with `vectors`, eigenvectors (over `a`,
// column-major) of a stack of n x n Hermitian matrices read from their
// lower triangle (numpy.linalg.eigh's UPLO='L').
template <class R>
void host_hermitian_eigen(R* a, lapack_real_t<R>* w, index_t count, index_t n, bool vectors) {
#if CUPP_HAVE_HOST_BLAS
  using Re = lapack_real_t<R>;
  const char jobz = vectors ? 'V' : 'N';
  const lapack_int N = static_cast<lapack_int>(n);
  R work_query{};
  Re rwork_query{};
  lapack_int iwork_query = 0;
  lapack_int r = lapacke_hermitian_eigen<R>(jobz, N, a, w, &work_query, -1, &rwork_query, -1,
                                            &iwork_query, -1);
  throw_on_info(&r, 1, "Eigenvalues did not converge", "?syevd/?heevd");
  std::vector<R> work(static_cast<std::size_t>(queried_work_size(work_query)));
  std::vector<Re> rwork(static_cast<std::size_t>(queried_work_size(rwork_query)));
  std::vector<lapack_int> iwork(static_cast<std::size_t>(std::max<lapack_int>(iwork_query, 1)));
  std::vector<int> info(static_cast<std::size_t>(count));
  for (index_t b = 0; b < count; ++b) {
    r = lapacke_hermitian_eigen<R>(jobz, N, a + b * n * n, w + b * n, work.data(),
                                   static_cast<lapack_int>(work.size()), rwork.data(),
                                   static_cast<lapack_int>(rwork.size()), iwork.data(),
                                   static_cast<lapack_int>(iwork.size()));
    info[static_cast<std::size_t>(b)] = static_cast<int>(r);
  }
  check_host_info(info.data(), count, "Eigenvalues did not converge", "?syevd/?heevd");
#else
  static_assert(sizeof(R) == 0, CUPP_DETAIL_NO_HOST_BLAS("cupp::linalg::eigh"));
#endif
}

}  // namespace cupp::detail
