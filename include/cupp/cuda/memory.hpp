// Device and pinned host memory: the caching pools, the other allocators a
// program can choose at run time, and the allocator every cupp array uses.
//
//   auto& pool = cupp::cuda::get_default_memory_pool();
//   pool.set_limit(1 << 30);                       // or CUPP_GPU_MEMORY_LIMIT=1073741824 / 50%
//   cupp::cuda::set_allocator(cupp::cuda::malloc_async_allocator());
//   { cupp::cuda::using_allocator a(cupp::cuda::managed_allocator()); ... }
//
// The pools are in memory_pool.hpp (device) and pinned_memory.hpp (pinned
// host memory); here are the allocators and the allocator in effect.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

#include <cupp/config.hpp>
#include <cupp/cuda/memory_hook.hpp>
#include <cupp/cuda/memory_pool.hpp>
#include <cupp/cuda/pinned_memory.hpp>
#include <cupp/cuda/stream.hpp>

namespace cupp::cuda {

namespace detail {
// cudaMalloc or cudaMallocManaged for every allocation, freed with cudaFree.
// To memory hooks each is both a malloc and an upstream alloc.
inline allocator_fn uncached_allocator(bool managed) CUPP_HOST_BODY({
  return [managed](std::size_t n) -> memory_ptr {
    if (n == 0) return nullptr;
    const int dev = runtime::getDevice();
    void* p = report_malloc(dev, n, n, [&] {
      return report_alloc(dev, n, [&] {
        void* q = upstream_malloc(n, managed);
        if (!q)
          throw out_of_memory_error("Out of memory allocating " + cupp::detail::group_digits(n) +
                                        " bytes through " +
                                        (managed ? "cudaMallocManaged" : "cudaMalloc"),
                                    n, 0, 0);
        return q;
      });
    });
    return memory_ptr(p, [dev, n](void* q) { report_free(dev, q, n, [q] { (void)cudaFree(q); }); });
  };
});
}  // namespace detail

// Plain cudaMalloc / cudaFree for every allocation (no caching).
inline allocator_fn malloc_allocator() {
  return detail::uncached_allocator(false);
}

// Managed (unified) memory through cudaMallocManaged, uncached.
inline allocator_fn managed_allocator() {
  return detail::uncached_allocator(true);
}

// cudaMallocAsync on the current stream, freed on the same stream.
inline allocator_fn malloc_async_allocator() {
  return MemoryAsyncPool().as_allocator();
}

namespace detail {
// Keeps the first `nbytes` of `m` and gives the rest back to the pool, when
// `m` came whole from a cupp device pool; false (nothing done) for memory
// of any other allocator, or a handle to part of a chunk.
inline bool shrink_allocation(const memory_ptr& m, std::size_t nbytes) CUPP_HOST_BODY({
  auto* r = std::get_deleter<device_pool::chunk_return>(m);
  if (!r || r->c->ptr != m.get()) return false;
  r->pool->core().shrink(r->c, nbytes);
  return true;
});
}  // namespace detail

// The default memory pool as an allocator.
inline allocator_fn pool_allocator() {
  return get_default_memory_pool().as_allocator();
}

// A user-provided pair: allocate(nbytes, stream) returns device memory (or
// nullptr when out of memory); deallocate(ptr, nbytes, stream) takes it back
// and is called with the stream the memory was allocated on.
inline allocator_fn user_allocator(std::function<void*(std::size_t, cudaStream_t)> allocate,
                                   std::function<void(void*, std::size_t, cudaStream_t)> deallocate)
    CUPP_HOST_BODY({
      return [allocate = std::move(allocate),
              deallocate = std::move(deallocate)](std::size_t n) -> memory_ptr {
        if (n == 0) return nullptr;
        const int dev = runtime::getDevice();
        auto stream = detail::current_stream_impl(dev);
        void* p = detail::report_malloc(dev, n, n, [&] {
          void* q = allocate(n, stream->handle);
          if (!q)
            throw out_of_memory_error("Out of memory allocating " + cupp::detail::group_digits(n) +
                                          " bytes through the user allocator",
                                      n, 0, 0);
          return q;
        });
        return memory_ptr(p, [deallocate, n, stream, dev](void* q) {
          detail::report_free(dev, q, n, [&] { deallocate(q, n, stream->handle); });
        });
      };
    });

namespace detail {

struct allocator_registry {
  std::mutex mutex;
  std::atomic<bool> custom{false};
  allocator_fn global;
};
inline allocator_registry& allocators() CUPP_HOST_BODY({
  static allocator_registry* r = new allocator_registry();
  return *r;
});
inline const allocator_fn*& thread_allocator() CUPP_HOST_BODY({
  thread_local const allocator_fn* a = nullptr;
  return a;
});

}  // namespace detail

// Sets the allocator of every thread that has no using_allocator scope. An
// empty function restores the default memory pool.
inline void set_allocator(allocator_fn fn = {}) {
  auto& r = detail::allocators();
  std::lock_guard lock(r.mutex);
  r.global = std::move(fn);
  r.custom.store(static_cast<bool>(r.global), std::memory_order_release);
}

// The allocator in effect on the calling thread.
inline allocator_fn get_allocator() CUPP_HOST_BODY({
  if (const allocator_fn* t = detail::thread_allocator()) return *t;
  auto& r = detail::allocators();
  std::lock_guard lock(r.mutex);
  return r.global ? r.global : pool_allocator();
});

// Makes `fn` the calling thread's allocator until the scope ends
// (cupy.cuda.using_allocator).
class using_allocator {
 public:
  explicit using_allocator(allocator_fn fn)
      : fn_(std::move(fn)) CUPP_HOST_BODY({
          previous_ = detail::thread_allocator();
          if (!fn_) fn_ = pool_allocator();
          detail::thread_allocator() = &fn_;
        });
  using_allocator(const using_allocator&) = delete;
  using_allocator& operator=(const using_allocator&) = delete;
  ~using_allocator() { detail::thread_allocator() = previous_; }

 private:
  allocator_fn fn_;
  const allocator_fn* previous_;
};

namespace detail {

inline memory_ptr alloc_uncaptured(std::size_t nbytes) CUPP_HOST_BODY({
  if (const allocator_fn* t = thread_allocator()) return (*t)(nbytes);
  auto& r = allocators();
  if (r.custom.load(std::memory_order_acquire)) {
    allocator_fn fn;
    {
      std::lock_guard lock(r.mutex);
      fn = r.global;
    }
    if (fn) return fn(nbytes);
  }
  return get_default_memory_pool().malloc(nbytes);
});

// What records the allocations of stream captures in progress (set by
// <cupp/cuda/graph.hpp>, which this header does not include; the count of
// captures is in memory_pool.hpp, whose pool also heeds it).
using capture_keeper_fn = void (*)(const memory_ptr&, std::size_t);
inline std::atomic<capture_keeper_fn>& capture_keeper() CUPP_HOST_BODY({
  static std::atomic<capture_keeper_fn> f{nullptr};
  return f;
});

}  // namespace detail

// `nbytes` of device memory on the current device and stream, from the
// allocator in effect (cupy.cuda.alloc).
inline memory_ptr alloc(std::size_t nbytes) CUPP_HOST_BODY({
  memory_ptr m = detail::alloc_uncaptured(nbytes);
  // A graph being captured keeps what is allocated on its stream
  // (<cupp/cuda/graph.hpp>); one relaxed load when nothing is captured.
  if (detail::capture_count().load(std::memory_order_acquire) > 0)
    detail::capture_keeper().load(std::memory_order_acquire)(m, nbytes);
  return m;
});

}  // namespace cupp::cuda
