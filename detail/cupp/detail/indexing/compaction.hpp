// Stream compaction for boolean-mask indexing and the nonzero family: the
// positions of a mask in C order, walked through the mask's lowered
// evaluator (so a lazy predicate such as `x % 3 == 1` is computed where it
// is consumed and never stored), selected on the device by
// CUB's flagged selection (one pass, decoupled look-back) and on the
// host by a plain loop over the same functors.
//
// The number of selected elements sizes the result, so it has to reach the
// host: every compaction ends with one 8-byte read-back and a stream
// synchronization. To keep that to one pass over the input, the selection
// is written into a buffer of the upper bound (all positions selected);
// see shrink_selected() for what happens to the unused part.
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <span>

#include <cupp/config.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/detail/reduce/scan_kernel.hpp>
#include <cupp/detail/memory/strided_copy.hpp>

#if defined(__CUDACC__)
#include <cub/device/device_select.cuh>
#endif

namespace cupp::detail {

// Dimensions merged in C order (fastest first, as scan_dims holds them)
// with one array's byte strides: the byte offset of C-order position i.
struct offset_walk {
  scan_dims d;
  index_t st[kernel_dims] = {};

  CUPP_HD index_t offset(index_t i) const {
    if (d.nd == 1) return i * st[0];
    index_t c[kernel_dims];
    d.coords(i, c);
    index_t off = 0;
    CUPP_UNROLL
    for (int k = 0; k < kernel_dims; ++k)
      if (k < d.nd) off += c[k] * st[k];
    return off;
  }
};

// Merges the axes of `shape` in C order where every slot's strides are
// contiguous across them; writes the extents (fastest first) to `ext` and
// each slot's strides to `merged`. Returns the number of merged dimensions
// (at least 1), which may exceed kernel_dims.
inline int merge_c_order(const shape_t& shape, std::span<const strides_t> st, index_t* ext,
                         std::span<strides_t> merged) {
  const int nd = shape.size();
  for (auto& s : merged) s = strides_t::filled(0, 0);
  int m = 0;
  for (int a = nd - 1; a >= 0; --a) {
    if (shape[a] == 1) continue;
    bool mergeable = m > 0;
    for (std::size_t s = 0; s < st.size() && mergeable; ++s)
      mergeable = st[s][a] == merged[s][m - 1] * ext[m - 1];
    if (mergeable) {
      ext[m - 1] *= shape[a];
      continue;
    }
    ext[m] = shape[a];
    for (std::size_t s = 0; s < st.size(); ++s) merged[s].push_back(st[s][a]);
    ++m;
  }
  if (m == 0) {
    ext[0] = 1;
    for (auto& s : merged) s.push_back(0);
    m = 1;
  }
  return m;
}

inline scan_dims make_scan_dims(const index_t* ext, int m) CUPP_HOST_BODY({
  scan_dims d;
  d.nd = m;
  for (int k = 0; k < m; ++k) {
    d.ext[k] = ext[k];
    d.div[k] = fast_divmod(static_cast<std::uint64_t>(ext[k] > 0 ? ext[k] : 1));
  }
  return d;
});

// An offset walk over `shape` for one array's strides, or false when its
// axes do not merge into kernel_dims dimensions.
inline bool make_offset_walk(const shape_t& shape, const strides_t& st, offset_walk& w) {
  index_t ext[max_ndim];
  strides_t merged[1];
  const int m = merge_c_order(shape, std::span<const strides_t>(&st, 1), ext, merged);
  if (m > kernel_dims) return false;
  w.d = make_scan_dims(ext, m);
  for (int k = 0; k < m; ++k) w.st[k] = merged[0][k];
  return true;
}

// A mask (or the array nonzero tests) at C-order position i, read through
// its evaluator lowered over one merged dimension. Walks over several
// dimensions are left to a dense copy of the mask (with_mask_walk): the
// coordinates and offsets of a general walk, evaluated for each of the
// tile's items at once, took the selection kernel to 71 registers and 37%
// occupancy, and x[x % 3 == 1] on 2^27 int64 to 1.29 ms instead of 0.8.
template <class Ev>
struct mask_walk {
  Ev e;

  CUPP_HD bool flag(index_t i) const {
    index_t c[kernel_dims] = {};
    c[0] = i;
    typename Ev::regs r{};  // one lane loaded (-Wmaybe-uninitialized)
    e.load(r, c, 1, 1);
    return convert<bool>(e.value(r, 0));
  }
};

// Loads and stores of the element-size stand-ins (word_t, detail/memory/strided_copy.hpp). The host
// goes through memcpy, which compilers turn into one move, so that the bits of a dtype read through
// another type are not subject to type-based alias analysis; the device loads directly (memcpy of
// unknown alignment would go byte by byte).
template <class U>
CUPP_HD inline U load_bits(const char* p) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const U*>(p);
#else
  U v;
  std::memcpy(&v, p, sizeof(U));
  return v;
#endif
}
template <class U>
CUPP_HD inline void store_bits(char* p, const U& v) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<U*>(p) = v;
#else
  std::memcpy(p, &v, sizeof(U));
#endif
}

// The functors the selection reads through (also on the host).
template <class W>
struct flag_fn {
  using value_type = bool;
  W w;
  CUPP_HD bool operator()(index_t i) const { return w.flag(i); }
};
// Element i of an array whose selected axes merge into one of `stride`
// bytes.
template <class T>
struct strided_value_fn {
  using value_type = T;
  const char* x;
  index_t stride;
  CUPP_HD T operator()(index_t i) const { return load_bits<T>(x + i * stride); }
};
struct select_position_fn {
  using value_type = std::int64_t;
  CUPP_HD std::int64_t operator()(index_t i) const { return i; }
};

// A random-access iterator over F(0), F(1), ... (what CUB reads).
template <class F>
struct fn_iterator {
  using value_type = typename F::value_type;
  using difference_type = std::ptrdiff_t;
  using pointer = const value_type*;
  using reference = value_type;
  using iterator_category = std::random_access_iterator_tag;

  F f;
  index_t i = 0;

  CUPP_HD value_type operator*() const { return f(i); }
  CUPP_HD value_type operator[](difference_type k) const { return f(i + k); }
  CUPP_HD fn_iterator operator+(difference_type k) const {
    fn_iterator r = *this;
    r.i += k;
    return r;
  }
  CUPP_HD fn_iterator operator-(difference_type k) const { return *this + (-k); }
  CUPP_HD difference_type operator-(const fn_iterator& o) const { return i - o.i; }
  CUPP_HD fn_iterator& operator+=(difference_type k) {
    i += k;
    return *this;
  }
  CUPP_HD fn_iterator& operator-=(difference_type k) {
    i -= k;
    return *this;
  }
  CUPP_HD fn_iterator& operator++() {
    ++i;
    return *this;
  }
  CUPP_HD fn_iterator operator++(int) {
    fn_iterator r = *this;
    ++i;
    return r;
  }
  CUPP_HD bool operator==(const fn_iterator& o) const { return i == o.i; }
  CUPP_HD bool operator!=(const fn_iterator& o) const { return i != o.i; }
};

inline cudaStream_t stream_of_device(int device) {
  return cuda::detail::current_stream_impl(device)->handle;
}

#if defined(__CUDACC__)
// The tiles of the selection. cub::DeviceSelect::Flagged has no tuning of
// its own for sm90 and runs 128 threads of 5 eight-byte items; these are
// CUB's sm90 figures for DeviceSelect::If on items of the same size
// (threads, items, loads transposed through shared memory, look-back
// delay), which fit flags computed in the kernel just as well: x[x % 3 ==
// 1] on 2^27 int64 went from 0.97 to 0.78 ms on an H100.
template <int Size>
struct select_tiles {
  static constexpr int threads = Size <= 2 ? 256 : (Size <= 8 ? 384 : 256);
  static constexpr int items = Size <= 2 ? 22 : (Size == 4 ? 17 : (Size == 8 ? 11 : 6));
  struct policy : cub::ChainedPolicy<500, policy, policy> {
    using SelectIfPolicyT =
        cub::AgentSelectIfPolicy<threads, items, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT,
                                 cub::BLOCK_SCAN_WARP_SCANS,
                                 cub::detail::fixed_delay_constructor_t<380, 1140>>;
  };
  using MaxPolicy = policy;
};

template <class It, class FlagIt, class V>
cudaError_t device_select_flagged(void* temp, std::size_t& bytes, It in, FlagIt flags, V* out,
                                  std::int64_t* count, index_t n, cudaStream_t s) {
  return cub::DispatchSelectIf<It, FlagIt, V*, std::int64_t*, cub::NullType, cub::NullType,
                               std::int64_t, cub::SelectImpl::Select,
                               select_tiles<sizeof(V)>>::Dispatch(temp, bytes, in, flags, out,
                                                                  count, {}, {}, n, s);
}
#endif

// Writes in(i) for every i < n with flag(i) to out[0 ..], in order, and
// returns how many. out holds n elements. Device: one DeviceSelect pass and
// the read-back of the count (a synchronization of the current stream).
template <bool OnDevice, class V, class InF, class FlagF>
index_t select_flagged(const InF& in, const FlagF& flag, index_t n, V* out, int device) {
  if (n == 0) return 0;
  if constexpr (OnDevice) {
#if defined(__CUDACC__)
    const cudaStream_t s = stream_of_device(device);
    const fn_iterator<InF> it{in, 0};
    const fn_iterator<FlagF> ft{flag, 0};
    std::size_t bytes = 0;
    cuda::check(device_select_flagged(nullptr, bytes, it, ft, out, nullptr, n, s),
                "cub::DispatchSelectIf");
    // The count and the scratch space in one allocation.
    constexpr std::size_t head = 256;
    auto temp = cuda::alloc(head + bytes);
    auto* d_count = static_cast<std::int64_t*>(temp.get());
    cuda::check(device_select_flagged(static_cast<char*>(temp.get()) + head, bytes, it, ft, out,
                                      d_count, n, s),
                "cub::DispatchSelectIf");
    std::int64_t count = 0;
    cuda::check(cudaMemcpyAsync(&count, d_count, sizeof count, cudaMemcpyDeviceToHost, s),
                "cudaMemcpyAsync");
    cuda::check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    return static_cast<index_t>(count);
#else
    CUPP_NEEDS_NVCC(InF);
    (void)in, (void)flag, (void)out, (void)device;
    return 0;
#endif
  } else {
    (void)device;
    index_t c = 0;
    for (index_t i = 0; i < n; ++i)
      if (flag(i)) store_bits<V>(reinterpret_cast<char*>(out + c++), in(i));
    return c;
  }
}

// Moves elements between the selected rows of an array and a dense
// C-ordered buffer. Entry t of the buffer is element j = t % r of the row
// at C-order position pos[t / r]; a row's elements are found by `rest`.
// The buffer index is taken modulo `period` (cycling values: place,
// putmask), counted by rank (t) or by the row's position (pos * r + j).
struct row_move {
  offset_walk rows;  // position -> byte offset of the row
  offset_walk rest;  // element of a row -> byte offset within it
  fast_divmod r;     // elements per row
  index_t period = 0;
  fast_divmod period_div;
  bool by_position = false;

  CUPP_HD void at(index_t t, const std::int64_t* pos, index_t& off, index_t& src) const {
    const index_t k = static_cast<index_t>(r.div64(static_cast<std::uint64_t>(t)));
    const index_t j = t - k * static_cast<index_t>(r.divisor);
    const index_t p = pos[k];
    off = rows.offset(p) + rest.offset(j);
    src = by_position ? p * static_cast<index_t>(r.divisor) + j : t;
    if (period > 0) {
      const index_t q = static_cast<index_t>(period_div.div64(static_cast<std::uint64_t>(src)));
      src -= q * period;
    }
  }
};

template <class T, bool Scatter>
CUPP_HD inline void move_one(char* x, const std::int64_t* pos, T* dense, const row_move& m,
                             index_t t) {
  index_t off, src;
  m.at(t, pos, off, src);
  if constexpr (Scatter)
    store_bits<T>(x + off, load_bits<T>(reinterpret_cast<const char*>(dense + src)));
  else
    store_bits<T>(reinterpret_cast<char*>(dense + t), load_bits<T>(x + off));
}

#if defined(__CUDACC__)
template <class T, bool Scatter>
__global__ void __launch_bounds__(256)
    move_rows_kernel(char* x, const std::int64_t* pos, T* dense, const row_move m, index_t total) {
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t t = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
       t += step)
    move_one<T, Scatter>(x, pos, dense, m, t);
}

inline unsigned blocks_for(index_t total, int device) CUPP_HOST_BODY({
  const auto& props = cuda::runtime::getDeviceProperties(device);
  const index_t cap = static_cast<index_t>(props.multiProcessorCount) * 16;
  return static_cast<unsigned>(std::max<index_t>(1, std::min<index_t>(cap, (total + 255) / 256)));
});
#endif

// Gathers (Scatter false) or scatters `total` elements.
template <bool OnDevice, bool Scatter, class T>
void move_rows(char* x, const std::int64_t* pos, T* dense, const row_move& m, index_t total,
               int device) {
  if (total == 0) return;
  if constexpr (OnDevice) {
#if defined(__CUDACC__)
    move_rows_kernel<T, Scatter>
        <<<blocks_for(total, device), 256, 0, stream_of_device(device)>>>(x, pos, dense, m, total);
    cuda::check_last_launch("boolean-mask gather/scatter kernel");
#else
    CUPP_NEEDS_NVCC(T);
#endif
  } else {
    (void)device;
    for (index_t t = 0; t < total; ++t) move_one<T, Scatter>(x, pos, dense, m, t);
  }
}

// C-order positions to coordinates (nonzero, argwhere): coordinate a of
// entry k goes to out[a * sa + k * sk].
struct coord_split {
  int nd = 0;
  index_t sa = 0, sk = 0;
  index_t ext[max_ndim] = {};
  fast_divmod div[max_ndim];

  CUPP_HD void write(const std::int64_t* pos, std::int64_t* out, index_t k) const {
    index_t p = pos[k];
    for (int a = nd - 1; a >= 0; --a) {
      const index_t q = static_cast<index_t>(div[a].div64(static_cast<std::uint64_t>(p)));
      out[a * sa + k * sk] = p - q * ext[a];
      p = q;
    }
  }
};

#if defined(__CUDACC__)
template <int = 0>
__global__ void __launch_bounds__(256)
    split_coords_kernel(const std::int64_t* pos, std::int64_t* out, const coord_split s,
                        index_t count) {
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t k = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < count;
       k += step)
    s.write(pos, out, k);
}
#endif

template <bool OnDevice>
void split_coords(const std::int64_t* pos, std::int64_t* out, const coord_split& s, index_t count,
                  int device) {
  if (count == 0 || s.nd == 0) return;
  if constexpr (OnDevice) {
#if defined(__CUDACC__)
    split_coords_kernel<>
        <<<blocks_for(count, device), 256, 0, stream_of_device(device)>>>(pos, out, s, count);
    cuda::check_last_launch("nonzero coordinate kernel");
#else
    CUPP_NEEDS_NVCC(std::bool_constant<OnDevice>);
#endif
  } else {
    (void)device;
    for (index_t k = 0; k < count; ++k) s.write(pos, out, k);
  }
}

}  // namespace cupp::detail
