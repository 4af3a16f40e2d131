// What every pass of a reduction runs from besides its operand: where the
// arg reductions' positions and the results are (position_eval,
// result_writer), and how the work is split over the device (reduce_grid,
// planned on the host by the make_*_grid functions from a reduce_plan and the
// tuning that the sweeps of bench/reduction.cu set). Host and device code
// alike read it, so nothing here needs nvcc.
#pragma once

#include <algorithm>
#include <cstdint>

#include <cupp/detail/elementwise/evaluators.hpp>
#include <cupp/detail/reduce/plan.hpp>

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
  // Dense rows: the inner walk of whole blocks (team 256) over rows of
  // whole chunks that every operand stores one after another, with bare
  // vector loads at the row's offset instead of per-chunk coordinates.
  bool dense_rows = false;
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
  // Inner mode: results whose reduced run has more chunks than this take a
  // block each, fewer a warp each. A block per row of a 16384² float32
  // matrix sums it at 3,109 GB/s on an H100, a warp per row at 2,949 (its
  // last wave of warps runs part-full; the hardware balances blocks).
  index_t warp_team_max_work = 2048;
  // Flat rows mode: waves of resident blocks. Four: the (10^6, 8) float32
  // row sum takes 15.3 us on an H100 against 15.6 with one (the kernel holds
  // few blocks per SM, so one wave left each thread several rounds of rows).
  int flat_rows_waves = 4;
  // Long dense rows walked without coordinates (reduce_grid::dense_rows);
  // off only to compare with the general walk.
  bool dense_rows = true;
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
    } else if (g.work <= tune.warp_team_max_work) {  // a warp per result
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
  g.slots = std::max<index_t>(resident, 1) * std::max(reduce_tuning().flat_rows_waves, 1);
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

}  // namespace cupp::detail
