// Radix selection on the device (nvcc only): the values at given positions
// of a row in NumPy's order, found without sorting it. The elements are read
// as the order-preserving unsigned keys of sort_keys.hpp (NaN the largest,
// -0.0 the key of 0.0); each pass histograms the next 8-bit digit of the
// elements whose higher digits equal a target's prefix, and a one-block
// kernel turns the histograms into each target's next digit and remaining
// rank. Everything stays in device memory, so a selection is a fixed number
// of launches (two per key byte) with no host synchronisation.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/sort/sort_keys.hpp>

namespace cupp::detail::selecting {

// Shared-memory histograms are 256 counters a target: 16 targets take 16 KiB.
inline constexpr index_t radix_max_targets = 16;
inline constexpr int radix_threads = 256;
inline constexpr int radix_bins = 256;

template <class T>
inline constexpr bool radix_selectable_v =
    !sorting::is_complex_v<T> && sizeof(sorting::key_t<T>) <= sizeof(std::uint64_t);

// The value whose key is `k` (sorting::real_key's inverse). Every NaN has
// the largest key, so a NaN comes back as the canonical quiet NaN, and the
// key of -0.0 and 0.0 as 0.0.
template <class T>
__host__ __device__ T value_of_key(sorting::key_t<T> k) {
  using U = sorting::key_t<T>;
  if constexpr (std::is_same_v<T, bool>) {
    return k != 0;
  } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
    return static_cast<T>(k);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<U>(k ^ (U(1) << (sizeof(U) * 8 - 1))));
  } else {
    constexpr U sign = static_cast<U>(~sorting::float_layout<T>::magnitude);
    if (k == static_cast<U>(~U(0))) return sorting::canonical_nan<T>();
    const U b = (k & sign) ? static_cast<U>(k ^ sign) : static_cast<U>(~k);
    T v;
    std::memcpy(static_cast<void*>(&v), &b, sizeof(T));
    return v;
  }
}

// The search's state in device memory, per target: the key bits found so
// far (higher digits) and the target's rank among the elements that share
// them. `hist` holds one 256-bin histogram per target.
struct radix_state {
  std::uint64_t* prefix;
  std::int64_t* rank;
  unsigned long long* hist;
};

inline cuda::memory_ptr radix_state_alloc(index_t k, radix_state& st) {
  const std::size_t bytes = static_cast<std::size_t>(k) * (2 * sizeof(std::uint64_t)) +
                            static_cast<std::size_t>(k) * radix_bins * sizeof(unsigned long long);
  auto mem = cuda::alloc(bytes);
  auto* base = static_cast<unsigned long long*>(mem.get());
  st.hist = base;
  st.prefix = reinterpret_cast<std::uint64_t*>(base + k * radix_bins);
  st.rank = reinterpret_cast<std::int64_t*>(st.prefix + k);
  return mem;
}

// Positions come from device memory (`pos`) or, with pos null, are the one
// position `single`.
template <class T>
__global__ void radix_init(radix_state st, const std::int64_t* pos, std::int64_t single,
                           index_t k) {
  for (index_t t = threadIdx.x; t < k; t += blockDim.x) {
    st.prefix[t] = 0;
    st.rank[t] = pos ? pos[t] : single;
  }
}

// One pass: the digit at `shift` of every element whose key matches a
// target's prefix above that digit, counted per target. On the first pass
// (`shared`) every element matches every target, so one histogram serves
// all. Later passes count few elements on most data (a compare per target,
// no warp vote: votes per element and target cost more than the rare
// atomics). One wave of blocks, eight loads in flight per thread.
template <class T>
__global__ void radix_histogram(const T* in, index_t n, radix_state st, int targets, int shift,
                                std::uint64_t above_mask, bool shared) {
  extern __shared__ unsigned int counts[];
  __shared__ std::uint64_t prefixes[radix_max_targets];
  const int histograms = shared ? 1 : targets;
  for (int i = threadIdx.x; i < histograms * radix_bins; i += blockDim.x) counts[i] = 0;
  if (threadIdx.x < histograms) prefixes[threadIdx.x] = st.prefix[threadIdx.x];
  __syncthreads();
  // Every thread of a block runs the same number of rounds (out-of-range
  // elements count nowhere).
  const index_t stride = index_t(gridDim.x) * blockDim.x;
  constexpr int unroll = 8;
  for (index_t base = blockIdx.x * index_t(blockDim.x); base < n; base += unroll * stride) {
    T v[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const index_t i = base + u * stride + threadIdx.x;
      if (i < n) v[u] = in[i];
    }
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const bool here = base + u * stride + threadIdx.x < n;
      const std::uint64_t key = here ? std::uint64_t(sorting::real_key(v[u])) : 0;
      const unsigned digit = static_cast<unsigned>(key >> shift) & (radix_bins - 1);
      if (shared) {
        if (here) atomicAdd(&counts[digit], 1u);
        continue;
      }
      for (int t = 0; t < histograms; ++t)
        if (here && (key & above_mask) == prefixes[t])
          atomicAdd(&counts[t * radix_bins + digit], 1u);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < histograms * radix_bins; i += blockDim.x)
    if (counts[i] != 0) atomicAdd(&st.hist[i], static_cast<unsigned long long>(counts[i]));
}

// Each target's digit: the bin its remaining rank falls in; the rank
// becomes its rank within that bin.
template <class T>
__global__ void radix_choose(radix_state st, int targets, int shift, bool shared) {
  for (int t = threadIdx.x; t < targets; t += blockDim.x) {
    const unsigned long long* h = st.hist + (shared ? 0 : t) * radix_bins;
    const auto r = static_cast<unsigned long long>(st.rank[t]);
    unsigned long long before = 0;
    int d = 0;
    for (; d < radix_bins - 1; ++d) {
      if (r < before + h[d]) break;
      before += h[d];
    }
    st.rank[t] = static_cast<std::int64_t>(r - before);
    st.prefix[t] |= static_cast<std::uint64_t>(d) << shift;
  }
}

template <class T>
__global__ void radix_values(radix_state st, index_t k, T* out) {
  for (index_t t = blockIdx.x * index_t(blockDim.x) + threadIdx.x; t < k;
       t += index_t(gridDim.x) * blockDim.x)
    out[t] = value_of_key<T>(static_cast<sorting::key_t<T>>(st.prefix[t]));
}

// One wave of radix_histogram's blocks (each loops over its share: a
// second, partial wave would take as long as the first).
template <class T>
unsigned radix_blocks(index_t n, int device, std::size_t shared_bytes) {
  int sms = 0, per_sm = 0;
  cuda::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
              "cudaDeviceGetAttribute");
  cuda::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, radix_histogram<T>,
                                                            radix_threads, shared_bytes),
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const index_t want = (n + radix_threads - 1) / radix_threads;
  return static_cast<unsigned>(
      std::max<index_t>(1, std::min<index_t>(want, std::max(per_sm, 1) * index_t(sms))));
}

// Finds the keys at k (1..radix_max_targets) positions of in[0..n): after
// it, st.prefix[t] is the key at position t and st.rank[t] that position
// minus the number of elements with a smaller key (so the first position
// of that key is pos - rank).
template <class T>
void radix_select(const T* in, index_t n, const std::int64_t* pos, std::int64_t single, index_t k,
                  const radix_state& st, cudaStream_t s, int device) {
  constexpr int bits = 8 * sizeof(sorting::key_t<T>);
  const int targets = static_cast<int>(k);
  radix_init<T><<<1, 32, 0, s>>>(st, pos, single, k);
  for (int shift = bits - 8; shift >= 0; shift -= 8) {
    const bool shared = shift + 8 == bits;
    const std::uint64_t above = shift + 8 >= 64 ? 0 : ~std::uint64_t(0) << (shift + 8);
    const int histograms = shared ? 1 : targets;
    cuda::check(
        cudaMemsetAsync(
            st.hist, 0,
            static_cast<std::size_t>(histograms) * radix_bins * sizeof(unsigned long long), s),
        "cudaMemsetAsync");
    const std::size_t bytes = histograms * radix_bins * sizeof(unsigned);
    radix_histogram<T><<<radix_blocks<T>(n, device, bytes), radix_threads, bytes, s>>>(
        in, n, st, targets, shift, above, shared);
    radix_choose<T><<<1, 32, 0, s>>>(st, targets, shift, shared);
  }
  cuda::check(cudaGetLastError(), "radix select");
}

}  // namespace cupp::detail::selecting
