// cupp's own kernel for stacks of small products (m, n, k <= 16), which
// cuBLAS's strided batched gemm runs far below memory bandwidth (65,536
// stacked 8x8 float32 products: 383 GB/s on an H100, a fifth of a copy of
// the same bytes). Such products are memory-bound: each element of A and B
// is used at most 16 times. A block takes a group of consecutive matrices
// of the stack, copies their A and B into shared memory with coalesced
// loads (one contiguous range each for a dense stack), computes every
// output element from shared memory and writes the group's C, which is one
// contiguous range of the C-contiguous result, coalesced.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/linalg/matmul_plan.hpp>

#if defined(__CUDACC__)
#include <cuda_pipeline.h>

#include <cupp/cuda/runtime.hpp>
#endif

namespace cupp::detail {

// Dispatch rule. With m, n, k <= 16 one product is at most 16 multiply-adds
// per element of its operands, so the stack streams through at memory
// bandwidth even with every operand read from shared memory (16x16x16
// float32: about 4 TFLOP/s of shared-memory-fed FMAs keeps 3 TB/s fed);
// at 32 the shared-memory reads would be the limit and cuBLAS's register-
// tiled kernels are the better choice, and one 32x32 complex128 pair
// (32 KiB) would not fit a block's group. There is no lower bound on the
// number of products: a lone small product is launch-bound either way, and
// one launch of this kernel replaces cuBLAS's host loop over the plan's
// outer batch axes (one call each), so it is never the slower path.
inline constexpr index_t small_gemm_max_dim = 16;

inline bool small_gemm_applies(const matmul_plan& p) {
  return p.m <= small_gemm_max_dim && p.n <= small_gemm_max_dim && p.k <= small_gemm_max_dim &&
         p.k > 0;
}

// Whether batch position b of operand s of the plan starts at b * tile
// (every batch axis steps by the whole size of the axes after it).
inline bool batch_axes_dense(const matmul_plan& p, int s, index_t tile) {
  index_t step = tile;
  for (int i = p.nb - 1; i >= 0; --i) {
    if (p.ext[i] > 1 && p.st[s][i] != step) return false;
    step *= p.ext[i];
  }
  return true;
}

// One operand as the kernel reads it: its storage is `rows` rows of `cols`
// elements, `ld` apart (the transpose of the logical matrix when trans);
// shared memory keeps the same rows packed (`cols` apart). Logical element
// (r, c) then lies at r * row_step + c * col_step of the packed tile.
struct small_operand {
  unsigned rows, cols;
  index_t ld;
  unsigned row_step, col_step;
  bool conj;
  bool dense;  // the stack's matrices are one contiguous range, in order
};

inline small_operand small_operand_of(const matmul_plan& p, int s, index_t r, index_t c,
                                      const gemm_side& side) {
  small_operand o;
  o.rows = static_cast<unsigned>(side.trans ? c : r);
  o.cols = static_cast<unsigned>(side.trans ? r : c);
  o.ld = side.ld;
  o.row_step = side.trans ? 1u : o.cols;
  o.col_step = side.trans ? o.cols : 1u;
  o.conj = side.conj;
  o.dense = (o.rows <= 1 || side.ld == o.cols) && batch_axes_dense(p, s, r * c);
  return o;
}

// The shared memory of a group: both operands' batch offsets (for stacks
// that are not dense), then the A tiles, then the B tiles. A budget of
// 16 KiB lets eight 256-thread blocks share an SM; the largest single pair
// (16x16 complex128) is 8 KiB.
inline constexpr index_t small_gemm_shared_budget = 16 * 1024;
inline constexpr unsigned small_gemm_threads = 256;

template <class T>
constexpr index_t small_gemm_matrix_bytes(const matmul_plan& p) {
  return (p.m * p.k + p.k * p.n) * static_cast<index_t>(sizeof(T)) +
         2 * static_cast<index_t>(sizeof(index_t));
}

// The accumulator: float for float16 and bfloat16 (as cuBLAS's GemmEx with
// CUBLAS_COMPUTE_32F), the element type's precision otherwise; complex
// values as two reals, multiplied out by hand (no special cases for
// infinities, as BLAS).
template <class T>
struct small_acc {
  using real = math_t<T>;
  real v = 0;
  CUPP_HD void add(const T& a, const T& b) { v += convert<real>(a) * convert<real>(b); }
  CUPP_HD T scaled(const T& alpha, const T& beta, const T* old) const {
    real r = convert<real>(alpha) * v;
    if (old) r += convert<real>(beta) * convert<real>(*old);
    return convert<T>(r);
  }
};

template <class R>
struct small_acc<::cuda::std::complex<R>> {
  using T = ::cuda::std::complex<R>;
  R re = 0, im = 0;
  CUPP_HD void add(const T& a, const T& b) {
    re += a.real() * b.real() - a.imag() * b.imag();
    im += a.real() * b.imag() + a.imag() * b.real();
  }
  CUPP_HD T scaled(const T& alpha, const T& beta, const T* old) const {
    R r = alpha.real() * re - alpha.imag() * im, i = alpha.real() * im + alpha.imag() * re;
    if (old) {
      r += beta.real() * old->real() - beta.imag() * old->imag();
      i += beta.real() * old->imag() + beta.imag() * old->real();
    }
    return T(r, i);
  }
};

template <class T>
CUPP_HD inline T conj_if(const T& v, bool conj) {
  if constexpr (is_complex_type_v<T>)
    return conj ? T(v.real(), -v.imag()) : v;
  else
    return v;
}

#if defined(__CUDACC__)

// Copies `count` matrices of one operand into packed tiles. Each thread
// issues eight loads before it stores, so that enough bytes are in flight
// to stream at bandwidth (8 blocks of 256 threads: 64 KiB of float32 per
// SM; an 8x8 float32 group of 31 pairs takes one round trip per operand).
template <class T>
__device__ inline void load_small_tiles(T* __restrict__ tiles, const T* __restrict__ src,
                                        const small_operand& op, const index_t* offsets,
                                        index_t first, unsigned count) {
  constexpr unsigned unroll = 8;
  const unsigned tile = op.rows * op.cols, total = count * tile;
  const T* dense = op.dense ? src + first * static_cast<index_t>(tile) : src;
  for (unsigned base = threadIdx.x; base < total; base += unroll * blockDim.x) {
    T v[unroll];
#pragma unroll
    for (unsigned u = 0; u < unroll; ++u) {
      const unsigned e = base + u * blockDim.x;
      if (e < total) {
        if (op.dense) {
          v[u] = dense[e];
        } else {
          const unsigned g = e / tile, r = e - g * tile, row = r / op.cols, col = r - row * op.cols;
          v[u] = src[offsets[g] + static_cast<index_t>(row) * op.ld + col];
        }
      }
    }
#pragma unroll
    for (unsigned u = 0; u < unroll; ++u) {
      const unsigned e = base + u * blockDim.x;
      if (e < total) tiles[e] = conj_if(v[u], op.conj);
    }
  }
}

// C[b] = alpha * A[b].B[b] + beta * C[b] (beta 0: C not read) for the
// plan's batches, `group` consecutive ones per block; C is C-contiguous.
template <class T>
__global__ void __launch_bounds__(small_gemm_threads)
    small_gemm_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c,
                      matmul_plan p, small_operand sa, small_operand sb, unsigned group, T alpha,
                      T beta, bool read_c) {
  extern __shared__ __align__(16) unsigned char small_gemm_shared[];
  index_t* off_a = reinterpret_cast<index_t*>(small_gemm_shared);
  index_t* off_b = off_a + group;
  const unsigned m = static_cast<unsigned>(p.m), n = static_cast<unsigned>(p.n),
                 k = static_cast<unsigned>(p.k), mn = m * n;
  // 2 * group index_t keep the tiles 16-byte aligned.
  T* tiles_a = reinterpret_cast<T*>(off_b + group);
  T* tiles_b = tiles_a + group * m * k;
  const index_t groups = (p.batches + group - 1) / group;
  const bool offsets = !sa.dense || !sb.dense;
  // Every thread of a block takes the same trips through this loop, so
  // the barriers inside are reached by all.
  for (index_t g0 = blockIdx.x; g0 < groups; g0 += gridDim.x) {
    const index_t first = g0 * group;
    const index_t left = p.batches - first;
    const unsigned count = left < group ? static_cast<unsigned>(left) : group;
    if (offsets)
      for (unsigned g = threadIdx.x; g < count; g += blockDim.x) {
        index_t off[3];
        batch_offsets(p, first + g, off);
        off_a[g] = off[0];
        off_b[g] = off[1];
      }
    __syncthreads();
    load_small_tiles(tiles_a, a, sa, off_a, first, count);
    load_small_tiles(tiles_b, b, sb, off_b, first, count);
    __syncthreads();
    T* out = c + first * static_cast<index_t>(mn);
    for (unsigned e = threadIdx.x; e < count * mn; e += blockDim.x) {
      const unsigned g = e / mn, r = e - g * mn, i = r / n, j = r - i * n;
      const T* ra = tiles_a + g * m * k + i * sa.row_step;
      const T* cb = tiles_b + g * k * n + j * sb.col_step;
      small_acc<T> acc;
      for (unsigned l = 0; l < k; ++l) acc.add(ra[l * sa.col_step], cb[l * sb.row_step]);
      out[e] = acc.scaled(alpha, beta, read_c ? out + e : nullptr);
    }
    // The next group overwrites the offsets and tiles.
    __syncthreads();
  }
}

// The dense path: both operands' stacks contiguous, so a group's A and B
// are one range each and need no offsets. Its own kernel so that it keeps
// few registers (eight 256-thread blocks per SM, 32 registers each) and the
// generic kernel above stays as it is.

// Bytes one vector access moves; a chunk is that many bytes of elements.
inline constexpr unsigned small_gemm_chunk_bytes = 16;

template <class T>
inline constexpr bool small_gemm_chunks_v = small_gemm_chunk_bytes % sizeof(T) == 0;

template <class T>
__device__ inline bool chunk_aligned(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % small_gemm_chunk_bytes == 0;
}

// Copies elements [0, na) of src_a to tile_a and [0, nb) of src_b to
// tile_b as one index space, so that a thread's loads of both operands are
// in flight together (one round trip per group, not one per operand).
template <class U, unsigned unroll>
__device__ inline void stage_two_ranges(U* __restrict__ tile_a, const U* __restrict__ src_a,
                                        unsigned na, U* __restrict__ tile_b,
                                        const U* __restrict__ src_b, unsigned nb) {
  const unsigned total = na + nb;
  for (unsigned base = threadIdx.x; base < total; base += unroll * blockDim.x) {
    U v[unroll];
#pragma unroll
    for (unsigned u = 0; u < unroll; ++u) {
      const unsigned e = base + u * blockDim.x;
      if (e < total) v[u] = e < na ? src_a[e] : src_b[e - na];
    }
#pragma unroll
    for (unsigned u = 0; u < unroll; ++u) {
      const unsigned e = base + u * blockDim.x;
      if (e < na)
        tile_a[e] = v[u];
      else if (e < total)
        tile_b[e - na] = v[u];
    }
  }
}

// A group's A (na elements) and B (nb elements) into their tiles (both
// 16-byte aligned), unchanged (the kernel applies conj as it reads them).
// When both global ranges start 16-byte aligned: 16-byte copies, on sm_80
// and later asynchronous ones that stage nothing in registers, so that all
// of a thread's copies are in flight at once; the last na % per_chunk
// (nb % per_chunk) elements one by one. Element by element otherwise.
template <class T>
__device__ inline void stage_dense_group(T* tile_a, const T* src_a, unsigned na, T* tile_b,
                                         const T* src_b, unsigned nb) {
  if constexpr (small_gemm_chunks_v<T>) {
    constexpr unsigned per_chunk = small_gemm_chunk_bytes / sizeof(T);
    if (chunk_aligned(src_a) && chunk_aligned(src_b)) {
      const unsigned ca = na / per_chunk, cb = nb / per_chunk;
      int4* chunks_a = reinterpret_cast<int4*>(tile_a);
      int4* chunks_b = reinterpret_cast<int4*>(tile_b);
      const int4* from_a = reinterpret_cast<const int4*>(src_a);
      const int4* from_b = reinterpret_cast<const int4*>(src_b);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      for (unsigned e = threadIdx.x; e < ca + cb; e += blockDim.x) {
        if (e < ca)
          __pipeline_memcpy_async(chunks_a + e, from_a + e, small_gemm_chunk_bytes);
        else
          __pipeline_memcpy_async(chunks_b + (e - ca), from_b + (e - ca), small_gemm_chunk_bytes);
      }
      __pipeline_commit();
#else
      stage_two_ranges<int4, 4>(chunks_a, from_a, ca, chunks_b, from_b, cb);
#endif
      const unsigned ta = na - ca * per_chunk, tail = ta + (nb - cb * per_chunk);
      for (unsigned t = threadIdx.x; t < tail; t += blockDim.x) {
        if (t < ta) {
          const unsigned e = ca * per_chunk + t;
          tile_a[e] = src_a[e];
        } else {
          const unsigned e = cb * per_chunk + (t - ta);
          tile_b[e] = src_b[e];
        }
      }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      __pipeline_wait_prior(0);
#endif
      return;
    }
  }
  stage_two_ranges<T, 4>(tile_a, src_a, na, tile_b, src_b, nb);
}

// C[b] = alpha * A[b].B[b] + beta * C[b] for a stack whose A and B are
// dense (small_operand::dense); tile B starts b_offset bytes into the
// group's shared memory.
// Blocks per SM the dense kernel asks registers for: as many as fit the
// SM's threads (2048 on sm_80, sm_90 and sm_100; 1536 on sm_86, sm_89 and
// sm_120; 1024 on sm_75), since ptxas rejects a larger minimum.
#if defined(__CUDA_ARCH__) && \
    (__CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000)
#define CUPP_SMALL_GEMM_DENSE_BLOCKS 8
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define CUPP_SMALL_GEMM_DENSE_BLOCKS 6
#else
#define CUPP_SMALL_GEMM_DENSE_BLOCKS 4
#endif
template <class T>
__global__ void __launch_bounds__(small_gemm_threads, CUPP_SMALL_GEMM_DENSE_BLOCKS)
    small_gemm_dense_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c,
                            index_t batches, small_operand sa, small_operand sb, unsigned m,
                            unsigned n, unsigned k, unsigned group, unsigned b_offset, T alpha,
                            T beta, bool read_c) {
  extern __shared__ __align__(16) unsigned char small_gemm_shared[];
  T* tiles_a = reinterpret_cast<T*>(small_gemm_shared);
  T* tiles_b = reinterpret_cast<T*>(small_gemm_shared + b_offset);
  const unsigned mk = m * k, kn = k * n, mn = m * n;
  const index_t groups = (batches + group - 1) / group;
  // Every thread of a block takes the same trips through this loop, and
  // the staging takes one branch per block, so the barriers are reached by
  // all.
  for (index_t g0 = blockIdx.x; g0 < groups; g0 += gridDim.x) {
    const index_t first = g0 * group;
    const index_t left = batches - first;
    const unsigned count = left < group ? static_cast<unsigned>(left) : group;
    stage_dense_group(tiles_a, a + first * mk, count * mk, tiles_b, b + first * kn, count * kn);
    __syncthreads();
    T* out = c + first * mn;
    for (unsigned e = threadIdx.x; e < count * mn; e += blockDim.x) {
      const unsigned g = e / mn, r = e - g * mn, i = r / n, j = r - i * n;
      const T* ra = tiles_a + g * mk + i * sa.row_step;
      const T* cb = tiles_b + g * kn + j * sb.col_step;
      small_acc<T> acc;
      for (unsigned l = 0; l < k; ++l)
        acc.add(conj_if(ra[l * sa.col_step], sa.conj), conj_if(cb[l * sb.row_step], sb.conj));
      out[e] = acc.scaled(alpha, beta, read_c ? out + e : nullptr);
    }
    // The next group overwrites the tiles.
    __syncthreads();
  }
}

// Lets the driver give shared memory its largest share of each SM, so
// that eight blocks of the dense kernel fit (once per device it runs on).
template <class T>
void prefer_shared_for_dense_kernel(int device) {
  static std::atomic<std::uint64_t> done{0};
  const std::uint64_t bit = device < 64 ? std::uint64_t{1} << device : 0;
  if (bit && (done.load(std::memory_order_relaxed) & bit)) return;
  cuda::check(cudaFuncSetAttribute(small_gemm_dense_kernel<T>,
                                   cudaFuncAttributePreferredSharedMemoryCarveout,
                                   cudaSharedmemCarveoutMaxShared),
              "cudaFuncSetAttribute");
  done.fetch_or(bit, std::memory_order_relaxed);
}

// The plan's products through small_gemm_dense_kernel when both operands
// are dense, small_gemm_kernel otherwise (small_gemm_applies(p),
// p.batches > 0, C C-contiguous).
template <class T>
void device_small_gemm(const matmul_plan& p, const gemm_side& side_a, const gemm_side& side_b,
                       const T* a, const T* b, T* c, int device, cudaStream_t stream, T alpha,
                       T beta, bool read_c) {
  const small_operand sa = small_operand_of(p, 0, p.m, p.k, side_a);
  const small_operand sb = small_operand_of(p, 1, p.k, p.n, side_b);
  const index_t sms = cuda::runtime::getDeviceProperties(device).multiProcessorCount;
  if (sa.dense && sb.dense) {
    // Groups as large as the budget allows but small enough that every SM
    // gets a few blocks when the stack is short, a multiple of 8 matrices
    // where that leaves some, so that every group's ranges keep the
    // 16-byte alignment of the first.
    const index_t a_bytes = p.m * p.k * static_cast<index_t>(sizeof(T)),
                  b_bytes = p.k * p.n * static_cast<index_t>(sizeof(T));
    const index_t spread = (p.batches + 8 * sms - 1) / (8 * sms);
    index_t group =
        std::min({(small_gemm_shared_budget - 16) / (a_bytes + b_bytes), spread, p.batches});
    if (group >= 8) group -= group % 8;
    group = std::max<index_t>(group, 1);
    const index_t b_offset = (group * a_bytes + 15) / 16 * 16;
    const index_t groups = (p.batches + group - 1) / group;
    const unsigned grid = static_cast<unsigned>(std::min<index_t>(groups, index_t{1} << 30));
    const std::size_t shared = static_cast<std::size_t>(b_offset + group * b_bytes);
    prefer_shared_for_dense_kernel<T>(device);
    small_gemm_dense_kernel<T><<<grid, small_gemm_threads, shared, stream>>>(
        a, b, c, p.batches, sa, sb, static_cast<unsigned>(p.m), static_cast<unsigned>(p.n),
        static_cast<unsigned>(p.k), static_cast<unsigned>(group), static_cast<unsigned>(b_offset),
        alpha, beta, read_c);
    cuda::check_last_launch("matmul small-product kernel");
    return;
  }
  // Groups as large as the budget allows, but small enough that every SM
  // gets a few blocks when the stack is short.
  const index_t per_matrix = small_gemm_matrix_bytes<T>(p);
  const index_t spread = (p.batches + 4 * sms - 1) / (4 * sms);
  const index_t group =
      std::max<index_t>(1, std::min({small_gemm_shared_budget / per_matrix, spread, p.batches}));
  const index_t groups = (p.batches + group - 1) / group;
  const unsigned grid = static_cast<unsigned>(std::min<index_t>(groups, index_t{1} << 30));
  const std::size_t shared = static_cast<std::size_t>(group * per_matrix);
  small_gemm_kernel<T><<<grid, small_gemm_threads, shared, stream>>>(
      a, b, c, p, sa, sb, static_cast<unsigned>(group), alpha, beta, read_c);
  cuda::check_last_launch("matmul small-product kernel");
}

#endif  // __CUDACC__

}  // namespace cupp::detail
