// inv, solve, det and slogdet of stacks of matrices up to 8 x 8 on the
// device: one thread per matrix, the LU factorisation with partial pivoting
// (LAPACK's getrf: the first largest |re| + |im| of the column, rows
// swapped whole) held in registers. The vendor libraries' batched routines
// spend their time on launches and pointer arrays at these sizes; this
// reads every operand in place through its strides (no copy, broadcast
// stacks included) and writes the result directly.
//
// A matrix of order n < Max is padded to Max x Max with the identity: its
// LU factors, determinant and solutions are those of the matrix, with no
// run-time bound inside the unrolled loops (which keep the arrays in
// registers).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include <cuda/std/limits>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/solve_plan.hpp>
#include <cupp/dtype.hpp>

#if defined(__CUDACC__)
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#endif

namespace cupp::detail {

// The largest order the register kernels take.
inline constexpr index_t small_matrix_max = 8;

enum class small_op { inv, solve, det, slogdet };

// Element strides of the core axes: a's rows and columns, b's (solve), the
// result's.
struct small_core {
  index_t ars = 0, acs = 0, brs = 0, bcs = 0, xrs = 0, xcs = 0;
};

#if defined(__CUDACC__)

template <class Re>
__device__ inline Re real_abs(Re v) {
  return v < Re(0) ? -v : v;
}

// LAPACK's i?amax measure: |re| + |im| for complex numbers.
template <class T>
__device__ inline lapack_real_t<T> abs1(const T& v) {
  if constexpr (is_complex_type_v<T>)
    return real_abs(v.real()) + real_abs(v.imag());
  else
    return real_abs(v);
}

// LU with partial pivoting in place; piv[k] is the row swapped with row k.
// Returns whether a pivot was exactly zero (getrf's info > 0); that column
// is then left unscaled, as LAPACK leaves it.
template <int Max, class T>
__device__ inline bool lu_registers(T (&lu)[Max][Max], int (&piv)[Max]) {
  using Re = lapack_real_t<T>;
  bool singular = false;
#pragma unroll
  for (int k = 0; k < Max; ++k) {
    int p = k;
    Re best = abs1(lu[k][k]);
#pragma unroll
    for (int i = k + 1; i < Max; ++i) {
      const Re v = abs1(lu[i][k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[k] = p;
    // A run-time row index would put the array in local memory: compare
    // against every candidate row instead.
#pragma unroll
    for (int i = k + 1; i < Max; ++i)
      if (i == p) {
#pragma unroll
        for (int j = 0; j < Max; ++j) {
          const T t = lu[k][j];
          lu[k][j] = lu[i][j];
          lu[i][j] = t;
        }
      }
    if (best == Re(0)) {
      singular = true;
    } else {
      const T d = lu[k][k];
#pragma unroll
      for (int i = k + 1; i < Max; ++i) lu[i][k] = lu[i][k] / d;
#pragma unroll
      for (int i = k + 1; i < Max; ++i)
#pragma unroll
        for (int j = k + 1; j < Max; ++j) lu[i][j] -= lu[i][k] * lu[k][j];
    }
  }
  return singular;
}

// v := A^-1 v from the factors.
template <int Max, class T>
__device__ inline void lu_substitute(const T (&lu)[Max][Max], const int (&piv)[Max], T (&v)[Max]) {
#pragma unroll
  for (int k = 0; k < Max; ++k)
#pragma unroll
    for (int i = k + 1; i < Max; ++i)
      if (i == piv[k]) {
        const T t = v[k];
        v[k] = v[i];
        v[i] = t;
      }
#pragma unroll
  for (int i = 1; i < Max; ++i)
#pragma unroll
    for (int j = 0; j < i; ++j) v[i] -= lu[i][j] * v[j];
#pragma unroll
  for (int i = Max - 1; i >= 0; --i) {
#pragma unroll
    for (int j = i + 1; j < Max; ++j) v[i] -= lu[i][j] * v[j];
    v[i] = v[i] / lu[i][i];
  }
}

template <class Re>
__device__ inline Re log_of(Re x) {
  if constexpr (std::is_same_v<Re, float>)
    return ::logf(x);
  else
    return ::log(x);
}
template <class Re>
__device__ inline Re exp_of(Re x) {
  if constexpr (std::is_same_v<Re, float>)
    return ::expf(x);
  else
    return ::exp(x);
}

// One matrix of the walk (thread's `m`); see small_matrix_kernel.
template <small_op Op, int Max, class T>
__device__ inline void small_matrix_one(const T* __restrict__ a, const T* __restrict__ b,
                                        T* __restrict__ x, lapack_real_t<T>* __restrict__ x2, int n,
                                        index_t k, const small_core& c, const stack_walk& w,
                                        int* status, bool staged, index_t pitch, T* tile,
                                        bool staged_in, index_t m) {
  using Re = lapack_real_t<T>;
  {  // (one matrix)
    index_t off[3];
    stack_offsets(w, m, off);
    // Staged: the thread's matrix is its slot of the tile (a dense block
    // with the same core strides), which its results overwrite only after
    // this read.
    const T* am = staged_in ? tile : a + off[0];
    T lu[Max][Max];
    int piv[Max];
#pragma unroll
    for (int i = 0; i < Max; ++i)
#pragma unroll
      for (int j = 0; j < Max; ++j)
        lu[i][j] = i < n && j < n ? am[i * c.ars + j * c.acs] : T(i == j ? 1 : 0);
    const bool singular = lu_registers(lu, piv);
    if constexpr (Op == small_op::inv || Op == small_op::solve) {
      // Every writer stores the same 1, so a plain store is enough (the
      // word may be mapped host memory, where atomics need not be), and one
      // lane per warp stores it.
      const unsigned flagged = __ballot_sync(__activemask(), singular);
      if (singular && status && static_cast<int>(threadIdx.x % 32) == __ffs(flagged) - 1)
        *static_cast<volatile int*>(status) = 1;
      const index_t columns = Op == small_op::inv ? n : k;
      for (index_t col = 0; col < columns; ++col) {
        T v[Max];
#pragma unroll
        for (int i = 0; i < Max; ++i) {
          if constexpr (Op == small_op::inv)
            v[i] = T(i == col ? 1 : 0);
          else
            v[i] = i < n ? b[off[1] + i * c.brs + col * c.bcs] : T(0);
        }
        lu_substitute(lu, piv, v);
#pragma unroll
        for (int i = 0; i < Max; ++i)
          if (i < n) {
            if (staged)
              tile[i * k + col] = v[i];
            else
              x[off[2] + i * c.xrs + col * c.xcs] = v[i];
          }
      }
    } else {
      // NumPy's slogdet: the sum of log|u_ii| and the product of the
      // u_ii / |u_ii| with the pivots' parity; det is sign * exp(logabsdet).
      T sign(1);
      Re logabs = 0;
#pragma unroll
      for (int i = 0; i < Max; ++i) {
        const T d = lu[i][i];
        if constexpr (is_complex_type_v<T>) {
          const Re ad = ::cuda::std::abs(d);
          sign = sign * (d / ad);
          logabs += log_of(ad);
        } else {
          sign = d < T(0) ? -sign : sign;
          logabs += log_of(real_abs(d));
        }
        if (piv[i] != i) sign = -sign;
      }
      if (singular) {
        sign = T(0);
        logabs = -::cuda::std::numeric_limits<Re>::infinity();
      }
      if constexpr (Op == small_op::slogdet) {
        x[off[2]] = sign;
        x2[off[2]] = logabs;
      } else {
        x[off[2]] = sign * T(exp_of(logabs));
      }
    }
  }
}

inline constexpr unsigned small_matrix_threads = 128;

// Copies `live` elements from src into tile, element e of the block's run
// going to tile[(e / size) * pitch + e % size]; the thread steps (e / size,
// e % size) along instead of dividing for every element.
template <class T>
__device__ inline void tile_from_run(const T* __restrict__ src, T* tile, unsigned live,
                                     unsigned size, unsigned pitch) {
  const unsigned step = blockDim.x, dq = step / size, dr = step % size;
  unsigned q = threadIdx.x / size, r = threadIdx.x % size;
#pragma unroll 4
  for (unsigned e = threadIdx.x; e < live; e += step) {
    tile[q * pitch + r] = src[e];
    q += dq;
    r += dr;
    if (r >= size) {
      r -= size;
      ++q;
    }
  }
}

// The converse: tile slots out to a contiguous run.
template <class T>
__device__ inline void run_from_tile(const T* tile, T* __restrict__ dst, unsigned live,
                                     unsigned size, unsigned pitch) {
  const unsigned step = blockDim.x, dq = step / size, dr = step % size;
  unsigned q = threadIdx.x / size, r = threadIdx.x % size;
#pragma unroll 4
  for (unsigned e = threadIdx.x; e < live; e += step) {
    dst[e] = tile[q * pitch + r];
    q += dq;
    r += dr;
    if (r >= size) {
      r -= size;
      ++q;
    }
  }
}

// b is read for solve only; x2 (the logarithms) for slogdet only. status
// (may be null) is set to 1 when a matrix of inv or solve is singular.
//
// Both ends go through shared memory (each thread's matrix a slot of
// `pitch` elements, odd against bank conflicts) where they can, so that
// the block's consecutive matrices move as one coalesced range instead of
// one element of each thread's matrix per access: with `staged_in` (a's
// matrices dense blocks of n n elements, one after another) the block's
// matrices are read that way, with `staged` the results of inv and solve
// (n x k each, C order, matrix m at m n k) are written that way. A thread
// reads its slot whole before it writes its results there.
template <small_op Op, int Max, class T>
__global__ void __launch_bounds__(small_matrix_threads)
    small_matrix_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ x,
                        lapack_real_t<T>* __restrict__ x2, int n, index_t k, small_core c,
                        stack_walk w, int* status, bool staged, bool staged_in, index_t pitch) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* tile = reinterpret_cast<T*>(shared_bytes);
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  const unsigned nn = static_cast<unsigned>(n * n), nk = static_cast<unsigned>(n * k),
                 p = static_cast<unsigned>(pitch);
  for (index_t base = static_cast<index_t>(blockIdx.x) * blockDim.x; base < w.count; base += step) {
    const index_t m = base + threadIdx.x;
    const unsigned rows = static_cast<unsigned>(
        w.count - base < static_cast<index_t>(blockDim.x) ? w.count - base : blockDim.x);
    if (staged_in) {
      tile_from_run(a + base * nn, tile, rows * nn, nn, p);
      __syncthreads();
    }
    if (m < w.count)
      small_matrix_one<Op, Max>(a, b, x, x2, n, k, c, w, status, staged, pitch,
                                tile + threadIdx.x * pitch, staged_in, m);
    if constexpr (Op == small_op::inv || Op == small_op::solve) {
      if (staged) {
        __syncthreads();
        run_from_tile(tile, x + base * nk, rows * nk, nk, p);
      }
    }
    // The tile is read out before the next round overwrites it.
    if (staged || staged_in) __syncthreads();
  }
}

// Every matrix of the walk, on `stream`; n <= small_matrix_max.
template <small_op Op, class T>
void launch_small_matrix(const T* a, const T* b, T* x, lapack_real_t<T>* x2, index_t n, index_t k,
                         const small_core& c, const stack_walk& w, int* status,
                         cudaStream_t stream) {
  if (w.count == 0) return;
  constexpr unsigned threads = small_matrix_threads;
  constexpr bool writes_matrices = Op == small_op::inv || Op == small_op::solve;
  const auto blocks =
      static_cast<unsigned>(std::min<index_t>((w.count + threads - 1) / threads, index_t{1} << 20));
  // Staging the results needs them C-ordered (they are: fresh arrays),
  // staging a needs its matrices dense and back to back (any order within
  // one: the slot keeps a's core strides); both share one tile within the
  // 48 KiB a launch gets without opting in, the results' staging first.
  const index_t nn = n * n;
  const bool dense_a = (w.nb == 0 || (w.nb == 1 && w.st[0][0] == nn)) &&
                       (n == 1 || (c.ars == n && c.acs == 1) || (c.ars == 1 && c.acs == n));
  const auto fits = [&](index_t pitch) {
    return static_cast<std::size_t>(threads * pitch) * sizeof(T) <= (48u << 10);
  };
  bool staged = writes_matrices, staged_in = dense_a;
  index_t pitch = std::max(staged ? n * k : 0, staged_in ? nn : 0) | 1;
  if (!fits(pitch)) {
    staged_in = false;
    pitch = (n * k) | 1;
    staged = staged && fits(pitch);
  }
  if (!staged_in && !staged) pitch = 1;
  const std::size_t shared =
      staged || staged_in ? static_cast<std::size_t>(threads * pitch) * sizeof(T) : 0;
  if (n <= 4)
    small_matrix_kernel<Op, 4, T><<<blocks, threads, shared, stream>>>(
        a, b, x, x2, static_cast<int>(n), k, c, w, status, staged, staged_in, pitch);
  else
    small_matrix_kernel<Op, 8, T><<<blocks, threads, shared, stream>>>(
        a, b, x, x2, static_cast<int>(n), k, c, w, status, staged, staged_in, pitch);
  cuda::check_last_launch("cupp::linalg small-matrix kernel");
}

// A page-locked word mapped into the devices' address space, which the
// kernels write and the host reads after the stream's work: no memset
// before the launch and no copy after it. One per host thread and device
// (a thread waits for its kernel before it reuses its word), kept for the
// thread's life; null where the driver gives no mapped memory.
struct mapped_status {
  int* host = nullptr;
  int* device = nullptr;
};

inline mapped_status mapped_status_word(int device) {
  thread_local mapped_status words[cuda::max_devices];
  thread_local bool tried[cuda::max_devices] = {};
  if (!tried[device]) {
    tried[device] = true;
    void* h = nullptr;
    void* d = nullptr;
    if (cudaHostAlloc(&h, sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable) !=
            cudaSuccess ||
        cudaHostGetDevicePointer(&d, h, 0) != cudaSuccess) {
      (void)cudaGetLastError();
      if (h) (void)cudaFreeHost(h);
      return {};
    }
    words[device] = {static_cast<int*>(h), static_cast<int*>(d)};
  }
  return words[device];
}

// launch_small_matrix on the device's current stream, with its status read
// unless a cupp::linalg::unchecked scope is active: all matrices write one
// word, which costs the check one wait for the stream (and, without mapped
// memory, a memset and a 4-byte copy).
template <small_op Op, class T>
void run_small_matrix(const T* a, const T* b, T* x, lapack_real_t<T>* x2, index_t n, index_t k,
                      const small_core& c, const stack_walk& w, int device) {
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  constexpr bool can_fail = Op == small_op::inv || Op == small_op::solve;
  if (!can_fail || !linalg::checks_errors()) {
    launch_small_matrix<Op>(a, b, x, x2, n, k, c, w, nullptr, stream);
    return;
  }
  if (const mapped_status word = mapped_status_word(device); word.host) {
    *static_cast<volatile int*>(word.host) = 0;
    launch_small_matrix<Op>(a, b, x, x2, n, k, c, w, word.device, stream);
    cuda::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    const int info = *static_cast<volatile int*>(word.host);
    throw_on_info(&info, 1, "Singular matrix", "cupp small-matrix LU");
    return;
  }
  cuda::memory_ptr status = cuda::alloc(sizeof(int));
  cuda::check(cudaMemsetAsync(status.get(), 0, sizeof(int), stream), "cudaMemsetAsync");
  launch_small_matrix<Op>(a, b, x, x2, n, k, c, w, static_cast<int*>(status.get()), stream);
  check_device_info(static_cast<const int*>(status.get()), 1, device, "Singular matrix",
                    "cupp small-matrix LU");
}

#endif  // __CUDACC__

}  // namespace cupp::detail
