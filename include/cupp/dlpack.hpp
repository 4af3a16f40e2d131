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
// with the same layout, so a pointer passes unchanged through a C ABI
// (<cupp/dlpack_abi.hpp>); the consumer's stream= is a
// dlpack::consumer_stream (<cupp/dlpack_stream.hpp>). docs/interop.md describes ownership, the
// stream handshake and the errors.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/interop/dlpack_arrays.hpp>
#include <cupp/dlpack_abi.hpp>
#include <cupp/dlpack_stream.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/ndarray.hpp>

namespace cupp {

namespace dlpack {

// Hands a tensor back to its producer: calls its deleter if it has one. For
// a tensor that from_dlpack refused, which stays the caller's.
inline void release(DLManagedTensorVersioned* t) noexcept {
  if (t && t->deleter) t->deleter(t);
}
inline void release(DLManagedTensor* t) noexcept {
  if (t && t->deleter) t->deleter(t);
}

}  // namespace dlpack

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
