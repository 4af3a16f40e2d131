// Launching a compiled-in __global__ function through the driver's
// cuLaunchKernel, with its driver function looked up once per device. On an
// H100 host the runtime's launch (<<<>>> or cudaLaunchKernel) cost 3.2-3.6
// host microseconds a call and cuLaunchKernel 2.8: the runtime finds the
// function from its host stub and checks its state on every call. The
// driver is reached through the runtime's entry-point query, so nothing
// links libcuda; where the query fails, the runtime's launch is used.
#pragma once

#if defined(__CUDACC__)

#include <atomic>
#include <cstddef>
#include <cstdlib>

#include <cupp/cuda/runtime.hpp>

namespace cupp::detail {

using cu_launch_kernel_fn = int (*)(cudaFunction_t, unsigned, unsigned, unsigned, unsigned,
                                    unsigned, unsigned, unsigned, cudaStream_t, void**, void**);

inline cu_launch_kernel_fn driver_launch_kernel() {
  static const cu_launch_kernel_fn fn = []() -> cu_launch_kernel_fn {
    if (std::getenv("CUPP_RUNTIME_LAUNCH")) return nullptr;  // for comparisons
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuLaunchKernel", &p, 12000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    return reinterpret_cast<cu_launch_kernel_fn>(p);
  }();
  return fn;
}

// The driver function of Kernel on `device` (the current device).
template <auto Kernel>
cudaFunction_t kernel_function(int device) {
  static std::atomic<cudaFunction_t> cache[cuda::max_devices] = {};
  if (device < 0 || device >= cuda::max_devices) return nullptr;
  cudaFunction_t f = cache[device].load(std::memory_order_acquire);
  if (!f) {
    if (cudaGetFuncBySymbol(&f, reinterpret_cast<const void*>(Kernel)) != cudaSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    cache[device].store(f, std::memory_order_release);
  }
  return f;
}

// Kernel<<<grid, block, shared, stream>>>(args...) on `device`, the current
// device; errors as cupp::cuda_error naming `what`.
template <auto Kernel, class... A>
void launch_kernel(int device, dim3 grid, dim3 block, std::size_t shared, cudaStream_t stream,
                   const char* what, const A&... args) {
  void* argv[] = {const_cast<void*>(static_cast<const void*>(&args))...};
  const cu_launch_kernel_fn fn = driver_launch_kernel();
  const cudaFunction_t f = fn ? kernel_function<Kernel>(device) : nullptr;
  if (f) {
    // The driver's status codes are the runtime's for every launch error.
    const int r = fn(f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                     static_cast<unsigned>(shared), stream, argv, nullptr);
    if (r != 0) cuda::check(static_cast<cudaError_t>(r), what);
    return;
  }
  cuda::check(
      cudaLaunchKernel(reinterpret_cast<const void*>(Kernel), grid, block, argv, shared, stream),
      what);
}

}  // namespace cupp::detail

#endif
