// The timing machinery of cupp::profiler::benchmark (<cupp/profiler.hpp>):
// the devices timed by default and the pair of CUDA events recorded on a
// device's current stream around each call.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include <cupp/cuda/device.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>

namespace cupp::profiler::detail {

// The devices timed when benchmark_options::devices is unset.
inline std::vector<int> default_benchmark_devices() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    (void)cudaGetLastError();
    return {};
  }
  return {cuda::runtime::getDevice()};
}

// A start and an end event on one device, destroyed with the object.
struct event_pair {
  int device;
  cudaEvent_t start = nullptr, end = nullptr;
  explicit event_pair(int d) : device(d) {
    cuda::device_scope scope(device);
    cuda::check(cudaEventCreate(&start), "cudaEventCreate");
    cuda::check(cudaEventCreate(&end), "cudaEventCreate");
  }
  event_pair(const event_pair&) = delete;
  event_pair& operator=(const event_pair&) = delete;
  ~event_pair() {
    if (start) (void)cudaEventDestroy(start);
    if (end) (void)cudaEventDestroy(end);
  }
  cudaStream_t stream() const { return cuda::detail::current_stream_impl(device)->handle; }
  void record(cudaEvent_t e) const {
    cuda::device_scope scope(device);
    cuda::check(cudaEventRecord(e, stream()), "cudaEventRecord");
  }
};

}  // namespace cupp::profiler::detail
