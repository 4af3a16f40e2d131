// The device side of unique() (nvcc only): the pieces between the sort and
// the results. The run heads are written once as bytes, so the selection
// of the run starts and the inverse's scan are one instantiation for every
// dtype; slices are sorted by their elements' unsigned keys, so one merge
// sort serves every dtype of a key width. The inverse is scanned straight
// through the sort's permutation into the caller's array (CUB writes
// element order[i] of it), with no buffer of its own.
#pragma once

#include <cstdint>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/permutation_iterator.h>

#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/indexing/compaction.hpp>
#include <cupp/detail/sort/sort_device.hpp>
#include <cupp/detail/sort/unique_runs.hpp>

namespace cupp::detail::sorting {

#define CUPP_UNIQUE_GRID_LOOP(i, count)                                         \
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < (count); \
       i += index_t(gridDim.x) * blockDim.x)

template <class Head>
__global__ void unique_mark_heads(Head head, index_t n, std::uint8_t* heads) {
  CUPP_UNIQUE_GRID_LOOP(i, n) heads[i] = head(i) ? 1 : 0;
}

// Run k spans sorted positions [starts[k], starts[k + 1]) (the last one up
// to n): the input position of its first element and its length.
template <class I>
__global__ void unique_runs_kernel(const I* starts, index_t u, index_t n, const I* order,
                                   I* indices, I* counts) {
  CUPP_UNIQUE_GRID_LOOP(k, u) {
    const I start = starts[k];
    if (indices) indices[k] = order[start];
    if (counts) counts[k] = (k + 1 < u ? starts[k + 1] : n) - start;
  }
}

// Run k's value. When the values were sorted without their positions
// (which a radix sort does by bits, -0.0 before 0.0), the run of zeros
// takes the input's first zero, as NumPy keeps.
template <class T>
__global__ void unique_values_kernel(const T* sorted, const std::int64_t* starts, index_t u,
                                     const T* first_zero, T* values) {
  CUPP_UNIQUE_GRID_LOOP(k, u) {
    const T v = sorted[starts[k]];
    values[k] = first_zero && unique_is_zero(v) ? *first_zero : v;
  }
}

// The unique slices as an (m, u) buffer: element j of unique slice k.
template <class T>
__global__ void unique_gather_slices(unique_slices<T> slices, const std::int64_t* starts,
                                     const std::int64_t* order, index_t u, T* out) {
  CUPP_UNIQUE_GRID_LOOP(t, slices.m * u) {
    const index_t j = t / u, k = t - j * u;
    out[t] = slices.keys[j * slices.n + order[starts[k]]];
  }
}

// The key form of the slices (unique_key_slices), one thread per slice.
template <class T, class U>
__global__ void unique_slice_keys(unique_slices<T> slices, U* keys, std::uint8_t* has_nan) {
  const index_t n = slices.n;
  CUPP_UNIQUE_GRID_LOOP(s, n) {
    bool nan = false;
    for (index_t j = 0; j < slices.m; ++j) {
      const T v = slices.keys[j * n + s];
      nan = nan || unique_is_nan(v);
      if constexpr (std::is_same_v<T, complex128>) {
        const auto k = complex_keys(v);
        keys[2 * j * n + s] = k.hi;
        keys[(2 * j + 1) * n + s] = k.lo;
      } else {
        keys[j * n + s] = full_key(v);
      }
    }
    has_nan[s] = nan ? 1 : 0;
  }
}

template <class I>
__global__ void unique_iota(I* order, index_t n) {
  CUPP_UNIQUE_GRID_LOOP(i, n) order[i] = i;
}

template <class T>
__global__ void unique_pick_zero(const T* x, const std::int64_t* at, index_t n, T* zero) {
  *zero = *at < n ? x[*at] : T{};
}

#undef CUPP_UNIQUE_GRID_LOOP

// From the run heads: the inverse (when asked for), the run starts, and
// their number, read back (the one synchronisation).
inline index_t unique_device_select(const std::uint8_t* heads, const std::int64_t* order,
                                    std::int64_t* inverse, std::int64_t* starts, index_t n,
                                    int device, cudaStream_t s) {
  const unique_flag_fn head{heads};
  if (inverse) {
    const fn_iterator<unique_later_head_fn<unique_flag_fn>> in{{head}, 0};
    const auto out = thrust::make_permutation_iterator(inverse, order);
    std::size_t bytes = 0;
    cuda::check(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, n, s),
                "cub::DeviceScan::InclusiveSum");
    auto temp = cuda::alloc(std::max<std::size_t>(bytes, 1));
    cuda::check(cub::DeviceScan::InclusiveSum(temp.get(), bytes, in, out, n, s),
                "cub::DeviceScan::InclusiveSum");
  }
  return select_flagged<true, std::int64_t>(select_position_fn{}, head, n, starts, device);
}

// The input's first zero (any zero when there is none), kept in device
// memory, the allocation returned, before a sort in place overwrites x.
template <class T>
cuda::memory_ptr unique_device_first_zero(const T* x, index_t n, cudaStream_t s) {
  const fn_iterator<unique_zero_at_fn<T>> in{{x, n}, 0};
  constexpr std::size_t head = 256;
  std::size_t bytes = 0;
  auto* none = static_cast<std::int64_t*>(nullptr);
  cuda::check(cub::DeviceReduce::Min(nullptr, bytes, in, none, n, s), "cub::DeviceReduce::Min");
  auto mem = cuda::alloc(head + bytes);
  auto* zero = static_cast<T*>(mem.get());
  auto* at = reinterpret_cast<std::int64_t*>(static_cast<char*>(mem.get()) + 64);
  cuda::check(cub::DeviceReduce::Min(static_cast<char*>(mem.get()) + head, bytes, in, at, n, s),
              "cub::DeviceReduce::Min");
  unique_pick_zero<<<1, 1, 0, s>>>(x, at, n, zero);
  cuda::check(cudaGetLastError(), "unique_pick_zero");
  return mem;
}

// order = the stable lexicographic order of the n slices, and their heads.
template <class U>
void unique_device_sort_slices(const unique_key_slices<U>& slices, std::int64_t* order,
                               std::uint8_t* heads, cudaStream_t s) {
  const index_t n = slices.n;
  unique_iota<<<sort_blocks(n), sort_threads, 0, s>>>(order, n);
  cuda::check(cudaGetLastError(), "unique_iota");
  std::size_t bytes = 0;
  cuda::check(cub::DeviceMergeSort::StableSortKeys(nullptr, bytes, order, n, slices, s),
              "cub::DeviceMergeSort::StableSortKeys");
  auto temp = cuda::alloc(std::max<std::size_t>(bytes, 1));
  cuda::check(cub::DeviceMergeSort::StableSortKeys(temp.get(), bytes, order, n, slices, s),
              "cub::DeviceMergeSort::StableSortKeys");
  const unique_slice_head_fn<unique_key_slices<U>> head{slices, order};
  unique_mark_heads<<<sort_blocks(n), sort_threads, 0, s>>>(head, n, heads);
  cuda::check(cudaGetLastError(), "unique_mark_heads");
}

}  // namespace cupp::detail::sorting
