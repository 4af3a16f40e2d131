// The device side of the set routines (nvcc only): a grid-stride launcher
// for the per-element functors of sets_match.hpp, CUB's DeviceSelect::Flagged
// over positions (64-bit counts) for the selections, the kind="table"
// bitmap, and isin's search kernel.
//
// isin's search: every block first copies an evenly spaced sample of the
// sorted test values' keys (at most 32 KiB) into shared memory; an element
// finds its segment there and finishes with a few probes of one segment in
// global memory (a 32-byte sector for 4-byte keys at 2^16 test values),
// which stays in L2. Each thread handles several elements at once so that
// their probes overlap.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include <cub/device/device_select.cuh>
#include <cuda/std/limits>
#include <thrust/iterator/counting_iterator.h>

#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/sort/sets_match.hpp>

namespace cupp::detail::sets {

inline constexpr int set_threads = 256;

inline unsigned set_blocks(index_t n, index_t per_block = set_threads) {
  const index_t b = (n + per_block - 1) / per_block;
  return static_cast<unsigned>(std::max<index_t>(1, std::min<index_t>(b, 16384)));
}

template <class F>
__global__ void each_index_kernel(index_t n, F f) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n;
       i += index_t(gridDim.x) * blockDim.x)
    f(i);
}

template <class F>
void device_each(index_t n, const F& f, cudaStream_t s) {
  if (n == 0) return;
  each_index_kernel<<<set_blocks(n), set_threads, 0, s>>>(n, f);
  cuda::check(cudaGetLastError(), "set routine kernel");
}

// The positions i < n whose flag is set, in order, into pos; their count
// into *count (device memory). One CUB instantiation serves every dtype.
inline void device_select(const std::uint8_t* flags, index_t n, index_t* pos, index_t* count,
                          cudaStream_t s) {
  const auto first = thrust::make_counting_iterator<index_t>(0);
  std::size_t bytes = 0;
  cuda::check(cub::DeviceSelect::Flagged(nullptr, bytes, first, flags, pos, count, n, s),
              "cub select (temporary storage)");
  auto temp = cuda::alloc(std::max<std::size_t>(bytes, 1));
  cuda::check(cub::DeviceSelect::Flagged(temp.get(), bytes, first, flags, pos, count, n, s),
              "cub select");
}

template <class TT>
__global__ void table_mark_kernel(const TT* t, index_t m, TT low, std::uint32_t* bits) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < m;
       i += index_t(gridDim.x) * blockDim.x) {
    const std::uint64_t off = table_offset(t[i], low);
    atomicOr(bits + (off >> 5), 1u << (off & 31));
  }
}

template <class TT>
void device_table_mark(const TT* t, index_t m, TT low, std::uint32_t* bits, std::size_t words,
                       cudaStream_t s) {
  cuda::check(cudaMemsetAsync(bits, 0, words * sizeof(std::uint32_t), s), "cudaMemsetAsync");
  if (m == 0) return;
  table_mark_kernel<<<set_blocks(m), set_threads, 0, s>>>(t, m, low, bits);
  cuda::check(cudaGetLastError(), "isin table kernel");
}

// isin with kind=None on the device: NumPy takes the table when the test
// values' range is at most 6 * (n + m); here that choice is made by the
// kernels themselves from the sorted test values' ends in device memory
// (nothing read back): the table kernels return at once when the range is
// wider, the search kernel when it is not. `capacity` is 6 * (n + m) bits.
template <class TT>
__device__ bool device_table_span(const TT* t, index_t m, std::uint64_t capacity,
                                  std::uint64_t& span) {
  using L = std::conditional_t<std::is_same_v<TT, bool>, std::uint8_t, TT>;
  span = table_offset(t[m - 1], t[0]);
  return span <= static_cast<std::uint64_t>(::cuda::std::numeric_limits<L>::max()) &&
         span <= capacity;
}

template <class TT>
__global__ void table_clear_if_kernel(const TT* t, index_t m, std::uint64_t capacity,
                                      std::uint32_t* bits) {
  std::uint64_t span = 0;
  if (!device_table_span(t, m, capacity, span)) return;
  const std::uint64_t words = span / 32 + 1;
  for (std::uint64_t w = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; w < words;
       w += std::uint64_t(gridDim.x) * blockDim.x)
    bits[w] = 0;
}

template <class TT>
__global__ void table_mark_if_kernel(const TT* t, index_t m, std::uint64_t capacity,
                                     std::uint32_t* bits) {
  std::uint64_t span = 0;
  if (!device_table_span(t, m, capacity, span)) return;
  const TT low = t[0];
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < m;
       i += index_t(gridDim.x) * blockDim.x) {
    const std::uint64_t off = table_offset(t[i], low);
    atomicOr(bits + (off >> 5), 1u << (off & 31));
  }
}

template <class Q, class TT>
__global__ void table_lookup_if_kernel(const Q* q, bool* out, index_t n, const TT* t, index_t m,
                                       std::uint64_t capacity, const std::uint32_t* bits,
                                       bool invert) {
  std::uint64_t span = 0;
  if (!device_table_span(t, m, capacity, span)) return;
  const table_lookup<Q, TT> look{bits, t[0], t[m - 1]};
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n;
       i += index_t(gridDim.x) * blockDim.x)
    out[i] = look(q[i]) != invert;
}

inline constexpr int isin_items = 4;
inline constexpr std::size_t isin_sample_bytes = 32 * 1024;

// isin by search: `sample` keys (every `step`-th of the m sorted test
// values) staged in shared memory.
template <class Q, class R>
__global__ void isin_search_kernel(const Q* q, bool* out, index_t n, const R* table, index_t m,
                                   index_t step, int samples, bool invert,
                                   std::uint64_t table_capacity) {
  if constexpr (std::is_integral_v<R>) {
    std::uint64_t span = 0;
    if (table_capacity > 0 && device_table_span(table, m, table_capacity, span)) return;
  }
  using K = order_key_t<R>;
  extern __shared__ __align__(16) unsigned char shared_raw[];
  K* sample = reinterpret_cast<K*>(shared_raw);
  for (int j = threadIdx.x; j < samples; j += blockDim.x)
    sample[j] = sorting::full_key(table[j * step]);
  __syncthreads();
  const index_t tile = index_t(blockDim.x) * isin_items;
  for (index_t base = blockIdx.x * tile; base < n; base += index_t(gridDim.x) * tile) {
    Q v[isin_items];
#pragma unroll
    for (int u = 0; u < isin_items; ++u) {
      const index_t i = base + u * index_t(blockDim.x) + threadIdx.x;
      v[u] = i < n ? q[i] : Q{};
    }
    K k[isin_items];
    index_t lo[isin_items], hi[isin_items];
    bool found[isin_items], open[isin_items];
#pragma unroll
    for (int u = 0; u < isin_items; ++u) {
      const R r = convert<R>(v[u]);
      k[u] = sorting::full_key(r);
      // The count of samples not above k: the segment that may hold k.
      int a = 0, b = samples;
      while (a < b) {
        const int mid = (a + b) / 2;
        if (!key_less(k[u], sample[mid]))
          a = mid + 1;
        else
          b = mid;
      }
      const bool nan = has_nan(r);
      found[u] = !nan && a > 0 && key_equal(sample[a - 1], k[u]);
      open[u] = !nan && a > 0 && !found[u];
      lo[u] = a > 0 ? (a - 1) * step + 1 : 0;
      hi[u] = a > 0 ? (a * step < m ? a * step : m) : 0;
    }
    // The segments' probes, interleaved across the items.
    bool busy = true;
    while (busy) {
      busy = false;
#pragma unroll
      for (int u = 0; u < isin_items; ++u) {
        if (open[u] && lo[u] < hi[u]) {
          const index_t mid = lo[u] + (hi[u] - lo[u]) / 2;
          const K t = sorting::full_key(table[mid]);
          if (key_equal(t, k[u])) {
            found[u] = true;
            open[u] = false;
          } else if (key_less(t, k[u])) {
            lo[u] = mid + 1;
          } else {
            hi[u] = mid;
          }
          busy = busy || (open[u] && lo[u] < hi[u]);
        }
      }
    }
#pragma unroll
    for (int u = 0; u < isin_items; ++u) {
      const index_t i = base + u * index_t(blockDim.x) + threadIdx.x;
      if (i < n) out[i] = found[u] != invert;
    }
  }
}

// table_capacity > 0 (integer test values of q's own dtype, kind=None):
// the kernels above decide between the table and the search.
template <class Q, class R>
void device_isin_search(const Q* q, bool* out, index_t n, const R* table, index_t m, bool invert,
                        int device, cudaStream_t s, std::uint64_t table_capacity = 0) {
  cuda::memory_ptr bits_mem;
  if constexpr (std::is_integral_v<R> && std::is_same_v<Q, R>) {
    if (table_capacity > 0 && n > 0 && m > 0) {
      bits_mem = cuda::alloc(static_cast<std::size_t>(table_capacity / 32 + 1) * 4);
      auto* bits = static_cast<std::uint32_t*>(bits_mem.get());
      const unsigned words_blocks = set_blocks(static_cast<index_t>(table_capacity / 32 + 1));
      table_clear_if_kernel<<<words_blocks, set_threads, 0, s>>>(table, m, table_capacity, bits);
      table_mark_if_kernel<<<set_blocks(m), set_threads, 0, s>>>(table, m, table_capacity, bits);
      table_lookup_if_kernel<<<set_blocks(n), set_threads, 0, s>>>(q, out, n, table, m,
                                                                   table_capacity, bits, invert);
      cuda::check(cudaGetLastError(), "isin table kernels");
    } else {
      table_capacity = 0;
    }
  } else {
    table_capacity = 0;
  }
  if (n == 0) return;
  using K = order_key_t<R>;
  const index_t cap = static_cast<index_t>(isin_sample_bytes / sizeof(K));
  const index_t step = m <= cap ? 1 : (m + cap - 1) / cap;
  const int samples = static_cast<int>(m == 0 ? 0 : (m + step - 1) / step);
  int sms = 1;
  cuda::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
              "cudaDeviceGetAttribute");
  // Enough blocks to fill the GPU, few enough that each one's copy of the
  // sample serves many tiles.
  const index_t tiles = (n + index_t(set_threads) * isin_items - 1) / (set_threads * isin_items);
  const unsigned blocks =
      static_cast<unsigned>(std::max<index_t>(1, std::min<index_t>(tiles, 6 * sms)));
  const std::size_t shared = std::max<std::size_t>(sizeof(K), samples * sizeof(K));
  isin_search_kernel<<<blocks, set_threads, shared, s>>>(q, out, n, table, m, step, samples, invert,
                                                         table_capacity);
  cuda::check(cudaGetLastError(), "isin kernel");
}

}  // namespace cupp::detail::sets
