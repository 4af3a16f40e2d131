// Order statistics of one row: detail::select_positions, the selection
// primitive under partition, median, percentile and quantile. Device rows
// of real dtypes take the radix selection of select_radix.hpp (a few passes
// over the row, nothing sorted or copied); complex rows and many positions
// sort a pooled copy and gather. Host rows use std::nth_element.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/sort/sort_keys.hpp>
#include <cupp/detail/sort/sort_rows.hpp>

#if defined(__CUDACC__)
#include <cupp/detail/sort/select_radix.hpp>
#endif

namespace cupp::detail {

namespace selecting {

// Host: the elements at the given positions (any order, repeats allowed)
// of buf[0..n) put where a sort would put them, by successive
// nth_element calls over the shrinking tail.
template <class T, class Less>
void nth_elements(T* buf, index_t n, std::vector<std::int64_t> positions, Less less) {
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  T* first = buf;
  for (const std::int64_t p : positions) {
    std::nth_element(first, buf + p, buf + n, less);
    first = buf + p + 1;
  }
}

#if defined(__CUDACC__)
template <class T>
__global__ void gather_positions(const T* sorted, const std::int64_t* pos, index_t k, T* out) {
  for (index_t t = blockIdx.x * index_t(blockDim.x) + threadIdx.x; t < k;
       t += index_t(gridDim.x) * blockDim.x)
    out[t] = sorted[pos[t]];
}

template <class T>
void device_select_positions(const T* in, index_t n, const std::int64_t* pos, index_t k, T* out,
                             int device) {
  cudaStream_t s = cuda::detail::current_stream_impl(device)->handle;
  if constexpr (radix_selectable_v<T>) {
    if (k <= radix_max_targets) {
      radix_state st;
      auto state = radix_state_alloc(k, st);
      radix_select(in, n, pos, 0, k, st, s, device);
      radix_values<T><<<1, 32, 0, s>>>(st, k, out);
      cuda::check(cudaGetLastError(), "radix_values");
      return;
    }
  }
  auto sorted = cuda::alloc(static_cast<std::size_t>(n) * sizeof(T));
  sort_rows<T, device_space>(in, static_cast<T*>(sorted.get()), 1, n, device);
  const unsigned blocks = static_cast<unsigned>(std::min<index_t>((k + 255) / 256, 4096));
  gather_positions<<<blocks, 256, 0, s>>>(static_cast<const T*>(sorted.get()), pos, k, out);
  cuda::check(cudaGetLastError(), "gather_positions");
}
#endif

}  // namespace selecting

// out[j] = the element at position pos[j] (0-based) of in[0..n) sorted in
// NumPy's order (NaNs last), for j in [0, k). `pos` and `out` are memory of
// space S and may have been written by earlier work on the same stream;
// positions are in [0, n). Device: asynchronous on the current stream of
// `device`, no host synchronisation; `in` is not modified. A NaN result
// is the canonical quiet NaN on the device's radix path (the key of every
// NaN is the same), and a zero result is +0.0 there (-0.0 and 0.0 tie).
template <class T, class S>
void select_positions(const T* in, index_t n, const std::int64_t* pos, index_t k, T* out,
                      int device = 0) {
  if (k <= 0 || n <= 0) return;
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    selecting::device_select_positions(in, n, pos, k, out, device);
#else
    (void)in, (void)pos, (void)out, (void)device;
    CUPP_NEEDS_NVCC(T);
#endif
  } else {
    (void)device;
    // Not std::vector: vector<bool> has no data().
    const std::unique_ptr<T[]> buf(new T[static_cast<std::size_t>(n)]);
    std::copy(in, in + n, buf.get());
    selecting::nth_elements(buf.get(), n, std::vector<std::int64_t>(pos, pos + k),
                            sorting::np_less{});
    for (index_t j = 0; j < k; ++j) out[j] = buf[pos[j]];
  }
}

}  // namespace cupp::detail
