// Short rows (up to block_sort_max elements) sorted one row per block in
// shared memory with CUB's BlockRadixSort (nvcc only): each row is read
// once and written once, where a segmented device sort makes several
// passes over global memory. Keys are sorting::full_key (NaNs last as one
// key, -0.0 equal to 0.0), so the stable block sort gives NumPy's order
// and a stable argsort. Floats carry their own bits through the sort (a
// key does not tell -0.0 from 0.0, nor one NaN from another); integers are
// recovered from their keys.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cub/block/block_radix_sort.cuh>

#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/sort/sort_keys.hpp>

namespace cupp::detail::sorting {

inline constexpr index_t block_sort_max = 4096;

// Which rows sort in blocks: short ones of any real dtype or complex64
// (complex128's key does not fit one integer).
template <class T>
inline constexpr bool block_sortable_v = !std::is_same_v<T, complex128>;

// The integer a key came from (bool and integer dtypes only).
template <class T, class K>
__device__ T value_of_key(K k) {
  if constexpr (std::is_same_v<T, bool>) {
    return k != 0;
  } else if constexpr (std::is_unsigned_v<T>) {
    return static_cast<T>(k);
  } else {
    return static_cast<T>(static_cast<K>(k ^ (K(1) << (sizeof(K) * 8 - 1))));
  }
}

// One block per row of n elements (rows first_row + blockIdx.x). Indices
// sorts write each element's position in its row (int64), value sorts the
// values.
template <int Threads, int Items, bool Indices, class T, class Out>
__global__ void __launch_bounds__(Threads)
    block_sort_rows_kernel(const T* in, Out* out, index_t n, index_t first_row) {
  using K = decltype(full_key(T{}));
  constexpr bool carries_bits = !Indices && !std::is_integral_v<T> && !std::is_same_v<T, bool>;
  using Bits = typename unsigned_of<sizeof(T)>::type;
  using P = std::conditional_t<Indices, int, std::conditional_t<carries_bits, Bits, cub::NullType>>;
  using Sort = cub::BlockRadixSort<K, Threads, Items, P>;
  __shared__ typename Sort::TempStorage temp;

  const index_t row = first_row + blockIdx.x;
  const T* src = in + row * n;
  K keys[Items];
  P payload[Items];
  // Blocked arrangement (thread t holds positions t * Items ...), the
  // order the stable block sort keeps for ties; padding sorts last.
  CUPP_UNROLL
  for (int it = 0; it < Items; ++it) {
    const int j = threadIdx.x * Items + it;
    if (j < n) {
      const T v = src[j];
      keys[it] = full_key(v);
      if constexpr (Indices) payload[it] = j;
      if constexpr (carries_bits) payload[it] = bits_of(v);
    } else {
      keys[it] = static_cast<K>(~K(0));
      if constexpr (Indices) payload[it] = j;
      if constexpr (carries_bits) payload[it] = 0;
    }
  }
  if constexpr (std::is_same_v<P, cub::NullType>)
    Sort(temp).SortBlockedToStriped(keys);
  else
    Sort(temp).SortBlockedToStriped(keys, payload);

  Out* dst = out + row * n;
  CUPP_UNROLL
  for (int it = 0; it < Items; ++it) {
    const int j = it * Threads + threadIdx.x;
    if (j < n) {
      if constexpr (Indices) {
        dst[j] = static_cast<std::int64_t>(payload[it]);
      } else if constexpr (carries_bits) {
        T v;
        memcpy(static_cast<void*>(&v), &payload[it], sizeof(T));
        dst[j] = v;
      } else {
        dst[j] = value_of_key<T>(keys[it]);
      }
    }
  }
}

template <int Threads, int Items, bool Indices, class T, class Out>
void launch_block_sort(const T* in, Out* out, index_t rows, index_t n, cudaStream_t s) {
  constexpr index_t max_grid = 0x7FFFFFFF;
  for (index_t r = 0; r < rows; r += max_grid) {
    const auto blocks = static_cast<unsigned>(rows - r < max_grid ? rows - r : max_grid);
    block_sort_rows_kernel<Threads, Items, Indices><<<blocks, Threads, 0, s>>>(in, out, n, r);
  }
  cuda::check(cudaGetLastError(), "block_sort_rows_kernel");
}

// Sorts (Indices false: values into out) or argsorts (true: int64 positions
// into out) rows of n <= block_sort_max elements.
template <bool Indices, class T, class Out>
void block_sort_rows(const T* in, Out* out, index_t rows, index_t n, cudaStream_t s) {
  if (n <= 256)
    launch_block_sort<64, 4, Indices>(in, out, rows, n, s);
  else if (n <= 1024)
    launch_block_sort<256, 4, Indices>(in, out, rows, n, s);
  else
    launch_block_sort<512, 8, Indices>(in, out, rows, n, s);
}

}  // namespace cupp::detail::sorting
