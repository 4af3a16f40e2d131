// The vendor calls behind numpy.linalg.eigh/eigvalsh (symmetric and
// Hermitian: syevd/heevd) and eig/eigvals (general: geev), on column-major
// stacks. Device: cusolverDnXsyevd per matrix, cusolverDnXsyevBatched for
// stacks of small matrices, cusolverDnXgeev per matrix (it has no batched
// form). Host: LAPACKE.
#pragma once

#include <algorithm>
#include <type_traits>
#include <vector>

#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/qr_lapack.hpp>

namespace cupp::detail {

// The complex type eig returns for a LAPACK type.
template <class T>
struct eig_complex {
  using type = ::cuda::std::complex<lapack_real_t<T>>;
};
template <class T>
using eig_complex_t = typename eig_complex<T>::type;

inline constexpr const char* eig_no_convergence = "Eigenvalues did not converge";

// Element (r, j) of the complex eigenvector matrix of a real geev, from
// LAPACK's packing: a complex pair's first eigenvalue (positive imaginary
// part) keeps the real part of its vector in column j and the imaginary
// part in column j + 1; the second is its conjugate.
template <class Re, class C>
CUPP_HD inline C unpack_geev_vector(const Re* vr, const C* w, index_t n, index_t r, index_t j) {
  const Re im = w[j].imag();
  if (im > 0 && j + 1 < n) return C(vr[r + j * n], vr[r + (j + 1) * n]);
  if (im < 0 && j > 0) return C(vr[r + (j - 1) * n], -vr[r + j * n]);
  return C(vr[r + j * n], 0);
}

#if CUPP_HAVE_HOST_BLAS

// syevd/heevd through LAPACKE's _work entry points (no NaN screening, as
// NumPy); lwork = -1 queries the sizes into work[0], rwork[0], iwork[0].
template <class T>
int lapacke_syevd(char jobz, char uplo, int n, T* a, int lda, lapack_real_t<T>* w, T* work,
                  int lwork, lapack_real_t<T>* rwork, int lrwork, int* iwork, int liwork) {
  if constexpr (std::is_same_v<T, float>)
    return LAPACKE_ssyevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, iwork,
                               liwork);
  else if constexpr (std::is_same_v<T, double>)
    return LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, iwork,
                               liwork);
  else {
    using L = std::complex<lapack_real_t<T>>;
    if constexpr (std::is_same_v<T, complex64>)
      return LAPACKE_cheevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, reinterpret_cast<L*>(a), lda, w,
                                 reinterpret_cast<L*>(work), lwork, rwork, lrwork, iwork, liwork);
    else
      return LAPACKE_zheevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, reinterpret_cast<L*>(a), lda, w,
                                 reinterpret_cast<L*>(work), lwork, rwork, lrwork, iwork, liwork);
  }
}

// syevd/heevd of `count` n x n column-major matrices in `a`; eigenvalues
// in w, eigenvectors (jobz 'V') over a.
template <class T>
void host_eigh(index_t count, index_t n, T* a, lapack_real_t<T>* w, bool vectors, char uplo) {
  using Re = lapack_real_t<T>;
  const int ni = lapack_int_size(n, "eigh"), lda = std::max(1, ni);
  const char jobz = vectors ? 'V' : 'N';
  T work_query{};
  Re rwork_query{};
  int iwork_query = 0;
  int status =
      lapacke_syevd(jobz, uplo, ni, a, lda, w, &work_query, -1, &rwork_query, -1, &iwork_query, -1);
  throw_on_info(&status, 1, eig_no_convergence, "syevd");
  std::vector<T> work(static_cast<std::size_t>(lapack_work_size(work_query)));
  std::vector<Re> rwork(static_cast<std::size_t>(lapack_work_size(rwork_query)));
  std::vector<int> iwork(static_cast<std::size_t>(std::max(1, iwork_query)));
  std::vector<int> info(static_cast<std::size_t>(count));
  for (index_t b = 0; b < count; ++b)
    info[b] = lapacke_syevd(
        jobz, uplo, ni, a + b * n * n, lda, w + b * n, work.data(), static_cast<int>(work.size()),
        rwork.data(), static_cast<int>(rwork.size()), iwork.data(), static_cast<int>(iwork.size()));
  check_host_info(info.data(), count, eig_no_convergence, "syevd");
}

// geev through LAPACKE's _work entry points: real (wr, wi) or complex (w)
// eigenvalues; rwork (2n) for the complex routines only.
template <class T>
int lapacke_geev(char jobvr, int n, T* a, int ld, lapack_real_t<T>* wr, lapack_real_t<T>* wi, T* w,
                 T* vr, T* work, int lwork, lapack_real_t<T>* rwork) {
  if constexpr (std::is_same_v<T, float>)
    return LAPACKE_sgeev_work(LAPACK_COL_MAJOR, 'N', jobvr, n, a, ld, wr, wi, nullptr, 1, vr, ld,
                              work, lwork);
  else if constexpr (std::is_same_v<T, double>)
    return LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'N', jobvr, n, a, ld, wr, wi, nullptr, 1, vr, ld,
                              work, lwork);
  else {
    using L = std::complex<lapack_real_t<T>>;
    auto* la = reinterpret_cast<L*>(a);
    auto* lw = reinterpret_cast<L*>(w);
    auto* lv = reinterpret_cast<L*>(vr);
    auto* lk = reinterpret_cast<L*>(work);
    if constexpr (std::is_same_v<T, complex64>)
      return LAPACKE_cgeev_work(LAPACK_COL_MAJOR, 'N', jobvr, n, la, ld, lw, nullptr, 1, lv, ld, lk,
                                lwork, rwork);
    else
      return LAPACKE_zgeev_work(LAPACK_COL_MAJOR, 'N', jobvr, n, la, ld, lw, nullptr, 1, lv, ld, lk,
                                lwork, rwork);
  }
}

// geev (right eigenvectors only) of `count` n x n column-major matrices;
// eigenvalues in w, eigenvectors (when v is not null) as complex
// column-major matrices in v.
template <class T>
void host_geev(index_t count, index_t n, T* a, eig_complex_t<T>* w, eig_complex_t<T>* v) {
  using C = eig_complex_t<T>;
  using Re = lapack_real_t<T>;
  constexpr bool real = !is_complex_type_v<T>;
  const int ni = lapack_int_size(n, "eig"), ld = std::max(1, ni);
  const char jobvr = v ? 'V' : 'N';
  const std::size_t nn = static_cast<std::size_t>(n);
  // Real routines: eigenvalues as (wr, wi), vectors packed in vr.
  std::vector<Re> wr(real ? nn : 0), wi(real ? nn : 0), rwork(real ? 0 : 2 * nn);
  std::vector<T> vr(real && v ? nn * nn : 0);
  const auto call = [&](T* pa, C* pw, C* pv, T* work, int lwork) {
    if constexpr (real)
      return lapacke_geev(jobvr, ni, pa, ld, wr.data(), wi.data(), static_cast<T*>(nullptr),
                          v ? vr.data() : nullptr, work, lwork, nullptr);
    else
      return lapacke_geev(jobvr, ni, pa, ld, nullptr, nullptr, pw, pv, work, lwork, rwork.data());
  };
  T query{};
  int status = call(a, w, v, &query, -1);
  throw_on_info(&status, 1, eig_no_convergence, "geev");
  std::vector<T> work(static_cast<std::size_t>(lapack_work_size(query)));
  std::vector<int> info(static_cast<std::size_t>(count));
  for (index_t b = 0; b < count; ++b) {
    C* pw = w + b * n;
    C* pv = v ? v + b * n * n : nullptr;
    info[b] = call(a + b * n * n, pw, pv, work.data(), static_cast<int>(work.size()));
    if constexpr (real) {
      for (index_t j = 0; j < n; ++j) pw[j] = C(wr[j], wi[j]);
      if (v)
        for (index_t j = 0; j < n; ++j)
          for (index_t r = 0; r < n; ++r)
            pv[r + j * n] = unpack_geev_vector(vr.data(), pw, n, r, j);
    }
  }
  check_host_info(info.data(), count, eig_no_convergence, "geev");
}

#endif  // CUPP_HAVE_HOST_BLAS

#if defined(__CUDACC__)

// Stacks of matrices up to this order go through cusolverDnXsyevBatched:
// one launch for the stack, LAPACK's syev accuracy (a direct method, no
// Jacobi tolerance to choose) and eigenvalues ascending as NumPy's.
inline constexpr index_t eigh_batched_max_order = 32;

// syevd/heevd on the device: count matrices, info per matrix.
template <class T>
void device_eigh(index_t count, index_t n, T* a, lapack_real_t<T>* w, bool vectors, char uplo,
                 int* info, int device) {
  cusolverDnHandle_t h = cuda::solver_handle(device);
  cusolverDnParams_t params = cuda::solver_params(device);
  constexpr cudaDataType_t type = cuda_data_type_v<T>;
  constexpr cudaDataType_t real_type = cuda_data_type_v<lapack_real_t<T>>;
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t fill = uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  const int64_t lda = std::max<index_t>(1, n);
  std::size_t device_bytes = 0, host_bytes = 0;
  if (count > 1 && n <= eigh_batched_max_order) {
    cuda::check(cusolverDnXsyevBatched_bufferSize(h, params, jobz, fill, n, type, a, lda, real_type,
                                                  w, type, &device_bytes, &host_bytes, count),
                "cusolverDnXsyevBatched_bufferSize");
    cuda::solver_workspace ws(device_bytes, host_bytes);
    cuda::check(cusolverDnXsyevBatched(h, params, jobz, fill, n, type, a, lda, real_type, w, type,
                                       ws.device_ptr(), device_bytes, ws.host_ptr(), host_bytes,
                                       info, count),
                "cusolverDnXsyevBatched");
    return;
  }
  cuda::check(cusolverDnXsyevd_bufferSize(h, params, jobz, fill, n, type, a, lda, real_type, w,
                                          type, &device_bytes, &host_bytes),
              "cusolverDnXsyevd_bufferSize");
  cuda::solver_workspace ws(device_bytes, host_bytes);
  for (index_t b = 0; b < count; ++b)
    cuda::check(
        cusolverDnXsyevd(h, params, jobz, fill, n, type, a + b * n * n, lda, real_type, w + b * n,
                         type, ws.device_ptr(), device_bytes, ws.host_ptr(), host_bytes, info + b),
        "cusolverDnXsyevd");
}

// geev on the device, one matrix at a time (cuSOLVER has no batched
// geev): w complex; vr (may be null) of type T, LAPACK's packing for a
// real T.
template <class T>
void device_geev(index_t count, index_t n, T* a, eig_complex_t<T>* w, T* vr, int* info,
                 int device) {
  cusolverDnHandle_t h = cuda::solver_handle(device);
  cusolverDnParams_t params = cuda::solver_params(device);
  constexpr cudaDataType_t type = cuda_data_type_v<T>;
  constexpr cudaDataType_t complex_type = cuda_data_type_v<eig_complex_t<T>>;
  const cusolverEigMode_t jobvr = vr ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int64_t ld = std::max<index_t>(1, n);
  std::size_t device_bytes = 0, host_bytes = 0;
  cuda::check(cusolverDnXgeev_bufferSize(h, params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, type, a,
                                         ld, complex_type, w, type, nullptr, ld, type, vr, ld, type,
                                         &device_bytes, &host_bytes),
              "cusolverDnXgeev_bufferSize");
  cuda::solver_workspace ws(device_bytes, host_bytes);
  for (index_t b = 0; b < count; ++b)
    cuda::check(cusolverDnXgeev(h, params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, type,
                                a + b * n * n, ld, complex_type, w + b * n, type, nullptr, ld, type,
                                vr ? vr + b * n * n : nullptr, ld, type, ws.device_ptr(),
                                device_bytes, ws.host_ptr(), host_bytes, info + b),
                "cusolverDnXgeev");
}

template <class Re, class C>
__global__ void unpack_geev_kernel(const Re* vr, const C* w, C* v, index_t n, index_t total) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const index_t b = i / (n * n), rest = i % (n * n);
    v[i] = unpack_geev_vector(vr + b * n * n, w + b * n, n, rest % n, rest / n);
  }
}

// The complex eigenvectors of real geevs, count matrices.
template <class Re, class C>
void device_unpack_geev(index_t count, index_t n, const Re* vr, const C* w, C* v, int device) {
  const index_t total = count * n * n;
  const unsigned blocks = static_cast<unsigned>(std::clamp<index_t>((total + 255) / 256, 1, 65535));
  unpack_geev_kernel<Re, C>
      <<<blocks, 256, 0, cuda::detail::current_stream_impl(device)->handle>>>(vr, w, v, n, total);
  cuda::check_last_launch("eig unpack kernel");
}

#endif  // __CUDACC__

}  // namespace cupp::detail
