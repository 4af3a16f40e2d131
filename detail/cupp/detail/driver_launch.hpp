// Launching a compiled-in __global__ function through the driver's
// cuLaunchKernel, with its driver function looked up once per device. On an
// H100 host the runtime's launch (<<<>>> or cudaLaunchKernel) cost 3.2-3.6
// host microseconds a call and cuLaunchKernel 2.8: the runtime finds the
// function from its host stub and checks its state on every call. The
// driver is reached through the runtime's entry-point query, so nothing
// links libcuda; where the query fails, the runtime's launch is used.
//
// One launch function serves every kernel: the driver functions are kept
// in a table keyed on the kernel's host address, so that a kernel costs
// its translation unit only the array of its arguments' addresses (a
// wrapper and a cache per kernel were 8% of an expression's host code).
#pragma once

#if defined(__CUDACC__)

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include <cupp/config.hpp>
#include <cupp/cuda/runtime.hpp>

namespace cupp::detail {

using cu_launch_kernel_fn = int (*)(cudaFunction_t, unsigned, unsigned, unsigned, unsigned,
                                    unsigned, unsigned, unsigned, cudaStream_t, void**, void**);

inline cu_launch_kernel_fn driver_launch_kernel() CUPP_HOST_BODY({
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
});

// A device's kernels: open addressing over kernel addresses, lock-free.
// A slot's key is claimed once (compare-and-swap from null) and its
// function published after it; a reader that finds the key before the
// function looks the function up itself. A full table chains a next one,
// so the number of kernels is unbounded; a program's kernels fit the first.
struct kernel_table {
  static constexpr int capacity_bits = 10;
  static constexpr std::size_t capacity = std::size_t{1} << capacity_bits;
  static constexpr std::size_t probes = 64;
  struct slot {
    std::atomic<const void*> key{nullptr};
    std::atomic<cudaFunction_t> fn{nullptr};
  };
  slot slots[capacity];
  std::atomic<kernel_table*> next{nullptr};
};

inline cudaFunction_t lookup_function(const void* kernel) CUPP_HOST_BODY({
  cudaFunction_t f = nullptr;
  if (cudaGetFuncBySymbol(&f, kernel) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return f;
});

// Loads `link`, installing a fresh table there when it is empty (the loser
// of a race deletes its own). Tables live until the program ends.
inline kernel_table* table_at(std::atomic<kernel_table*>& link) CUPP_HOST_BODY({
  kernel_table* t = link.load(std::memory_order_acquire);
  if (t) return t;
  auto* fresh = new kernel_table;
  if (link.compare_exchange_strong(t, fresh, std::memory_order_acq_rel)) return fresh;
  delete fresh;
  return t;
});

// The driver function of `kernel` (a __global__ function's host address)
// on `device`, the current device; null where the runtime has none.
inline cudaFunction_t kernel_function(const void* kernel, int device) CUPP_HOST_BODY({
  static std::atomic<kernel_table*> tables[cuda::max_devices] = {};
  if (device < 0 || device >= cuda::max_devices) return nullptr;
  // Fibonacci hashing of the address: the top bits of the product.
  const auto bits = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(kernel));
  const auto home = static_cast<std::size_t>((bits * 0x9E3779B97F4A7C15ull) >>
                                             (64 - kernel_table::capacity_bits));
  for (std::atomic<kernel_table*>* link = &tables[device];;) {
    kernel_table* t = table_at(*link);
    for (std::size_t i = 0; i < kernel_table::probes; ++i) {
      kernel_table::slot& s = t->slots[(home + i) & (kernel_table::capacity - 1)];
      const void* key = s.key.load(std::memory_order_acquire);
      if (!key) {
        const cudaFunction_t f = lookup_function(kernel);
        if (!f) return nullptr;
        if (s.key.compare_exchange_strong(key, kernel, std::memory_order_acq_rel)) {
          s.fn.store(f, std::memory_order_release);
          return f;
        }
        // Another kernel took the slot first (key now holds it).
      }
      if (key == kernel) {
        const cudaFunction_t f = s.fn.load(std::memory_order_acquire);
        return f ? f : lookup_function(kernel);
      }
    }
    link = &t->next;
  }
});

// kernel<<<grid, block, shared, stream>>>(args...) on `device`, the current
// device, with argv the addresses of the arguments; errors as
// cupp::cuda_error naming `what`. Not inlined: one copy serves every kernel.
__noinline__ inline void launch_function(const void* kernel, int device, dim3 grid, dim3 block,
                                         std::size_t shared, cudaStream_t stream, const char* what,
                                         void** argv) {
  const cu_launch_kernel_fn fn = driver_launch_kernel();
  const cudaFunction_t f = fn ? kernel_function(kernel, device) : nullptr;
  if (f) {
    // The driver's status codes are the runtime's for every launch error.
    const int r = fn(f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                     static_cast<unsigned>(shared), stream, argv, nullptr);
    if (r != 0) cuda::check(static_cast<cudaError_t>(r), what);
    return;
  }
  cuda::check(cudaLaunchKernel(kernel, grid, block, argv, shared, stream), what);
}

// Kernel<<<grid, block, shared, stream>>>(args...) on `device`, the current
// device; errors as cupp::cuda_error naming `what`.
template <auto Kernel, class... A>
void launch_kernel(int device, dim3 grid, dim3 block, std::size_t shared, cudaStream_t stream,
                   const char* what, const A&... args) {
  void* argv[] = {const_cast<void*>(static_cast<const void*>(&args))...};
  launch_function(reinterpret_cast<const void*>(Kernel), device, grid, block, shared, stream, what,
                  argv);
}

}  // namespace cupp::detail

#endif
