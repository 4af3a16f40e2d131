// Memory for arrays that ndarray's constructors and transfers take: host
// memory for host arrays (aligned, huge pages for large blocks), page-locked
// host arrays from the pinned pool, and the device a pointer's memory lives
// on.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <new>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// Host memory for host arrays: 64-byte aligned so that loops over it can use
// the widest vector instructions. Large blocks are aligned to 2 MiB and
// offered to the kernel for huge pages: a fresh multi-gigabyte result of
// asnumpy is otherwise written through hundreds of thousands of page faults.
inline cuda::memory_ptr host_alloc(std::size_t nbytes) CUPP_HOST_BODY({
  if (nbytes == 0) return nullptr;
  constexpr std::size_t huge = std::size_t{2} << 20;
  const std::size_t align = nbytes >= 2 * huge ? huge : 64;
  void* p = ::operator new (nbytes, std::align_val_t{align});
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (align == huge) (void)madvise(p, nbytes / huge * huge, MADV_HUGEPAGE);
#endif
  return cuda::memory_ptr(p, [align](void* q) { ::operator delete (q, std::align_val_t{align}); });
});

// The device a pointer's memory lives on, as CUDA records it; the current
// device for memory CUDA does not know (host memory, or nullptr).
inline int device_of(const void* p) CUPP_HOST_BODY({
  cudaPointerAttributes attr{};
  if (p && cudaPointerGetAttributes(&attr, p) == cudaSuccess &&
      (attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged) && attr.device >= 0)
    return attr.device;
  (void)cudaGetLastError();
  return cuda::runtime::getDevice();
});

// A page-locked host array from the pinned pool (C or F order).
template <class T>
host::ndarray<T> pinned_host_array(const shape_t& shape, order o) {
  const index_t n = checked_size(shape, static_cast<index_t>(sizeof(T)));
  auto mem = cuda::alloc_pinned_memory(static_cast<std::size_t>(n) * sizeof(T));
  return host::ndarray<T>(static_cast<T*>(mem.get()), shape,
                          contiguous_strides(shape, sizeof(T), o == order::F ? order::F : order::C),
                          mem, -1, true);
}

}  // namespace cupp::detail
