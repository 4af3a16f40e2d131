// Sharing device arrays and events with another process on the same node
// (CUDA IPC; cupy.cuda.runtime.ipcGetMemHandle / ipcOpenMemHandle and the
// event counterparts). A handle is plain bytes: send it through a pipe, a
// file or a socket, and open it in the other process.
//
//   // exporting process
//   cupp::cuda::ipc_array_handle h = cupp::cuda::ipc_handle(x);
//   write(fd, &h, sizeof h);
//   // importing process
//   cupp::ndarray<float> y = cupp::cuda::open_ipc_array<float>(h);  // x's memory
//
// The exporting process must keep the array (and its memory) alive while
// the other process uses it, as with CuPy.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/interop/address_range.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/ndarray.hpp>

namespace cupp::cuda {

// What another process needs to open an array: the memory's IPC handle,
// where the array starts in that memory, and its dtype, shape and strides.
// Trivially copyable: its bytes are the message.
struct ipc_array_handle {
  cudaIpcMemHandle_t memory;
  std::int64_t offset;  // bytes from the allocation's base to element [0, ..., 0]
  std::int32_t dtype;   // cupp::dtype_id
  std::int32_t ndim;
  std::int32_t device;
  std::int64_t shape[max_ndim];
  std::int64_t strides[max_ndim];
};
static_assert(std::is_trivially_copyable_v<ipc_array_handle>);

// An IPC handle for a device array (any layout; the memory must come from
// cudaMalloc, as the default pool's does: memory of cudaMallocAsync pools
// or of managed memory cannot be shared this way).
template <class T>
ipc_array_handle ipc_handle(const ndarray<T, device_space>& x) {
  ipc_array_handle h{};
  h.dtype = static_cast<std::int32_t>(dtype_of<T>().id);
  h.ndim = x.ndim();
  h.device = x.device_id();
  for (int d = 0; d < x.ndim(); ++d) {
    h.shape[d] = x.shape()[d];
    h.strides[d] = x.strides()[d];
  }
  if (x.size() == 0) return h;  // nothing to share: opened as an empty array
  const detail::address_range_fn range = detail::address_range();
  if (!range) throw cuda_error(cudaErrorNotSupported, "cuMemGetAddressRange is not available");
  CUdeviceptr base = 0;
  std::size_t size = 0;
  const device_scope scope(x.device_id());
  if (range(&base, &size, reinterpret_cast<CUdeviceptr>(x.data())) != CUDA_SUCCESS)
    throw value_error("ipc_handle: the array's memory is not a device allocation");
  h.offset = static_cast<std::int64_t>(reinterpret_cast<CUdeviceptr>(x.data()) - base);
  const cudaError_t e = cudaIpcGetMemHandle(&h.memory, reinterpret_cast<void*>(base));
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw value_error(std::string("ipc_handle: this memory cannot be shared between processes (") +
                      cudaGetErrorString(e) +
                      "): IPC needs memory from cudaMalloc, as the default memory pool's");
  }
  return h;
}

// The array another process exported, over the same memory (a view: no
// copy). The memory stays mapped until the last handle to the array goes.
// A handle of another dtype, or whose process has exited (its memory is
// gone), raises an exception.
template <class T>
ndarray<T, device_space> open_ipc_array(const ipc_array_handle& h) {
  if (h.dtype != static_cast<std::int32_t>(dtype_of<T>().id))
    throw type_error("open_ipc_array: the handle holds " +
                     std::string(descriptor(static_cast<dtype_id>(h.dtype)).name) +
                     " elements, not " + std::string(dtype_of<T>().name));
  if (h.ndim < 0 || h.ndim > max_ndim) throw value_error("open_ipc_array: a malformed handle");
  shape_t shape = shape_t::filled(h.ndim, 0);
  strides_t strides = strides_t::filled(h.ndim, 0);
  index_t n = 1;
  for (int d = 0; d < h.ndim; ++d) {
    shape[d] = h.shape[d];
    strides[d] = h.strides[d];
    n *= h.shape[d];
  }
  const int device = runtime::getDevice();
  if (n == 0) return ndarray<T, device_space>(nullptr, shape, strides, {}, device, false);
  void* base = nullptr;
  const cudaError_t e = cudaIpcOpenMemHandle(&base, h.memory, cudaIpcMemLazyEnablePeerAccess);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw cuda_error(e,
                     "open_ipc_array: cudaIpcOpenMemHandle (has the exporting process exited, "
                     "or freed the memory?)");
  }
  memory_ptr owner(base, [](void* p) { (void)cudaIpcCloseMemHandle(p); });
  T* data = reinterpret_cast<T*>(static_cast<char*>(base) + h.offset);
  return ndarray<T, device_space>(data, shape, strides, std::move(owner), device, false);
}

// An event shared with another process: the exporter records it, the
// importer waits on it (cupy.cuda.runtime.ipcOpenEventHandle). The event
// must have been made with Event(false, true, true).
inline cudaIpcEventHandle_t ipc_handle(const Event& e) {
  return e.ipc_handle();
}
// The other process's event, to wait on (Stream::wait_event) or
// synchronize with. Closed when the last copy goes.
inline Event open_ipc_event(const cudaIpcEventHandle_t& h) {
  cudaEvent_t ev = nullptr;
  const cudaError_t e = cudaIpcOpenEventHandle(&ev, h);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw cuda_error(e, "open_ipc_event: cudaIpcOpenEventHandle");
  }
  return Event::adopt(ev);
}

}  // namespace cupp::cuda
