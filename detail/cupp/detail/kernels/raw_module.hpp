// The machinery of cupp::RawModule and cupp::RawKernel
// (<cupp/kernels/raw_kernel.hpp>): a module's state (its code, compiled and
// loaded once per architecture through the kernel cache), the library loaded
// from a compiled code (one per code for the process), the current device's
// architecture, and a launch's arguments as the kernel receives them.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/kernels/cache.hpp>
#include <cupp/detail/kernels/library.hpp>
#include <cupp/errors.hpp>

namespace cupp {

namespace detail::kernels {

// The library loaded from a compiled code, one per code for the process:
// modules and kernels made again from the same source share it. The code is
// held here too, so that its address stays its own.
inline loaded_library& library_for(const std::shared_ptr<const compiled_code>& code) {
  struct entry {
    std::shared_ptr<const compiled_code> code;
    std::unique_ptr<loaded_library> library;
  };
  static std::mutex mutex;
  static std::unordered_map<const compiled_code*, entry> loaded;
  const std::lock_guard lock(mutex);
  entry& e = loaded[code.get()];
  if (!e.library) e = {code, std::make_unique<loaded_library>(code->image)};
  return *e.library;
}

// A module's code and what was made of it: compiled once per architecture
// (from the cache) and loaded once per architecture.
struct module_state {
  std::string source;  // empty for a module read from a file
  std::string name = "cupp_kernel.cu";
  std::vector<std::string> options;
  std::vector<std::string> name_expressions;
  std::string file_image;  // a cubin, fatbin or PTX file's bytes
  std::mutex mutex;
  struct per_arch {
    int arch;
    std::shared_ptr<const compiled_code> code;
    loaded_library* library;
  };
  std::vector<per_arch> archs;
  std::unique_ptr<loaded_library> file_library;
  cache_source last_source = cache_source::compiled;

  per_arch& for_arch(int arch) {
    const std::lock_guard lock(mutex);
    for (per_arch& a : archs)
      if (a.arch == arch) return a;
    per_arch a{arch, nullptr, nullptr};
    if (file_image.empty()) {
      cache_result r = kernel_cache::instance().get(source, name, options, name_expressions, arch);
      a.code = std::move(r.code);
      last_source = r.source;
      a.library = &library_for(a.code);
    } else {
      file_library = std::make_unique<loaded_library>(file_image);
      a.library = file_library.get();
    }
    archs.push_back(std::move(a));
    return archs.back();
  }

  // The mangled name of a name expression, or the name itself.
  std::string lowered(const std::string& name_or_expression, const per_arch& a) const {
    if (a.code)
      for (const auto& [expr, mangled] : a.code->lowered)
        if (expr == name_or_expression) return mangled;
    return name_or_expression;
  }
};

inline int current_arch(int device) {
  const auto& p = cuda::runtime::getDeviceProperties(device);
  return p.major * 10 + p.minor;
}

// One argument as the kernel receives it: an array as its data pointer, a
// scalar (or any trivially copyable value) as itself.
template <class A>
auto kernel_argument(const A& a, int device) {
  if constexpr (is_ndarray_v<A>) {
    static_assert(std::is_same_v<typename A::space_type, device_space>,
                  "RawKernel: host arrays cannot be kernel arguments; use cupp::asarray");
    if (a.size() > 0 && a.device_id() != device)
      throw value_error("RawKernel: an argument array is on device " +
                        std::to_string(a.device_id()) + ", the launch on device " +
                        std::to_string(device));
    return const_cast<typename A::value_type*>(a.data());
  } else {
    static_assert(std::is_trivially_copyable_v<A>,
                  "RawKernel: an argument must be an ndarray or a trivially copyable value");
    return a;
  }
}

[[noreturn]] inline void argument_count_error(const std::string& name, std::size_t takes,
                                              std::size_t given) {
  throw value_error("RawKernel '" + name + "' takes " + std::to_string(takes) + " argument" +
                    (takes == 1 ? "" : "s") + ", " + std::to_string(given) + " given");
}
[[noreturn]] inline void argument_size_error(const std::string& name, std::size_t i,
                                             std::size_t given, std::size_t takes) {
  throw value_error("RawKernel '" + name + "': argument " + std::to_string(i) + " is " +
                    std::to_string(given) + " bytes, the kernel's parameter " +
                    std::to_string(takes) + " bytes");
}

}  // namespace detail::kernels

}  // namespace cupp
