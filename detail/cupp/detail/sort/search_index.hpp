// searchsorted for many queries into a long sorted array, through a small
// index built per call: level 1 holds the key of every 16th element of
// `a`, level 2 every 16th entry of level 1, and so on until a level fits in
// shared memory. A query binary-searches that top level in shared memory,
// then counts within one 16-entry run per level (a few 16-byte loads with
// no dependence between them), ending in one run of `a` itself. Queries
// stay in their own order, so they are read and their results written in
// coalesced runs; only the last level touches `a`, two sectors per query
// for 4-byte keys. A plain binary search per query makes ~log2(n)
// dependent loads that miss every cache once `a` outgrows L2; sorting the
// queries first to share paths costs a sort and a scattered write of the
// results (each a partial-sector write) that together cost more.
#pragma once

#if defined(__CUDACC__)
#include <algorithm>
#include <cstdint>
#include <cstring>

#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/sort/search_order.hpp>
#include <cupp/detail/sort/sort_keys.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::search {

constexpr int index_fanout = 16;
constexpr index_t index_top_max = 2048;  // entries staged in shared memory
constexpr int index_levels_max = 16;

// Whether an element whose key is x lies before the bound of a query with
// key q: below q for side="left", not above it for side="right". The keys
// are the radix sort's (every NaN one key, -0.0 that of 0.0), so unsigned
// comparison is NumPy's order.
template <bool Right, class U>
__device__ inline bool counts_before(U x, U q) {
  return Right ? x <= q : x < q;
}

// Levels 1 .. count-1 of the index, each padded to a whole number of
// 16-entry runs (level 0 is `a` itself).
template <class U>
struct search_levels {
  const U* level[index_levels_max];
  index_t size[index_levels_max];
  int count;
};

// Within a level whose bound among the entries of the level above is k:
// entry (k-1)*16 lies before the query and entry k*16 does not, so the
// bound here is (k-1)*16 + 1 plus the count of entries between them that
// lie before it. Counting (not searching) keeps the loads independent.
template <bool Right, class U>
__device__ index_t refine_keys(const U* level, index_t size, index_t k, U v) {
  if (k == 0) return 0;
  const index_t base = (k - 1) * index_fanout;
  constexpr int vectors = index_fanout * int(sizeof(U)) / 16;
  uint4 raw[vectors];
  const uint4* src = reinterpret_cast<const uint4*>(level + base);
#pragma unroll
  for (int u = 0; u < vectors; ++u) raw[u] = src[u];
  U vals[index_fanout];
  std::memcpy(vals, raw, sizeof vals);
  const index_t last = size - base;  // entries of this run that exist
  int count = 0;
#pragma unroll
  for (int u = 1; u < index_fanout; ++u) count += (u < last && counts_before<Right>(vals[u], v));
  return base + 1 + count;
}

// The same count on `a`: 16-byte loads where the run is whole, aligned and
// dense, else element by element through the view (strides, sorter).
template <bool Right, class T, class K, class I, class U>
__device__ index_t refine_a(const sorted_view<T, K, I>& a, bool dense, index_t k, U v) {
  if (k == 0) return 0;
  const index_t base = (k - 1) * index_fanout;
  int count = 0;
  if constexpr (index_fanout * sizeof(T) % 16 == 0) {
    if (dense && base + index_fanout <= a.n) {
      constexpr int vectors = index_fanout * int(sizeof(T)) / 16;
      uint4 raw[vectors];
      const uint4* src = reinterpret_cast<const uint4*>(a.data + base);
#pragma unroll
      for (int u = 0; u < vectors; ++u) raw[u] = src[u];
      T vals[index_fanout];
      std::memcpy(static_cast<void*>(vals), raw, sizeof vals);
#pragma unroll
      for (int u = 1; u < index_fanout; ++u)
        count += counts_before<Right>(sorting::full_key(to_key<K>(vals[u])), v);
      return base + 1 + count;
    }
  }
#pragma unroll
  for (int u = 1; u < index_fanout; ++u)
    count += (base + u < a.n && counts_before<Right>(sorting::full_key(a[base + u]), v));
  return base + 1 + count;
}

template <class View, class U>
__global__ void index_from_a(View a, U* level, index_t size) {
  const index_t k = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < size) level[k] = sorting::full_key(a[k * index_fanout]);
}

template <class U>
__global__ void index_from_level(const U* below, U* level, index_t size) {
  const index_t k = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < size) level[k] = below[k * index_fanout];
}

template <bool Right, class K, class T, class I, class V, class U>
__global__ void __launch_bounds__(256)
    indexed_search_kernel(sorted_view<T, K, I> a, bool dense, search_levels<U> lv, const V* q,
                          std::int64_t* out, index_t m, bool from_end) {
  extern __shared__ __align__(16) unsigned char top_bytes[];
  U* top = reinterpret_cast<U*>(top_bytes);
  const int last = lv.count - 1;
  const index_t top_size = lv.size[last];
  for (index_t j = threadIdx.x; j < top_size; j += blockDim.x) top[j] = lv.level[last][j];
  __syncthreads();
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < m; i += step) {
    const U v = sorting::full_key(to_key<K>(q[i]));
    index_t lo = 0, hi = top_size;
    while (lo < hi) {
      const index_t mid = (lo + hi) / 2;
      if (counts_before<Right>(top[mid], v))
        lo = mid + 1;
      else
        hi = mid;
    }
    index_t k = lo;
    for (int j = last - 1; j >= 1; --j) k = refine_keys<Right>(lv.level[j], lv.size[j], k, v);
    const index_t r = refine_a<Right>(a, dense, k, v);
    out[i] = from_end ? a.n - r : r;
  }
}

// Whether the index pays: `a` long enough that searches leave L1, and
// queries enough to pay for building it (a read of every 16th element).
inline bool indexed_search_pays(index_t n, index_t m) {
  return n >= (index_t(1) << 14) && m >= (index_t(1) << 12);
}

template <bool Right, class K, class T, class I, class V>
void indexed_search(const sorted_view<T, K, I>& a, const V* v, std::int64_t* out, index_t m,
                    bool from_end, int device, cudaStream_t stream) {
  using U = decltype(sorting::full_key(K{}));
  const auto runs = [](index_t n) { return (n + index_fanout - 1) / index_fanout; };
  search_levels<U> lv{};
  index_t sizes[index_levels_max] = {a.n};
  std::size_t total = 0;
  int count = 1;
  while (sizes[count - 1] > index_top_max && count < index_levels_max) {
    sizes[count] = runs(sizes[count - 1]);
    total += static_cast<std::size_t>(runs(sizes[count]) * index_fanout) * sizeof(U);
    ++count;
  }
  auto mem = cuda::alloc(std::max<std::size_t>(total, 1));
  auto* at = static_cast<unsigned char*>(mem.get());
  constexpr int threads = 256;
  const auto blocks = [](index_t n) { return static_cast<unsigned>((n + threads - 1) / threads); };
  for (int j = 1; j < count; ++j) {
    U* level = reinterpret_cast<U*>(at);
    lv.level[j] = level;
    lv.size[j] = sizes[j];
    at += static_cast<std::size_t>(runs(sizes[j]) * index_fanout) * sizeof(U);
    if (j == 1)
      index_from_a<<<blocks(sizes[j]), threads, 0, stream>>>(a, level, sizes[j]);
    else
      index_from_level<<<blocks(sizes[j]), threads, 0, stream>>>(lv.level[j - 1], level, sizes[j]);
    cuda::check(cudaGetLastError(), "searchsorted index");
  }
  lv.count = count;
  const bool dense =
      a.stride == 1 && a.sorter == nullptr && reinterpret_cast<std::uintptr_t>(a.data) % 16 == 0;
  const auto& props = cuda::runtime::getDeviceProperties(device);
  const index_t cap = static_cast<index_t>(props.multiProcessorCount) * 8;
  const unsigned grid = static_cast<unsigned>(std::min<index_t>(cap, (m + threads - 1) / threads));
  const std::size_t top_bytes = static_cast<std::size_t>(sizes[count - 1]) * sizeof(U);
  indexed_search_kernel<Right>
      <<<grid, threads, top_bytes, stream>>>(a, dense, lv, v, out, m, from_end);
  cuda::check(cudaGetLastError(), "searchsorted kernel");
}

}  // namespace cupp::detail::search
#endif
