// What ElementwiseKernel and ReductionKernel (<cupp/kernels/>) share to
// launch a kernel generated from CuPy's string syntax: a call's arguments
// captured (a trailing options value taken out), the generated source
// compiled (or found in the cache) and loaded, the devices of the arguments
// checked, and strided operands and extents packed as the kernel takes them.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/kernels/cache.hpp>
#include <cupp/detail/kernels/call.hpp>
#include <cupp/detail/kernels/codegen.hpp>
#include <cupp/detail/kernels/raw_module.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp {

namespace detail::kernels {

// The arguments of a call, with a trailing kernel_call taken out.
template <class Opt, class... A>
std::size_t capture_args(any_arg* out, Opt& opts, const A&... a) {
  std::size_t n = 0;
  const auto one = [&](const auto& x) {
    using X = std::remove_cvref_t<decltype(x)>;
    if constexpr (std::is_same_v<X, Opt>)
      opts = x;
    else
      out[n++] = capture_arg(x);
  };
  (one(a), ...);
  return n;
}

// The device's multiprocessors, for grid sizes.
inline int sm_count(int device) {
  return cuda::runtime::getDeviceProperties(device).multiProcessorCount;
}

// A generated kernel, compiled (or found in the cache) and loaded.
inline cudaKernel_t load_generated(const std::string& source, const std::string& name,
                                   const std::vector<std::string>& user_options, bool needs_headers,
                                   int device) {
  std::vector<std::string> options = user_options;
  if (needs_headers) {
    const std::string inc = cuda_include_dir();
    options.push_back("-I" + inc);
    options.push_back("-I" + inc + "/cccl");
  }
  cache_result r =
      kernel_cache::instance().get(source, name + ".cu", options, {}, current_arch(device));
  return library_for(r.code).kernel(name).handle;
}

inline bool needs_headers(dtype_id t) {
  return t == dtype_id::float16 || t == dtype_id::bfloat16 || t == dtype_id::complex64 ||
         t == dtype_id::complex128;
}

inline cudaStream_t stream_of(const std::optional<cuda::Stream>& s, int device) {
  return s ? s->handle() : cuda::detail::current_stream_impl(device)->handle;
}

inline void check_device(const any_arg& a, int device, const std::string& kernel) {
  if (a.is_array && a.device != device && a.data)
    throw value_error(kernel + ": an argument array is on device " + std::to_string(a.device) +
                      ", the call on device " + std::to_string(device));
}

// A strided operand as cupp_rt::strided<N>: data, then N byte strides.
inline void pack_strided(argument_pack& pack, const void* data, const strides_t& s, int n) {
  unsigned char* p = pack.reserve(8 + 8 * static_cast<std::size_t>(n), 8);
  std::memcpy(p, &data, 8);
  for (int d = 0; d < n; ++d) {
    const long long v = s[d];
    std::memcpy(p + 8 + 8 * d, &v, 8);
  }
}
// cupp_rt::extent<N>: the element count, then N extents.
inline void pack_extent(argument_pack& pack, index_t size, const shape_t& shape, int n) {
  unsigned char* p = pack.reserve(8 + 8 * static_cast<std::size_t>(n), 8);
  const long long total = size;
  std::memcpy(p, &total, 8);
  for (int d = 0; d < n; ++d) {
    const long long v = shape[d];
    std::memcpy(p + 8 + 8 * d, &v, 8);
  }
}

}  // namespace detail::kernels

}  // namespace cupp
