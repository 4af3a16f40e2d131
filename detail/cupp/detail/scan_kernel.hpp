// Scans (cumsum, cumprod and their NaN-ignoring forms) through
// cub::DeviceScan: the operand is read through a random-access iterator that
// evaluates the lazy expression at each position of the scan order (the
// scanned axis fastest), and the segments of an axis scan are told apart by
// a key iterator (position / axis length), so that one InclusiveScanByKey
// scans every segment at once.
#pragma once

#include <cstdint>
#include <iterator>
#include <type_traits>

#include <cupp/cuda/memory.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/elementwise_kernel.hpp>
#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/detail/ops/float_support.hpp>
#include <cupp/detail/reduce_kernel.hpp>

#if defined(__CUDACC__)
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#endif

namespace cupp::detail {

// The dimensions of the scan order after merging, fastest first.
struct scan_dims {
  int nd = 1;
  index_t ext[kernel_dims] = {};
  fast_divmod div[kernel_dims];

  CUPP_HD void coords(index_t i, index_t* c) const {
#pragma unroll
    for (int k = 0; k < kernel_dims; ++k) {
      if (k < nd - 1) {
        const index_t q = static_cast<index_t>(div[k].div64(static_cast<std::uint64_t>(i)));
        c[k] = i - q * ext[k];
        i = q;
      } else if (k == nd - 1) {
        c[k] = i;
      } else {
        c[k] = 0;
      }
    }
  }
};

// The operand's value at position i of the scan order, as the accumulator;
// with SkipNan, NaN reads as Skip (0 for sums, 1 for products).
template <class Ev, class Acc, bool SkipNan>
struct scan_input {
  using value_type = Acc;
  using difference_type = std::ptrdiff_t;
  using pointer = const Acc*;
  using reference = Acc;
  using iterator_category = std::random_access_iterator_tag;

  Ev e;
  scan_dims d;
  Acc skip;
  index_t i = 0;

  CUPP_HD Acc at(index_t k) const {
    index_t c[kernel_dims];
    d.coords(k, c);
    typename Ev::regs r;
    e.load(r, c, d.nd, 1);
    const auto v = e.value(r, 0);
    if constexpr (SkipNan)
      if (ops::misc_detail::value_isnan(v)) return skip;
    return convert<Acc>(v);
  }
  CUPP_HD Acc operator*() const { return at(i); }
  CUPP_HD Acc operator[](difference_type k) const { return at(i + k); }
  CUPP_HD scan_input operator+(difference_type k) const {
    scan_input r = *this;
    r.i += k;
    return r;
  }
  CUPP_HD scan_input operator-(difference_type k) const { return *this + (-k); }
  CUPP_HD difference_type operator-(const scan_input& o) const { return i - o.i; }
  CUPP_HD scan_input& operator+=(difference_type k) {
    i += k;
    return *this;
  }
  CUPP_HD scan_input& operator-=(difference_type k) {
    i -= k;
    return *this;
  }
  CUPP_HD scan_input& operator++() {
    ++i;
    return *this;
  }
  CUPP_HD scan_input operator++(int) {
    scan_input r = *this;
    ++i;
    return r;
  }
  CUPP_HD bool operator==(const scan_input& o) const { return i == o.i; }
  CUPP_HD bool operator!=(const scan_input& o) const { return i != o.i; }
};

// The segment of position i: i / length.
struct segment_keys {
  using value_type = std::int64_t;
  using difference_type = std::ptrdiff_t;
  using pointer = const std::int64_t*;
  using reference = std::int64_t;
  using iterator_category = std::random_access_iterator_tag;

  fast_divmod length;
  index_t i = 0;

  CUPP_HD std::int64_t at(index_t k) const {
    return static_cast<std::int64_t>(length.div64(static_cast<std::uint64_t>(k)));
  }
  CUPP_HD std::int64_t operator*() const { return at(i); }
  CUPP_HD std::int64_t operator[](difference_type k) const { return at(i + k); }
  CUPP_HD segment_keys operator+(difference_type k) const {
    segment_keys r = *this;
    r.i += k;
    return r;
  }
  CUPP_HD segment_keys operator-(difference_type k) const { return *this + (-k); }
  CUPP_HD difference_type operator-(const segment_keys& o) const { return i - o.i; }
  CUPP_HD segment_keys& operator+=(difference_type k) {
    i += k;
    return *this;
  }
  CUPP_HD segment_keys& operator++() {
    ++i;
    return *this;
  }
  CUPP_HD bool operator==(const segment_keys& o) const { return i == o.i; }
  CUPP_HD bool operator!=(const segment_keys& o) const { return i != o.i; }
};

template <class Acc, bool Product>
struct scan_op {
  CUPP_HD static Acc identity() { return convert<Acc>(Product ? 1 : 0); }
  CUPP_HD Acc operator()(const Acc& a, const Acc& b) const {
    if constexpr (Product)
      return ops::multiply{}(a, b);
    else
      return ops::add{}(a, b);
  }
};

#if defined(__CUDACC__)

// A single-pass scan of one dense line (decoupled look-back): each block
// takes the next tile in launch order from a counter, scans it, publishes
// its aggregate, then the first warp looks back over up to 32 predecessors
// at a time until it meets one whose inclusive prefix is known. Every
// element is read once and written once. Each warp owns a contiguous part
// of the tile and walks it in groups of 32 lanes x one 16-byte vector, so
// every load and store instruction covers 512 contiguous bytes.
inline constexpr int scan_threads = 256;
template <class Acc>
inline constexpr int scan_items = sizeof(Acc) <= 4 ? 16 : (sizeof(Acc) <= 8 ? 8 : 4);

// Which device scan runs a dense line; bench/reduction.cu --sweep compares.
struct scan_tuning_t {
  bool single_pass = true;  // false: cub::DeviceScan
};
inline scan_tuning_t& scan_tuning() {
  static scan_tuning_t t;
  return t;
}

// A value stored as words through the L2 (other blocks read it while this
// kernel runs; the L1 is not coherent between multiprocessors).
template <class T>
struct scan_slot {
  static constexpr int W = (sizeof(T) + 3) / 4;
  unsigned int w[W];
  __device__ void put(const T& v) {
    unsigned int t[W] = {};
    memcpy(t, &v, sizeof(T));
#pragma unroll
    for (int i = 0; i < W; ++i) __stcg(&w[i], t[i]);
  }
  __device__ T get() const {
    unsigned int t[W];
#pragma unroll
    for (int i = 0; i < W; ++i) t[i] = __ldcg(&w[i]);
    T v;
    memcpy(&v, t, sizeof(T));
    return v;
  }
};

// Tile status: 0 nothing yet, 1 the tile's aggregate, 2 its inclusive
// prefix. flags[tiles] hands out the tile indices.
template <class Acc>
struct scan_tiles {
  unsigned int* flags;
  scan_slot<Acc>* aggregate;
  scan_slot<Acc>* inclusive;
};

template <class Acc>
__device__ inline void publish_tile(const scan_tiles<Acc>& st, int tile, const Acc& v,
                                    unsigned int flag) {
  (flag == 1 ? st.aggregate : st.inclusive)[tile].put(v);
  __threadfence();
  atomicExch(&st.flags[tile], flag);
}

template <class T>
__device__ inline T shuffle_any(const T& v, int src, int mode) {  // 0: index, 1: up
  constexpr int W = (sizeof(T) + 3) / 4;
  unsigned int words[W] = {};
  memcpy(words, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < W; ++i)
    words[i] = mode == 0 ? __shfl_sync(0xffffffffu, words[i], src)
                         : __shfl_up_sync(0xffffffffu, words[i], src);
  T r;
  memcpy(&r, words, sizeof(T));
  return r;
}

// K consecutive values: one access of K * sizeof(V) bytes when whole and
// aligned, else element by element.
template <int K, class V>
__device__ inline void scan_load(const V* p, index_t avail, bool vec, V (&v)[K]) {
  constexpr int B = K * sizeof(V);
  if constexpr (B == 16 || B == 8) {
    if (vec && avail == K) {
      using W = std::conditional_t<B == 16, uint4, uint2>;
      const W t = *reinterpret_cast<const W*>(p);
      memcpy(v, &t, B);
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < K; ++i)
    if (i < avail) v[i] = p[i];
}
template <int K, class V>
__device__ inline void scan_store(V* p, index_t avail, bool vec, const V (&v)[K]) {
  constexpr int B = K * sizeof(V);
  if constexpr (B % 16 == 0) {
    if (vec && avail == K) {
      uint4 t[B / 16];
      memcpy(t, v, B);
#pragma unroll
      for (int i = 0; i < B / 16; ++i) reinterpret_cast<uint4*>(p)[i] = t[i];
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < K; ++i)
    if (i < avail) p[i] = v[i];
}

template <class V, class Out, class Acc, class Op>
__global__ void __launch_bounds__(scan_threads)
    scan_lookback_kernel(const V* in, Out* out, index_t n, Op op, Acc identity,
                         scan_tiles<Acc> st, bool in_aligned, bool out_aligned) {
  constexpr int I = scan_items<Acc>;
  // K elements per lane and group (one 16-byte vector of V), G groups.
  constexpr int K = (16 / sizeof(V)) < 1 ? 1 : ((16 / sizeof(V)) > I ? I : 16 / sizeof(V));
  constexpr int G = I / K;
  constexpr int warps = scan_threads / 32;
  constexpr index_t tile_elems = static_cast<index_t>(scan_threads) * I;
  __shared__ int tile_s;
  __shared__ alignas(16) unsigned char warp_s[warps][sizeof(Acc)];
  __shared__ alignas(16) unsigned char prefix_s[sizeof(Acc)];
  if (threadIdx.x == 0) tile_s = static_cast<int>(atomicAdd(&st.flags[gridDim.x], 1u));
  __syncthreads();
  const int tile = tile_s;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const index_t wbase = static_cast<index_t>(tile) * tile_elems + static_cast<index_t>(warp) * 32 * I;

  Acc x[G][K];
  Acc before[G];  // what precedes each group's lane within the warp
  Acc carry = identity;
#pragma unroll
  for (int g = 0; g < G; ++g) {
    const index_t first = wbase + static_cast<index_t>(g) * 32 * K + lane * K;
    const index_t avail = first < n ? (n - first < K ? n - first : K) : 0;
    V v[K];
    scan_load<K>(in + first, avail, in_aligned, v);
#pragma unroll
    for (int k = 0; k < K; ++k) {
      x[g][k] = k < avail ? convert<Acc>(v[k]) : identity;
      if (k > 0) x[g][k] = op(x[g][k - 1], x[g][k]);
    }
    Acc t = x[g][K - 1];
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const Acc y = shuffle_any(t, d, 1);
      if (lane >= d) t = op(y, t);
    }
    Acc prev = shuffle_any(t, 1, 1);
    if (lane == 0) prev = identity;
    before[g] = op(carry, prev);
    carry = op(carry, shuffle_any(t, 31, 0));
  }
  if (lane == 0) memcpy(warp_s[warp], &carry, sizeof(Acc));
  __syncthreads();
  Acc warp_before = identity, aggregate = identity;
#pragma unroll
  for (int w = 0; w < warps; ++w) {
    Acc a;
    memcpy(&a, warp_s[w], sizeof(Acc));
    if (w < warp) warp_before = op(warp_before, a);
    aggregate = op(aggregate, a);
  }

  if (warp == 0) {
    Acc prefix = identity;
    if (tile == 0) {
      if (lane == 0) publish_tile(st, 0, aggregate, 2);
    } else {
      if (lane == 0) publish_tile(st, tile, aggregate, 1);
      for (int j = tile - 1 - lane;; j -= 32) {
        unsigned int f = 2;
        Acc w = identity;
        if (j >= 0) {
          volatile unsigned int* fl = st.flags + j;
          while ((f = *fl) == 0) __nanosleep(32);
          __threadfence();
          w = (f == 2 ? st.inclusive : st.aggregate)[j].get();
        }
        // The nearest predecessor with an inclusive prefix closes the window.
        const unsigned int done = __ballot_sync(0xffffffffu, f == 2);
        const int stop = done ? __ffs(done) - 1 : 31;
        if (lane > stop) w = identity;
        for (int d = 16; d > 0; d >>= 1) w = op(w, shuffle_down(w, d, 32));
        prefix = op(w, prefix);  // w lies before what was gathered so far
        if (done) break;
      }
      if (lane == 0) publish_tile(st, tile, op(prefix, aggregate), 2);
    }
    if (lane == 0) memcpy(prefix_s, &prefix, sizeof(Acc));
  }
  __syncthreads();
  Acc tile_prefix;
  memcpy(&tile_prefix, prefix_s, sizeof(Acc));
  const Acc p = op(tile_prefix, warp_before);
#pragma unroll
  for (int g = 0; g < G; ++g) {
    const index_t first = wbase + static_cast<index_t>(g) * 32 * K + lane * K;
    const index_t avail = first < n ? (n - first < K ? n - first : K) : 0;
    const Acc q = op(p, before[g]);
    Out y[K];
#pragma unroll
    for (int k = 0; k < K; ++k) y[k] = convert<Out>(op(q, x[g][k]));
    scan_store<K>(out + first, avail, out_aligned, y);
  }
}

template <class V, class Out, class Acc, class Op>
void scan_lookback(const V* in, Out* out, Op op, Acc identity, index_t n, cudaStream_t stream) {
  constexpr index_t tile_elems = static_cast<index_t>(scan_threads) * scan_items<Acc>;
  const index_t tiles = (n + tile_elems - 1) / tile_elems;
  if (tiles > 0x7fffffff) throw value_error("cupp: scan of more than 2^31 tiles");
  const std::size_t flag_bytes = (static_cast<std::size_t>(tiles) + 1) * sizeof(unsigned int);
  const std::size_t head = (flag_bytes + 255) / 256 * 256;
  const std::size_t slots = static_cast<std::size_t>(tiles) * sizeof(scan_slot<Acc>);
  auto mem = cuda::alloc(head + 2 * slots);
  char* m = static_cast<char*>(mem.get());
  scan_tiles<Acc> st{reinterpret_cast<unsigned int*>(m),
                     reinterpret_cast<scan_slot<Acc>*>(m + head),
                     reinterpret_cast<scan_slot<Acc>*>(m + head + slots)};
  cuda::check(cudaMemsetAsync(m, 0, flag_bytes, stream), "cudaMemsetAsync");
  scan_lookback_kernel<<<static_cast<unsigned>(tiles), scan_threads, 0, stream>>>(
      in, out, n, op, identity, st, reinterpret_cast<std::uintptr_t>(in) % 16 == 0,
      reinterpret_cast<std::uintptr_t>(out) % 16 == 0);
  cuda::check_last_launch("scan kernel");
}

template <class In, class Out, class Op>
void device_scan(const In& in, Out* out, Op op, index_t n, index_t length, cudaStream_t stream) {
  std::size_t bytes = 0;
  if constexpr (std::is_pointer_v<In>) {
    if (length == n && scan_tuning().single_pass) {
      scan_lookback(in, out, op, Op::identity(), n, stream);
      return;
    }
  }
  if (length == n) {
    cuda::check(cub::DeviceScan::InclusiveScan(nullptr, bytes, in, out, op, n, stream),
                "cub::DeviceScan::InclusiveScan");
    auto temp = cuda::alloc(bytes);
    cuda::check(cub::DeviceScan::InclusiveScan(temp.get(), bytes, in, out, op, n, stream),
                "cub::DeviceScan::InclusiveScan");
  } else {
    const segment_keys keys{fast_divmod(static_cast<std::uint64_t>(length))};
    cuda::check(cub::DeviceScan::InclusiveScanByKey(nullptr, bytes, keys, in, out, op, n,
                                                    ::cuda::std::equal_to<>{}, stream),
                "cub::DeviceScan::InclusiveScanByKey");
    auto temp = cuda::alloc(bytes);
    cuda::check(cub::DeviceScan::InclusiveScanByKey(temp.get(), bytes, keys, in, out, op, n,
                                                    ::cuda::std::equal_to<>{}, stream),
                "cub::DeviceScan::InclusiveScanByKey");
  }
}
#endif

template <class In, class Out, class Op>
void host_scan(const In& in, Out* out, Op op, index_t n, index_t length) {
  for (index_t s = 0; s < n; s += length) {
    auto acc = in[s];
    out[s] = convert<Out>(acc);
    for (index_t k = 1; k < length; ++k) {
      acc = op(acc, in[s + k]);
      out[s + k] = convert<Out>(acc);
    }
  }
}

}  // namespace cupp::detail
