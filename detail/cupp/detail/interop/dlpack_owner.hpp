// The untyped half of DLPack exchange: the context that keeps an exported
// array's memory alive until the consumer calls the deleter, the checks a
// tensor from elsewhere must pass before it becomes an array, and the
// stream handshake. None of it depends on the element type, so it is
// compiled once per program rather than once per dtype.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/interop/dlpack_dtype.hpp>
#include <cupp/dlpack_abi.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::interop {

template <class M>
inline constexpr bool is_dl_managed_v = std::is_same_v<M, dlpack::DLManagedTensorVersioned> ||
                                        std::is_same_v<M, dlpack::DLManagedTensor>;
template <class M>
inline constexpr bool is_versioned_v = std::is_same_v<M, dlpack::DLManagedTensorVersioned>;

// --- export ------------------------------------------------------------------

// The managed struct comes first so that one allocation holds everything a
// consumer may read, and the deleter frees exactly that allocation.
template <class Managed>
struct dl_export {
  Managed managed{};
  cuda::memory_ptr owner;
  std::int64_t shape[max_ndim] = {};
  std::int64_t strides[max_ndim] = {};

  static void release(Managed* self) noexcept {
    if (self) delete static_cast<dl_export*>(self->manager_ctx);
  }
};

template <class Managed>
struct dl_export_deleter {
  void operator()(dl_export<Managed>* p) const noexcept { delete p; }
};
template <class Managed>
using dl_export_ptr = std::unique_ptr<dl_export<Managed>, dl_export_deleter<Managed>>;

// Where an array's memory lives, as DLPack names it. Memory from a managed
// allocator is reported as such, so that a consumer on the host may read it.
inline dlpack::DLDevice dl_device_of(const void* data, int device, bool on_device) {
  if (!on_device) return {dlpack::kDLCPU, 0};
  cudaPointerAttributes attr{};
  if (data && cudaPointerGetAttributes(&attr, data) == cudaSuccess &&
      attr.type == cudaMemoryTypeManaged)
    return {dlpack::kDLCUDAManaged, device};
  (void)cudaGetLastError();
  return {dlpack::kDLCUDA, device};
}

template <class Managed>
dl_export_ptr<Managed> make_export(void* data, dlpack::DLDevice device, dtype_id dtype,
                                   const shape_t& shape, const strides_t& strides, index_t itemsize,
                                   cuda::memory_ptr owner, bool read_only) {
  if (read_only && !is_versioned_v<Managed>)
    throw value_error(
        "to_dlpack: a read-only array cannot be exported as an unversioned DLManagedTensor, "
        "which has no read-only flag: use to_dlpack (DLPack 1.x)");
  dl_export_ptr<Managed> ctx(new dl_export<Managed>());
  ctx->owner = std::move(owner);
  for (int d = 0; d < shape.size(); ++d) {
    ctx->shape[d] = shape[d];
    ctx->strides[d] = elements_from_bytes(strides[d], itemsize);
  }
  dlpack::DLTensor& t = ctx->managed.dl_tensor;
  // byte_offset stays 0: the spec's 256-byte-aligned data pointer is not
  // what consumers (CuPy, PyTorch) produce or expect, and a view need not
  // start at an aligned address at all.
  t.data = data;
  t.device = device;
  t.ndim = shape.size();
  t.dtype = to_dl_dtype(dtype);
  t.shape = ctx->shape;
  t.strides = ctx->strides;  // never null: DLPack 1.x requires strides when ndim > 0
  t.byte_offset = 0;
  ctx->managed.manager_ctx = ctx.get();
  ctx->managed.deleter = &dl_export<Managed>::release;
  if constexpr (is_versioned_v<Managed>) {
    ctx->managed.version = {dlpack::abi_major, dlpack::abi_minor};
    ctx->managed.flags = read_only ? dlpack::DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  }
  return ctx;
}

inline bool is_legacy(cudaStream_t s) noexcept {
  return s == nullptr || s == cudaStreamLegacy;
}

// Orders `consumer` after the work queued so far on the producer's current
// stream of `device`, without blocking the host.
inline void order_for_consumer(int device, cudaStream_t consumer) {
  const cuda::device_scope scope(device);
  const cuda::Stream producer = cuda::get_current_stream(device);
  const cudaStream_t p = producer.handle();
  if (p == consumer || (is_legacy(p) && is_legacy(consumer))) return;
  cuda::Event ready(false, true);
  ready.record(producer);
  // The event may be destroyed once the wait is queued; CUDA keeps it until
  // it has completed.
  cuda::check(cudaStreamWaitEvent(consumer, ready.handle(), 0), "cudaStreamWaitEvent");
}

// --- import ------------------------------------------------------------------

// Calls the producer's deleter when the last view of the array over the
// tensor goes. Armed only once nothing can throw any more, so that a
// refused tensor stays the caller's.
template <class Managed>
struct dl_import {
  Managed* tensor = nullptr;
  dl_import() = default;
  dl_import(const dl_import&) = delete;
  dl_import& operator=(const dl_import&) = delete;
  ~dl_import() {
    if (tensor && tensor->deleter) tensor->deleter(tensor);
  }
};

// What a checked tensor becomes: the address of element [0, ..., 0], the
// geometry in cupp's terms (strides in bytes), the device to tag the array
// with and whether the producer forbade writes.
struct dl_view {
  void* data = nullptr;
  shape_t shape;
  strides_t strides;
  int device = -1;
  bool read_only = false;
};

inline std::string dl_device_name(std::int32_t type) {
  switch (type) {
    case dlpack::kDLCPU:
      return "kDLCPU";
    case dlpack::kDLCUDA:
      return "kDLCUDA";
    case dlpack::kDLCUDAHost:
      return "kDLCUDAHost";
    case dlpack::kDLCUDAManaged:
      return "kDLCUDAManaged";
    case dlpack::kDLROCM:
      return "kDLROCM";
    default:
      return "device type " + std::to_string(type);
  }
}

inline std::string dl_dtype_name(dlpack::DLDataType t) {
  static constexpr const char* codes[] = {"int",    "uint",    "float", "opaque handle",
                                          "bfloat", "complex", "bool"};
  std::string s = t.code < 7 ? codes[t.code] : "type code " + std::to_string(t.code) + " of ";
  s += std::to_string(t.bits);
  if (t.lanes != 1) s += "x" + std::to_string(t.lanes) + " (" + std::to_string(t.lanes) + " lanes)";
  return s;
}

// Throws, leaving the tensor untouched, when it cannot become an array of
// `want` in the space asked for.
template <class Managed>
dl_view check_import(const Managed* m, dtype_id want, index_t itemsize, std::size_t alignment,
                     bool on_device) {
  if (!m) throw value_error("from_dlpack: the tensor is a null pointer");
  std::uint64_t flags = 0;
  if constexpr (is_versioned_v<Managed>) {
    // Past the version only the deleter's place is promised for another
    // major version; nothing else is read.
    if (m->version.major != dlpack::abi_major)
      throw value_error("from_dlpack: the tensor is DLPack " + std::to_string(m->version.major) +
                        "." + std::to_string(m->version.minor) + "; cupp reads DLPack " +
                        std::to_string(dlpack::abi_major) + ".x");
    flags = m->flags;
  }
  const dlpack::DLTensor& t = m->dl_tensor;
  const std::optional<dtype_id> got = from_dl_dtype(t.dtype);
  if (!got)
    throw type_error("from_dlpack: the tensor's dtype " + dl_dtype_name(t.dtype) +
                     " has no cupp dtype");
  if (*got != want)
    throw type_error("from_dlpack: the tensor holds " + std::string(descriptor(*got).name) +
                     " elements, not " + std::string(descriptor(want).name));

  dl_view v;
  const std::int32_t type = t.device.device_type;
  if (on_device) {
    if (type == dlpack::kDLCUDA || type == dlpack::kDLCUDAManaged) {
      // A tensor of another device keeps its device: kernels on it then run
      // there, never on the current device by mistake.
      cuda::detail::check_device_id(t.device.device_id);
      v.device = t.device.device_id;
    } else if (type == dlpack::kDLCUDAHost) {
      v.device = cuda::runtime::getDevice();  // pinned memory is mapped on every device
    } else {
      throw value_error("from_dlpack: a tensor in " + dl_device_name(type) +
                        " memory cannot become a device array" +
                        (type == dlpack::kDLCPU ? " (use from_dlpack<T, host_space>)" : ""));
    }
  } else if (type != dlpack::kDLCPU && type != dlpack::kDLCUDAHost &&
             type != dlpack::kDLCUDAManaged) {
    throw value_error("from_dlpack: a tensor in " + dl_device_name(type) +
                      " memory cannot become a host array" +
                      (type == dlpack::kDLCUDA ? " (use from_dlpack<T> for a device array)" : ""));
  }

  if (t.ndim < 0 || t.ndim > max_ndim)
    throw value_error("from_dlpack: the tensor has " + std::to_string(t.ndim) +
                      " dimensions; cupp arrays have at most " + std::to_string(max_ndim));
  if (t.ndim > 0 && !t.shape) throw value_error("from_dlpack: the tensor's shape is null");
  v.shape = shape_t::filled(t.ndim, 0);
  for (int d = 0; d < t.ndim; ++d) v.shape[d] = t.shape[d];
  index_t n = 0;
  try {
    n = checked_size(v.shape, itemsize);
  } catch (const value_error& e) {
    throw value_error(std::string("from_dlpack: ") + e.what() + " (shape " +
                      cupp::to_string(v.shape) + ")");
  }
  if (!t.strides) {
    v.strides = contiguous_strides(v.shape, itemsize);  // DLPack before 1.0: null is C order
  } else {
    v.strides = strides_t::filled(t.ndim, 0);
    for (int d = 0; d < t.ndim; ++d) {
      const std::int64_t s = t.strides[d];
      if (s > INT64_MAX / itemsize || s < INT64_MIN / itemsize)
        throw value_error("from_dlpack: stride " + std::to_string(s) + " overflows");
      v.strides[d] = s * itemsize;
    }
  }
  if (n > 0 && !t.data) throw value_error("from_dlpack: the tensor's data pointer is null");
  v.data = t.data ? static_cast<char*>(t.data) + t.byte_offset : nullptr;
  // cupp's kernels load whole elements (and vectors of them): a misaligned
  // element would fault on the device.
  if (n > 0 && reinterpret_cast<std::uintptr_t>(v.data) % alignment != 0)
    throw value_error("from_dlpack: the data (with byte_offset " + std::to_string(t.byte_offset) +
                      ") is not aligned to " + std::to_string(alignment) + " bytes");
  v.read_only = (flags & dlpack::DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
  return v;
}

}  // namespace cupp::detail::interop
