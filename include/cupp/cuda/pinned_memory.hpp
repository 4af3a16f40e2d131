// Pinned (page-locked) host memory: cupp's caching pool of it
// (PinnedMemoryPool), whose blocks wait for the asynchronous copies that use
// them, and the allocator of pinned memory. Part of <cupp/cuda/memory.hpp>,
// which users include.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/cuda/caching_allocator.hpp>
#include <cupp/cuda/memory_pool.hpp>
#include <cupp/cuda/stream.hpp>

namespace cupp::cuda {

namespace detail {

// An event that guards a pinned chunk until a copy that uses it completes.
struct pinned_token {
  cudaEvent_t event;
  int device;
};

class event_cache {
 public:
  pinned_token* acquire(int device) CUPP_HOST_BODY({
    {
      std::lock_guard lock(mutex_);
      auto& list = free_[device];
      if (!list.empty()) {
        pinned_token* t = list.back();
        list.pop_back();
        return t;
      }
    }
    auto* t = new pinned_token{nullptr, device};
    check(cudaEventCreateWithFlags(&t->event, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    return t;
  });
  void release(pinned_token* t) CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    free_[t->device].push_back(t);
  });

 private:
  std::mutex mutex_;
  std::array<std::vector<pinned_token*>, max_devices> free_;
};

inline event_cache& pinned_events() CUPP_HOST_BODY({
  static event_cache* c = new event_cache();
  return *c;
});

inline void* upstream_host_alloc(std::size_t n) CUPP_HOST_BODY({
  void* p = nullptr;
  const cudaError_t e = cudaHostAlloc(&p, n, cudaHostAllocPortable);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    return nullptr;
  }
  check(e, "cudaHostAlloc");
  return p;
});

}  // namespace detail

// cupy.cuda.PinnedMemoryPool: a cache of page-locked host memory, usable by
// every device. A block used by an asynchronous copy is not handed out again
// until the copy has completed, even if its owner lets go of it earlier.
class PinnedMemoryPool {
 public:
  PinnedMemoryPool() : impl_(std::make_shared<impl>()) {}

  memory_ptr malloc(std::size_t nbytes) CUPP_HOST_BODY({
    if (nbytes == 0) return nullptr;
    auto* c = impl_->core.allocate(nbytes, 0);
    return memory_ptr(c->ptr, [impl = impl_, c](void*) { impl->core.deallocate(c); });
  });
  allocator_fn as_allocator() const {
    return [p = *this](std::size_t n) mutable { return p.malloc(n); };
  }

  // Marks the block holding `p` as used by work now enqueued on `stream`:
  // it is not reused before that work is done. False if `p` is not from
  // this pool.
  bool record_use(const void* p, cudaStream_t stream, int device) CUPP_HOST_BODY({
    if (!impl_->core.owns(p)) return false;
    auto* token = detail::pinned_events().acquire(device);
    {
      device_scope scope(device);
      check(cudaEventRecord(token->event, stream), "cudaEventRecord");
    }
    if (!impl_->core.add_token(p, token)) {
      detail::pinned_events().release(token);
      return false;
    }
    return true;
  });
  bool owns(const void* p) { return impl_->core.owns(p); }

  void free_all_blocks() { impl_->core.free_all_blocks(); }
  std::size_t used_bytes() { return impl_->core.used_bytes(); }
  std::size_t total_bytes() { return impl_->core.total_bytes(); }
  std::size_t free_bytes() { return impl_->core.free_bytes(); }
  std::size_t peak_total_bytes() { return impl_->core.peak_total_bytes(); }
  std::size_t peak_used_bytes() { return impl_->core.peak_used_bytes(); }
  std::size_t n_free_blocks() { return impl_->core.n_free_blocks(); }
  void set_limit(std::size_t bytes) { impl_->core.set_limit(bytes); }
  std::size_t get_limit() { return impl_->core.get_limit(); }

 private:
  struct impl {
    cupp::detail::caching_allocator core{
        {.allocate = detail::upstream_host_alloc,
         .deallocate = [](void* p, std::size_t) { (void)cudaFreeHost(p); },
         .token_ready =
             [](void* t) {
               const cudaError_t e = cudaEventQuery(static_cast<detail::pinned_token*>(t)->event);
               if (e == cudaSuccess) return true;
               (void)cudaGetLastError();
               // An error other than "not ready" means the copy will never
               // report back; treat the block as free rather than leak it.
               return e != cudaErrorNotReady;
             },
         .token_release =
             [](void* t) {
               detail::pinned_events().release(static_cast<detail::pinned_token*>(t));
             }},
        "host (pinned memory)",
        cupp::detail::caching_allocator::default_rounding,
        /*track_addresses=*/true};
  };
  std::shared_ptr<impl> impl_;
};

inline PinnedMemoryPool& get_default_pinned_memory_pool() CUPP_HOST_BODY({
  static PinnedMemoryPool* pool = new PinnedMemoryPool();
  return *pool;
});

namespace detail {
inline std::mutex& pinned_allocator_mutex() CUPP_HOST_BODY({
  static std::mutex* m = new std::mutex();
  return *m;
});
inline allocator_fn& pinned_allocator() CUPP_HOST_BODY({
  static allocator_fn* f = new allocator_fn();
  return *f;
});
}  // namespace detail

// Replaces the allocator of pinned memory (empty: the default pinned pool).
inline void set_pinned_memory_allocator(allocator_fn fn = {}) {
  std::lock_guard lock(detail::pinned_allocator_mutex());
  detail::pinned_allocator() = std::move(fn);
}

// `nbytes` of page-locked host memory (cupy.cuda.alloc_pinned_memory).
inline memory_ptr alloc_pinned_memory(std::size_t nbytes) CUPP_HOST_BODY({
  allocator_fn fn;
  {
    std::lock_guard lock(detail::pinned_allocator_mutex());
    fn = detail::pinned_allocator();
  }
  if (fn) return fn(nbytes);
  return get_default_pinned_memory_pool().malloc(nbytes);
});

}  // namespace cupp::cuda
