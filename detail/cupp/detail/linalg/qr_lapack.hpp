// The vendor calls behind numpy.linalg.qr: Householder QR (geqrf) of
// column-major matrices and the forming of Q from its reflectors (orgqr /
// ungqr). Device: cusolverDnXgeqrf and cusolverDn<t>orgqr/ungqr per matrix,
// and for stacks of small matrices cublas<t>geqrfBatched with Q formed by a
// kernel of cupp's own (cuBLAS has no batched orgqr). Host: LAPACKE.
#pragma once

#include <algorithm>
#include <climits>
#include <string>
#include <type_traits>
#include <vector>

#include <cupp/detail/linalg/lapack_common.hpp>

#if defined(__CUDACC__)
#include <cupp/cuda/blas.hpp>
#endif

namespace cupp::detail {

// LAPACK's routines take int sizes.
inline int lapack_int_size(index_t n, const char* what) {
  if (n > INT_MAX)
    throw value_error(std::string(what) + ": a matrix axis of more than " +
                      std::to_string(INT_MAX) + " elements is more than LAPACK takes");
  return static_cast<int>(n);
}

// The geometry of one QR: an m x n matrix, k = min(m, n) reflectors, and
// the q_cols columns of Q the mode asks for (k, or m for mode "complete").
struct qr_geometry {
  index_t m, n, k, q_cols;
};

#if CUPP_HAVE_HOST_BLAS

// The optimal workspace size a LAPACK query (lwork = -1) leaves in work[0].
template <class T>
int lapack_work_size(const T& w) {
  if constexpr (is_complex_type_v<T>)
    return std::max(1, static_cast<int>(w.real()));
  else
    return std::max(1, static_cast<int>(w));
}

// LAPACKE's _work entry points throughout: the plain ones reject NaN
// inputs (an argument error), where NumPy lets LAPACK run and returns NaN.
template <class T>
int lapacke_geqrf(int m, int n, T* a, int lda, T* tau, T* work, int lwork) {
  if constexpr (std::is_same_v<T, float>)
    return LAPACKE_sgeqrf_work(LAPACK_COL_MAJOR, m, n, a, lda, tau, work, lwork);
  else if constexpr (std::is_same_v<T, double>)
    return LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, m, n, a, lda, tau, work, lwork);
  else {
    using L = std::complex<lapack_real_t<T>>;
    auto* la = reinterpret_cast<L*>(a);
    auto* lt = reinterpret_cast<L*>(tau);
    auto* lw = reinterpret_cast<L*>(work);
    if constexpr (std::is_same_v<T, complex64>)
      return LAPACKE_cgeqrf_work(LAPACK_COL_MAJOR, m, n, la, lda, lt, lw, lwork);
    else
      return LAPACKE_zgeqrf_work(LAPACK_COL_MAJOR, m, n, la, lda, lt, lw, lwork);
  }
}

template <class T>
int lapacke_orgqr(int m, int n, int k, T* a, int lda, const T* tau, T* work, int lwork) {
  if constexpr (std::is_same_v<T, float>)
    return LAPACKE_sorgqr_work(LAPACK_COL_MAJOR, m, n, k, a, lda, tau, work, lwork);
  else if constexpr (std::is_same_v<T, double>)
    return LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, m, n, k, a, lda, tau, work, lwork);
  else {
    using L = std::complex<lapack_real_t<T>>;
    auto* la = reinterpret_cast<L*>(a);
    auto* lt = reinterpret_cast<const L*>(tau);
    auto* lw = reinterpret_cast<L*>(work);
    if constexpr (std::is_same_v<T, complex64>)
      return LAPACKE_cungqr_work(LAPACK_COL_MAJOR, m, n, k, la, lda, lt, lw, lwork);
    else
      return LAPACKE_zungqr_work(LAPACK_COL_MAJOR, m, n, k, la, lda, lt, lw, lwork);
  }
}

// geqrf of `count` column-major m x n matrices (leading dimension m) one
// after another in `a`, their k reflector scalars in `tau`.
template <class T>
void host_geqrf(const qr_geometry& g, index_t count, T* a, T* tau) {
  const int m = lapack_int_size(g.m, "qr"), n = lapack_int_size(g.n, "qr"), lda = std::max(1, m);
  T query{};
  int info = lapacke_geqrf(m, n, a, lda, tau, &query, -1);
  std::vector<T> work(static_cast<std::size_t>(lapack_work_size(query)));
  const int lwork = static_cast<int>(work.size());
  for (index_t b = 0; b < count && info == 0; ++b)
    info = lapacke_geqrf(m, n, a + b * g.m * g.n, lda, tau + b * g.k, work.data(), lwork);
  throw_on_info(&info, 1, "Incorrect argument found while performing QR factorization", "geqrf");
}

// orgqr/ungqr: Q (m x q_cols, leading dimension m) from the first k
// reflectors stored in its own columns, for `count` matrices spaced by
// `q_stride` elements.
template <class T>
void host_orgqr(const qr_geometry& g, index_t count, T* q, index_t q_stride, const T* tau) {
  const int m = lapack_int_size(g.m, "qr"), c = lapack_int_size(g.q_cols, "qr"),
            k = static_cast<int>(g.k), lda = std::max(1, m);
  T query{};
  int info = lapacke_orgqr(m, c, k, q, lda, tau, &query, -1);
  std::vector<T> work(static_cast<std::size_t>(lapack_work_size(query)));
  const int lwork = static_cast<int>(work.size());
  for (index_t b = 0; b < count && info == 0; ++b)
    info = lapacke_orgqr(m, c, k, q + b * q_stride, lda, tau + b * g.k, work.data(), lwork);
  throw_on_info(&info, 1, "Incorrect argument found while performing QR factorization", "orgqr");
}

#endif  // CUPP_HAVE_HOST_BLAS

// Matrices up to this many rows go through cuBLAS's batched QR when a
// stack holds more than one: one launch instead of a cuSOLVER call (and a
// workspace query) per matrix, which is what small matrices cost. (Outside
// the device section: the planning code names it in every compiler.)
inline constexpr index_t qr_batched_max_rows = 128;

#if defined(__CUDACC__)

// One geqrf of an m x n column-major matrix, info at `info`.
template <class T>
void device_geqrf(const qr_geometry& g, T* a, T* tau, int* info, int device) {
  cusolverDnHandle_t h = cuda::solver_handle(device);
  cusolverDnParams_t params = cuda::solver_params(device);
  constexpr cudaDataType_t type = cuda_data_type_v<T>;
  const int64_t lda = std::max<index_t>(1, g.m);
  std::size_t device_bytes = 0, host_bytes = 0;
  cuda::check(cusolverDnXgeqrf_bufferSize(h, params, g.m, g.n, type, a, lda, type, tau, type,
                                          &device_bytes, &host_bytes),
              "cusolverDnXgeqrf_bufferSize");
  cuda::solver_workspace ws(device_bytes, host_bytes);
  cuda::check(cusolverDnXgeqrf(h, params, g.m, g.n, type, a, lda, type, tau, type, ws.device_ptr(),
                               device_bytes, ws.host_ptr(), host_bytes, info),
              "cusolverDnXgeqrf");
}

// One orgqr/ungqr: Q (m x q_cols, leading dimension m) in place.
template <class T>
void device_orgqr(const qr_geometry& g, T* q, const T* tau, int* info, int device) {
  cusolverDnHandle_t h = cuda::solver_handle(device);
  const int m = lapack_int_size(g.m, "qr"), c = lapack_int_size(g.q_cols, "qr"),
            k = static_cast<int>(g.k), lda = std::max(1, m);
  int lwork = 0;
  const auto run = [&](auto buffer_size, auto compute, auto* pq, auto* pt, const char* name) {
    using E = std::remove_pointer_t<decltype(pq)>;
    cuda::check(buffer_size(h, m, c, k, pq, lda, pt, &lwork), name);
    cuda::solver_workspace ws(static_cast<std::size_t>(std::max(lwork, 1)) * sizeof(E));
    cuda::check(compute(h, m, c, k, pq, lda, pt, static_cast<E*>(ws.device_ptr()), lwork, info),
                name);
  };
  if constexpr (std::is_same_v<T, float>)
    run(cusolverDnSorgqr_bufferSize, cusolverDnSorgqr, q, tau, "cusolverDnSorgqr");
  else if constexpr (std::is_same_v<T, double>)
    run(cusolverDnDorgqr_bufferSize, cusolverDnDorgqr, q, tau, "cusolverDnDorgqr");
  else if constexpr (std::is_same_v<T, complex64>)
    run(cusolverDnCungqr_bufferSize, cusolverDnCungqr, reinterpret_cast<cuComplex*>(q),
        reinterpret_cast<const cuComplex*>(tau), "cusolverDnCungqr");
  else
    run(cusolverDnZungqr_bufferSize, cusolverDnZungqr, reinterpret_cast<cuDoubleComplex*>(q),
        reinterpret_cast<const cuDoubleComplex*>(tau), "cusolverDnZungqr");
}

// The pointer arrays of cuBLAS's batched calls: base + i * stride.
template <class T>
__global__ void strided_pointers_kernel(T** out, T* base, index_t stride, index_t count) {
  for (index_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    out[i] = base + i * stride;
}

template <class T>
T** device_pointer_array(cuda::memory_ptr& holder, T* base, index_t stride, index_t count,
                         cudaStream_t stream) {
  holder = cuda::alloc(static_cast<std::size_t>(count) * sizeof(T*));
  T** out = static_cast<T**>(holder.get());
  const unsigned blocks = static_cast<unsigned>(std::clamp<index_t>((count + 255) / 256, 1, 65535));
  strided_pointers_kernel<T><<<blocks, 256, 0, stream>>>(out, base, stride, count);
  cuda::check_last_launch("qr pointer arrays");
  return out;
}

template <class T>
__device__ inline T conj_of(const T& x) {
  if constexpr (is_complex_type_v<T>)
    return ::cuda::std::conj(x);
  else
    return x;
}

// Q = H(0) H(1) ... H(k-1) applied to the first q_cols columns of the
// identity, H(j) = I - tau_j v_j v_j^H with v_j's tail below the diagonal
// of column j of the factored matrix: one block per matrix, one thread per
// column of Q, the reflectors applied last to first (each touches rows j
// and below only).
template <class T>
__global__ void form_q_kernel(const T* factored, const T* tau, T* q, qr_geometry g, index_t count) {
  for (index_t b = blockIdx.x; b < count; b += gridDim.x) {
    const T* h = factored + b * g.m * g.n;
    const T* t = tau + b * g.k;
    T* qb = q + b * g.m * g.q_cols;
    for (index_t c = threadIdx.x; c < g.q_cols; c += blockDim.x) {
      T* col = qb + c * g.m;
      for (index_t r = 0; r < g.m; ++r) col[r] = r == c ? T(1) : T(0);
      for (index_t j = g.k - 1; j >= 0; --j) {
        T w = col[j];
        for (index_t r = j + 1; r < g.m; ++r) w += conj_of(h[r + j * g.m]) * col[r];
        w *= t[j];
        col[j] -= w;
        for (index_t r = j + 1; r < g.m; ++r) col[r] -= h[r + j * g.m] * w;
      }
    }
  }
}

// cublas<t>geqrfBatched over `count` m x n matrices spaced m * n apart.
template <class T>
void device_geqrf_batched(const qr_geometry& g, index_t count, T* a, T* tau, int device) {
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  cuda::memory_ptr a_ptrs, tau_ptrs;
  T** ap = device_pointer_array(a_ptrs, a, g.m * g.n, count, stream);
  T** tp = device_pointer_array(tau_ptrs, tau, g.k, count, stream);
  cublasHandle_t h = cuda::blas_handle(device);
  const int m = lapack_int_size(g.m, "qr"), n = lapack_int_size(g.n, "qr"),
            batch = lapack_int_size(count, "qr");
  int info = 0;  // argument errors only, on the host
  if constexpr (std::is_same_v<T, float>)
    cuda::check(cublasSgeqrfBatched(h, m, n, ap, m, tp, &info, batch), "cublasSgeqrfBatched");
  else if constexpr (std::is_same_v<T, double>)
    cuda::check(cublasDgeqrfBatched(h, m, n, ap, m, tp, &info, batch), "cublasDgeqrfBatched");
  else if constexpr (std::is_same_v<T, complex64>)
    cuda::check(cublasCgeqrfBatched(h, m, n, reinterpret_cast<cuComplex**>(ap), m,
                                    reinterpret_cast<cuComplex**>(tp), &info, batch),
                "cublasCgeqrfBatched");
  else
    cuda::check(cublasZgeqrfBatched(h, m, n, reinterpret_cast<cuDoubleComplex**>(ap), m,
                                    reinterpret_cast<cuDoubleComplex**>(tp), &info, batch),
                "cublasZgeqrfBatched");
  throw_on_info(&info, 1, "Incorrect argument found while performing QR factorization",
                "cublas geqrfBatched");
}

template <class T>
void device_form_q_batched(const qr_geometry& g, index_t count, const T* factored, const T* tau,
                           T* q, int device) {
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  const unsigned blocks = static_cast<unsigned>(std::clamp<index_t>(count, 1, 65535));
  const unsigned threads =
      static_cast<unsigned>(std::clamp<index_t>((g.q_cols + 31) / 32 * 32, 32, 256));
  form_q_kernel<T><<<blocks, threads, 0, stream>>>(factored, tau, q, g, count);
  cuda::check_last_launch("qr form_q kernel");
}

#endif  // __CUDACC__

}  // namespace cupp::detail
