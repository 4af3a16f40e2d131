// The kernels (and the host loop) that run a reduction over a planned
// layout (detail/reduce/plan.hpp). Dimension 0 is the fastest in memory; the kernel
// dimensions 1 .. kept_dims are kept, the rest reduced.
//
// Inner mode (dimension 0 reduced): a team of lanes per result reads whole
// 16-byte chunks along dimension 0; teams of 1 to 32 lanes reduce through
// warp shuffles, a team of a whole block through cub::BlockReduce, and when
// few results share a lot of work, several blocks split each result's work
// and a second kernel combines their partial results.
//
// Outer mode (dimension 0 kept): each thread holds the accumulators of one
// chunk of neighbouring results and walks the reduced positions; the block's
// rows share the reduced positions (a warp reads neighbouring chunks, so
// every access is coalesced) and combine through shared memory; several
// blocks split the reduced positions when the results alone cannot fill the
// device, again with a second kernel.
//
// The modes' device code is in detail/reduce/inner.hpp and outer.hpp, the
// split of the work over the device in detail/reduce/grid.hpp; this file
// holds the kernels themselves, their launch, and the host loop.
#pragma once

#include <algorithm>
#include <atomic>
#include <vector>

#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/elementwise/evaluators.hpp>
#include <cupp/detail/reduce/grid.hpp>
#include <cupp/detail/reduce/inner.hpp>
#include <cupp/detail/reduce/outer.hpp>
#include <cupp/detail/reduce/plan.hpp>

#if defined(__CUDACC__)
#include <cub/block/block_reduce.cuh>
#endif

// Resident 256-thread blocks per SM the reduction kernels are built for:
// their registers are bounded to allow them. Two (128 registers) keep four
// chunks in flight per thread over six generic coordinates without
// spilling; four (64 registers) spilled 200-1000 bytes per thread.
#ifndef CUPP_REDUCE_MIN_BLOCKS
#define CUPP_REDUCE_MIN_BLOCKS 2
#endif

namespace cupp::detail {

// The dimensions the device kernels walk in one pass, 2 to kernel_dims: a
// layout that merges into more is materialised first (detail/reduce/
// engine.hpp). The kernels for 3 to 6 dimensions are two fifths of a
// reduction's device code per dtype; a program may trade them for the
// copy: with 2, a new dtype's sum(x * y, 1) compiles 7.4k PTX lines instead
// of 12.6k (with 3, 11.2k), and a middle-axis reduction of a 3-d array
// reads and writes a transposed copy first (three times the traffic of one
// pass). The default, 6, keeps every layout of up to six dimensions in one
// pass.
#ifndef CUPP_REDUCE_KERNEL_DIMS
#define CUPP_REDUCE_KERNEL_DIMS 6
#endif
inline constexpr int reduce_kernel_dims = CUPP_REDUCE_KERNEL_DIMS;
static_assert(reduce_kernel_dims >= 2 && reduce_kernel_dims <= kernel_dims,
              "cupp: CUPP_REDUCE_KERNEL_DIMS is 2 to 6");

#if defined(__CUDACC__)

// Kernels of their own per mode, so that each gets its own register
// allocation, and per number of dimensions: with ND = 2 (every 1-d and 2-d
// problem after merging) the coordinate code shrinks to one axis, which
// leaves the registers for four blocks per SM.
template <int ND>
inline constexpr int reduce_min_blocks =
    ND <= 2 ? CUPP_REDUCE_MIN_BLOCKS + 1 : CUPP_REDUCE_MIN_BLOCKS;

// General: only the walks that serve every layout (materialised operands).
template <int N, int ND, bool General, class Red, class E, class P, class Out>
__global__ void __launch_bounds__(reduce_threads, reduce_min_blocks<ND>)
    reduce_inner_kernel(const __grid_constant__ E e, const __grid_constant__ P pos,
                        const __grid_constant__ result_writer<Red, Out> w,
                        typename Red::acc_type* partial, const __grid_constant__ reduce_grid g) {
  inner_reduce<N, ND, General>(e, pos, w, partial, g);
}
template <int N, int ND, class Red, class E, class P, class Out>
__global__ void __launch_bounds__(reduce_threads, reduce_min_blocks<ND>)
    reduce_outer_kernel(const __grid_constant__ E e, const __grid_constant__ P pos,
                        const __grid_constant__ result_writer<Red, Out> w,
                        typename Red::acc_type* partial, const __grid_constant__ reduce_grid g) {
  outer_reduce<N, ND>(e, pos, w, partial, g);
}

// InnerOnly: the plan is known to be two dimensions with dimension 0
// reduced (materialised operands), and the other kernels are not compiled.
template <int N, bool InnerOnly, class Red, class E, class P, class Out>
void launch_reduce_pass(const dim3& grid, const E& e, const P& pos,
                        const result_writer<Red, Out>& w, typename Red::acc_type* partial,
                        const reduce_grid& g, cudaStream_t stream) {
  if constexpr (InnerOnly) {
    reduce_inner_kernel<N, 2, true><<<grid, reduce_threads, 0, stream>>>(e, pos, w, partial, g);
  } else if (g.nd <= 2) {
    if (g.inner)
      reduce_inner_kernel<N, 2, false><<<grid, reduce_threads, 0, stream>>>(e, pos, w, partial, g);
    else
      reduce_outer_kernel<N, 2><<<grid, reduce_threads, 0, stream>>>(e, pos, w, partial, g);
  } else if constexpr (reduce_kernel_dims > 2) {
    if (g.inner)
      reduce_inner_kernel<N, reduce_kernel_dims, false>
          <<<grid, reduce_threads, 0, stream>>>(e, pos, w, partial, g);
    else
      reduce_outer_kernel<N, reduce_kernel_dims>
          <<<grid, reduce_threads, 0, stream>>>(e, pos, w, partial, g);
  }
  cuda::check_last_launch("reduction kernel");
}

// The second pass: each result from its segments' partial results.
template <class Red, class Out>
__global__ void __launch_bounds__(reduce_threads)
    reduce_finish_kernel(const typename Red::acc_type* partial,
                         const __grid_constant__ result_writer<Red, Out> w,
                         const __grid_constant__ reduce_grid g) {
  using A = typename Red::acc_type;
  const Red& red = w.red;
  if (g.finish_block) {
    using block_reduce = cub::BlockReduce<A, reduce_threads>;
    __shared__ typename block_reduce::TempStorage temp;
    for (index_t l = blockIdx.x; l < g.results; l += gridDim.x) {
      A acc = red.identity();
      for (index_t s = threadIdx.x; s < g.segments; s += reduce_threads)
        acc = red.combine(acc, partial[s * g.results + l]);
      acc = block_reduce(temp).Reduce(acc, combine_fn<Red>{red});
      if (threadIdx.x == 0) {
        index_t c[kernel_dims];
        result_coords(g, l, c);
        w.write(acc, c, g.nd);
      }
      __syncthreads();
    }
    return;
  }
  const index_t step = static_cast<index_t>(gridDim.x) * reduce_threads;
  for (index_t l = static_cast<index_t>(blockIdx.x) * reduce_threads + threadIdx.x; l < g.results;
       l += step) {
    A acc = red.identity();
    for (index_t s = 0; s < g.segments; ++s) acc = red.combine(acc, partial[s * g.results + l]);
    index_t c[kernel_dims];
    result_coords(g, l, c);
    w.write(acc, c, g.nd);
  }
}

inline unsigned reduce_blocks_x(const reduce_grid& g) {
  const index_t cap = std::max<index_t>(1, g.slots / g.segments);
  index_t want;
  if (!g.inner)
    want = g.col_groups * g.teams;
  else if (g.team <= 32)
    want = (g.teams * g.team + reduce_threads - 1) / reduce_threads;
  else if (g.segments == 1)
    // A block per result, every result its own block: the hardware hands
    // rows to multiprocessors as they free up, where a capped grid leaves
    // the last wave's blocks to walk several rows while others idle (the
    // row sum of 16384^2 float32 on an H200: 0.2366 ms against 0.2508 with
    // two waves, and CuPy's segmented reduce 0.2403).
    return static_cast<unsigned>(std::clamp<index_t>(g.teams, 1, 0x7fffffff));
  else
    want = g.teams;
  return static_cast<unsigned>(std::max<index_t>(1, std::min(want, cap)));
}

// The blocks of the kernel that runs plan p that the device holds at once,
// asked once per kernel and device: the grids are sized in waves of them.
template <int N, bool InnerOnly, class Red, class E, class P, class Out>
index_t reduce_resident_blocks(const reduce_plan& p, int device) {
  const bool inner = p.reduced & 1;
  const int kind = InnerOnly ? 0 : (p.nd <= 2 ? 0 : 2) + (inner ? 0 : 1);
  static std::atomic<int> cache[4][64] = {};
  const bool cached = device >= 0 && device < 64;
  int n = cached ? cache[kind][device].load(std::memory_order_relaxed) : 0;
  if (n == 0) {
    const void* k =
        reinterpret_cast<const void*>(&reduce_inner_kernel<N, 2, InnerOnly, Red, E, P, Out>);
    if constexpr (!InnerOnly) {
      if (kind == 1) k = reinterpret_cast<const void*>(&reduce_outer_kernel<N, 2, Red, E, P, Out>);
      if constexpr (reduce_kernel_dims > 2) {
        constexpr int W = reduce_kernel_dims;
        if (kind == 2)
          k = reinterpret_cast<const void*>(&reduce_inner_kernel<N, W, false, Red, E, P, Out>);
        if (kind == 3)
          k = reinterpret_cast<const void*>(&reduce_outer_kernel<N, W, Red, E, P, Out>);
      }
    }
    cuda::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, reduce_threads, 0),
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    n = std::max(n, 1);
    if (cached) cache[kind][device].store(n, std::memory_order_relaxed);
  }
  return static_cast<index_t>(n) * cuda::runtime::getDeviceProperties(device).multiProcessorCount;
}

template <int N, bool InnerOnly, class Red, class E, class P, class Out>
void launch_reduce(const E& e, const P& pos, const result_writer<Red, Out>& w, const reduce_grid& g,
                   cudaStream_t stream) {
  using A = typename Red::acc_type;
  static_assert(
      sizeof(E) + sizeof(P) + sizeof(result_writer<Red, Out>) + sizeof(reduce_grid) <= 32000,
      "cupp: this expression is too large for one kernel's parameters; evaluate "
      "part of it first with .eval()");
  const dim3 grid = g.flat ? dim3(static_cast<unsigned>(g.flat_blocks))
                           : dim3(reduce_blocks_x(g), static_cast<unsigned>(g.segments));
  if (g.segments == 1) {
    launch_reduce_pass<N, InnerOnly>(grid, e, pos, w, nullptr, g, stream);
    return;
  }
  auto mem = cuda::alloc(static_cast<std::size_t>(g.segments * g.results) * sizeof(A));
  A* partial = static_cast<A*>(mem.get());
  launch_reduce_pass<N, InnerOnly>(grid, e, pos, w, partial, g, stream);
  const index_t cap = g.slots;
  const index_t blocks = g.finish_block
                             ? std::min(g.results, cap)
                             : std::min((g.results + reduce_threads - 1) / reduce_threads, cap);
  reduce_finish_kernel<Red, Out>
      <<<static_cast<unsigned>(std::max<index_t>(blocks, 1)), reduce_threads, 0, stream>>>(partial,
                                                                                           w, g);
  cuda::check_last_launch("reduction kernel");
}

#endif  // __CUDACC__

// The host backend: one pass over the elements in memory order into an
// accumulator per result.
template <int N, class Red, class E, class P, class Out>
void host_reduce(const E& e, const P& pos, const result_writer<Red, Out>& w, const reduce_grid& g) {
  using A = typename Red::acc_type;
  const Red& red = w.red;
  std::vector<A> acc(static_cast<std::size_t>(g.results), red.identity());
  index_t c[kernel_dims] = {};
  for (;;) {
    const index_t base = [&] {
      index_t l = 0;
      for (int k = g.kept_dims; k >= 1; --k) l = l * g.ext[k] + c[k];
      return l;
    }();
    for (c[0] = 0; c[0] < g.n0; c[0] += N) {
      const int count = static_cast<int>(std::min<index_t>(N, g.n0 - c[0]));
      typename E::regs r{};  // a partial chunk loads only `count` (-Wmaybe-uninitialized)
      e.load(r, c, g.nd, count);
      index_t p0 = 0;
      if constexpr (Red::needs_index) p0 = pos.at(c, g.nd);
      for (int j = 0; j < count; ++j) {
        const index_t l = g.inner ? base : base * g.n0 + c[0] + j;
        index_t i = 0;
        if constexpr (Red::needs_index) i = p0 + j * pos.st[0];
        acc[l] = red.combine(acc[l], red.map(e.value(r, j), i));
      }
    }
    c[0] = 0;
    int k = 1;
    for (; k < g.nd; ++k) {
      if (++c[k] < g.ext[k]) break;
      c[k] = 0;
    }
    if (k >= g.nd) break;
  }
  for (index_t l = 0; l < g.results; ++l) {
    result_coords(g, l, c);
    w.write(acc[l], c, g.nd);
  }
}

}  // namespace cupp::detail
