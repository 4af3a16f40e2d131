// Counting elements into bins, shared by bincount and the histograms: a
// binner maps element i to its bin (or -1 to drop it) and its weight; the
// device accumulates in shared memory per block when the bins (and the
// binner's tables) fit there, merging into global memory with atomics,
// and straight into global memory otherwise. The host loops in element
// order, as NumPy does.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::search {

// Adds binner's weight for every element to out[bin]: n elements, nbins
// accumulators of type Acc (double, or unsigned long long for counts).
template <class Acc, class Binner>
void host_accumulate(const Binner& b, index_t n, Acc* out) {
  for (index_t i = 0; i < n; ++i) {
    const index_t k = b.bin(i);
    if (k >= 0) out[k] += b.template weight<Acc>(i);
  }
}

// Weights for a binner: none (each element counts one) or an array read in
// element order.
struct unit_weight {
  template <class Acc>
  CUPP_HD Acc at(index_t) const {
    return Acc{1};
  }
};

template <class W>
struct array_weight {
  const W* data;
  template <class Acc>
  CUPP_HD Acc at(index_t i) const {
    return convert<Acc>(data[i]);
  }
};

#if defined(__CUDACC__)
// Shared memory a block may use for its private bins and tables: the
// default 48 KiB every device grants without opting in.
inline constexpr std::size_t shared_budget = 48 * 1024;

inline std::size_t align_up(std::size_t bytes) {
  return (bytes + 15) / 16 * 16;
}

// A block's private counters: 32-bit for counts (shared-memory atomics on
// 64-bit integers are far slower, and a block never counts 2^32 elements:
// see device_accumulate), the accumulator itself for weights.
template <class Acc>
using local_acc_t = std::conditional_t<std::is_same_v<Acc, unsigned long long>, unsigned, Acc>;

// Binners that count 4-byte values one each (no weights) read them 16
// bytes at a time where the data is aligned: fewer, wider loads keep more
// bytes in flight.
template <class Binner>
concept counts_by_value = requires(const Binner& b) {
  {b.bin_of(*b.x)};
  requires sizeof(*b.x) == 4;
  requires std::is_same_v<std::remove_cvref_t<decltype(b.w)>, unit_weight>;
};

template <class L, class Binner>
__device__ void count_vectors(const Binner& b, index_t n, L* local) {
  const auto* x4 = reinterpret_cast<const uint4*>(b.x);
  const index_t n4 = n / 4;
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  index_t j = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  using T = std::remove_cvref_t<decltype(*b.x)>;
  constexpr int unroll = 4;
  auto count = [&](const uint4& w) {
    const unsigned words[4] = {w.x, w.y, w.z, w.w};
    CUPP_UNROLL
    for (int e = 0; e < 4; ++e) {
      T v;
      memcpy(static_cast<void*>(&v), &words[e], sizeof(T));
      const auto k = static_cast<int>(b.bin_of(v));
      if (k >= 0) atomicAdd(&local[k], L{1});
    }
  };
  for (; j + (unroll - 1) * step < n4; j += unroll * step) {
    uint4 w[unroll];
    CUPP_UNROLL
    for (int u = 0; u < unroll; ++u) w[u] = x4[j + u * step];
    CUPP_UNROLL
    for (int u = 0; u < unroll; ++u) count(w[u]);
  }
  for (; j < n4; j += step) count(x4[j]);
  // The last n % 4 elements, one thread each.
  const index_t t = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < n - n4 * 4) {
    const auto k = static_cast<int>(b.bin_of(b.x[n4 * 4 + t]));
    if (k >= 0) atomicAdd(&local[k], L{1});
  }
}

template <class Acc, class Binner>
__global__ void privatised_bins_kernel(Binner b, index_t n, index_t nbins, Acc* out) {
  using L = local_acc_t<Acc>;
  extern __shared__ __align__(16) unsigned char shared_words[];
  unsigned char* smem = shared_words;
  L* local = reinterpret_cast<L*>(smem);
  for (index_t k = threadIdx.x; k < nbins; k += blockDim.x) local[k] = L{0};
  b.stage(smem + (nbins * sizeof(L) + 15) / 16 * 16, threadIdx.x, blockDim.x);
  __syncthreads();
  if constexpr (counts_by_value<Binner>) {
    if (reinterpret_cast<std::uintptr_t>(b.x) % 16 == 0) {
      count_vectors(b, n, local);
      __syncthreads();
      for (index_t k = threadIdx.x; k < nbins; k += blockDim.x)
        if (local[k] != L{0}) atomicAdd(&out[k], static_cast<Acc>(local[k]));
      return;
    }
  }
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  // Eight elements per thread in flight: their loads issue before the
  // first atomic waits on one (four left the H100's memory system idle).
  // Private bins fit in shared memory, so a bin is an int.
  constexpr int unroll = 8;
  for (; i + (unroll - 1) * step < n; i += unroll * step) {
    int k[unroll];
    CUPP_UNROLL
    for (int u = 0; u < unroll; ++u) k[u] = static_cast<int>(b.bin(i + u * step));
    CUPP_UNROLL
    for (int u = 0; u < unroll; ++u)
      if (k[u] >= 0) atomicAdd(&local[k[u]], b.template weight<L>(i + u * step));
  }
  for (; i < n; i += step) {
    const index_t k = b.bin(i);
    if (k >= 0) atomicAdd(&local[k], b.template weight<L>(i));
  }
  __syncthreads();
  for (index_t k = threadIdx.x; k < nbins; k += blockDim.x)
    if (local[k] != L{0}) atomicAdd(&out[k], static_cast<Acc>(local[k]));
}

template <class Acc, class Binner>
__global__ void global_bins_kernel(Binner b, index_t n, Acc* out) {
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    const index_t k = b.bin(i);
    if (k >= 0) atomicAdd(&out[k], b.template weight<Acc>(i));
  }
}

// out (nbins accumulators, zeroed here) on the current stream of `device`.
template <class Acc, class Binner>
void device_accumulate(const Binner& b, index_t n, index_t nbins, Acc* out, int device) {
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  cuda::check(cudaMemsetAsync(out, 0, static_cast<std::size_t>(nbins) * sizeof(Acc), stream),
              "cudaMemsetAsync");
  if (n == 0 || nbins == 0) return;
  int sms = 0;
  cuda::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
              "cudaDeviceGetAttribute");
  constexpr int threads = 256;
  const index_t wanted = (n + threads - 1) / threads;
  const std::size_t bytes =
      align_up(static_cast<std::size_t>(nbins) * sizeof(local_acc_t<Acc>)) + b.table_bytes();
  const bool privatised = bytes <= shared_budget;
  // One wave of blocks, each counting its share of the elements: a second,
  // partial wave would take as long as the first. Enough blocks, too, that
  // none counts 2^32 elements in its 32-bit counters.
  int per_sm = 0;
  if (privatised)
    cuda::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                    &per_sm, privatised_bins_kernel<Acc, Binner>, threads, bytes),
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  else
    cuda::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                    &per_sm, global_bins_kernel<Acc, Binner>, threads, 0),
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const index_t wave = static_cast<index_t>(sms) * std::max(per_sm, 1);
  const index_t fewest = (n >> 31) + 1;
  const unsigned blocks = static_cast<unsigned>(std::max(fewest, std::min<index_t>(wanted, wave)));
  if (privatised) {
    privatised_bins_kernel<Acc><<<blocks, threads, bytes, stream>>>(b, n, nbins, out);
    cuda::check(cudaGetLastError(), "privatised_bins_kernel");
  } else {
    global_bins_kernel<Acc><<<blocks, threads, 0, stream>>>(b, n, out);
    cuda::check(cudaGetLastError(), "global_bins_kernel");
  }
}
#endif

}  // namespace cupp::detail::search
