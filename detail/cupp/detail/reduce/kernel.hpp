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
#pragma once

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/elementwise/kernel.hpp>
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

// The position of each element within the reduced axes (argmin, argmax).
struct position_eval {
  index_t base = 0;
  index_t st[kernel_dims] = {};
  CUPP_HD index_t at(const index_t* c, int nd) const { return base + chunk_offset(st, c, nd); }
};

// Where and how results are written: the result's strides over the kernel
// dimensions (0 along reduced ones), and initial=, applied once.
template <class Red, class Out>
struct result_writer {
  using A = typename Red::acc_type;
  Red red;
  char* data;
  index_t st[kernel_dims];
  index_t n;  // elements per result
  bool has_initial;
  A initial;

  CUPP_HD void write(A a, const index_t* c, int nd) const {
    if (has_initial) a = red.combine(initial, a);
    *reinterpret_cast<Out*>(data + chunk_offset(st, c, nd)) = red.template finish<Out>(a, n);
  }
};

struct reduce_grid {
  int nd = 1;
  int kept_dims = 0;  // dimensions 1 .. kept_dims are kept
  bool inner = true;  // dimension 0 is reduced
  index_t n0 = 1, chunks0 = 1;
  index_t ext[kernel_dims] = {};
  fast_divmod div[kernel_dims];
  fast_divmod n0_div, chunks0_div;
  index_t teams = 1;    // inner: results (kept positions); outer: other kept positions
  index_t work = 1;     // inner: chunks per result; outer: reduced positions
  index_t results = 1;  // all kept positions (partial results' stride)
  int team = 1;         // inner: lanes per result (1 .. 32, or 256: a block)
  int tx = 32, ty = 8;  // outer: the block's shape
  index_t col_groups = 1;
  index_t segments = 1;  // blocks sharing one result's work
  index_t seg_len = 1;
  int finish_block = 0;  // second pass: one block per result
  bool ordered = false;  // each lane meets the reduced positions in increasing order
  index_t slots = 1;     // blocks in flight (the grid's cap)
  // Flat modes: a full reduction of n0 elements that every operand stores
  // one after another (dense_loadable): chunks0 whole chunks walked with
  // bare vector loads by flat_blocks blocks, one partial result per block
  // (segments = flat_blocks); or (flat_rows) `teams` dense rows of one or
  // two chunks each, a thread per row, written directly (segments = 1).
  bool flat = false;
  bool flat_rows = false;
  index_t flat_blocks = 1;
};

// c[k] for lo <= k < hi from a linear index (dimension lo fastest).
template <int ND = kernel_dims>
CUPP_HD inline void decode_dims(const reduce_grid& g, index_t v, int lo, int hi, index_t* c) {
  CUPP_UNROLL
  for (int k = 1; k < ND; ++k) {
    if (k >= lo && k < hi) {
      if (k + 1 < hi) {
        const index_t q = static_cast<index_t>(g.div[k].div64(static_cast<std::uint64_t>(v)));
        c[k] = v - q * g.ext[k];
        v = q;
      } else {
        c[k] = v;
      }
    }
  }
}

// Inner mode: chunk w of a result's work.
template <int ND>
CUPP_HD inline void inner_work_coords(const reduce_grid& g, index_t w, index_t* c) {
  index_t r = 0;
  if (g.nd > g.kept_dims + 1) {
    r = static_cast<index_t>(g.chunks0_div.div64(static_cast<std::uint64_t>(w)));
    w -= r * g.chunks0;
  }
  c[0] = w;
  decode_dims<ND>(g, r, g.kept_dims + 1, g.nd, c);
}

// The linear index of a result from its kept coordinates and back.
CUPP_HD inline index_t result_index(const reduce_grid& g, const index_t* c) {
  index_t l = 0;
  CUPP_UNROLL
  for (int k = kernel_dims - 1; k >= 1; --k)
    if (k <= g.kept_dims) l = l * g.ext[k] + c[k];
  return g.inner ? l : l * g.n0 + c[0];
}
CUPP_HD inline void result_coords(const reduce_grid& g, index_t l, index_t* c) {
  CUPP_UNROLL
  for (int k = 0; k < kernel_dims; ++k) c[k] = 0;
  if (!g.inner) {
    const index_t q = static_cast<index_t>(g.n0_div.div64(static_cast<std::uint64_t>(l)));
    c[0] = l - q * g.n0;
    l = q;
  }
  decode_dims(g, l, 1, g.kept_dims + 1, c);
}

// How reductions split their work; the defaults come from the H100 sweeps
// of bench/reduction.cu (--sweep), which sets these to compare settings.
struct reduce_tuning_t {
  // Blocks in flight per launch, in waves of the blocks the device holds at
  // once: a result's work is split into segments (and a grid capped) so that
  // this many waves run.
  int waves = 2;
  // Outer mode: the rows of a block share the reduced positions only while
  // each row keeps a run of at least this many (loads in flight); a shorter
  // run widens the block along the kept fastest axis instead.
  int outer_min_run = 8;
  // Flat mode: waves of resident blocks. One: with more, argmax's blocks
  // wait for a second wave (2^28 float32: 86% of copy bandwidth with one,
  // 78% with two, in a hand-written version of the same walk).
  int flat_waves = 1;
};
inline reduce_tuning_t& reduce_tuning() {
  static reduce_tuning_t t;
  return t;
}

// How a reduction of this layout is split over the device (non-template);
// `resident`: the blocks of its kernel the device holds at once (1 on the
// host).
inline reduce_grid make_reduce_grid(const reduce_plan& p, int N, index_t resident) {
  const reduce_tuning_t& tune = reduce_tuning();
  reduce_grid g;
  g.nd = p.nd;
  g.kept_dims = p.kept_dims;
  g.inner = p.reduced & 1;
  g.n0 = p.shape[0];
  g.chunks0 = (g.n0 + N - 1) / N;
  g.n0_div = fast_divmod(static_cast<std::uint64_t>(g.n0));
  g.chunks0_div = fast_divmod(static_cast<std::uint64_t>(g.chunks0));
  index_t kept_other = 1, red_other = 1;
  for (int k = 1; k < p.nd; ++k) {
    g.ext[k] = p.shape[k];
    g.div[k] = fast_divmod(static_cast<std::uint64_t>(p.shape[k]));
    if (k <= p.kept_dims)
      kept_other *= p.shape[k];
    else
      red_other *= p.shape[k];
  }
  g.results = p.outputs;
  const index_t slots = std::max<index_t>(resident, 1) * std::max(tune.waves, 1);
  if (g.inner) {
    g.teams = kept_other;
    g.work = g.chunks0 * red_other;
    if (g.work <= 32) {  // a lane per chunk
      int t = 1;
      while (t < g.work) t *= 2;
      g.team = t;
    } else if (g.work <= 2048 || g.teams >= slots * 8) {  // a warp per result
      g.team = 32;
    } else {
      g.team = 256;
      g.segments = std::max<index_t>(
          1, std::min<index_t>((slots + g.teams - 1) / g.teams, g.work / (256 * 8)));
    }
  } else {
    int tx = 1;
    while (tx < 32 && tx < g.chunks0) tx *= 2;
    int ty = 256 / tx;
    while (ty > 1 && g.work < static_cast<index_t>(ty) * tune.outer_min_run && tx < g.chunks0) {
      ty /= 2;
      tx *= 2;
    }
    g.tx = tx;
    g.ty = ty;
    g.col_groups = (g.chunks0 + tx - 1) / tx;
    g.teams = kept_other;
    g.work = red_other;
    const index_t blocks = g.col_groups * g.teams;
    g.segments =
        std::max<index_t>(1, std::min<index_t>((slots + blocks - 1) / blocks, g.work / (g.ty * 8)));
  }
  g.segments = std::min<index_t>(g.segments, 65535);
  g.slots = slots;
  g.seg_len = (g.work + g.segments - 1) / g.segments;
  g.segments = (g.work + g.seg_len - 1) / g.seg_len;
  g.finish_block = g.results * 32 < slots * 256 && g.segments > 32;
  return g;
}

// Flat mode's split: enough blocks that each thread keeps four chunks (or
// rows) in flight, at most the waves of resident blocks the tuning asks for.
inline constexpr index_t flat_block_span = index_t{4} * 256;
inline index_t flat_blocks_for(index_t items, index_t slots) {
  return std::clamp<index_t>((items + flat_block_span - 1) / flat_block_span, 1, slots);
}
inline reduce_grid make_flat_grid(index_t n, int N, index_t resident) {
  reduce_grid g;
  g.flat = true;
  g.n0 = n;
  g.chunks0 = n / N;
  g.slots = std::max<index_t>(resident, 1) * std::max(reduce_tuning().flat_waves, 1);
  g.segments = flat_blocks_for(g.chunks0, g.slots);
  g.flat_blocks = g.segments;
  g.finish_block = g.segments > 32;
  return g;
}

// Flat rows mode: rows of one or two whole chunks, stored one after
// another, each reduced by one thread that keeps four rows' loads in flight
// (lanes sharing a row would combine through shuffles for no gain).
inline bool flat_rows_fit(index_t n0, int N) {
  return n0 % N == 0 && n0 / N <= 2;
}
inline reduce_grid make_flat_rows_grid(index_t n0, index_t rows, int N, index_t resident) {
  reduce_grid g = make_flat_grid(n0 * rows, N, resident);
  g.flat_rows = true;
  g.nd = 2;
  g.kept_dims = 1;
  g.n0 = n0;
  g.chunks0 = n0 / N;
  g.teams = rows;
  g.results = rows;
  g.flat_blocks = flat_blocks_for(rows, g.slots);
  g.segments = 1;
  g.finish_block = false;
  return g;
}

// Flat outer mode: rows of n0 results (at most 32, whole chunks, a power of
// two of them) stored one after another, reduced over the rows: the same
// grid-stride walk over the chunks, in which every thread meets one chunk
// of columns only (the stride is a multiple of the chunks in a row).
inline bool flat_outer_fits(index_t n0, int N) {
  const index_t chunks = n0 / N;
  return n0 <= 32 && n0 % N == 0 && (chunks & (chunks - 1)) == 0;
}
inline reduce_grid make_flat_outer_grid(index_t n0, index_t rows, int N, index_t resident) {
  reduce_grid g = make_flat_grid(n0 * rows, N, resident);
  g.inner = false;
  g.nd = 2;
  g.n0 = n0;
  g.n0_div = fast_divmod(static_cast<std::uint64_t>(n0));
  g.chunks0 = n0 / N;
  g.work = rows;
  g.results = n0;
  g.finish_block = g.results * 32 < g.slots * 256 && g.segments > 32;
  return g;
}

// Whether every lane meets the reduced positions (position strides st over
// the kernel dimensions) in increasing order: dimension 0 first when it is
// reduced, then the reduced dimensions from the fastest, each step past
// everything the faster ones reach.
inline bool walks_in_order(const reduce_grid& g, const index_t* st) {
  index_t reach = 0;
  for (int k = g.inner ? 0 : g.kept_dims + 1; k < g.nd; ++k) {
    if (k > 0 && k <= g.kept_dims) continue;
    const index_t ext = k == 0 ? g.n0 : g.ext[k];
    if (ext == 1) continue;
    if (st[k] <= reach) return false;
    reach += st[k] * (ext - 1);
  }
  return true;
}

#if defined(__CUDACC__)

template <class T>
__device__ inline T shuffle_down(const T& v, int delta, int width) {
  constexpr int W = (sizeof(T) + 3) / 4;
  unsigned int words[W] = {};
  memcpy(words, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < W; ++i) words[i] = __shfl_down_sync(0xffffffffu, words[i], delta, width);
  T r;
  memcpy(&r, words, sizeof(T));
  return r;
}

template <class Red>
struct combine_fn {
  Red red;
  template <class A>
  __device__ A operator()(const A& a, const A& b) const {
    return red.combine(a, b);
  }
};

inline constexpr int reduce_threads = 256;

// What the elements of one loaded chunk reduce to; p0 is the position of
// its first element (arg reductions). Ordered (positions increase along
// the walk, so along the chunk): an arg reduction picks the chunk's best
// element by value alone and combines it once, a third of the work.
template <int N, bool Ordered, class Red, class E>
__device__ inline void accumulate_chunk(const E& e, const Red& red, typename Red::acc_type& acc,
                                        const typename E::regs& r, index_t p0, index_t pstep,
                                        int count) {
  if constexpr (Ordered) {
    auto best = e.value(r, 0);
    int at = 0;
#pragma unroll
    for (int j = 1; j < N; ++j) {
      if (j < count) {
        const auto v = e.value(r, j);
        if (red.replaces(best, v)) {
          best = v;
          at = j;
        }
      }
    }
    acc = red.combine_ordered(acc, red.map(best, p0 + at * pstep));
  } else {
#pragma unroll
    for (int j = 0; j < N; ++j)
      if (j < count) acc = red.combine(acc, red.map(e.value(r, j), p0 + j * pstep));
  }
}

// Inner mode: chunks t, t + step, ... < end of one result, four loads in
// flight per lane. c holds the result's kept coordinates.
template <int N, int ND, bool Ordered, class Red, class E, class P>
__device__ inline void inner_accumulate_walk(const E& e, const P& pos, const Red& red,
                                             typename Red::acc_type& acc, const reduce_grid& g,
                                             index_t* c, index_t t, index_t end, index_t step) {
  constexpr int U = 4;
  for (; t + (U - 1) * step < end; t += U * step) {
    typename E::regs r[U];
    int count[U];
    index_t p0[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      inner_work_coords<ND>(g, t + u * step, c);
      c[0] *= N;
      count[u] = static_cast<int>(g.n0 - c[0] < N ? g.n0 - c[0] : N);
      p0[u] = Red::needs_index ? pos.at(c, ND) : 0;
      e.load(r[u], c, ND, count[u]);
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
      accumulate_chunk<N, Ordered>(e, red, acc, r[u], p0[u], pos.st[0], count[u]);
  }
  for (; t < end; t += step) {
    inner_work_coords<ND>(g, t, c);
    c[0] *= N;
    const int count = static_cast<int>(g.n0 - c[0] < N ? g.n0 - c[0] : N);
    const index_t p0 = Red::needs_index ? pos.at(c, ND) : 0;
    typename E::regs r;
    e.load(r, c, ND, count);
    accumulate_chunk<N, Ordered>(e, red, acc, r, p0, pos.st[0], count);
  }
}

// The walk above, ordered where the layout allows it (arg reductions only:
// the others gain nothing and keep one copy of the loop).
template <int N, int ND, class Red, class E, class P>
__device__ inline void inner_accumulate(const E& e, const P& pos, const Red& red,
                                        typename Red::acc_type& acc, const reduce_grid& g,
                                        index_t* c, index_t t, index_t end, index_t step) {
  if constexpr (requires(typename Red::acc_type a) { red.combine_ordered(a, a); }) {
    if (g.ordered) {
      inner_accumulate_walk<N, ND, true>(e, pos, red, acc, g, c, t, end, step);
      return;
    }
  }
  inner_accumulate_walk<N, ND, false>(e, pos, red, acc, g, c, t, end, step);
}

// The flat walks' loop: chunks t, t + step, ... < end, each loaded with
// one bare vector load, four in flight, handed to f(regs, chunk) in order.
template <int N, class E, class F>
__device__ inline void dense_walk(const E& e, index_t t, index_t end, index_t step, F&& f) {
  constexpr int U = 4;
  for (; t + (U - 1) * step < end; t += U * step) {
    typename E::regs r[U];
#pragma unroll
    for (int u = 0; u < U; ++u) e.load_dense(r[u], (t + u * step) * N);
#pragma unroll
    for (int u = 0; u < U; ++u) f(r[u], t + u * step);
  }
  for (; t < end; t += step) {
    typename E::regs r;
    e.load_dense(r, t * N);
    f(r, t);
  }
}

// The best of a chunk's N values by value alone (arg reductions).
template <int N, class Red, class E>
__device__ inline auto chunk_best(const E& e, const Red& red, const typename E::regs& r) {
  auto best = e.value(r, 0);
#pragma unroll
  for (int j = 1; j < N; ++j) {
    const auto v = e.value(r, j);
    best = red.replaces(best, v) ? v : best;
  }
  return best;
}

// Flat mode. Each thread walks chunks first, first + step, ... with four
// bare vector loads in flight. Arg reductions keep the best value and the
// chunk it came from, and find the element within that chunk once, after
// the walk: the per-element work is one compare and select, with no
// position arithmetic. The last partial chunk (fewer than N elements)
// belongs to the thread whose walk it continues, so every thread still
// meets its positions in increasing order.
template <int N, class Red, class E, class P, class Out>
__device__ inline void flat_reduce(const E& e, const P& pos, const result_writer<Red, Out>& w,
                                   typename Red::acc_type* partial, const reduce_grid& g) {
  using A = typename Red::acc_type;
  using R = typename E::regs;
  const Red& red = w.red;
  constexpr bool arg = requires(A a) {
    red.combine_ordered(a, a);
  };
  const index_t step = static_cast<index_t>(gridDim.x) * reduce_threads;
  const index_t first = static_cast<index_t>(blockIdx.x) * reduce_threads + threadIdx.x;
  const index_t full = g.chunks0;
  A acc = red.identity();
  if constexpr (arg) {
    index_t at_chunk = -1;
    decltype(chunk_best<N>(e, red, R{})) best{};
    if (first < full) {
      R r;
      e.load_dense(r, first * N);
      best = chunk_best<N>(e, red, r);
      at_chunk = first;
    }
    dense_walk<N>(e, first + step, full, step, [&](const R& r, index_t t) {
      const auto v = chunk_best<N>(e, red, r);
      const bool take = red.replaces(best, v);
      best = take ? v : best;
      at_chunk = take ? t : at_chunk;
    });
    if (at_chunk >= 0) {
      // The first element of the chunk that the best does not beat is the
      // best itself (the first NaN, when the best is NaN).
      R r;
      e.load_dense(r, at_chunk * N);
      int at = 0;
#pragma unroll
      for (int j = N - 1; j >= 0; --j)
        if (!red.replaces(e.value(r, j), best)) at = j;
      index_t c[kernel_dims] = {at_chunk * N + at};
      acc = red.map(best, pos.at(c, 1));
    }
  } else {
    dense_walk<N>(e, first, full, step, [&](const R& r, index_t) {
#pragma unroll
      for (int j = 0; j < N; ++j) acc = red.combine(acc, red.map(e.value(r, j), 0));
    });
  }
  if (full * N < g.n0 && first == full % step) {
    index_t c[kernel_dims] = {full * N};
    const int count = static_cast<int>(g.n0 - full * N);
    R r;
    e.load(r, c, 1, count);
    const index_t p0 = Red::needs_index ? pos.at(c, 1) : 0;
    accumulate_chunk<N, arg>(e, red, acc, r, p0, pos.st[0], count);
  }
  using block_reduce = cub::BlockReduce<A, reduce_threads>;
  __shared__ typename block_reduce::TempStorage temp;
  acc = block_reduce(temp).Reduce(acc, combine_fn<Red>{red});
  if (threadIdx.x == 0) {
    if (gridDim.x == 1) {
      const index_t c[kernel_dims] = {};
      w.write(acc, c, 1);
    } else {
      partial[blockIdx.x] = acc;
    }
  }
}

// Flat rows mode: thread `first` reduces rows first, first + step, ...,
// four at a time, each from its one or two chunks (not arg reductions: the
// kernels' code would grow for a case the general walk serves).
template <int N, class Red, class E, class Out>
__device__ inline void flat_rows_reduce(const E& e, const result_writer<Red, Out>& w,
                                        const reduce_grid& g) {
  using A = typename Red::acc_type;
  using R = typename E::regs;
  const Red& red = w.red;
  constexpr int U = 4;
  const index_t step = static_cast<index_t>(gridDim.x) * reduce_threads;
  const index_t first = static_cast<index_t>(blockIdx.x) * reduce_threads + threadIdx.x;
  const bool two = g.chunks0 == 2;
  for (index_t row = first; row < g.teams; row += U * step) {
    R r[U][2];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const index_t o = row + u * step;
      if (o < g.teams) {
        e.load_dense(r[u][0], o * g.n0);
        if (two) e.load_dense(r[u][1], o * g.n0 + N);
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const index_t o = row + u * step;
      if (o < g.teams) {
        A acc = red.identity();
#pragma unroll
        for (int j = 0; j < N; ++j) acc = red.combine(acc, red.map(e.value(r[u][0], j), 0));
        if (two)
#pragma unroll
          for (int j = 0; j < N; ++j) acc = red.combine(acc, red.map(e.value(r[u][1], j), 0));
        const index_t c[kernel_dims] = {0, o};
        w.write(acc, c, 2);
      }
    }
  }
}

template <int N, int ND, class Red, class E, class P, class Out>
__device__ inline void inner_reduce(const E& e, const P& pos, const result_writer<Red, Out>& w,
                                    typename Red::acc_type* partial, const reduce_grid& g) {
  using A = typename Red::acc_type;
  const Red& red = w.red;
  if constexpr (ND == 2 && has_dense_load<E>) {
    if (g.flat) {
      if constexpr (!Red::needs_index) {
        if (g.flat_rows) {
          flat_rows_reduce<N>(e, w, g);
          return;
        }
      }
      flat_reduce<N>(e, pos, w, partial, g);
      return;
    }
  }
  if (g.team <= 32) {
    const int team = g.team;
    const int lane = threadIdx.x % team;
    const index_t per_block = reduce_threads / team;
    const index_t first = static_cast<index_t>(blockIdx.x) * per_block + threadIdx.x / team;
    const index_t warp_first =
        static_cast<index_t>(blockIdx.x) * per_block + (threadIdx.x & ~31u) / team;
    const index_t step = static_cast<index_t>(gridDim.x) * per_block;
    if (g.work <= team) {
      // At most one chunk per lane (short rows): the loads of four rounds
      // go out before the first is used. Every lane of a warp runs the same
      // rounds, for the shuffles.
      constexpr int U = 4;
      // The lane's chunk within a row is the same in every round.
      index_t lane_c[kernel_dims] = {};
      inner_work_coords<ND>(g, lane < g.work ? lane : 0, lane_c);
      lane_c[0] *= N;
      const int lane_count =
          lane < g.work ? static_cast<int>(g.n0 - lane_c[0] < N ? g.n0 - lane_c[0] : N) : 0;
      for (index_t round = 0; warp_first + round * step < g.teams; round += U) {
        index_t c[U][kernel_dims];
        typename E::regs r[U];
        int count[U];
        index_t p0[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const index_t o = first + (round + u) * step;
#pragma unroll
          for (int k = 0; k < kernel_dims; ++k) c[u][k] = lane_c[k];
          decode_dims<ND>(g, o < g.teams ? o : 0, 1, g.kept_dims + 1, c[u]);
          count[u] = o < g.teams ? lane_count : 0;
          p0[u] = Red::needs_index ? pos.at(c[u], ND) : 0;
          if (count[u] > 0) e.load(r[u], c[u], ND, count[u]);
        }
#pragma unroll
        for (int u = 0; u < U; ++u) {
          A acc = red.identity();
          accumulate_chunk<N, false>(e, red, acc, r[u], p0[u], pos.st[0], count[u]);
          for (int s = team / 2; s > 0; s >>= 1) acc = red.combine(acc, shuffle_down(acc, s, team));
          if (lane == 0 && first + (round + u) * step < g.teams) w.write(acc, c[u], ND);
        }
      }
      return;
    }
    for (index_t round = 0; warp_first + round * step < g.teams; ++round) {
      const index_t o = first + round * step;
      const bool valid = o < g.teams;
      index_t c[kernel_dims] = {};
      decode_dims<ND>(g, valid ? o : 0, 1, g.kept_dims + 1, c);
      A acc = red.identity();
      if (valid) inner_accumulate<N, ND>(e, pos, red, acc, g, c, lane, g.work, team);
      for (int s = team / 2; s > 0; s >>= 1) acc = red.combine(acc, shuffle_down(acc, s, team));
      if (valid && lane == 0) w.write(acc, c, ND);
    }
    return;
  }
  using block_reduce = cub::BlockReduce<A, reduce_threads>;
  __shared__ typename block_reduce::TempStorage temp;
  const index_t begin = static_cast<index_t>(blockIdx.y) * g.seg_len;
  const index_t end = begin + g.seg_len < g.work ? begin + g.seg_len : g.work;
  for (index_t o = blockIdx.x; o < g.teams; o += gridDim.x) {
    index_t c[kernel_dims] = {};
    decode_dims<ND>(g, o, 1, g.kept_dims + 1, c);
    A acc = red.identity();
    inner_accumulate<N, ND>(e, pos, red, acc, g, c, begin + threadIdx.x, end, reduce_threads);
    acc = block_reduce(temp).Reduce(acc, combine_fn<Red>{red});
    if (threadIdx.x == 0) {
      if (g.segments == 1)
        w.write(acc, c, ND);
      else
        partial[static_cast<index_t>(blockIdx.y) * g.results + o] = acc;
    }
    __syncthreads();
  }
}

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

// Kernels of their own per mode, so that each gets its own register
// allocation, and per number of dimensions: with ND = 2 (every 1-d and 2-d
// problem after merging) the coordinate code shrinks to one axis, which
// leaves the registers for four blocks per SM.
template <int ND>
inline constexpr int reduce_min_blocks =
    ND <= 2 ? CUPP_REDUCE_MIN_BLOCKS + 1 : CUPP_REDUCE_MIN_BLOCKS;

template <int N, int ND, class Red, class E, class P, class Out>
__global__ void __launch_bounds__(reduce_threads, reduce_min_blocks<ND>)
    reduce_inner_kernel(const __grid_constant__ E e, const __grid_constant__ P pos,
                        const __grid_constant__ result_writer<Red, Out> w,
                        typename Red::acc_type* partial, const __grid_constant__ reduce_grid g) {
  inner_reduce<N, ND>(e, pos, w, partial, g);
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
    reduce_inner_kernel<N, 2><<<grid, reduce_threads, 0, stream>>>(e, pos, w, partial, g);
  } else if (g.nd <= 2) {
    if (g.inner)
      reduce_inner_kernel<N, 2><<<grid, reduce_threads, 0, stream>>>(e, pos, w, partial, g);
    else
      reduce_outer_kernel<N, 2><<<grid, reduce_threads, 0, stream>>>(e, pos, w, partial, g);
  } else {
    if (g.inner)
      reduce_inner_kernel<N, kernel_dims>
          <<<grid, reduce_threads, 0, stream>>>(e, pos, w, partial, g);
    else
      reduce_outer_kernel<N, kernel_dims>
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
    const void* k = reinterpret_cast<const void*>(&reduce_inner_kernel<N, 2, Red, E, P, Out>);
    if constexpr (!InnerOnly) switch (kind) {
        case 0:
          break;
        case 1:
          k = reinterpret_cast<const void*>(&reduce_outer_kernel<N, 2, Red, E, P, Out>);
          break;
        case 2:
          k = reinterpret_cast<const void*>(&reduce_inner_kernel<N, kernel_dims, Red, E, P, Out>);
          break;
        default:
          k = reinterpret_cast<const void*>(&reduce_outer_kernel<N, kernel_dims, Red, E, P, Out>);
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
