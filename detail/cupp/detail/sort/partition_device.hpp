// One long row partitioned around one kth on the device (nvcc only): the
// radix selection of select_radix.hpp finds the key at kth, then one pass
// moves every element with a smaller key to the front, a larger one to the
// back and an equal one to the middle, which starts at kth minus its rank
// among the equal keys (known from the selection, on the device). Each
// block takes a tile, counts its three classes with one block scan and
// claims room with one atomic per class, so the order within each class is
// unspecified (it depends on the blocks' timing).
#pragma once

#include <cstdint>

#include <cub/block/block_scan.cuh>

#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/sort/select_radix.hpp>
#include <cupp/detail/sort/sort_keys.hpp>

namespace cupp::detail::partitioning {

inline constexpr int split_threads = 256;
inline constexpr int split_items = 8;
inline constexpr index_t split_tile = index_t(split_threads) * split_items;

// The three per-thread counts packed in 21-bit fields (a tile has 2048
// elements), so one block scan ranks all three classes.
inline constexpr int class_bits = 21;

// Values (Indices false) or their positions (true) written in three-way
// order around the key st.prefix[0] at position `kth`. `claimed` holds
// three zeroed counters: the room taken so far in each class.
template <bool Indices, class T, class R>
__global__ void __launch_bounds__(split_threads)
    three_way_split(const T* in, index_t n, selecting::radix_state st, std::int64_t kth, R* out,
                    unsigned long long* claimed) {
  using scan_t = cub::BlockScan<unsigned long long, split_threads>;
  __shared__ typename scan_t::TempStorage scan_storage;
  __shared__ index_t bases[3];
  // The tile in three-way order, staged so that each class leaves the
  // block as one contiguous, coalesced run of stores.
  // (Raw bytes: float16 and bfloat16 have constructors, which __shared__
  // variables may not.)
  __shared__ __align__(16) unsigned char staged_bytes[split_tile * sizeof(R)];
  R* staged = reinterpret_cast<R*>(staged_bytes);
  const index_t tile = blockIdx.x * split_tile;
  const std::uint64_t pivot = st.prefix[0];
  T v[split_items];
  unsigned char cls[split_items];
  unsigned long long mine = 0;
#pragma unroll
  for (int u = 0; u < split_items; ++u) {
    const index_t i = tile + index_t(u) * split_threads + threadIdx.x;
    cls[u] = 3;
    if (i < n) {
      v[u] = in[i];
      const std::uint64_t key = sorting::real_key(v[u]);
      cls[u] = key < pivot ? 0 : key == pivot ? 1 : 2;
      mine += 1ull << (class_bits * cls[u]);
    }
  }
  unsigned long long before = 0, total = 0;
  scan_t(scan_storage).ExclusiveSum(mine, before, total);
  constexpr unsigned long long field = (1ull << class_bits) - 1;
  const int less = static_cast<int>(total & field),
            equal = static_cast<int>((total >> class_bits) & field),
            greater = static_cast<int>(total >> (2 * class_bits));
  if (threadIdx.x == 0) {
    const index_t first_equal = kth - st.rank[0];
    bases[0] = static_cast<index_t>(atomicAdd(&claimed[0], static_cast<unsigned long long>(less)));
    bases[1] = first_equal +
               static_cast<index_t>(atomicAdd(&claimed[1], static_cast<unsigned long long>(equal)));
    bases[2] =
        n - static_cast<index_t>(atomicAdd(&claimed[2], static_cast<unsigned long long>(greater))) -
        greater;
  }
  const int start[3] = {0, less, less + equal};
  int at[3] = {start[0] + static_cast<int>(before & field),
               start[1] + static_cast<int>((before >> class_bits) & field),
               start[2] + static_cast<int>(before >> (2 * class_bits))};
#pragma unroll
  for (int u = 0; u < split_items; ++u) {
    if (cls[u] == 3) continue;
    if constexpr (Indices)
      staged[at[cls[u]]++] = tile + index_t(u) * split_threads + threadIdx.x;
    else
      staged[at[cls[u]]++] = v[u];
  }
  __syncthreads();
  const int count = less + equal + greater;
  for (int j = threadIdx.x; j < count; j += split_threads) {
    const int c = j < start[1] ? 0 : j < start[2] ? 1 : 2;
    out[bases[c] + (j - start[c])] = staged[j];
  }
}

// Partitions in[0..n) around position kth into out (values, or int64
// positions with Indices): asynchronous on stream s, no host
// synchronisation. Real dtypes only.
template <bool Indices, class T, class R>
void device_partition_one_row(const T* in, index_t n, index_t kth, R* out, cudaStream_t s,
                              int device) {
  selecting::radix_state st;
  auto state = selecting::radix_state_alloc(1, st);
  selecting::radix_select(in, n, nullptr, kth, 1, st, s, device);
  auto counters = cuda::alloc(3 * sizeof(unsigned long long));
  auto* claimed = static_cast<unsigned long long*>(counters.get());
  cuda::check(cudaMemsetAsync(claimed, 0, 3 * sizeof(unsigned long long), s), "cudaMemsetAsync");
  const index_t tiles = (n + split_tile - 1) / split_tile;
  three_way_split<Indices, T, R>
      <<<static_cast<unsigned>(tiles), split_threads, 0, s>>>(in, n, st, kth, out, claimed);
  cuda::check(cudaGetLastError(), "three_way_split");
}

}  // namespace cupp::detail::partitioning
