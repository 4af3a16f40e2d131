// The device side of outer mode (dimension 0 kept): each thread holds the
// accumulators of one chunk of neighbouring results while the rows of its
// block share the reduced positions and combine through shared memory; and
// the flat outer mode, where dense rows of a few results are walked with
// bare vector loads.
#pragma once

#include <cupp/detail/elementwise/evaluators.hpp>
#include <cupp/detail/reduce/grid.hpp>
#include <cupp/detail/reduce/primitives.hpp>

namespace cupp::detail {

#if defined(__CUDACC__)

// Flat outer mode: a thread's accumulators belong to the columns of chunk
// (first mod chunks0); lanes of a warp with the same columns combine through
// shuffles, the warps through shared memory.
template <int N, class Red, class E, class Out>
__device__ inline void flat_outer_reduce(const E& e, const result_writer<Red, Out>& w,
                                         typename Red::acc_type* partial, const reduce_grid& g) {
  using A = typename Red::acc_type;
  using R = typename E::regs;
  const Red& red = w.red;
  const index_t step = static_cast<index_t>(gridDim.x) * reduce_threads;
  const index_t first = static_cast<index_t>(blockIdx.x) * reduce_threads + threadIdx.x;
  A acc[N];
#pragma unroll
  for (int j = 0; j < N; ++j) acc[j] = red.identity();
  dense_walk<N>(e, first, g.chunks0 * g.work, step, [&](const R& r, index_t) {
#pragma unroll
    for (int j = 0; j < N; ++j) acc[j] = red.combine(acc[j], red.map(e.value(r, j), 0));
  });
  const int lanes = static_cast<int>(g.chunks0);
#pragma unroll
  for (int j = 0; j < N; ++j)
    for (int s = 16; s >= lanes; s >>= 1) acc[j] = red.combine(acc[j], shuffle_down(acc[j], s, 32));
  constexpr int warps = reduce_threads / 32;
  __shared__ alignas(16) unsigned char raw[warps * 32 * sizeof(A)];
  A* sm = reinterpret_cast<A*>(raw);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane < lanes)
#pragma unroll
    for (int j = 0; j < N; ++j) sm[warp * 32 + lane * N + j] = acc[j];
  __syncthreads();
  if (threadIdx.x < g.n0) {
    A a = sm[threadIdx.x];
    for (int k = 1; k < warps; ++k) a = red.combine(a, sm[k * 32 + threadIdx.x]);
    if (gridDim.x == 1) {
      const index_t c[kernel_dims] = {threadIdx.x};
      w.write(a, c, 2);
    } else {
      partial[static_cast<index_t>(blockIdx.x) * g.results + threadIdx.x] = a;
    }
  }
}

template <int N, int ND, class Red, class E, class P, class Out>
__device__ inline void outer_reduce(const E& e, const P& pos, const result_writer<Red, Out>& w,
                                    typename Red::acc_type* partial, const reduce_grid& g) {
  using A = typename Red::acc_type;
  const Red& red = w.red;
  if constexpr (ND == 2 && has_dense_load<E> && !Red::needs_index) {
    if (g.flat) {
      flat_outer_reduce<N>(e, w, partial, g);
      return;
    }
  }
  constexpr int U = 4;
  __shared__ alignas(16) unsigned char raw[reduce_threads * sizeof(A)];
  A* sm = reinterpret_cast<A*>(raw);
  const int lx = threadIdx.x % g.tx, ly = threadIdx.x / g.tx;
  const index_t begin = static_cast<index_t>(blockIdx.y) * g.seg_len;
  const index_t end = begin + g.seg_len < g.work ? begin + g.seg_len : g.work;
  const index_t blocks = g.col_groups * g.teams;
  for (index_t b = blockIdx.x; b < blocks; b += gridDim.x) {
    const index_t o2 = b / g.col_groups;
    const index_t x = (b - o2 * g.col_groups) * g.tx + lx;
    index_t c[kernel_dims] = {};
    decode_dims<ND>(g, o2, 1, g.kept_dims + 1, c);
    const bool valid = x < g.chunks0;
    c[0] = x * N;
    const int count = valid ? static_cast<int>(g.n0 - c[0] < N ? g.n0 - c[0] : N) : 0;
    A acc[N];
#pragma unroll
    for (int j = 0; j < N; ++j) acc[j] = red.identity();
    if (valid) {
      index_t t = begin + ly;
      const index_t step = g.ty;
      for (; t + (U - 1) * step < end; t += U * step) {
        typename E::regs r[U];
        index_t p0[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
          decode_dims<ND>(g, t + u * step, g.kept_dims + 1, g.nd, c);
          p0[u] = Red::needs_index ? pos.at(c, ND) : 0;
          e.load(r[u], c, ND, count);
        }
#pragma unroll
        for (int u = 0; u < U; ++u)
#pragma unroll
          for (int j = 0; j < N; ++j)
            if (j < count) acc[j] = red.combine(acc[j], red.map(e.value(r[u], j), p0[u]));
      }
      for (; t < end; t += step) {
        decode_dims<ND>(g, t, g.kept_dims + 1, g.nd, c);
        typename E::regs r;
        e.load(r, c, ND, count);
        const index_t p0 = Red::needs_index ? pos.at(c, ND) : 0;
#pragma unroll
        for (int j = 0; j < N; ++j)
          if (j < count) acc[j] = red.combine(acc[j], red.map(e.value(r, j), p0));
      }
    }
    // Rows of the block combine through shared memory, one result at a time.
#pragma unroll
    for (int j = 0; j < N; ++j) {
      if (g.ty > 1) {
        sm[threadIdx.x] = acc[j];
        __syncthreads();
        for (int s = g.ty / 2; s > 0; s >>= 1) {
          if (ly < s) sm[threadIdx.x] = red.combine(sm[threadIdx.x], sm[threadIdx.x + s * g.tx]);
          __syncthreads();
        }
        if (ly == 0) acc[j] = sm[threadIdx.x];
        __syncthreads();
      }
    }
    if (ly == 0 && valid) {
#pragma unroll
      for (int j = 0; j < N; ++j) {
        if (j >= count) break;
        index_t cj[kernel_dims];
#pragma unroll
        for (int k = 0; k < kernel_dims; ++k) cj[k] = c[k];
        cj[0] = c[0] + j;
        if (g.segments == 1)
          w.write(acc[j], cj, ND);
        else
          partial[static_cast<index_t>(blockIdx.y) * g.results + result_index(g, cj)] = acc[j];
      }
    }
  }
}

#endif  // __CUDACC__

}  // namespace cupp::detail
