// The one element-wise kernel (and the one host loop) that runs an
// evaluator (detail/elementwise/evaluators.hpp) into a writer
// (detail/elementwise/writers.hpp): the iteration space of a launch, its
// grid, the kernel and its launch.
#pragma once

#include <algorithm>
#include <cstdint>

#include <cupp/config.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/driver_launch.hpp>
#include <cupp/detail/elementwise/evaluators.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// The iteration space of one launch: chunks of N elements along axis 0,
// rows over the other kernel dimensions.
struct grid_params {
  int nd = 1;
  bool wide = false;  // 64-bit index arithmetic (more than 2^31 chunks)
  index_t n0 = 1;     // extent of axis 0
  index_t chunks_per_row = 1;
  index_t chunks = 0;
  index_t rows = 1;
  // Threads walk rows (blockIdx.y) and the chunks of a row (x), so that a
  // row's coordinates are decoded once for several chunks; short rows use
  // one flat chunk index instead, so that no thread idles.
  bool row_mode = false;
  // One chunk a thread over the whole array (launch_blocks): set by the
  // caller for one-row launches that stream several arrays.
  bool covering = false;
  // One dimension, every operand and output dense and aligned: whole chunks
  // go through bare vector loads and stores (set by the caller).
  bool dense = false;
  index_t shape[kernel_dims] = {};
  fast_divmod row_div;
  fast_divmod dim_div[kernel_dims];
};

inline grid_params make_grid(const elementwise_plan& p, int kd, int N) CUPP_HOST_BODY({
  grid_params g;
  g.nd = kd;
  g.n0 = p.shape[0];
  g.chunks_per_row = (g.n0 + N - 1) / N;
  index_t rows = 1;
  for (int k = 0; k < kd; ++k) g.shape[k] = p.shape[k];
  for (int k = 1; k < kd; ++k) rows *= p.shape[k];
  g.chunks = rows * g.chunks_per_row;
  g.rows = rows;
  g.row_mode = g.chunks_per_row >= 64;
  g.wide = g.chunks >= (index_t{1} << 31);
  g.row_div = fast_divmod(static_cast<std::uint64_t>(g.chunks_per_row));
  for (int k = 1; k < kd; ++k) g.dim_div[k] = fast_divmod(static_cast<std::uint64_t>(p.shape[k]));
  return g;
});

// q = n / d and n -= q * d, in the width the launch chose.
CUPP_HD inline index_t divide(const grid_params& g, const fast_divmod& d, index_t& n) {
  index_t q;
  if (!g.wide)
    q = d.div(static_cast<std::uint32_t>(n));
  else
    q = static_cast<index_t>(d.div64(static_cast<std::uint64_t>(n)));
  n -= q * static_cast<index_t>(d.divisor);
  return q;
}

// Coordinates 1 .. nd-1 of a row.
CUPP_HD inline void row_coords(const grid_params& g, index_t row, index_t* c) {
  CUPP_UNROLL
  for (int k = 1; k < kernel_dims; ++k) {
    if (k < g.nd) {
      const index_t q = divide(g, g.dim_div[k], row);
      c[k] = row;
      row = q;
    } else {
      c[k] = 0;
    }
  }
}

// Coordinates of chunk t: c[0] is the first element's position on axis 0.
template <int N>
CUPP_HD inline void chunk_coords(const grid_params& g, index_t t, index_t* c) {
  const index_t row = divide(g, g.row_div, t);
  c[0] = t * N;
  row_coords(g, row, c);
}

template <int N, class E, class O>
CUPP_HD inline void run_chunk(const E& e, const O& o, const grid_params& g, const index_t* c) {
  const int count = static_cast<int>(g.n0 - c[0] < N ? g.n0 - c[0] : N);
  // Both value-initialised: a partial chunk loads and stores only its first
  // `count`, which the host compiler cannot prove (-Wmaybe-uninitialized);
  // the device code drops the dead zeros.
  typename E::regs r{};
  e.load(r, c, g.nd, count);
  typename O::value_type v[N]{};
  CUPP_UNROLL
  for (int j = 0; j < N; ++j)
    if (j < count) v[j] = O::cast(e.value(r, j));
  o.store(v, c, g.nd, count);
}

inline constexpr int launch_threads = 256;

// The grid. `covering`: one chunk a thread over the whole array. For a
// one-row launch that streams several arrays, a grid-stride loop of 4 to 32
// blocks a multiprocessor reads 3-read-1-write float32 at 2,940-3,020 GB/s
// on an H100, a covering grid at 3,120 (the blocks stream through memory in
// order); a one-array expression with transcendentals (softplus, 2,410 ->
// 1,980 GB/s) and many-row broadcasts (outer add, 2,940 -> 1,600) lose by
// it. Otherwise enough blocks to fill the device, looping; in row mode
// each thread takes about four chunks of a row.
inline dim3 launch_blocks(const grid_params& g, int device, bool covering = false) CUPP_HOST_BODY({
  const auto& props = cuda::runtime::getDeviceProperties(device);
  const index_t cap =
      covering ? index_t{0x7fffffff} : static_cast<index_t>(props.multiProcessorCount) * 16;
  if (!g.row_mode) {
    const index_t wanted = (g.chunks + launch_threads - 1) / launch_threads;
    return dim3(static_cast<unsigned>(std::max<index_t>(1, std::min(wanted, cap))));
  }
  if (covering) {  // one chunk a thread along the rows, rows looped past 65535
    const index_t x = std::max<index_t>(
        1, std::min<index_t>(cap, (g.chunks_per_row + launch_threads - 1) / launch_threads));
    return dim3(static_cast<unsigned>(x),
                static_cast<unsigned>(std::max<index_t>(1, std::min(g.rows, index_t{65535}))));
  }
  const index_t x = std::max<index_t>(
      1, std::min(cap, (g.chunks_per_row + 4 * launch_threads - 1) / (4 * launch_threads)));
  const index_t y = std::max<index_t>(1, std::min({g.rows, index_t{65535}, cap / x}));
  return dim3(static_cast<unsigned>(x), static_cast<unsigned>(y));
});
inline void check_launch() {
  cuda::check_last_launch("element-wise kernel");
}

#if defined(__CUDACC__)
template <int N, class E, class O>
__global__ void __launch_bounds__(256, resident_blocks_bound(256, eval_min_blocks<E>()))
    elementwise_kernel(const E e, const O o, const grid_params g) {
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  const index_t first = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  // Two loops, two copies of the chunk's code: in row mode the offsets of a
  // row stay out of the inner loop, which one merged loop could not keep
  // (the outer broadcast add ran 1.6x slower with one loop).
  if (g.row_mode && !g.dense) {
    for (index_t row = blockIdx.y; row < g.rows; row += gridDim.y) {
      index_t c[kernel_dims];
      row_coords(g, row, c);
      for (index_t x = first; x < g.chunks_per_row; x += step) {
        c[0] = x * N;
        run_chunk<N>(e, o, g, c);
      }
    }
    return;
  }
  // Dense one-dimensional launches load and store whole chunks bare, with
  // no coordinates, offsets or per-chunk layout tests: a 1000-element
  // x * y + w ran 309 instructions a warp through the general chunk, 135
  // so, and small kernels (graph nodes) last as long as their one thread's
  // path. The arithmetic between stays one copy, for compile time.
  constexpr bool dense_capable =
      has_dense_load<E> && requires(const O& out, const typename O::value_type* v) {
    out.store_dense(v, index_t{});
  };
  const index_t full = dense_capable && g.dense ? g.n0 / N : 0;
  for (index_t t = first; t < g.chunks; t += step) {
    const bool bare = t < full;
    index_t c[kernel_dims];
    int count = N;
    typename E::regs r{};
    if constexpr (dense_capable) {
      if (bare) e.load_dense(r, t * N);
    }
    if (!bare) {
      chunk_coords<N>(g, t, c);
      count = static_cast<int>(g.n0 - c[0] < N ? g.n0 - c[0] : N);
      e.load(r, c, g.nd, count);
    }
    typename O::value_type v[N]{};
    CUPP_UNROLL
    for (int j = 0; j < N; ++j)
      if (j < count) v[j] = O::cast(e.value(r, j));
    if constexpr (dense_capable) {
      if (bare) {
        o.store_dense(v, t * N);
        continue;
      }
    }
    o.store(v, c, g.nd, count);
  }
}

// The launch once a kernel's arguments are laid out (argv: their
// addresses): its grid and the driver's call. Not inlined: one copy serves
// every element-wise kernel.
[[gnu::noinline]] inline void launch_elementwise_args(const void* kernel, const grid_params& g,
                                                      bool covering, int device,
                                                      cudaStream_t stream, void** argv)
    CUPP_HOST_BODY({
      launch_function(kernel, device, launch_blocks(g, device, covering), dim3(launch_threads), 0,
                      stream, "element-wise kernel", argv);
    });

template <int N, class E, class O>
inline void launch_elementwise(const E& e, const O& o, const grid_params& g, int device,
                               cudaStream_t stream) {
  static_assert(sizeof(E) + sizeof(O) + sizeof(grid_params) <= 32000,
                "cupp: this expression is too large for one kernel's parameters; evaluate "
                "part of it first with .eval()");
  // Chunks wider than 16 bytes are what draws bound by arithmetic ask for.
  constexpr bool narrow = N * sizeof(typename O::value_type) <= 16;
  void* argv[] = {const_cast<E*>(&e), const_cast<O*>(&o), const_cast<grid_params*>(&g)};
  launch_elementwise_args(reinterpret_cast<const void*>(elementwise_kernel<N, E, O>), g,
                          narrow && g.covering, device, stream, argv);
}
#endif

// The same iteration on the host: rows walked with an odometer.
template <int N, class E, class O>
inline void host_elementwise(const E& e, const O& o, const grid_params& g) {
  index_t c[kernel_dims] = {};
  const index_t rows = g.chunks / g.chunks_per_row;
  for (index_t row = 0; row < rows; ++row) {
    for (c[0] = 0; c[0] < g.n0; c[0] += N) run_chunk<N>(e, o, g, c);
    c[0] = 0;
    for (int k = 1; k < g.nd; ++k) {
      if (++c[k] < g.shape[k]) break;
      c[k] = 0;
    }
  }
}

}  // namespace cupp::detail
