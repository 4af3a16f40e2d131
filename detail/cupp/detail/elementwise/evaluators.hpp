// The evaluators an expression is lowered to, and what the element-wise
// kernel (detail/elementwise/kernel.hpp), the reductions and the gathers
// read through them.
//
// An evaluator is a trivially copyable value passed to the kernel by value.
// Each thread handles a chunk of N consecutive elements along the fastest
// axis: `load` fetches what the chunk needs from memory into registers
// (`regs`), 16-byte vector loads where the chunk is dense and aligned, and
// `value(regs, j)` computes element j of the chunk.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/elementwise/plan.hpp>
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

}  // namespace cupp::detail
