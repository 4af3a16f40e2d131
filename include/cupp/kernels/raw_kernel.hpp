// cupy.RawKernel and cupy.RawModule: CUDA C++ source strings compiled by
// NVRTC for the current device's architecture, cached in memory and on disk
// (detail/kernels/cache.hpp), and launched with a grid, a block, arguments,
// dynamic shared memory and a stream. Part of <cupp/kernels.hpp> (link
// cupp::kernels).
//
//   cupp::RawKernel add(R"(
//     extern "C" __global__ void add(const float* x, const float* y, float* z, int n) {
//       int i = blockIdx.x * blockDim.x + threadIdx.x;
//       if (i < n) z[i] = x[i] + y[i];
//     })", "add");
//   add(dim3((n + 255) / 256), dim3(256), std::tuple{x, y, z, n});
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <complex>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/kernels/cache.hpp>
#include <cupp/detail/kernels/library.hpp>
#include <cupp/detail/kernels/raw_module.hpp>
#include <cupp/errors.hpp>
#include <cupp/ndarray.hpp>

namespace cupp {

// What a launch takes besides the grid, the block and the arguments:
// dynamic shared memory in bytes and the stream (the current one if none).
struct launch_options {
  std::size_t shared_mem = 0;
  std::optional<cuda::Stream> stream = std::nullopt;
};

class RawKernel;

// cupy.RawModule: a source string (or a cubin, fatbin or PTX file) whose
// kernels and __device__ globals are looked up by name. Name expressions
// name instances of template kernels ("scale<float>"); get_function takes
// them as written.
class RawModule {
 public:
  explicit RawModule(std::string code, std::vector<std::string> options = {},
                     std::vector<std::string> name_expressions = {})
      : s_(std::make_shared<detail::kernels::module_state>()) {
    s_->source = std::move(code);
    s_->options = std::move(options);
    s_->name_expressions = std::move(name_expressions);
  }
  // A compiled module from a file (.cubin, .fatbin, .ptx), as
  // RawModule(path=...).
  static RawModule from_file(const std::filesystem::path& path) {
    std::string bytes = detail::kernels::read_file_bytes(path);
    if (bytes.empty()) throw io_error("RawModule: cannot read '" + path.string() + "'");
    if (path.extension() == ".ptx" && bytes.back() != '\0') bytes.push_back('\0');
    RawModule m{std::string()};
    m.s_->file_image = std::move(bytes);
    m.s_->name = path.filename().string();
    return m;
  }

  // Compiles (or finds in the cache) and loads the code for the current
  // device now rather than at the first launch.
  void compile() const {
    (void)s_->for_arch(detail::kernels::current_arch(cuda::runtime::getDevice()));
  }

  RawKernel get_function(const std::string& name) const;

  // A __device__ variable of the module on the current device: its address
  // and size in bytes.
  std::pair<void*, std::size_t> get_global(const std::string& name) const {
    auto& a = s_->for_arch(detail::kernels::current_arch(cuda::runtime::getDevice()));
    return a.library->global(s_->lowered(name, a));
  }

  const std::string& code() const noexcept { return s_->source; }
  const std::vector<std::string>& options() const noexcept { return s_->options; }
  const std::vector<std::string>& name_expressions() const noexcept { return s_->name_expressions; }

 private:
  friend class RawKernel;
  std::shared_ptr<detail::kernels::module_state> s_;
};

// cupy.RawKernel: one kernel of a source string. The first launch on a
// device compiles (or finds in the cache) and loads it; later launches look
// up the loaded kernel and launch it. Where the driver reports the kernel's
// signature (CUDA 12.4 and later), the number and sizes of the arguments
// are checked against it.
class RawKernel {
 public:
  RawKernel(std::string code, std::string name, std::vector<std::string> options = {})
      : m_(RawModule(std::move(code), std::move(options))), name_(std::move(name)) {}

  // kernel(grid, block, {args...}): arrays pass their data pointer, other
  // values themselves (an int passes 4 bytes, an int64_t 8: the kernel's
  // parameter must have that size).
  template <class... A>
  void operator()(dim3 grid, dim3 block, const std::tuple<A...>& args,
                  const launch_options& opts = {}) const {
    const int device = cuda::runtime::getDevice();
    const detail::kernels::loaded_kernel& k = kernel_on(device);
    auto values = std::apply(
        [device](const A&... a) {
          return std::tuple{detail::kernels::kernel_argument(a, device)...};
        },
        args);
    constexpr std::size_t n = sizeof...(A);
    if (k.params_known) {
      if (k.param_sizes.size() != n)
        detail::kernels::argument_count_error(name_, k.param_sizes.size(), n);
      check_sizes(k, values, std::make_index_sequence<n>{});
    }
    std::array<void*, n == 0 ? 1 : n> pointers{};
    std::apply(
        [&pointers](auto&... v) {
          std::size_t i = 0;
          ((pointers[i++] = static_cast<void*>(&v)), ...);
        },
        values);
    const cudaStream_t stream =
        opts.stream ? opts.stream->handle() : cuda::detail::current_stream_impl(device)->handle;
    cuda::check(cudaLaunchKernel(reinterpret_cast<const void*>(k.handle), grid, block,
                                 pointers.data(), opts.shared_mem, stream),
                "RawKernel launch");
  }

  void compile() const { (void)kernel_on(cuda::runtime::getDevice()); }

  // cudaFuncAttributes of the kernel on the current device (num_regs,
  // max_threads_per_block, shared_size_bytes, ... as RawKernel.attributes).
  cudaFuncAttributes attributes() const {
    const int device = cuda::runtime::getDevice();
    cudaFuncAttributes a{};
    cuda::check(cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(kernel_on(device).handle)),
                "cudaFuncGetAttributes");
    return a;
  }
  int num_regs() const { return attributes().numRegs; }
  int max_threads_per_block() const { return attributes().maxThreadsPerBlock; }
  // RawKernel.max_dynamic_shared_size_bytes: the dynamic shared memory a
  // launch may ask for beyond the default 48 KiB.
  void set_max_dynamic_shared_size_bytes(int bytes) const {
    const int device = cuda::runtime::getDevice();
    cuda::check(
        cudaKernelSetAttributeForDevice(kernel_on(device).handle,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, bytes, device),
        "cudaKernelSetAttributeForDevice");
  }

  const std::string& name() const noexcept { return name_; }
  const std::string& code() const noexcept { return m_.code(); }
  const std::vector<std::string>& options() const noexcept { return m_.options(); }

 private:
  friend class RawModule;
  RawKernel(RawModule m, std::string name) : m_(std::move(m)), name_(std::move(name)) {}

  // The loaded kernel on `device`, looked up once per device.
  const detail::kernels::loaded_kernel& kernel_on(int device) const {
    if (device >= 0 && device < static_cast<int>(by_device_->size()))
      if (const auto* k = (*by_device_)[device].load(std::memory_order_acquire)) return *k;
    auto& a = m_.s_->for_arch(detail::kernels::current_arch(device));
    const detail::kernels::loaded_kernel& k = a.library->kernel(m_.s_->lowered(name_, a));
    if (device >= 0 && device < static_cast<int>(by_device_->size()))
      (*by_device_)[device].store(&k, std::memory_order_release);
    return k;
  }

  template <class Values, std::size_t... I>
  void check_sizes(const detail::kernels::loaded_kernel& k, const Values&,
                   std::index_sequence<I...>) const {
    (((k.param_sizes[I] != sizeof(std::tuple_element_t<I, Values>))
          ? detail::kernels::argument_size_error(name_, I, sizeof(std::tuple_element_t<I, Values>),
                                                 k.param_sizes[I])
          : void()),
     ...);
  }

  RawModule m_;
  std::string name_;
  using table = std::array<std::atomic<const detail::kernels::loaded_kernel*>, cuda::max_devices>;
  std::shared_ptr<table> by_device_ = std::make_shared<table>();
};

inline RawKernel RawModule::get_function(const std::string& name) const {
  return RawKernel(*this, name);
}

}  // namespace cupp
