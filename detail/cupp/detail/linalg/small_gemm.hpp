// cupp's own kernel for stacks of small products (m, n, k <= 16), which
// cuBLAS's strided batched gemm runs far below memory bandwidth (65,536
// stacked 8x8 float32 products: 383 GB/s on an H100, 15% of a copy of the
// same bytes). Such products are memory-bound: each element of A and B is
// used at most 16 times. One thread computes one row of one product: it
// reads that row of A and all of B straight from global memory (the
// m threads of a product read the same B, which the L1 cache serves after
// the first), keeps the row of C in registers and writes it with 16-byte
// stores where the layout allows. Staging a group of products through
// shared memory (tried first) needs a barrier between the loads and the
// arithmetic and stayed at 57-67% of copy bandwidth on an H100 (8x8
// float32), against 98% for the thread-per-row kernel (4x4: 105%,
// 16x16: 79%).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/linalg/matmul_plan.hpp>

#if defined(__CUDACC__)
#include <cupp/cuda/runtime.hpp>
#endif

namespace cupp::detail {

// Dispatch rule. With m, n, k <= 16 one product is at most 16 multiply-adds
// per element of its operands, so the stack streams through at memory
// bandwidth with one thread per row of C (16 accumulators; B read through
// L1); at 32 a thread would hold 32 accumulators and read 1024 elements of
// B per row, and cuBLAS's register-tiled kernels are the better choice.
// There is no lower bound on the number of products: a lone small product
// is launch-bound either way, and one launch of this kernel replaces
// cuBLAS's host loop over the plan's outer batch axes (one call each), so
// it is never the slower path.
// complex128 stops at 8: at 16 a thread's row of C and of A and one row of
// B would take 192 registers.
template <class T>
inline constexpr index_t small_gemm_max_dim = sizeof(T) >= 16 ? 8 : 16;

template <class T>
inline bool small_gemm_applies(const matmul_plan& p) {
  constexpr index_t most = small_gemm_max_dim<T>;
  return p.m <= most && p.n <= most && p.k <= most && p.k > 0;
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

// The accumulator: float for float16 and bfloat16 (as cuBLAS's GemmEx with
// CUBLAS_COMPUTE_32F), the element type's precision otherwise; complex
// values as two reals, multiplied out by hand (no special cases for
// infinities, as BLAS).
template <class T>
struct small_acc {
  using real = math_t<T>;
  real v = 0;
  CUPP_HD void add(const T& a, const T& b) { v += convert<real>(a) * convert<real>(b); }
  CUPP_HD T scaled(const T& alpha, const T& beta, bool add_old, const T& old) const {
    real r = convert<real>(alpha) * v;
    if (add_old) r += convert<real>(beta) * convert<real>(old);
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
  CUPP_HD T scaled(const T& alpha, const T& beta, bool add_old, const T& old) const {
    R r = alpha.real() * re - alpha.imag() * im, i = alpha.real() * im + alpha.imag() * re;
    if (add_old) {
      r += beta.real() * old.real() - beta.imag() * old.imag();
      i += beta.real() * old.imag() + beta.imag() * old.real();
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

// Bytes one vector access moves.
inline constexpr index_t small_gemm_chunk_bytes = 16;

// How the kernel walks one operand: element (r, c) of product b's matrix
// lies at offset(b) + r * rs + c * cs. `rows_vector`: every row (c
// running, the way the kernel reads A's row i, B's row l and writes C's
// row i) is 16-byte aligned and a whole number of 16-byte chunks, in every
// product of the stack, so it moves in 16-byte loads.
struct small_operand {
  index_t rs, cs;
  bool conj;
  bool rows_vector;
};

// The operand of a plan's side s (0 A, 1 B, 2 C) with r x c matrices.
inline small_operand small_operand_of(const matmul_plan& p, int s, index_t r, index_t c, index_t rs,
                                      index_t cs, bool conj, const void* base, index_t itemsize) {
  small_operand o{rs, cs, conj, false};
  if (cs == 1 || c == 1) {
    bool ok = reinterpret_cast<std::uintptr_t>(base) % small_gemm_chunk_bytes == 0 &&
              (c * itemsize) % small_gemm_chunk_bytes == 0 &&
              (r <= 1 || (rs * itemsize) % small_gemm_chunk_bytes == 0);
    for (int i = 0; i < p.nb && ok; ++i)
      ok = p.ext[i] <= 1 || (p.st[s][i] * itemsize) % small_gemm_chunk_bytes == 0;
    o.rows_vector = ok;
  }
  return o;
}

#if defined(__CUDACC__)

// Loads a row x of len elements (0 < len <= NB; element j at x[j * step])
// into out[0, NB). Every load is unconditional, so that the compiler can
// issue all of a thread's loads before the first arithmetic: positions
// past len repeat the last element (the kernel never uses them).
template <class T, unsigned NB>
__device__ __forceinline__ void small_load_row(const T* __restrict__ x, index_t step, unsigned len,
                                               bool vector, T (&out)[NB]) {
  constexpr unsigned per = static_cast<unsigned>(small_gemm_chunk_bytes / sizeof(T));
  if constexpr (small_gemm_chunk_bytes % sizeof(T) == 0 && NB % per == 0) {
    if (vector) {
      const int4* chunks = reinterpret_cast<const int4*>(x);
      const unsigned last = (len - 1) / per;
#pragma unroll
      for (unsigned q = 0; q < NB / per; ++q) {
        const int4 v = __ldg(chunks + (q < last ? q : last));
        std::memcpy(&out[q * per], &v, sizeof v);
      }
      return;
    }
  }
#pragma unroll
  for (unsigned j = 0; j < NB; ++j) out[j] = x[(j < len ? j : len - 1) * step];
}

// The offsets of product `batch` in A, B and C: one multiply each for the
// usual single batch axis.
__device__ __forceinline__ void small_batch_offsets(const matmul_plan& p, index_t batch,
                                                    index_t (&off)[3]) {
  if (p.nb <= 1) {
    for (int s = 0; s < 3; ++s) off[s] = p.nb == 1 ? batch * p.st[s][0] : 0;
  } else {
    batch_offsets(p, batch, off);
  }
}

// C[b] = alpha * A[b].B[b] + beta * C_old[b] (C_old null: beta 0, not
// read; it may be C itself or another array of C's layout) for the plan's
// products, one thread per row of C; n and k at most NB, both NB when
// Exact (no clamping then: the common square sizes). Registers: as many as
// the compiler likes up to NB 8 (62 for 8x8 float32; asking for 4 blocks
// per SM made it 1934 GB/s instead of 2260 on an H100), 64 for float32 at
// NB 16 (it wanted 104, which left too few threads in flight: 1242 GB/s;
// with 64, 1811).
template <class T, unsigned NB>
inline constexpr int small_gemm_min_blocks = NB == 16 && sizeof(T) <= 4 ? 4 : 1;

template <class T, unsigned NB, bool Exact>
__global__ void __launch_bounds__(256, small_gemm_min_blocks<T, NB>)
    small_gemm_kernel(const T* __restrict__ a, const T* __restrict__ b, T* c, const T* c_old,
                      matmul_plan p, small_operand sa, small_operand sb, small_operand sc, T alpha,
                      T beta) {
  const unsigned m = static_cast<unsigned>(p.m), n = Exact ? NB : static_cast<unsigned>(p.n),
                 k = Exact ? NB : static_cast<unsigned>(p.k);
  const index_t rows = p.batches * p.m;
  // 32-bit division where the rows allow (a 64-bit one is a long
  // instruction sequence).
  const bool narrow = rows <= index_t{UINT32_MAX};
  for (index_t t = blockIdx.x * index_t{blockDim.x} + threadIdx.x; t < rows;
       t += index_t{gridDim.x} * blockDim.x) {
    index_t batch;
    unsigned i;
    if (narrow) {
      const unsigned q = static_cast<unsigned>(t) / m;
      batch = q;
      i = static_cast<unsigned>(t) - q * m;
    } else {
      batch = t / m;
      i = static_cast<unsigned>(t - batch * m);
    }
    index_t off[3];
    small_batch_offsets(p, batch, off);
    T ar[NB];
    small_load_row<T, NB>(a + off[0] + i * sa.rs, sa.cs, k, sa.rows_vector, ar);
    small_acc<T> acc[NB];
#pragma unroll
    for (unsigned l = 0; l < NB; ++l) {
      T br[NB];
      small_load_row<T, NB>(b + off[1] + (l < k ? l : k - 1) * sb.rs, sb.cs, n, sb.rows_vector, br);
      if (l < k) {
        const T ail = conj_if(ar[l], sa.conj);
#pragma unroll
        for (unsigned j = 0; j < NB; ++j) acc[j].add(ail, conj_if(br[j], sb.conj));
      }
    }
    T* crow = c + off[2] + i * sc.rs;
    const T* old = c_old ? c_old + off[2] + i * sc.rs : nullptr;
    constexpr unsigned per = static_cast<unsigned>(small_gemm_chunk_bytes / sizeof(T));
    if constexpr (small_gemm_chunk_bytes % sizeof(T) == 0 && NB % per == 0) {
      if (sc.rows_vector) {
#pragma unroll
        for (unsigned q = 0; q < NB / per; ++q)
          if (q * per < n) {
            T e[per] = {};
            if (old) {
              const int4 v = *reinterpret_cast<const int4*>(old + q * per);
              std::memcpy(e, &v, sizeof v);
            }
#pragma unroll
            for (unsigned u = 0; u < per; ++u)
              e[u] = acc[q * per + u].scaled(alpha, beta, old != nullptr, e[u]);
            int4 v;
            std::memcpy(&v, e, sizeof v);
            reinterpret_cast<int4*>(crow)[q] = v;
          }
        continue;
      }
    }
#pragma unroll
    for (unsigned j = 0; j < NB; ++j)
      if (j < n) {
        const T prev = old ? old[j * sc.cs] : T{};
        crow[j * sc.cs] = acc[j].scaled(alpha, beta, old != nullptr, prev);
      }
  }
}

// The plan's products through small_gemm_kernel (small_gemm_applies(p),
// p.batches > 0): A and B as gemm_side describes them, C at `c` with the
// plan's C strides and rows of n contiguous elements; c_old as the kernel
// takes it.
template <class T>
void device_small_gemm(const matmul_plan& p, const gemm_side& side_a, const gemm_side& side_b,
                       const T* a, const T* b, T* c, const T* c_old, cudaStream_t stream, T alpha,
                       T beta) {
  constexpr index_t size = sizeof(T);
  // A logical (r, c) lies at r * ld + c, or at c * ld + r when transposed.
  const auto walk = [&](int s, index_t r, index_t cols, const gemm_side& side, const void* base) {
    return side.trans ? small_operand_of(p, s, r, cols, 1, side.ld, side.conj, base, size)
                      : small_operand_of(p, s, r, cols, side.ld, 1, side.conj, base, size);
  };
  const small_operand sa = walk(0, p.m, p.k, side_a, a), sb = walk(1, p.k, p.n, side_b, b);
  small_operand sc = small_operand_of(p, 2, p.m, p.n, p.n, 1, false, c, size);
  if (c_old && reinterpret_cast<std::uintptr_t>(c_old) % small_gemm_chunk_bytes != 0)
    sc.rows_vector = false;
  const index_t rows = p.batches * p.m;
  const unsigned threads = 256;
  const unsigned grid =
      static_cast<unsigned>(std::min<index_t>((rows + threads - 1) / threads, index_t{1} << 30));
  const auto launch = [&](auto kernel) {
    kernel<<<grid, threads, 0, stream>>>(a, b, c, c_old, p, sa, sb, sc, alpha, beta);
  };
  const index_t widest = std::max(p.n, p.k);
  const bool square = p.n == p.k;
  if (widest <= 4) {
    square&& widest == 4 ? launch(small_gemm_kernel<T, 4, true>)
                         : launch(small_gemm_kernel<T, 4, false>);
  } else if (small_gemm_max_dim<T> == 8 || widest <= 8) {
    square&& widest == 8 ? launch(small_gemm_kernel<T, 8, true>)
                         : launch(small_gemm_kernel<T, 8, false>);
  } else if constexpr (small_gemm_max_dim<T> == 16) {
    square&& widest == 16 ? launch(small_gemm_kernel<T, 16, true>)
                          : launch(small_gemm_kernel<T, 16, false>);
  }
  cuda::check_last_launch("matmul small-product kernel");
}

#endif  // __CUDACC__

}  // namespace cupp::detail
