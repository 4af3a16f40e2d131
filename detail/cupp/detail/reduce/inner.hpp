// The device side of inner mode (dimension 0 reduced): a team of lanes per
// result reads whole 16-byte chunks along dimension 0 and reduces through
// warp shuffles or cub::BlockReduce, or several blocks share a result's work
// and leave partial results (detail/reduce/kernel.hpp combines them). Also
// the flat modes over dense operands: a full reduction walked with bare
// vector loads, and rows of one or two chunks, a thread per row.
#pragma once

#include <cupp/detail/elementwise/evaluators.hpp>
#include <cupp/detail/reduce/grid.hpp>
#include <cupp/detail/reduce/primitives.hpp>

#if defined(__CUDACC__)
#include <cub/block/block_reduce.cuh>
#endif

namespace cupp::detail {

#if defined(__CUDACC__)

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

// Dense rows mode: a block (or `segments` blocks) per row, every row whole
// chunks that every operand stores one after another. The walk is the flat
// mode's over the row's chunks, with no coordinates or counts per load: the
// 16384^2 float32 row sum on an H200 took 0.2395 ms against 0.2559 with the
// general walk (a hand-written block per row 0.2366, CuPy 0.2402-0.2435).
template <int N, class Red, class E, class Out>
__device__ inline void dense_rows_reduce(const E& e, const result_writer<Red, Out>& w,
                                         typename Red::acc_type* partial, const reduce_grid& g) {
  using A = typename Red::acc_type;
  using R = typename E::regs;
  const Red& red = w.red;
  using block_reduce = cub::BlockReduce<A, reduce_threads>;
  __shared__ typename block_reduce::TempStorage temp;
  const index_t begin = static_cast<index_t>(blockIdx.y) * g.seg_len;
  const index_t end = begin + g.seg_len < g.work ? begin + g.seg_len : g.work;
  for (index_t o = blockIdx.x; o < g.teams; o += gridDim.x) {
    const index_t row = o * g.chunks0;
    A acc = red.identity();
    dense_walk<N>(e, row + begin + threadIdx.x, row + end, reduce_threads,
                  [&](const R& r, index_t) {
#pragma unroll
                    for (int j = 0; j < N; ++j) acc = red.combine(acc, red.map(e.value(r, j), 0));
                  });
    acc = block_reduce(temp).Reduce(acc, combine_fn<Red>{red});
    if (threadIdx.x == 0) {
      if (g.segments == 1) {
        const index_t c[kernel_dims] = {0, o};
        w.write(acc, c, 2);
      } else {
        partial[static_cast<index_t>(blockIdx.y) * g.results + o] = acc;
      }
    }
    __syncthreads();
  }
}

// General: only the walks of teams and of blocks, which serve every inner
// layout (the flat and short-row modes are faster paths for some).
template <int N, int ND, bool General, class Red, class E, class P, class Out>
__device__ inline void inner_reduce(const E& e, const P& pos, const result_writer<Red, Out>& w,
                                    typename Red::acc_type* partial, const reduce_grid& g) {
  using A = typename Red::acc_type;
  const Red& red = w.red;
  if constexpr (ND == 2 && has_dense_load<E> && !General) {
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
    if constexpr (!Red::needs_index) {
      if (g.dense_rows) {
        dense_rows_reduce<N>(e, w, partial, g);
        return;
      }
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
    if (!General && g.work <= team) {
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

#endif  // __CUDACC__

}  // namespace cupp::detail
