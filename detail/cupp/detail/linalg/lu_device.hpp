// LU and Cholesky factorisations of device matrices larger than the
// register kernels take: cuSOLVER's 64-bit API (cusolverDnXgetrf, Xgetrs,
// Xpotrf) for single matrices and stacks of large ones (a loop over the
// stack), cuBLAS's batched getrf/getrs/getri and cuSOLVER's potrfBatched
// for stacks of matrices up to batched_max_order, with their pointer arrays
// built on the device; determinants reduced from the LU factors on the
// device.
//
// Every routine works on a C-order copy of the stack (count, n, n), which
// column-major LAPACK reads as the transposes: the LU factors of A^T give
// det(A), solve with op T gives A x = b, and the inverse of A^T in column
// major is the inverse of A in row major (no transposition anywhere).
// Cholesky instead copies each matrix into column-major storage (or, for
// the upper factor, C order) so that potrf always takes the lower triangle.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include <cuda/std/limits>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/solve_plan.hpp>
#include <cupp/dtype.hpp>

#if defined(__CUDACC__)
#include <cublas_v2.h>

#include <cupp/cuda/blas.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/solver.hpp>
#include <cupp/cuda/stream.hpp>
#endif

namespace cupp::detail {

// Stacks of matrices up to this order go through the batched routines;
// beyond it one cuSOLVER call per matrix keeps the GPU busy by itself.
inline constexpr index_t batched_max_order = 128;

#if defined(__CUDACC__)

inline unsigned grid_for(index_t n, unsigned threads) {
  return static_cast<unsigned>(std::clamp<index_t>((n + threads - 1) / threads, 1, 1 << 20));
}

template <class T>
__global__ void pointer_array_kernel(T** out, T* base, index_t stride, index_t count) {
  for (index_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    out[i] = base + i * stride;
}

// `count` pointers base, base + stride, ... in pooled device memory.
template <class T>
cuda::memory_ptr device_pointer_array(T* base, index_t stride, index_t count, cudaStream_t stream) {
  cuda::memory_ptr p = cuda::alloc(static_cast<std::size_t>(count) * sizeof(T*));
  pointer_array_kernel<T>
      <<<grid_for(count, 256), 256, 0, stream>>>(static_cast<T**>(p.get()), base, stride, count);
  cuda::check_last_launch("cupp::linalg pointer array");
  return p;
}

template <class T>
__global__ void identity_kernel(T* x, index_t n, index_t total) {
  for (index_t e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += gridDim.x * blockDim.x) {
    const index_t r = e % (n * n);
    x[e] = T(r / n == r % n ? 1 : 0);
  }
}

// Cholesky's operand: out[m][r][s] = src(m, r, s) for s >= r, else 0, a
// C-order (count, n, n) stack read by LAPACK as column-major matrices whose
// lower triangle holds src's upper one. Zeroing here, in the copy, spares
// a pass after potrf, which leaves the other triangle as it found it.
// src(m, r, s) = a[offset of m + r rs + s ss].
template <class T>
__global__ void triangle_copy_kernel(const T* __restrict__ a, T* __restrict__ out, index_t n,
                                     index_t total, stack_walk w, index_t rs, index_t ss) {
  const index_t nn = n * n;
  for (index_t e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += gridDim.x * blockDim.x) {
    const index_t m = e / nn, q = e - m * nn, r = q / n, s = q - r * n;
    T v(0);
    if (s >= r) {
      index_t off[3];
      stack_offsets(w, m, off);
      v = a[off[0] + r * rs + s * ss];
    }
    out[e] = v;
  }
}

inline constexpr int triangle_tile = 32, triangle_rows = 8;

// triangle_copy_kernel for n >= 32: one tile of one matrix per block,
// through shared memory, so that both the reads (x along whichever of r
// and s is `s_fast`, the operand's smaller stride) and the writes are
// coalesced, whether the copy transposes or not. Tiles wholly below the
// diagonal read nothing.
template <class T>
__global__ void __launch_bounds__(triangle_tile* triangle_rows)
    triangle_copy_tiled_kernel(const T* __restrict__ a, T* __restrict__ out, index_t n,
                               index_t count, stack_walk w, index_t rs, index_t ss, bool s_fast) {
  constexpr int pitch = triangle_tile + 1;  // odd: no bank conflicts down a column
  __shared__ __align__(16) unsigned char raw[triangle_tile * pitch * sizeof(T)];
  T* tile = reinterpret_cast<T*>(raw);
  const index_t r0 = static_cast<index_t>(blockIdx.y) * triangle_tile,
                s0 = static_cast<index_t>(blockIdx.x) * triangle_tile;
  const bool below = s0 + triangle_tile - 1 < r0;  // block-uniform
  for (index_t m = blockIdx.z; m < count; m += gridDim.z) {
    if (!below) {
      index_t off[3];
      stack_offsets(w, m, off);
      const T* src = a + off[0];
      for (int y = threadIdx.y; y < triangle_tile; y += triangle_rows) {
        const int lr = s_fast ? y : threadIdx.x, ls = s_fast ? threadIdx.x : y;
        const index_t r = r0 + lr, s = s0 + ls;
        if (r < n && s < n && s >= r) tile[lr * pitch + ls] = src[r * rs + s * ss];
      }
      __syncthreads();
    }
    T* o = out + m * n * n;
    for (int y = threadIdx.y; y < triangle_tile; y += triangle_rows) {
      const index_t r = r0 + y, s = s0 + threadIdx.x;
      if (r < n && s < n) o[r * n + s] = !below && s >= r ? tile[y * pitch + threadIdx.x] : T(0);
    }
    __syncthreads();  // the tile is read before the next matrix overwrites it
  }
}

// Fills the C-order stack `out` with cholesky's operand (see
// triangle_copy_kernel) from the `w`-walked stack at a.
template <class T>
void device_triangle_copy(const T* a, T* out, index_t n, index_t count, const stack_walk& w,
                          index_t rs, index_t ss, cudaStream_t stream) {
  if (n >= triangle_tile) {
    const auto tiles = static_cast<unsigned>((n + triangle_tile - 1) / triangle_tile);
    const dim3 grid(tiles, tiles, static_cast<unsigned>(std::min<index_t>(count, 65535)));
    const bool s_fast = (ss < 0 ? -ss : ss) <= (rs < 0 ? -rs : rs);
    triangle_copy_tiled_kernel<T><<<grid, dim3(triangle_tile, triangle_rows), 0, stream>>>(
        a, out, n, count, w, rs, ss, s_fast);
  } else {
    const index_t total = count * n * n;
    triangle_copy_kernel<T><<<grid_for(total, 256), 256, 0, stream>>>(a, out, n, total, w, rs, ss);
  }
  cuda::check_last_launch("cupp::linalg cholesky operand");
}

template <class T>
__global__ void fill_kernel(T* x, index_t total, T value) {
  for (index_t e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += gridDim.x * blockDim.x)
    x[e] = value;
}

template <class T>
void device_fill(T* x, index_t total, T value, cudaStream_t stream) {
  if (total == 0) return;
  fill_kernel<T><<<grid_for(total, 256), 256, 0, stream>>>(x, total, value);
  cuda::check_last_launch("cupp::linalg fill");
}

template <class T>
__device__ inline T shuffle_xor(const T& v, int lane_mask) {
  if constexpr (is_complex_type_v<T>)
    return T(__shfl_xor_sync(0xffffffffu, v.real(), lane_mask),
             __shfl_xor_sync(0xffffffffu, v.imag(), lane_mask));
  else
    return __shfl_xor_sync(0xffffffffu, v, lane_mask);
}

// NumPy's slogdet from LU factors: one warp per matrix. piv holds LAPACK's
// 1-based pivots (int or int64); a zero on the diagonal (getrf's info > 0)
// gives sign 0 and logabsdet -inf. With logabs null, det = sign *
// exp(logabsdet) goes to sign.
template <class T, class P>
__global__ void lu_slogdet_kernel(const T* lu, const P* piv, index_t n, index_t count, T* sign,
                                  lapack_real_t<T>* logabs) {
  using Re = lapack_real_t<T>;
  const int lane = threadIdx.x % 32;
  const index_t warps = static_cast<index_t>(gridDim.x) * (blockDim.x / 32);
  for (index_t m = (static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; m < count;
       m += warps) {
    T s(1);
    Re l = 0;
    int flips = 0, zero = 0;
    for (index_t i = lane; i < n; i += 32) {
      const T d = lu[m * n * n + i * (n + 1)];
      Re ad;
      if constexpr (is_complex_type_v<T>)
        ad = ::cuda::std::abs(d);
      else
        ad = d < T(0) ? -d : d;
      if (ad == Re(0)) {
        zero = 1;
      } else {
        s = s * (d / ad);
        l += std::is_same_v<Re, float> ? ::logf(static_cast<float>(ad)) : ::log(ad);
      }
      flips ^= piv[m * n + i] != static_cast<P>(i + 1) ? 1 : 0;
    }
    for (int o = 16; o > 0; o /= 2) {
      s = s * shuffle_xor(s, o);
      l += __shfl_xor_sync(0xffffffffu, l, o);
      flips ^= __shfl_xor_sync(0xffffffffu, flips, o);
      zero |= __shfl_xor_sync(0xffffffffu, zero, o);
    }
    if (lane == 0) {
      if (flips) s = -s;
      if (zero) {
        s = T(0);
        l = -::cuda::std::numeric_limits<Re>::infinity();
      }
      if (logabs) {
        sign[m] = s;
        logabs[m] = l;
      } else {
        sign[m] = s * T(std::is_same_v<Re, float> ? ::expf(static_cast<float>(l)) : ::exp(l));
      }
    }
  }
}

// cuBLAS's and cuSOLVER's batched routines by type.
template <class T>
using cublas_value_t =
    std::conditional_t<std::is_same_v<T, complex64>, cuComplex,
                       std::conditional_t<std::is_same_v<T, complex128>, cuDoubleComplex, T>>;

#define CUPP_LINALG_BY_TYPE(T, S, D, C, Z, ...)      \
  [&] {                                              \
    if constexpr (std::is_same_v<T, float>)          \
      return S(__VA_ARGS__);                         \
    else if constexpr (std::is_same_v<T, double>)    \
      return D(__VA_ARGS__);                         \
    else if constexpr (std::is_same_v<T, complex64>) \
      return C(__VA_ARGS__);                         \
    else                                             \
      return Z(__VA_ARGS__);                         \
  }()

// LU factors of `count` C-order n x n matrices at `a`, in place. The
// pivots and the per-matrix info stay on the device.
struct device_lu_factors {
  bool batched = false;  // cuBLAS's int pivots, else cuSOLVER's int64 ones
  cuda::memory_ptr pivots, info;
};

template <class T>
device_lu_factors device_getrf(T* a, index_t n, index_t count, int device) {
  using V = cublas_value_t<T>;
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  device_lu_factors f;
  f.batched = count > 1 && n <= batched_max_order;
  f.info = cuda::alloc(static_cast<std::size_t>(count) * sizeof(int));
  int* info = static_cast<int*>(f.info.get());
  if (f.batched) {
    f.pivots = cuda::alloc(static_cast<std::size_t>(count * n) * sizeof(int));
    cuda::memory_ptr ptrs = device_pointer_array(reinterpret_cast<V*>(a), n * n, count, stream);
    cublasHandle_t h = cuda::blas_handle(device);
    const int ni = static_cast<int>(n), b = static_cast<int>(count);
    V** pa = static_cast<V**>(ptrs.get());
    int* piv = static_cast<int*>(f.pivots.get());
    cuda::check(
        CUPP_LINALG_BY_TYPE(T, cublasSgetrfBatched, cublasDgetrfBatched, cublasCgetrfBatched,
                            cublasZgetrfBatched, h, ni, pa, ni, piv, info, b),
        "cublas<t>getrfBatched");
    return f;
  }
  f.pivots = cuda::alloc(static_cast<std::size_t>(count * n) * sizeof(std::int64_t));
  auto* piv = static_cast<std::int64_t*>(f.pivots.get());
  cusolverDnHandle_t h = cuda::solver_handle(device);
  cusolverDnParams_t params = cuda::solver_params(device);
  constexpr cudaDataType_t type = cuda_data_type_v<T>;
  std::size_t device_bytes = 0, host_bytes = 0;
  cuda::check(
      cusolverDnXgetrf_bufferSize(h, params, n, n, type, a, n, type, &device_bytes, &host_bytes),
      "cusolverDnXgetrf_bufferSize");
  cuda::solver_workspace ws(device_bytes, host_bytes);
  for (index_t m = 0; m < count; ++m)
    cuda::check(
        cusolverDnXgetrf(h, params, n, n, type, a + m * n * n, n, piv + m * n, type,
                         ws.device_ptr(), device_bytes, ws.host_ptr(), host_bytes, info + m),
        "cusolverDnXgetrf");
  return f;
}

// x := A^-1 b for the factors of `a_count` matrices (1: one matrix for
// every right-hand side, else one each) and `count` column-major n x k
// right-hand sides at b.
template <class T>
void device_getrs(const T* a, const device_lu_factors& f, index_t a_count, T* b, index_t n,
                  index_t k, index_t count, int device) {
  using V = cublas_value_t<T>;
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  if (f.batched) {
    cuda::memory_ptr pa =
        device_pointer_array(reinterpret_cast<V*>(const_cast<T*>(a)), n * n, count, stream);
    cuda::memory_ptr pb = device_pointer_array(reinterpret_cast<V*>(b), n * k, count, stream);
    cublasHandle_t h = cuda::blas_handle(device);
    const int ni = static_cast<int>(n), ki = static_cast<int>(k), bc = static_cast<int>(count);
    int host_info = 0;
    cuda::check(CUPP_LINALG_BY_TYPE(T, cublasSgetrsBatched, cublasDgetrsBatched,
                                    cublasCgetrsBatched, cublasZgetrsBatched, h, CUBLAS_OP_T, ni,
                                    ki, static_cast<V* const*>(pa.get()), ni,
                                    static_cast<const int*>(f.pivots.get()),
                                    static_cast<V* const*>(pb.get()), ni, &host_info, bc),
                "cublas<t>getrsBatched");
    throw_on_info(&host_info, 1, "", "cublas<t>getrsBatched");
    return;
  }
  cusolverDnHandle_t h = cuda::solver_handle(device);
  cusolverDnParams_t params = cuda::solver_params(device);
  constexpr cudaDataType_t type = cuda_data_type_v<T>;
  cuda::memory_ptr info = cuda::alloc(sizeof(int));
  const auto* piv = static_cast<const std::int64_t*>(f.pivots.get());
  // One matrix: every right-hand side in one call (the stack of n x k
  // column-major blocks is one n x (count k) column-major matrix).
  const index_t calls = a_count == 1 ? 1 : count, nrhs = a_count == 1 ? count * k : k;
  for (index_t m = 0; m < calls; ++m)
    cuda::check(
        cusolverDnXgetrs(h, params, CUBLAS_OP_T, n, nrhs, type, a + m * n * n, n, piv + m * n, type,
                         b + m * n * k, n, static_cast<int*>(info.get())),
        "cusolverDnXgetrs");
}

// The inverses of the factored matrices into the C-order stack x.
template <class T>
void device_getri(const T* a, const device_lu_factors& f, T* x, index_t n, index_t count,
                  int device) {
  using V = cublas_value_t<T>;
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  if (f.batched) {
    cuda::memory_ptr pa =
        device_pointer_array(reinterpret_cast<V*>(const_cast<T*>(a)), n * n, count, stream);
    cuda::memory_ptr px = device_pointer_array(reinterpret_cast<V*>(x), n * n, count, stream);
    cuda::memory_ptr info = cuda::alloc(static_cast<std::size_t>(count) * sizeof(int));
    cublasHandle_t h = cuda::blas_handle(device);
    const int ni = static_cast<int>(n), bc = static_cast<int>(count);
    cuda::check(
        CUPP_LINALG_BY_TYPE(
            T, cublasSgetriBatched, cublasDgetriBatched, cublasCgetriBatched, cublasZgetriBatched,
            h, ni, static_cast<V* const*>(pa.get()), ni, static_cast<const int*>(f.pivots.get()),
            static_cast<V* const*>(px.get()), ni, static_cast<int*>(info.get()), bc),
        "cublas<t>getriBatched");
    return;
  }
  // getrs against the identity: A^T's factors with op N solve A^T Y = I,
  // and Y (column major) is inv(A) in row major.
  identity_kernel<T><<<grid_for(count * n * n, 256), 256, 0, stream>>>(x, n, count * n * n);
  cuda::check_last_launch("cupp::linalg identity");
  cusolverDnHandle_t h = cuda::solver_handle(device);
  cusolverDnParams_t params = cuda::solver_params(device);
  constexpr cudaDataType_t type = cuda_data_type_v<T>;
  cuda::memory_ptr info = cuda::alloc(sizeof(int));
  const auto* piv = static_cast<const std::int64_t*>(f.pivots.get());
  for (index_t m = 0; m < count; ++m)
    cuda::check(cusolverDnXgetrs(h, params, CUBLAS_OP_N, n, n, type, a + m * n * n, n, piv + m * n,
                                 type, x + m * n * n, n, static_cast<int*>(info.get())),
                "cusolverDnXgetrs");
}

// sign and logabsdet (or det into sign, logabs null) of the factored
// matrices, C-order stacks of `count`.
template <class T>
void device_lu_slogdet(const T* a, const device_lu_factors& f, index_t n, index_t count, T* sign,
                       lapack_real_t<T>* logabs, int device) {
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  const unsigned threads = 128, blocks = grid_for(count * 32, threads);
  if (f.batched)
    lu_slogdet_kernel<T, int><<<blocks, threads, 0, stream>>>(
        a, static_cast<const int*>(f.pivots.get()), n, count, sign, logabs);
  else
    lu_slogdet_kernel<T, std::int64_t><<<blocks, threads, 0, stream>>>(
        a, static_cast<const std::int64_t*>(f.pivots.get()), n, count, sign, logabs);
  cuda::check_last_launch("cupp::linalg slogdet");
}

// Cholesky factors, in place, of the `count` column-major n x n matrices at
// a (from device_triangle_copy): L with A = L L^H in the lower triangles
// (A read from them), the upper ones left as they are. Always the lower
// triangle: cupp's earlier call of the upper one on a C-order copy took
// 2.5 times as long as the lower one at n = 1000 (float64, H100).
template <class T>
cuda::memory_ptr device_potrf(T* a, index_t n, index_t count, int device) {
  using V = cublas_value_t<T>;
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  constexpr cublasFillMode_t fill = CUBLAS_FILL_MODE_LOWER;
  cuda::memory_ptr info_mem = cuda::alloc(static_cast<std::size_t>(count) * sizeof(int));
  int* info = static_cast<int*>(info_mem.get());
  if (count > 1 && n <= batched_max_order) {
    cuda::memory_ptr pa = device_pointer_array(reinterpret_cast<V*>(a), n * n, count, stream);
    cusolverDnHandle_t h = cuda::solver_handle(device);
    const int ni = static_cast<int>(n), bc = static_cast<int>(count);
    cuda::check(CUPP_LINALG_BY_TYPE(T, cusolverDnSpotrfBatched, cusolverDnDpotrfBatched,
                                    cusolverDnCpotrfBatched, cusolverDnZpotrfBatched, h, fill, ni,
                                    static_cast<V**>(pa.get()), ni, info, bc),
                "cusolverDn<t>potrfBatched");
  } else {
    cusolverDnHandle_t h = cuda::solver_handle(device);
    cusolverDnParams_t params = cuda::solver_params(device);
    constexpr cudaDataType_t type = cuda_data_type_v<T>;
    std::size_t device_bytes = 0, host_bytes = 0;
    cuda::check(cusolverDnXpotrf_bufferSize(h, params, fill, n, type, a, n, type, &device_bytes,
                                            &host_bytes),
                "cusolverDnXpotrf_bufferSize");
    cuda::solver_workspace ws(device_bytes, host_bytes);
    for (index_t m = 0; m < count; ++m)
      cuda::check(
          cusolverDnXpotrf(h, params, fill, n, type, a + m * n * n, n, type, ws.device_ptr(),
                           device_bytes, ws.host_ptr(), host_bytes, info + m),
          "cusolverDnXpotrf");
  }
  return info_mem;
}

#undef CUPP_LINALG_BY_TYPE

#endif  // __CUDACC__

}  // namespace cupp::detail
