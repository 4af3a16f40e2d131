// Runs a row sampler (samplers_vector.hpp) over the rows of a draw: a loop
// on the host, one thread per row on the device. A row's values depend on
// its number alone, so the split of rows over threads never shows.
#pragma once

#include <cstdint>

#include <cupp/config.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/index_types.hpp>

namespace cupp::detail::random {

template <class F>
void host_rows(const F& f, index_t rows, index_t k, typename F::value_type* out) {
  for (index_t r = 0; r < rows; ++r) f(static_cast<std::uint64_t>(r), out + r * k);
}

#if defined(__CUDACC__)
template <class F>
__global__ void vector_rows_kernel(F f, index_t rows, index_t k, typename F::value_type* out) {
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t r = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < rows;
       r += stride)
    f(static_cast<std::uint64_t>(r), out + r * k);
}

// Rows vary in their work (rejection loops), so blocks are small and many:
// a slow row holds back 127 others, not 1023.
template <class F>
void device_rows(const F& f, index_t rows, index_t k, typename F::value_type* out, int device) {
  if (rows == 0) return;
  constexpr int threads = 128;
  constexpr index_t max_blocks = index_t(1) << 20;
  const index_t wanted = (rows + threads - 1) / threads;
  const auto blocks = static_cast<unsigned>(wanted < max_blocks ? wanted : max_blocks);
  cuda::device_scope scope(device);
  const cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  vector_rows_kernel<<<blocks, threads, 0, stream>>>(f, rows, k, out);
  cuda::check(cudaGetLastError(), "random vector rows kernel");
}
#endif

}  // namespace cupp::detail::random
