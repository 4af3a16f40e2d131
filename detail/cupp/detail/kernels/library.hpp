// Compiled code loaded for launching: a runtime library (cudaLibrary_t,
// context-independent, so one load serves every device of the
// architecture), its kernels by name, and each kernel's parameter sizes
// through the driver's cuKernelGetParamInfo, reached with
// cudaGetDriverEntryPointByVersion so that nothing links the driver
// library. Loaded code stays loaded for the life of the process, as CuPy
// keeps its modules: unloading at exit would race the runtime's teardown.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <cupp/cuda/runtime.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail::kernels {

// A kernel ready to launch, with what its signature says.
struct loaded_kernel {
  cudaKernel_t handle = nullptr;
  bool params_known = false;
  std::vector<std::size_t> param_sizes;
};

using param_info_fn = CUresult (*)(CUkernel, std::size_t, std::size_t*, std::size_t*);

inline param_info_fn kernel_param_info() {
  static const param_info_fn fn = []() -> param_info_fn {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuKernelGetParamInfo", &p, 12040, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    return reinterpret_cast<param_info_fn>(p);
  }();
  return fn;
}

// The sizes of a kernel's parameters, in order (false where the driver
// cannot say).
inline bool read_param_sizes(cudaKernel_t k, std::vector<std::size_t>& sizes) {
  const param_info_fn info = kernel_param_info();
  if (!info) return false;
  sizes.clear();
  for (std::size_t i = 0;; ++i) {
    std::size_t offset = 0, size = 0;
    const CUresult r = info(reinterpret_cast<CUkernel>(k), i, &offset, &size);
    if (r == CUDA_ERROR_INVALID_VALUE) return true;  // past the last parameter
    if (r != CUDA_SUCCESS) return false;
    sizes.push_back(size);
  }
}

// A loaded image and its kernels.
class loaded_library {
 public:
  explicit loaded_library(const std::string& image) {
    ::cupp::cuda::check(
        cudaLibraryLoadData(&lib_, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
        "cudaLibraryLoadData");
  }
  loaded_library(const loaded_library&) = delete;
  loaded_library& operator=(const loaded_library&) = delete;

  const loaded_kernel& kernel(const std::string& name) {
    const std::lock_guard lock(mutex_);
    if (const auto it = kernels_.find(name); it != kernels_.end()) return it->second;
    loaded_kernel k;
    const cudaError_t e = cudaLibraryGetKernel(&k.handle, lib_, name.c_str());
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      throw value_error("cupp: the module has no kernel named '" + name + "' (" +
                        cudaGetErrorName(e) + ")");
    }
    k.params_known = read_param_sizes(k.handle, k.param_sizes);
    return kernels_.emplace(name, std::move(k)).first->second;
  }

  // A __device__ variable's address and size on the current device.
  std::pair<void*, std::size_t> global(const std::string& name) {
    void* p = nullptr;
    std::size_t bytes = 0;
    const cudaError_t e = cudaLibraryGetGlobal(&p, &bytes, lib_, name.c_str());
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      throw value_error("cupp: the module has no global named '" + name + "' (" +
                        cudaGetErrorName(e) + ")");
    }
    return {p, bytes};
  }

 private:
  cudaLibrary_t lib_ = nullptr;
  std::mutex mutex_;
  // Node-based: references handed out stay valid as kernels are added.
  std::unordered_map<std::string, loaded_kernel> kernels_;
};

}  // namespace cupp::detail::kernels
