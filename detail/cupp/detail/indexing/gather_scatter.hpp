// Integer-array (advanced) indexing: the host-side planning of x[i0, i1,
// ...] with index arrays among basic indices, the gather evaluator that
// reads through the index arrays inside an element-wise kernel, the scatter
// writers (plain, add, max, min), and the bounds checks.
//
// Every gather and scatter is an element-wise iteration over the result
// shape of the indexing: the element at coordinates c is at byte offset
//   base + sum_d c[d] * src[d] + sum_k fix(idx_k[c]) * ast[k]
// of the source, where src are the strides of the basic part (zero along
// the broadcast dimensions of the index arrays) and idx_k[c] reads index
// array k broadcast to the result. Each of these terms is affine in c, so
// the planning, axis merging and chunking of detail/elementwise/kernel.hpp apply
// unchanged: the source position and each index array are slots.
#pragma once

#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/detail/elementwise/kernel.hpp>
#include <cupp/detail/views/layout.hpp>
#include <cupp/errors.hpp>
#include <cupp/detail/expression/launch.hpp>

namespace cupp::detail {

// Index arrays one indexing may hold (NumPy's limit is the rank, 64).
inline constexpr int max_index_arrays = 8;

// What an out-of-range index becomes: an error (raise), taken modulo the
// extent (wrap), clamped (clip), or trusted after negative indices are
// turned positive (checked before, or the caller promised: unchecked).
enum class index_mode : char { raise, wrap, clip, trusted };

// The geometry of one integer-array indexing.
struct gather_plan {
  index_t offset = 0;               // bytes from the source's data to element [0, ...]
  shape_t shape;                    // the result's shape
  strides_t src;                    // source byte strides per result dimension
  int k = 0;                        // index arrays
  strides_t idx[max_index_arrays];  // their byte strides per result dimension
  index_t ext[max_index_arrays] = {};
  index_t ast[max_index_arrays] = {};  // source byte stride of the indexed axis
  int axis[max_index_arrays] = {};     // the indexed axis (for messages)
  // Elements of the index arrays' broadcast: NumPy checks the indices only
  // when there are some, even if the result is empty for other reasons.
  index_t n_index = 0;
};

// One item of an index tuple: a basic index, or index array number `array`.
struct plan_item {
  index_item basic{};
  int array = -1;
};

inline std::string index_shapes_message(std::span<const shape_t> shapes) CUPP_HOST_BODY({
  std::string m = "shape mismatch: indexing arrays could not be broadcast together with shapes ";
  for (const shape_t& s : shapes) m += compact_shape(s) + " ";
  return m;
});

inline shape_t broadcast_index_shapes(std::span<const shape_t> shapes) CUPP_HOST_BODY({
  shape_t r;
  for (const shape_t& s : shapes) {
    bool ok;
    r = broadcast_shape_pair(r, s, ok);
    if (!ok) throw index_error(index_shapes_message(shapes));
  }
  return r;
});

// NumPy's x[items] where some items are index arrays (shapes `ishape`,
// byte strides `istrides` of int64 elements): integers and arrays are the
// advanced indices; their broadcast dimensions replace them in place when
// they are adjacent in the tuple, and go first otherwise.
inline gather_plan plan_gather(const shape_t& shape, const strides_t& strides,
                               std::span<const plan_item> items, std::span<const shape_t> ishape,
                               std::span<const strides_t> istrides) {
  using K = index_item::kind;
  const int nd = shape.size();
  int consumed = 0, ellipses = 0;
  for (const plan_item& it : items) {
    if (it.array >= 0) {
      ++consumed;
    } else if (it.basic.k == K::rest) {
      if (++ellipses > 1) throw index_error("an index can only have a single ellipsis ('...')");
    } else if (it.basic.k != K::new_axis) {
      ++consumed;
    }
  }
  if (consumed > nd) throw index_error(too_many_indices(consumed, nd));
  gather_plan p;
  p.k = static_cast<int>(ishape.size());
  shape_t bshape;  // the basic dimensions of the result
  strides_t bstr;
  int axis = 0, first_adv = -1, last_adv = -1, n_adv = 0, insert_at = 0;
  auto keep_whole = [&](int n) {
    for (int j = 0; j < n; ++j, ++axis) {
      bshape.push_back(shape[axis]);
      bstr.push_back(strides[axis]);
    }
  };
  for (int pos = 0; pos < static_cast<int>(items.size()); ++pos) {
    const plan_item& it = items[pos];
    const bool adv = it.array >= 0 || it.basic.k == K::integer;
    if (adv) {
      if (first_adv < 0) {
        first_adv = pos;
        insert_at = bshape.size();
      }
      last_adv = pos;
      ++n_adv;
    }
    if (it.array >= 0) {
      p.ext[it.array] = shape[axis];
      p.ast[it.array] = strides[axis];
      p.axis[it.array] = axis;
      ++axis;
      continue;
    }
    switch (it.basic.k) {
      case K::rest:
        keep_whole(nd - consumed);
        break;
      case K::new_axis:
        bshape.push_back(1);
        bstr.push_back(0);
        break;
      case K::integer: {
        const index_t n = shape[axis];
        index_t i = it.basic.i;
        if (i < -n || i >= n)
          throw index_error("index " + std::to_string(i) + " is out of bounds for axis " +
                            std::to_string(axis) + " with size " + std::to_string(n));
        if (i < 0) i += n;
        p.offset += i * strides[axis];
        ++axis;
        break;
      }
      case K::range: {
        const slice_range r = resolve_slice(it.basic.s, shape[axis]);
        if (r.length > 0) p.offset += r.start * strides[axis];
        bshape.push_back(r.length);
        bstr.push_back(r.step * strides[axis]);
        ++axis;
        break;
      }
    }
  }
  keep_whole(nd - axis);
  const shape_t b = broadcast_index_shapes(ishape);
  p.n_index = size_of(b);
  const bool adjacent = last_adv - first_adv + 1 == n_adv;
  const int at = adjacent ? insert_at : 0;
  const int rnd = bshape.size() + b.size();
  shape_t::check_rank(rnd);
  for (int d = 0; d < at; ++d) {
    p.shape.push_back(bshape[d]);
    p.src.push_back(bstr[d]);
  }
  for (int d = 0; d < b.size(); ++d) {
    p.shape.push_back(b[d]);
    p.src.push_back(0);
  }
  for (int d = at; d < bshape.size(); ++d) {
    p.shape.push_back(bshape[d]);
    p.src.push_back(bstr[d]);
  }
  for (int j = 0; j < p.k; ++j) {
    const strides_t s = broadcast_strides(ishape[j], istrides[j], b);
    p.idx[j] = strides_t::filled(rnd, 0);
    for (int d = 0; d < b.size(); ++d) p.idx[j][at + d] = s[d];
  }
  return p;
}

// ---------------------------------------------------------------------------
// Index values

// The first out-of-range index a kernel met: which array, and its value.
struct index_fault {
  unsigned flag;
  int which;
  long long value;
};

CUPP_HD inline void report_fault(index_fault* f, long long value, int which) {
#if defined(__CUDA_ARCH__)
  if (atomicCAS(&f->flag, 0u, 1u) == 0u) {
    f->which = which;
    f->value = value;
  }
#else
  if (!f->flag) {
    f->flag = 1;
    f->which = which;
    f->value = value;
  }
#endif
}

// The position index `i` selects on an axis of extent n, under `mode`;
// false when it is out of range and mode raises.
CUPP_HD inline bool fix_index(index_t& i, index_t n, index_mode mode) {
  switch (mode) {
    case index_mode::wrap:
      i %= n;
      if (i < 0) i += n;
      return true;
    case index_mode::clip:
      i = i < 0 ? 0 : (i >= n ? n - 1 : i);
      return true;
    case index_mode::raise:
      if (i < -n || i >= n) return false;
      [[fallthrough]];
    default:
      if (i < 0) i += n;
      return true;
  }
}

// ---------------------------------------------------------------------------
// The gather evaluator: an expression operand that reads the source
// through the index arrays. load() computes the chunk's N offsets and
// issues all N loads before anything else, so that N independent random
// reads are in flight per thread; a bad index is reported after them.

template <class T, int K, int N>
struct gather_eval {
  using value_type = T;
  using regs = regs_of<T, N>;
  // Its offsets and checks take about 64 registers (68 unbounded): at the
  // default bound of 40 the N loads in flight spilled to local memory.
  static constexpr int min_blocks = 4;
  const char* src;
  index_t st[kernel_dims];
  array_eval<std::int64_t, N> idx[K];
  index_t ext[K], ast[K];
  index_mode mode;
  index_fault* fault;  // set: out-of-range indices are reported here

  CUPP_HD void load(regs& r, const index_t* c, int nd, int count) const {
    const index_t pos = chunk_offset(st, c, nd);
    regs_of<std::int64_t, N> ir[K]{};  // a partial chunk loads `count` (-Wmaybe-uninitialized)
    CUPP_UNROLL
    for (int k = 0; k < K; ++k) idx[k].load(ir[k], c, nd, count);
    index_t off[N];
    bool ok[N];
    int bad_k = -1;
    long long bad_v = 0;
    CUPP_UNROLL
    for (int j = 0; j < N; ++j) {
      off[j] = pos + j * st[0];
      ok[j] = j < count;
      CUPP_UNROLL
      for (int k = 0; k < K; ++k) {
        index_t i = ir[k].v[j];
        if (ok[j] && !fix_index(i, ext[k], mode)) {
          if (bad_k < 0) {
            bad_k = k;
            bad_v = i;
          }
          ok[j] = false;
        }
        off[j] += i * ast[k];
      }
    }
    CUPP_UNROLL
    for (int j = 0; j < N; ++j) r.v[j] = ok[j] ? *reinterpret_cast<const T*>(src + off[j]) : T{};
    if (bad_k >= 0 && fault) report_fault(fault, bad_v, bad_k);
  }
  CUPP_HD T value(const regs& r, int j) const { return r.v[j]; }
};

// ---------------------------------------------------------------------------
// Scatter: writers that put values at the indexed positions

// How a value meets the element it lands on.
struct assign_op {
  template <class T>
  CUPP_HD static T apply(T, T v) {
    return v;
  }
};

template <class T>
CUPP_HD inline bool is_nan_value(const T& v) {
  if constexpr (is_low_float_v<T>)
    return convert<float>(v) != convert<float>(v);
  else if constexpr (std::is_floating_point_v<T>)
    return v != v;
  else
    return false;
}

template <class T>
CUPP_HD inline bool less_value(const T& a, const T& b) {
  if constexpr (is_low_float_v<T>)
    return convert<float>(a) < convert<float>(b);
  else
    return a < b;
}

struct add_op {
  template <class T>
  CUPP_HD static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>)
      return a || b;
    else if constexpr (is_low_float_v<T>)
      return convert<T>(convert<float>(a) + convert<float>(b));
    else
      return static_cast<T>(a + b);
  }
};
// NumPy's maximum/minimum: a NaN wins.
struct max_op {
  template <class T>
  CUPP_HD static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a || b;
    if (is_nan_value(a)) return a;
    if (is_nan_value(b)) return b;
    return less_value(a, b) ? b : a;
  }
};
struct min_op {
  template <class T>
  CUPP_HD static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a && b;
    if (is_nan_value(a)) return a;
    if (is_nan_value(b)) return b;
    return less_value(b, a) ? b : a;
  }
};

// Which dtypes an accumulating scatter supports: every dtype adds (complex
// per component); maximum and minimum need an order, which complex lacks.
template <class Op, class T>
inline constexpr bool scatter_supported_v =
    !(std::is_same_v<Op, max_op> || std::is_same_v<Op, min_op>) || !is_complex_type_v<T>;

#if defined(__CUDA_ARCH__)
// *p = Op(*p, v) as one atomic step: a compare-and-swap loop on the word
// holding the element (a 32-bit word for 8-bit types).
template <class Op, class T>
__device__ inline void atomic_cas_update(T* p, T v) {
  if constexpr (sizeof(T) == 8 || sizeof(T) == 4 || sizeof(T) == 2) {
    using W = std::conditional_t<sizeof(T) == 8, unsigned long long,
                                 std::conditional_t<sizeof(T) == 4, unsigned, unsigned short>>;
    W* q = reinterpret_cast<W*>(p);
    W old = *q, assumed;
    do {
      assumed = old;
      T cur;
      memcpy(&cur, &assumed, sizeof(T));
      const T next = Op::apply(cur, v);
      W nw;
      memcpy(&nw, &next, sizeof(T));
      old = atomicCAS(q, assumed, nw);
    } while (old != assumed);
  } else {
    static_assert(sizeof(T) == 1, "cupp: no atomic update for this element size");
    const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
    unsigned* q = reinterpret_cast<unsigned*>(a & ~std::uintptr_t{3});
    const unsigned shift = static_cast<unsigned>(a & 3) * 8;
    unsigned old = *q, assumed;
    do {
      assumed = old;
      const unsigned char byte = static_cast<unsigned char>(assumed >> shift);
      T cur;
      memcpy(&cur, &byte, 1);
      const T next = Op::apply(cur, v);
      unsigned char nb;
      memcpy(&nb, &next, 1);
      const unsigned nw = (assumed & ~(0xFFu << shift)) | (static_cast<unsigned>(nb) << shift);
      old = atomicCAS(q, assumed, nw);
    } while (old != assumed);
  }
}

template <class Op, class T>
__device__ inline void atomic_update(T* p, T v) {
  constexpr bool native_int = std::is_same_v<T, int> || std::is_same_v<T, unsigned> ||
                              std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>;
  if constexpr (std::is_same_v<Op, add_op> &&
                (native_int || std::is_same_v<T, float> || std::is_same_v<T, double>)) {
    if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>)
      atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
    else
      atomicAdd(p, v);
  } else if constexpr (std::is_same_v<Op, add_op> && is_complex_type_v<T>) {
    using R = typename T::value_type;
    R* q = reinterpret_cast<R*>(p);
    atomicAdd(q, v.real());
    atomicAdd(q + 1, v.imag());
  } else if constexpr (std::is_same_v<Op, add_op> && std::is_same_v<T, __half>) {
    atomicAdd(p, v);
#if __CUDA_ARCH__ >= 800
  } else if constexpr (std::is_same_v<Op, add_op> && std::is_same_v<T, __nv_bfloat16>) {
    atomicAdd(p, v);
#endif
  } else if constexpr ((std::is_same_v<Op, max_op> || std::is_same_v<Op, min_op>)&&native_int) {
    using U = std::conditional_t<
        std::is_same_v<T, std::int64_t>, long long,
        std::conditional_t<std::is_same_v<T, std::uint64_t>, unsigned long long, T>>;
    if constexpr (std::is_same_v<Op, max_op>)
      atomicMax(reinterpret_cast<U*>(p), static_cast<U>(v));
    else
      atomicMin(reinterpret_cast<U*>(p), static_cast<U>(v));
  } else {
    atomic_cas_update<Op>(p, v);
  }
}
#endif

// Writes values of type T at the positions the index arrays select; `Op`
// combines them with what is there (atomically on the device, except for
// plain assignment, where one of several duplicates wins).
template <class T, int K, int N, class Op>
struct scatter_out {
  using value_type = T;
  char* dst;
  index_t st[kernel_dims];
  array_eval<std::int64_t, N> idx[K];
  index_t ext[K], ast[K];
  index_mode mode;

  template <class V>
  CUPP_HD static T cast(const V& v) {
    return convert<T>(v);
  }
  CUPP_HD void store(const T* v, const index_t* c, int nd, int count) const {
    const index_t base = chunk_offset(st, c, nd);
    regs_of<std::int64_t, N> r[K]{};  // a partial chunk loads `count` (-Wmaybe-uninitialized)
    CUPP_UNROLL
    for (int k = 0; k < K; ++k) idx[k].load(r[k], c, nd, count);
    CUPP_UNROLL
    for (int j = 0; j < N; ++j) {
      if (j >= count) break;
      index_t off = base + j * st[0];
      CUPP_UNROLL
      for (int k = 0; k < K; ++k) {
        index_t i = r[k].v[j];
        fix_index(i, ext[k], mode);  // checked before any write
        off += i * ast[k];
      }
      T* p = reinterpret_cast<T*>(dst + off);
      if constexpr (std::is_same_v<Op, assign_op>) {
        *p = v[j];
      } else {
#if defined(__CUDA_ARCH__)
        atomic_update<Op>(p, v[j]);
#else
        *p = Op::apply(*p, v[j]);
#endif
      }
    }
  }
};

// ---------------------------------------------------------------------------
// Bounds checks

// The first out-of-range index of `a` (int64) for an axis of extent `n`
// (with negative indices allowed when `negative`), in C order on the host,
// any one on the device; the device check synchronizes the stream and
// reads back 16 bytes.
#if defined(__CUDACC__)
template <class I>
__global__ void check_indices_kernel(const I* p, index_t count, index_t n, bool negative,
                                     index_fault* f) {
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t t = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < count;
       t += step) {
    const index_t i = static_cast<index_t>(p[t]);
    if (i >= n || i < (negative ? -n : 0)) report_fault(f, i, 0);
  }
}
#endif

// A fault word on the device, zeroed on `stream`.
inline cuda::memory_ptr new_fault_word(cudaStream_t stream) CUPP_HOST_BODY({
  cuda::memory_ptr m = cuda::alloc(sizeof(index_fault));
  cuda::check(cudaMemsetAsync(m.get(), 0, sizeof(index_fault), stream), "cudaMemsetAsync");
  return m;
});

inline index_fault read_fault_word(const cuda::memory_ptr& m, cudaStream_t stream) CUPP_HOST_BODY({
  index_fault f{};
  cuda::check(cudaMemcpyAsync(&f, m.get(), sizeof f, cudaMemcpyDeviceToHost, stream),
              "cudaMemcpyAsync");
  cuda::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return f;
});

template <class S>
std::optional<long long> first_bad_index(const ndarray<std::int64_t, S>& a, index_t n,
                                         bool negative) {
  if (a.size() == 0) return std::nullopt;
  if constexpr (std::is_same_v<S, host_space>) {
    const ndarray<std::int64_t, S> d = a.is_c_contiguous() ? a : a.copy();
    const std::int64_t* p = d.data();
    for (index_t t = 0; t < d.size(); ++t)
      if (p[t] >= n || p[t] < (negative ? -n : 0)) return p[t];
    return std::nullopt;
  } else {
    cuda::device_scope scope(a.device_id());
    const ndarray<std::int64_t, S> d = a.is_c_contiguous() ? a : a.copy();
    const cudaStream_t s = cuda::detail::current_stream_impl(a.device_id())->handle;
    const cuda::memory_ptr w = new_fault_word(s);
#if defined(__CUDACC__)
    const index_t blocks = std::min<index_t>(
        (d.size() + 255) / 256,
        index_t{16} * cuda::runtime::getDeviceProperties(a.device_id()).multiProcessorCount);
    check_indices_kernel<<<static_cast<unsigned>(blocks), 256, 0, s>>>(
        d.data(), d.size(), n, negative, static_cast<index_fault*>(w.get()));
    cuda::check_last_launch("index check kernel");
#else
    CUPP_NEEDS_NVCC(S);
#endif
    const index_fault f = read_fault_word(w, s);
    if (f.flag) return f.value;
    return std::nullopt;
  }
}

inline std::string out_of_bounds_message(long long i, int axis, index_t n) CUPP_HOST_BODY({
  return "index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
         " with size " + std::to_string(n);
});

// ---------------------------------------------------------------------------
// The runner: one element-wise launch over the plan's shape, with the
// scatter writer taking slots 0 .. K and the source expression the rest.

template <class T, class S, int K, class Op, class E>
void run_scatter(const ndarray<T, S>& dst, const gather_plan& p,
                 const std::array<ndarray<std::int64_t, S>, K>& idx, index_mode mode, const E& e) {
  constexpr bool on_device = std::is_same_v<S, device_space>;
  constexpr int widest = std::max({E::max_itemsize, static_cast<int>(sizeof(T)), 8});
  constexpr int N = on_device ? device_chunk(widest) : host_chunk(widest);
  if (size_of(p.shape) == 0) return;
  // Slot 0 is read by nobody: C-order strides of the result, which the
  // planner walks first, so that the writes of the basic dimensions are
  // coalesced and the host loop visits repeated indices in NumPy's order.
  // Slots 1 .. K+1 are the writer's (destination position, index arrays).
  std::array<strides_t, 2 + K + E::slots> st;
  st[0] = contiguous_strides(p.shape, static_cast<index_t>(sizeof(T)));
  st[1] = p.src;
  for (int k = 0; k < K; ++k) st[2 + k] = p.idx[k];
  strides_t* sp = st.data() + 2 + K;
  e.collect(sp, p.shape);
  launch_setup ls;
  setup_launch(ls, p.shape, st, N, on_device ? dst.device_id() : -1);
  if (ls.p.size == 0) return;
  if constexpr (on_device)
    e.for_each_array([&](const array_info& a) { check_current_device(a.device); });
  index_t outer[max_ndim] = {};
  for (index_t o = 0; o < ls.n_outer; ++o, next_outer(ls, outer)) {
    lower_ctx L{st, ls.kd, ls.p.nd, outer, 2 + K};
    L.device = on_device ? dst.device_id() : -1;
    const auto ev = e.template lower<typename E::value_type, N>(L);
    scatter_out<T, K, N, Op> w;
    w.dst = reinterpret_cast<char*>(dst.data()) + p.offset + L.base(1);
    L.kernel_strides(1, w.st);
    for (int k = 0; k < K; ++k) {
      w.idx[k].data = reinterpret_cast<const char*>(idx[k].data()) + L.base(2 + k);
      L.kernel_strides(2 + k, w.idx[k].st);
      w.ext[k] = p.ext[k];
      w.ast[k] = p.ast[k];
    }
    w.mode = mode == index_mode::raise ? index_mode::trusted : mode;
    if constexpr (on_device) {
#if defined(__CUDACC__)
      launch_elementwise<N>(ev, w, ls.g, dst.device_id(), ls.stream);
#else
      CUPP_NEEDS_NVCC(E);
#endif
    } else {
      host_elementwise<N>(ev, w, ls.g);
    }
  }
}

}  // namespace cupp::detail
