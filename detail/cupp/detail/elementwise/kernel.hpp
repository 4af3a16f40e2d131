// The evaluators an expression is lowered to, and the one kernel (and the
// one host loop) that runs them.
//
// An evaluator is a trivially copyable value passed to the kernel by value.
// Each thread handles a chunk of N consecutive elements along the fastest
// axis: `load` fetches what the chunk needs from memory into registers
// (`regs`), 16-byte vector loads where the chunk is dense and aligned, and
// `value(regs, j)` computes element j of the chunk.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <type_traits>

#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/driver_launch.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/detail/numerics/pair_value.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// Elements per chunk for an expression whose widest element is `bytes`:
// 16-byte vectors on the device, longer runs on the host.
constexpr int device_chunk(int bytes) {
  return bytes >= 16 ? 1 : 16 / bytes;
}
constexpr int host_chunk(int bytes) {
  return bytes >= 64 ? 1 : 64 / bytes;
}

// Aligned bundles of N elements, loaded and stored as one vector access.
template <class T, int N>
struct alignas(sizeof(T) * N) vec_of {
  T v[N];
};

template <class T, int N>
CUPP_HD inline bool dense_chunk(const void* p, index_t stride0, int count) {
  return count == N && stride0 == static_cast<index_t>(sizeof(T)) &&
         reinterpret_cast<std::uintptr_t>(p) % (sizeof(T) * N) == 0;
}

template <class T, int N>
struct regs_of {
  T v[N];
};
struct no_regs {};

// Offset of a chunk's first element along the kernel dimensions. Axis 0
// is added last: the rest is the same for every chunk of a row, which lets
// the compiler keep it out of the loop over a row's chunks.
CUPP_HD inline index_t chunk_offset(const index_t* st, const index_t* c, int nd) {
  index_t off = 0;
  CUPP_UNROLL
  for (int k = kernel_dims - 1; k >= 1; --k)
    if (k < nd) off += c[k] * st[k];
  return off + c[0] * st[0];
}

// An array operand of type T.
template <class T, int N>
struct array_eval {
  using value_type = T;
  using regs = regs_of<T, N>;
  const char* data;
  index_t st[kernel_dims];

  CUPP_HD void load(regs& r, const index_t* c, int nd, int count) const {
    const char* p = data + chunk_offset(st, c, nd);
    if (N > 1 && dense_chunk<T, N>(p, st[0], count)) {
      const auto b = *reinterpret_cast<const vec_of<T, N>*>(p);
      CUPP_UNROLL
      for (int j = 0; j < N; ++j) r.v[j] = b.v[j];
    } else if (st[0] == 0) {  // broadcast along the fastest axis: one load
      const T v = *reinterpret_cast<const T*>(p);
      CUPP_UNROLL
      for (int j = 0; j < N; ++j) r.v[j] = v;
    } else {
      CUPP_UNROLL
      for (int j = 0; j < N; ++j)
        if (j < count) r.v[j] = *reinterpret_cast<const T*>(p + j * st[0]);
    }
  }
  CUPP_HD T value(const regs& r, int j) const { return r.v[j]; }
  // Flat walks (detail/reduce/kernel.hpp): the N elements from element i on, known
  // to be in memory one after another and aligned for one vector load.
  bool dense() const {
    return st[0] == static_cast<index_t>(sizeof(T)) &&
           reinterpret_cast<std::uintptr_t>(data) % (sizeof(T) * N) == 0;
  }
  CUPP_HD void load_dense(regs& r, index_t i) const {
    const char* p = data + i * static_cast<index_t>(sizeof(T));
    if constexpr (N > 1) {
      const auto b = *reinterpret_cast<const vec_of<T, N>*>(p);
      CUPP_UNROLL
      for (int j = 0; j < N; ++j) r.v[j] = b.v[j];
    } else {
      r.v[0] = *reinterpret_cast<const T*>(p);
    }
  }
};

// A constant (a scalar operand, already cast to the type its ufunc uses).
template <class T>
struct const_eval {
  using value_type = T;
  using regs = no_regs;
  T v;
  CUPP_HD void load(regs&, const index_t*, int, int) const {}
  CUPP_HD T value(const regs&, int) const { return v; }
  bool dense() const { return true; }
  CUPP_HD void load_dense(regs&, index_t) const {}
};

// Blocks of 256 threads each SM must be able to hold: bounds the registers
// a kernel may use, trading them for occupancy, which hides the latency of
// memory and of long math functions.
#ifndef CUPP_ELEMENTWISE_MIN_BLOCKS
#define CUPP_ELEMENTWISE_MIN_BLOCKS 6
#endif

// The resident blocks an evaluator asks of the kernel: one whose chunk
// needs more registers than the default leaves (a gather's index
// arithmetic) asks for fewer blocks rather than spill to local memory.
template <class E>
constexpr int eval_min_blocks() {
  if constexpr (requires { E::min_blocks; })
    return E::min_blocks;
  else
    return CUPP_ELEMENTWISE_MIN_BLOCKS;
}

// How many times device_chunk's elements a thread takes at once for an
// expression (its chunk_scale, 1 unless it says otherwise): a random draw
// computes its values rather than loading them, so the per-chunk work of
// the loop (bounds, alignment, addresses) weighs on it as it does not on a
// load, and it asks for wider chunks.
template <class X>
constexpr int chunk_scale_of() {
  if constexpr (requires { X::chunk_scale; })
    return X::chunk_scale;
  else
    return 1;
}

// A generator: a function of K linear positions, each an affine function of
// the element's coordinates (arange, linspace, eye, indices ...).
template <class G, int N>
struct generator_eval {
  using value_type = typename G::value_type;
  static constexpr int K = G::coords;
  static constexpr int min_blocks = eval_min_blocks<G>();
  struct regs {
    index_t pos[K];
  };
  G g;
  index_t base[K];
  index_t st[K][kernel_dims];

  CUPP_HD void load(regs& r, const index_t* c, int nd, int) const {
    CUPP_UNROLL
    for (int k = 0; k < K; ++k) r.pos[k] = base[k] + chunk_offset(st[k], c, nd);
  }
  bool dense() const { return true; }
  CUPP_HD void load_dense(regs& r, index_t i) const {
    CUPP_UNROLL
    for (int k = 0; k < K; ++k) r.pos[k] = base[k] + i * st[k][0];
  }
  CUPP_HD value_type value(const regs& r, int j) const {
    index_t p[K];
    CUPP_UNROLL
    for (int k = 0; k < K; ++k) p[k] = r.pos[k] + j * st[k][0];
    return g(p);
  }
};

// A generator whose functor makes G::block consecutive positions' values at
// once (a random draw: one Philox block gives several numbers). The loads
// compute the values: a chunk whose positions run on one by one from a
// multiple of the block takes whole blocks, any other element is computed
// alone (the same value, at a block's cost).
template <class G, int N>
struct block_generator_eval {
  using value_type = typename G::value_type;
  static constexpr int B = G::block;
  static constexpr int min_blocks = eval_min_blocks<G>();
  struct regs {
    value_type v[N];
  };
  G g;
  index_t base[1];
  index_t st[1][kernel_dims];

  CUPP_HD void fill(regs& r, index_t p0, index_t step, int count) const {
    if constexpr (N % B == 0) {
      if (step == 1 && count == N && p0 % B == 0) {
        CUPP_UNROLL
        for (int b = 0; b < N; b += B) g.block_values(p0 + b, r.v + b);
        return;
      }
    }
    CUPP_UNROLL
    for (int j = 0; j < N; ++j)
      if (j < count) {
        const index_t p = p0 + j * step;
        r.v[j] = g(&p);
      }
  }
  CUPP_HD void load(regs& r, const index_t* c, int nd, int count) const {
    fill(r, base[0] + chunk_offset(st[0], c, nd), st[0][0], count);
  }
  bool dense() const { return true; }
  CUPP_HD void load_dense(regs& r, index_t i) const {
    fill(r, base[0] + i * st[0][0], st[0][0], N);
  }
  CUPP_HD value_type value(const regs& r, int j) const { return r.v[j]; }
};

template <class G>
concept block_generator = requires {
  requires G::coords == 1;
  requires G::block >
  1;
};
template <class G, int N>
using generator_eval_for =
    std::conditional_t<block_generator<G>, block_generator_eval<G, N>, generator_eval<G, N>>;

// Evaluators with load_dense (arrays, constants, generators and ufuncs of
// them) can take part in flat walks; others (gathers) never do.
template <class E>
concept has_dense_load = requires(const E& e, typename E::regs& r) {
  { e.dense() } -> std::convertible_to<bool>;
  e.load_dense(r, index_t{});
};
template <class E>
bool dense_loadable(const E& e) {
  if constexpr (has_dense_load<E>)
    return e.dense();
  else
    return false;
}

// The evaluators of a node's operands, in order.
template <class... E>
struct eval_list;
template <>
struct eval_list<> {
  struct regs {};
  CUPP_HD void load(regs&, const index_t*, int, int) const {}
  bool dense() const { return true; }
  CUPP_HD void load_dense(regs&, index_t) const {}
};
template <class E, class... Es>
struct eval_list<E, Es...> {
  struct regs {
    typename E::regs head;
    typename eval_list<Es...>::regs tail;
  };
  E head;
  eval_list<Es...> tail;
  CUPP_HD void load(regs& r, const index_t* c, int nd, int count) const {
    head.load(r.head, c, nd, count);
    tail.load(r.tail, c, nd, count);
  }
  bool dense() const { return dense_loadable(head) && tail.dense(); }
  CUPP_HD void load_dense(regs& r, index_t i) const {
    if constexpr (has_dense_load<E>) head.load_dense(r.head, i);
    tail.load_dense(r.tail, i);
  }
};

template <int I, class L>
CUPP_HD inline const auto& eval_at(const L& l) {
  if constexpr (I == 0)
    return l.head;
  else
    return eval_at<I - 1>(l.tail);
}
template <int I, class R>
CUPP_HD inline const auto& regs_at(const R& r) {
  if constexpr (I == 0)
    return r.head;
  else
    return regs_at<I - 1>(r.tail);
}

// A ufunc applied to its operands: each operand's value is cast to the type
// the resolved loop takes, then the operation runs.
template <class Op, class Loop, class... E>
struct node_eval {
  using value_type = typename Loop::out;
  static constexpr int min_blocks =
      std::min({CUPP_ELEMENTWISE_MIN_BLOCKS, eval_min_blocks<E>()...});
  using list = eval_list<E...>;
  using regs = typename list::regs;
  Op op;
  list args;

  CUPP_HD void load(regs& r, const index_t* c, int nd, int count) const {
    args.load(r, c, nd, count);
  }
  bool dense() const { return args.dense(); }
  CUPP_HD void load_dense(regs& r, index_t i) const { args.load_dense(r, i); }
  CUPP_HD value_type value(const regs& r, int j) const {
    return apply(r, j, std::make_index_sequence<sizeof...(E)>{});
  }

 private:
  template <std::size_t... I>
  CUPP_HD value_type apply(const regs& r, int j, std::index_sequence<I...>) const {
    return op(convert<typename Loop::template in<I>>(eval_at<I>(args).value(regs_at<I>(r), j))...);
  }
};

// The output: an array of type T that values are cast into.
template <class T, int N>
struct array_out {
  using value_type = T;
  char* data;
  index_t st[kernel_dims];

  template <class V>
  CUPP_HD static T cast(const V& v) {
    return convert<T>(v);
  }
  bool dense() const {
    return st[0] == static_cast<index_t>(sizeof(T)) &&
           reinterpret_cast<std::uintptr_t>(data) % (sizeof(T) * N) == 0;
  }
  // The N elements from element i on, known to be dense and aligned.
  CUPP_HD void store_dense(const T* v, index_t i) const {
    vec_of<T, N> b;
    CUPP_UNROLL
    for (int j = 0; j < N; ++j) b.v[j] = v[j];
    *reinterpret_cast<vec_of<T, N>*>(data + i * static_cast<index_t>(sizeof(T))) = b;
  }
  CUPP_HD void store(const T* v, const index_t* c, int nd, int count) const {
    char* p = data + chunk_offset(st, c, nd);
    if (N > 1 && dense_chunk<T, N>(p, st[0], count)) {
      vec_of<T, N> b;
      CUPP_UNROLL
      for (int j = 0; j < N; ++j) b.v[j] = v[j];
      *reinterpret_cast<vec_of<T, N>*>(p) = b;
    } else {
      CUPP_UNROLL
      for (int j = 0; j < N; ++j)
        if (j < count) *reinterpret_cast<T*>(p + j * st[0]) = v[j];
    }
  }
};

// Two outputs written by one kernel.
template <class A, class B, int N>
struct pair_out {
  using value_type = pair_value<A, B>;
  array_out<A, N> first;
  array_out<B, N> second;

  template <class V>
  CUPP_HD static value_type cast(const V& v) {
    return {convert<A>(v.first), convert<B>(v.second)};
  }
  CUPP_HD void store(const value_type* v, const index_t* c, int nd, int count) const {
    A a[N];
    B b[N];
    split(v, a, b);
    first.store(a, c, nd, count);
    second.store(b, c, nd, count);
  }
  bool dense() const { return first.dense() && second.dense(); }
  CUPP_HD void store_dense(const value_type* v, index_t i) const {
    A a[N];
    B b[N];
    split(v, a, b);
    first.store_dense(a, i);
    second.store_dense(b, i);
  }

 private:
  CUPP_HD static void split(const value_type* v, A* a, B* b) {
    CUPP_UNROLL
    for (int j = 0; j < N; ++j) {
      a[j] = v[j].first;
      b[j] = v[j].second;
    }
  }
};

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

inline grid_params make_grid(const elementwise_plan& p, int kd, int N) {
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
}

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
inline dim3 launch_blocks(const grid_params& g, int device, bool covering = false) {
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
}
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

template <int N, class E, class O>
inline void launch_elementwise(const E& e, const O& o, const grid_params& g, int device,
                               cudaStream_t stream) {
  static_assert(sizeof(E) + sizeof(O) + sizeof(grid_params) <= 32000,
                "cupp: this expression is too large for one kernel's parameters; evaluate "
                "part of it first with .eval()");
  // Chunks wider than 16 bytes are what draws bound by arithmetic ask for.
  constexpr bool narrow = N * sizeof(typename O::value_type) <= 16;
  launch_kernel<elementwise_kernel<N, E, O>>(device, launch_blocks(g, device, narrow && g.covering),
                                             dim3(launch_threads), 0, stream, "element-wise kernel",
                                             e, o, g);
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
