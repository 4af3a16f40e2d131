// DLPack exchange: lending a cupp array to another library (CuPy, PyTorch,
// JAX, a C library) and taking one from it, without copying
// (cupy.from_dlpack, ndarray.__dlpack__, cupy.ndarray.toDlpack).
//
//   // give: the consumer calls the tensor's deleter when it is done
//   cupp::dlpack::DLManagedTensorVersioned* t = cupp::to_dlpack(x, consumer_stream);
//   // take: the array calls the tensor's deleter when its last view goes
//   cupp::ndarray<float> y = cupp::from_dlpack<float>(t);
//
// The structs are those of the DLPack C header (cupp::dlpack::DLTensor, ...)
// with the same layout, so a pointer passes unchanged through a C ABI.
// docs/interop.md describes ownership, the stream handshake and the errors.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/interop/dlpack_abi.hpp>
#include <cupp/detail/interop/dlpack_owner.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/ndarray.hpp>

namespace cupp {

namespace dlpack {

// The stream on which the consumer will use an exported device array: the
// stream= argument of the Python array API's __dlpack__. to_dlpack orders
// that stream after the work already queued on the array's device (on the
// producer's current stream), so the consumer reads finished values
// without the host waiting.
class consumer_stream {
 public:
  // The legacy default stream: what __dlpack__(stream=None) means for CUDA.
  consumer_stream() noexcept = default;
  consumer_stream(cudaStream_t s) noexcept  // NOLINT: a raw stream reads as one
      : kind_(detail::interop::consumer_kind::stream), handle_(s) {}
  consumer_stream(const cuda::Stream& s) noexcept  // NOLINT
      : consumer_stream(s.handle()) {}

  // __dlpack__(stream=-1): the consumer orders its own work; no handshake.
  static consumer_stream no_sync() noexcept {
    consumer_stream c;
    c.kind_ = detail::interop::consumer_kind::no_sync;
    return c;
  }

  // The integer a Python consumer passes as stream=: -1 no handshake, 1 the
  // legacy default stream, 2 the per-thread default stream, any larger
  // value a cudaStream_t. 0 is ambiguous in the protocol and refused, as
  // are values below -1 (value_error).
  static consumer_stream from_python(std::int64_t v) {
    if (v == -1) return no_sync();
    if (v == 1) return consumer_stream(cudaStreamLegacy);
    if (v == 2) return consumer_stream(cudaStreamPerThread);
    if (v > 2)
      return consumer_stream(reinterpret_cast<cudaStream_t>(static_cast<std::intptr_t>(v)));
    throw value_error("to_dlpack: stream=" + std::to_string(v) +
                      " is not a CUDA stream in the DLPack protocol (None, -1, 1, 2 or a "
                      "stream pointer)");
  }

  bool is_no_sync() const noexcept { return kind_ == detail::interop::consumer_kind::no_sync; }
  // True unless built from a stream (or from_python(>= 1)).
  bool is_default() const noexcept {
    return kind_ == detail::interop::consumer_kind::legacy_default;
  }
  // The stream to order (the legacy default stream when none was named).
  cudaStream_t handle() const noexcept { return is_default() ? cudaStreamLegacy : handle_; }

 private:
  detail::interop::consumer_kind kind_ = detail::interop::consumer_kind::legacy_default;
  cudaStream_t handle_ = nullptr;
};

// Hands a tensor back to its producer: calls its deleter if it has one. For
// a tensor that from_dlpack refused, which stays the caller's.
inline void release(DLManagedTensorVersioned* t) noexcept {
  if (t && t->deleter) t->deleter(t);
}
inline void release(DLManagedTensor* t) noexcept {
  if (t && t->deleter) t->deleter(t);
}

}  // namespace dlpack

namespace detail::interop {

template <class Managed, class T, class Space>
Managed* to_dlpack_as(const ndarray<T, Space>& x, const dlpack::consumer_stream& stream) {
  constexpr bool on_device = std::is_same_v<Space, device_space>;
  if (!on_device && !stream.is_default() && !stream.is_no_sync())
    throw value_error("to_dlpack: a host array takes no stream (the protocol allows only None)");
  auto ctx = make_export<Managed>(x.data(), dl_device_of(x.data(), x.device_id(), on_device),
                                  dtype_of<T>().id, x.shape(), x.strides(), x.itemsize(),
                                  x.memory(), !x.flags().writeable);
  if constexpr (on_device) {
    if (!stream.is_no_sync()) order_for_consumer(x.device_id(), stream.handle());
  }
  return &ctx.release()->managed;
}

template <class T, class Space, class Managed>
ndarray<T, Space> from_dlpack_as(Managed* m) {
  static_assert(is_dtype_v<T>, "from_dlpack<T>: T must be a cupp dtype");
  constexpr bool on_device = std::is_same_v<Space, device_space>;
  dl_view v =
      check_import(m, dtype_of<T>().id, static_cast<index_t>(sizeof(T)), alignof(T), on_device);
  // Allocated before the tensor is adopted: if this throws, the tensor is
  // still the caller's, as for every other refusal.
  auto holder = std::make_shared<dl_import<Managed>>();
  holder->tensor = m;
  cuda::memory_ptr owner(std::move(holder), v.data);  // shares the holder, points at the data
  ndarray<T, Space> r(static_cast<T*>(v.data), v.shape, v.strides, std::move(owner),
                      on_device ? v.device : -1, false);
  if (v.read_only) r.setflags(false);
  return r;
}

}  // namespace detail::interop

// A DLPack 1.x tensor over x's memory (no copy): x.__dlpack__(stream=...).
// The tensor shares ownership of the memory, so x may go first; the
// consumer calls the tensor's deleter exactly once when it is done.
// Strides are in elements (a byte stride that is not a whole number of
// items throws value_error); a read-only array is flagged read-only. For a
// device array, `consumer` is the stream the consumer will use (see
// dlpack::consumer_stream); host arrays take none.
template <class T, class Space>
dlpack::DLManagedTensorVersioned* to_dlpack(const ndarray<T, Space>& x,
                                            const dlpack::consumer_stream& consumer = {}) {
  return detail::interop::to_dlpack_as<dlpack::DLManagedTensorVersioned>(x, consumer);
}

// The same as a pre-1.0 DLManagedTensor (cupy.ndarray.toDlpack, the
// "dltensor" capsule), for consumers that predate DLPack 1.0. It has no
// read-only flag, so a read-only array throws value_error.
template <class T, class Space>
dlpack::DLManagedTensor* to_dlpack_unversioned(const ndarray<T, Space>& x,
                                               const dlpack::consumer_stream& consumer = {}) {
  return detail::interop::to_dlpack_as<dlpack::DLManagedTensor>(x, consumer);
}

// An array over a tensor another library produced (cupy.from_dlpack), no
// copy: a device array (Space = device_space, the default) from kDLCUDA or
// kDLCUDAManaged memory, tagged with the tensor's device, or from
// kDLCUDAHost memory; a host array (from_dlpack<T, host_space>) from
// kDLCPU, kDLCUDAHost or kDLCUDAManaged memory.
//
// On success the array owns the tensor: its deleter runs once, when the
// last view of the array goes. On a refusal (a null tensor, another major
// version, a dtype other than T's, lanes != 1, memory of the wrong kind, a
// device that does not exist, more than max_ndim dimensions, misaligned
// data) it throws type_error (dtype) or value_error (the rest) and the
// tensor stays the caller's (dlpack::release gives it back). A read-only
// tensor gives a read-only array (setflags(false)). The tensor is used as
// it is: the producer ordered it for the consumer's stream when it was
// made (the stream handed to __dlpack__ or to to_dlpack).
template <class T, class Space = device_space>
ndarray<T, Space> from_dlpack(dlpack::DLManagedTensorVersioned* t) {
  return detail::interop::from_dlpack_as<T, Space>(t);
}
template <class T, class Space = device_space>
ndarray<T, Space> from_dlpack(dlpack::DLManagedTensor* t) {
  return detail::interop::from_dlpack_as<T, Space>(t);
}

}  // namespace cupp
