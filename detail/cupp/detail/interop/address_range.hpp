// The base of the allocation that holds a device pointer, for CUDA IPC
// (<cupp/ipc.hpp>): only a base has an IPC handle, and the driver's
// cuMemGetAddressRange finds it.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstddef>

namespace cupp::cuda::detail {

using address_range_fn = CUresult (*)(CUdeviceptr*, std::size_t*, CUdeviceptr);

// The driver's cuMemGetAddressRange, reached through the runtime so that
// nothing links the driver library: the base of the allocation holding a
// pointer (pool arrays live inside larger allocations, and only a base has
// an IPC handle).
inline address_range_fn address_range() {
  static const address_range_fn fn = []() -> address_range_fn {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &p, 12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    return reinterpret_cast<address_range_fn>(p);
  }();
  return fn;
}

}  // namespace cupp::cuda::detail
