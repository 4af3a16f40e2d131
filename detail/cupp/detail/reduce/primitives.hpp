// Device pieces that the inner and the outer modes of the reduction kernels
// share: the block size, warp shuffles of any accumulator, the combine
// functor handed to cub::BlockReduce, and the flat modes' walk of dense
// chunks.
#pragma once

#include <cstring>

#include <cupp/detail/elementwise/evaluators.hpp>

namespace cupp::detail {

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

#endif  // __CUDACC__

}  // namespace cupp::detail
