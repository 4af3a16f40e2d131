// cuSOLVER's singular value and Hermitian eigenvalue routines for
// cupp::linalg::svd, svdvals and svd(hermitian=true) on device arrays.
//
// Every general problem reaches this file as a stack of tall matrices
// (p >= q, column-major, leading dimension p): svd.hpp transposes wide ones,
// because cusolverDnXgesvd accepts only m >= n and cusolverDnXgesvdp is
// documented and tested by NVIDIA mostly in that form. The results are
// written as the column-major factors Ux (p x ucols) and Vx (q x q, V itself,
// not its adjoint), whatever routine produced them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include <cupp/detail/linalg/lapack_common.hpp>

#if defined(__CUDACC__)
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/solver.hpp>
#include <cupp/cuda/stream.hpp>
#endif

namespace cupp::detail {

// The largest matrix side cusolverDn<t>gesvdjBatched accepts: stacks of
// matrices no larger than this go through one batched Jacobi call.
inline constexpr index_t svd_batched_limit = 32;

inline bool svd_uses_batched(index_t p, index_t q) {
  return p <= svd_batched_limit && q <= svd_batched_limit;
}

// The routine that computes singular values alone (svdvals, svd with
// compute_uv=false, norm(a, 2), cond, matrix_rank) for matrices larger than
// the batched limit. gesvdp without vectors skips the polar factor's
// eigenvectors and is expected to be the fastest with gesvd's accuracy (its
// perturbation check below still applies); gesvd('N', 'N') is the
// conservative alternative. One switch, to flip after measuring.
enum class svd_values_routine { gesvdp, gesvd };
inline constexpr svd_values_routine svd_values_choice = svd_values_routine::gesvdp;

// cusolverDnXgesvdp perturbs the matrix when the polar decomposition meets
// a singular value close to zero and reports the size of that perturbation
// in h_err_sigma; the singular values are then shifted by about that much,
// which gesvd's accuracy (and matrix_rank's threshold) cannot afford. Any
// perturbation sends the matrix to cusolverDnXgesvd instead.
inline bool gesvdp_result_accepted(double h_err_sigma) {
  return h_err_sigma == 0.0;
}

#if defined(__CUDACC__)

template <class R>
auto cusolver_pointer(R* p) {
  if constexpr (std::is_same_v<R, complex64>)
    return reinterpret_cast<cuComplex*>(p);
  else if constexpr (std::is_same_v<R, complex128>)
    return reinterpret_cast<cuDoubleComplex*>(p);
  else
    return p;
}

struct gesvdj_info_holder {
  gesvdjInfo_t info = nullptr;
  gesvdj_info_holder() {
    cuda::check(cusolverDnCreateGesvdjInfo(&info), "cusolverDnCreateGesvdjInfo");
  }
  gesvdj_info_holder(const gesvdj_info_holder&) = delete;
  gesvdj_info_holder& operator=(const gesvdj_info_holder&) = delete;
  ~gesvdj_info_holder() { (void)cusolverDnDestroyGesvdjInfo(info); }
};

template <class R>
cusolverStatus_t gesvdj_batched_size(cusolverDnHandle_t h, cusolverEigMode_t jobz, int m, int n,
                                     R* a, lapack_real_t<R>* s, R* u, R* v, int* lwork,
                                     gesvdjInfo_t info, int batch) {
  auto A = cusolver_pointer(a), U = cusolver_pointer(u), V = cusolver_pointer(v);
  if constexpr (std::is_same_v<R, float>)
    return cusolverDnSgesvdjBatched_bufferSize(h, jobz, m, n, A, m, s, U, m, V, n, lwork, info,
                                               batch);
  else if constexpr (std::is_same_v<R, double>)
    return cusolverDnDgesvdjBatched_bufferSize(h, jobz, m, n, A, m, s, U, m, V, n, lwork, info,
                                               batch);
  else if constexpr (std::is_same_v<R, complex64>)
    return cusolverDnCgesvdjBatched_bufferSize(h, jobz, m, n, A, m, s, U, m, V, n, lwork, info,
                                               batch);
  else
    return cusolverDnZgesvdjBatched_bufferSize(h, jobz, m, n, A, m, s, U, m, V, n, lwork, info,
                                               batch);
}

template <class R>
cusolverStatus_t gesvdj_batched(cusolverDnHandle_t h, cusolverEigMode_t jobz, int m, int n, R* a,
                                lapack_real_t<R>* s, R* u, R* v, R* work, int lwork, int* dev_info,
                                gesvdjInfo_t info, int batch) {
  auto A = cusolver_pointer(a), U = cusolver_pointer(u), V = cusolver_pointer(v),
       W = cusolver_pointer(work);
  if constexpr (std::is_same_v<R, float>)
    return cusolverDnSgesvdjBatched(h, jobz, m, n, A, m, s, U, m, V, n, W, lwork, dev_info, info,
                                    batch);
  else if constexpr (std::is_same_v<R, double>)
    return cusolverDnDgesvdjBatched(h, jobz, m, n, A, m, s, U, m, V, n, W, lwork, dev_info, info,
                                    batch);
  else if constexpr (std::is_same_v<R, complex64>)
    return cusolverDnCgesvdjBatched(h, jobz, m, n, A, m, s, U, m, V, n, W, lwork, dev_info, info,
                                    batch);
  else
    return cusolverDnZgesvdjBatched(h, jobz, m, n, A, m, s, U, m, V, n, W, lwork, dev_info, info,
                                    batch);
}

// dst = src^H for n x n column-major matrices: gesvd's V^H into the V that
// the other routines give.
template <class R>
__global__ void svd_adjoint_kernel(const R* src, R* dst, index_t n) {
  const index_t t = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n * n) return;
  const index_t i = t % n, j = t / n;
  if constexpr (is_complex_type_v<R>)
    dst[i + j * n] = ::cuda::std::conj(src[j + i * n]);
  else
    dst[i + j * n] = src[j + i * n];
}

// cuSOLVER reports no failure for a NaN input: its singular values come
// out NaN (or garbage) with info 0. NumPy's gesdd fails on NaN ("SVD did not
// converge"), so a NaN among a matrix's q values marks its info as not
// converged, read back with the solver's own info (no extra sync).
template <class Re>
__global__ void svd_flag_nan_kernel(const Re* s, index_t q, index_t total, int* info) {
  const index_t t = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < total && s[t] != s[t]) info[t / q] = 1;
}

template <class Re>
void flag_nan_singular_values(const Re* s, index_t q, index_t count, int* info,
                              cudaStream_t stream) {
  if (!linalg::checks_errors()) return;
  const index_t total = q * count;
  const unsigned blocks = static_cast<unsigned>((total + 255) / 256);
  svd_flag_nan_kernel<Re><<<blocks, 256, 0, stream>>>(s, q, total, info);
  cuda::check(cudaGetLastError(), "svd_flag_nan_kernel");
}

// A stack of `count` tall p x q matrices at `a` (overwritten). Writes the
// singular values (q per matrix, descending) at `s` and, when `vectors`,
// Ux at `u` (p x ucols each, ld p) and Vx at `v` (q x q each). ucols is p
// for the batched path and for `full`, q otherwise; `u` and `v` must hold
// that much even without `vectors` (the routines want valid pointers).
template <class R>
void device_svd_tall(R* a, lapack_real_t<R>* s, R* u, R* v, index_t count, index_t p, index_t q,
                     bool vectors, bool full, int device) {
  using Re = lapack_real_t<R>;
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  cuda::memory_ptr info_mem = cuda::alloc(static_cast<std::size_t>(count) * sizeof(int));
  int* info = static_cast<int*>(info_mem.get());

  if (svd_uses_batched(p, q)) {
    // One Jacobi call for the whole stack (full U and V always); its
    // tolerance at the dtype's epsilon and enough sweeps for it, singular
    // values sorted descending as LAPACK's.
    gesvdj_info_holder params;
    cuda::check(cusolverDnXgesvdjSetTolerance(params.info, std::numeric_limits<Re>::epsilon()),
                "cusolverDnXgesvdjSetTolerance");
    cuda::check(cusolverDnXgesvdjSetMaxSweeps(params.info, 100), "cusolverDnXgesvdjSetMaxSweeps");
    cuda::check(cusolverDnXgesvdjSetSortEig(params.info, 1), "cusolverDnXgesvdjSetSortEig");
    cusolverDnHandle_t h = cuda::solver_handle(device);
    int lwork = 0;
    cuda::check(gesvdj_batched_size<R>(h, jobz, static_cast<int>(p), static_cast<int>(q), a, s, u,
                                       v, &lwork, params.info, static_cast<int>(count)),
                "cusolverDn<t>gesvdjBatched_bufferSize");
    cuda::solver_workspace ws(static_cast<std::size_t>(lwork) * sizeof(R));
    cuda::check(gesvdj_batched<R>(h, jobz, static_cast<int>(p), static_cast<int>(q), a, s, u, v,
                                  static_cast<R*>(ws.device_ptr()), lwork, info, params.info,
                                  static_cast<int>(count)),
                "cusolverDn<t>gesvdjBatched");
    flag_nan_singular_values(s, q, count, info, stream);
    check_device_info(info, count, device, "SVD did not converge", "gesvdjBatched");
    return;
  }

  // Larger matrices one at a time: no batched cuSOLVER SVD is exact for them.
  // full_matrices with p > q goes to gesvd: gesvdp computes only the economy
  // factors, and completing U to p x p (a QR of [Ux | random] and an orgqr)
  // would cost a p x p factorisation on top of gesvdp, with no measured
  // gain over gesvd's own complete U; square matrices (economy == full)
  // keep gesvdp.
  const cudaDataType_t type = cuda_data_type_v<R>;
  const cudaDataType_t real_type = cuda_data_type_v<Re>;
  const bool complete_u = vectors && full && p > q;
  const bool values_by_gesvd = !vectors && svd_values_choice == svd_values_routine::gesvd;
  const index_t ucols = full ? p : q;
  const signed char jobu = !vectors ? 'N' : (complete_u ? 'A' : 'S');
  const signed char jobvt = vectors ? 'S' : 'N';
  // gesvd's V^H lands here before its adjoint goes into `v`.
  cuda::memory_ptr vh_mem = cuda::alloc(static_cast<std::size_t>(q * q) * sizeof(R));
  R* vh = static_cast<R*>(vh_mem.get());

  const auto run_gesvd = [&](index_t b, R* matrix) {
    cusolverDnHandle_t h = cuda::solver_handle(device);
    cusolverDnParams_t prm = cuda::solver_params(device);
    R* ub = u + b * p * ucols;
    std::size_t dev_bytes = 0, host_bytes = 0;
    cuda::check(cusolverDnXgesvd_bufferSize(h, prm, jobu, jobvt, p, q, type, matrix, p, real_type,
                                            s + b * q, type, ub, p, type, vh, q, type, &dev_bytes,
                                            &host_bytes),
                "cusolverDnXgesvd_bufferSize");
    cuda::solver_workspace ws(dev_bytes, host_bytes);
    cuda::check(cusolverDnXgesvd(h, prm, jobu, jobvt, p, q, type, matrix, p, real_type, s + b * q,
                                 type, ub, p, type, vh, q, type, ws.device_ptr(), dev_bytes,
                                 ws.host_ptr(), host_bytes, info + b),
                "cusolverDnXgesvd");
    if (vectors) {
      const index_t n = q * q;
      const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
      svd_adjoint_kernel<R><<<blocks, 256, 0, stream>>>(vh, v + b * q * q, q);
      cuda::check(cudaGetLastError(), "svd_adjoint_kernel");
    }
  };

  if (complete_u || values_by_gesvd) {
    for (index_t b = 0; b < count; ++b) run_gesvd(b, a + b * p * q);
  } else {
    // gesvdp overwrites its input: it works on a copy so that a rejected
    // result can be recomputed by gesvd from the original.
    cuda::memory_ptr scratch_mem = cuda::alloc(static_cast<std::size_t>(p * q) * sizeof(R));
    R* scratch = static_cast<R*>(scratch_mem.get());
    std::size_t dev_bytes = 0, host_bytes = 0;
    {
      cusolverDnHandle_t h = cuda::solver_handle(device);
      cuda::check(cusolverDnXgesvdp_bufferSize(h, cuda::solver_params(device), jobz, 1, p, q, type,
                                               scratch, p, real_type, s, type, u, p, type, v, q,
                                               type, &dev_bytes, &host_bytes),
                  "cusolverDnXgesvdp_bufferSize");
    }
    cuda::solver_workspace ws(dev_bytes, host_bytes);
    for (index_t b = 0; b < count; ++b) {
      R* matrix = a + b * p * q;
      cuda::check(cudaMemcpyAsync(scratch, matrix, static_cast<std::size_t>(p * q) * sizeof(R),
                                  cudaMemcpyDeviceToDevice, stream),
                  "cudaMemcpyAsync");
      double err_sigma = 0;
      cusolverDnHandle_t h = cuda::solver_handle(device);
      const cusolverStatus_t status = cusolverDnXgesvdp(
          h, cuda::solver_params(device), jobz, 1, p, q, type, scratch, p, real_type, s + b * q,
          type, u + b * p * ucols, p, type, v + b * q * q, q, type, ws.device_ptr(), dev_bytes,
          ws.host_ptr(), host_bytes, info + b, &err_sigma);
      if (status == CUSOLVER_STATUS_EXECUTION_FAILED) {
        // gesvdp stops so on NaN or Inf input (an H100 run, CUDA 13) where
        // LAPACK reports non-convergence: the matrix's singular values
        // become NaN (all bits set) and its info positive, as gesdd's.
        cuda::check(
            cudaMemsetAsync(s + b * q, 0xFF, static_cast<std::size_t>(q) * sizeof(*s), stream),
            "cudaMemsetAsync");
        cuda::check(cudaMemsetAsync(info + b, 0x01, sizeof(int), stream), "cudaMemsetAsync");
        continue;
      }
      cuda::check(status, "cusolverDnXgesvdp");
      if (!gesvdp_result_accepted(err_sigma)) run_gesvd(b, matrix);
    }
  }
  flag_nan_singular_values(s, q, count, info, stream);
  check_device_info(info, count, device, "SVD did not converge",
                    complete_u || values_by_gesvd ? "gesvd" : "gesvdp");
}

// Eigenvalues (ascending) and, with `vectors`, eigenvectors (over `a`,
// column-major) of a stack of n x n Hermitian matrices read from their lower
// triangle (numpy.linalg.eigh's UPLO='L'): one XsyevBatched call for stacks
// of small matrices, Xsyevd for each matrix otherwise.
template <class R>
void device_hermitian_eigen(R* a, lapack_real_t<R>* w, index_t count, index_t n, bool vectors,
                            int device) {
  using Re = lapack_real_t<R>;
  const cudaDataType_t type = cuda_data_type_v<R>;
  const cudaDataType_t real_type = cuda_data_type_v<Re>;
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t uplo = CUBLAS_FILL_MODE_LOWER;
  cuda::memory_ptr info_mem = cuda::alloc(static_cast<std::size_t>(count) * sizeof(int));
  int* info = static_cast<int*>(info_mem.get());
  cusolverDnHandle_t h = cuda::solver_handle(device);
  cusolverDnParams_t prm = cuda::solver_params(device);
  std::size_t dev_bytes = 0, host_bytes = 0;
  if (count > 1 && n <= svd_batched_limit) {
    cuda::check(cusolverDnXsyevBatched_bufferSize(h, prm, jobz, uplo, n, type, a, n, real_type, w,
                                                  type, &dev_bytes, &host_bytes, count),
                "cusolverDnXsyevBatched_bufferSize");
    cuda::solver_workspace ws(dev_bytes, host_bytes);
    cuda::check(
        cusolverDnXsyevBatched(h, prm, jobz, uplo, n, type, a, n, real_type, w, type,
                               ws.device_ptr(), dev_bytes, ws.host_ptr(), host_bytes, info, count),
        "cusolverDnXsyevBatched");
    check_device_info(info, count, device, "Eigenvalues did not converge", "XsyevBatched");
    return;
  }
  cuda::check(cusolverDnXsyevd_bufferSize(h, prm, jobz, uplo, n, type, a, n, real_type, w, type,
                                          &dev_bytes, &host_bytes),
              "cusolverDnXsyevd_bufferSize");
  cuda::solver_workspace ws(dev_bytes, host_bytes);
  for (index_t b = 0; b < count; ++b) {
    h = cuda::solver_handle(device);
    cuda::check(
        cusolverDnXsyevd(h, prm, jobz, uplo, n, type, a + b * n * n, n, real_type, w + b * n, type,
                         ws.device_ptr(), dev_bytes, ws.host_ptr(), host_bytes, info + b),
        "cusolverDnXsyevd");
  }
  check_device_info(info, count, device, "Eigenvalues did not converge", "Xsyevd");
}

#endif  // __CUDACC__

}  // namespace cupp::detail
