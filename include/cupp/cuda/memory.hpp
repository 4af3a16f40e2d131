// Device and pinned host memory: the caching pools, the other allocators a
// program can choose at run time, and the allocator every cupp array uses.
//
//   auto& pool = cupp::cuda::get_default_memory_pool();
//   pool.set_limit(1 << 30);                       // or CUPP_GPU_MEMORY_LIMIT=1073741824 / 50%
//   cupp::cuda::set_allocator(cupp::cuda::malloc_async_allocator());
//   { cupp::cuda::using_allocator a(cupp::cuda::managed_allocator()); ... }
#pragma once

#include <array>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <cupp/cuda/caching_allocator.hpp>
#include <cupp/cuda/memory_hook.hpp>

#include <cupp/cuda/stream.hpp>

namespace cupp::cuda {

// Owning pointer to an allocation: the deleter hands it back to where it
// came from. Arrays keep one of these alive for as long as any view exists.
using memory_ptr = std::shared_ptr<void>;

// An allocator: bytes in, owning pointer out, on the current device and
// stream. An empty function stands for the default memory pool.
using allocator_fn = std::function<memory_ptr(std::size_t nbytes)>;

namespace detail {

// CUPP_GPU_MEMORY_LIMIT: bytes ("1073741824") or a share of the device's
// memory ("50%"). Empty or unset: no limit.
inline std::size_t parse_memory_limit(const char* text, std::size_t device_total) {
  if (!text || !*text) return 0;
  const std::string s(text);
  char* end = nullptr;
  if (s.back() == '%') {
    const double pct = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() - 1 || pct < 0 || pct > 100)
      throw value_error("CUPP_GPU_MEMORY_LIMIT='" + s +
                        "': expected a byte count or a percentage such as 50%");
    return static_cast<std::size_t>(pct / 100.0 * static_cast<double>(device_total));
  }
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (end != s.c_str() + s.size() || s.front() == '-')
    throw value_error("CUPP_GPU_MEMORY_LIMIT='" + s +
                      "': expected a byte count or a percentage such as 50%");
  return static_cast<std::size_t>(v);
}

// cudaMalloc-style upstream that turns "out of memory" into nullptr so the
// pool can empty its cache and retry.
inline void* upstream_malloc(std::size_t n, bool managed) {
  void* p = nullptr;
  const cudaError_t e = managed ? cudaMallocManaged(&p, n) : cudaMalloc(&p, n);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    return nullptr;
  }
  check(e, managed ? "cudaMallocManaged" : "cudaMalloc");
  return p;
}

// One device's caching pool. Deleters of the memory it hands out hold a
// reference to it, so the pool outlives every allocation.
class device_pool : public std::enable_shared_from_this<device_pool> {
 public:
  device_pool(int device, bool managed)
      : device_(device),
        core_({.allocate = [managed](std::size_t n) { return upstream_malloc(n, managed); },
               .deallocate = [](void* p, std::size_t) { (void)cudaFree(p); },
               .token_ready = {},
               .token_release = {}},
              "device " + std::to_string(device)) {
    // Requests up to 1 MiB share 2 MiB segments (see caching_allocator).
    core_.set_small_segments(std::size_t{1} << 20, std::size_t{2} << 20);
    core_.report_to_hooks(device);
    if (const char* env = std::getenv("CUPP_GPU_MEMORY_LIMIT"); env && *env) {
      const std::size_t total = runtime::getDeviceProperties(device).totalGlobalMem;
      core_.set_limit(parse_memory_limit(env, total));
    }
  }

  // Returns a chunk to the pool when the last handle to it goes; a named
  // type, so that shrink() can find the chunk behind a memory_ptr.
  struct chunk_return {
    std::shared_ptr<device_pool> pool;
    cupp::detail::caching_allocator::chunk* c;
    void operator()(void*) const { pool->core_.deallocate(c); }
  };

  // Memory for the calling thread's current stream on this device.
  memory_ptr malloc(std::size_t n) {
    if (n == 0) return nullptr;
    const std::uint64_t arena = detail::current_stream_impl(device_)->id;
    auto* c = core_.allocate(n, arena);
    return memory_ptr(c->ptr, chunk_return{shared_from_this(), c});
  }

  int device() const noexcept { return device_; }
  cupp::detail::caching_allocator& core() noexcept { return core_; }

 private:
  int device_;
  cupp::detail::caching_allocator core_;
};

}  // namespace detail

// cupy.cuda.MemoryPool: a caching allocator for every device, each device's
// pool created on first use. Statistics and limits apply to the current
// device. Copies of a MemoryPool share the same pools.
class MemoryPool {
 public:
  // managed = true draws blocks from cudaMallocManaged instead of cudaMalloc.
  explicit MemoryPool(bool managed = false) : impl_(std::make_shared<impl>()) {
    impl_->managed = managed;
  }

  // `nbytes` of device memory on the current device and stream.
  memory_ptr malloc(std::size_t nbytes) { return pool().malloc(nbytes); }
  // This pool as an allocator for set_allocator / using_allocator.
  allocator_fn as_allocator() const {
    return [p = *this](std::size_t n) mutable { return p.malloc(n); };
  }

  // Gives the cached blocks that are entirely free back to CUDA (on the
  // current device; only those freed on `stream` when it is given).
  void free_all_blocks() { pool().core().free_all_blocks(); }
  void free_all_blocks(const Stream& stream) {
    const std::uint64_t id = stream.id();
    pool().core().free_all_blocks(&id);
  }
  // Bytes in live allocations.
  std::size_t used_bytes() { return pool().core().used_bytes(); }
  // Bytes held from CUDA: in use plus cached.
  std::size_t total_bytes() { return pool().core().total_bytes(); }
  // Bytes cached for reuse.
  std::size_t free_bytes() { return pool().core().free_bytes(); }
  // The most total_bytes() has been since creation or reset_peak().
  std::size_t peak_total_bytes() { return pool().core().peak_total_bytes(); }
  void reset_peak() { pool().core().reset_peak(); }
  // Free chunks in the cache.
  std::size_t n_free_blocks() { return pool().core().n_free_blocks(); }

  // Caps total_bytes() on the current device (0: no cap). Throws
  // value_error when the cap is below the bytes in use.
  void set_limit(std::size_t bytes) { pool().core().set_limit(bytes); }
  // Caps it at a share of the device's memory, 0 <= fraction <= 1.
  void set_limit_fraction(double fraction) {
    if (!(fraction >= 0.0 && fraction <= 1.0))
      throw value_error("memory limit fraction must lie in [0, 1], got " +
                        std::to_string(fraction));
    const int dev = runtime::getDevice();
    const double total = static_cast<double>(runtime::getDeviceProperties(dev).totalGlobalMem);
    set_limit(static_cast<std::size_t>(fraction * total));
  }
  std::size_t get_limit() { return pool().core().get_limit(); }

  // The single-device pool behind the current device.
  detail::device_pool& pool() {
    const int dev = runtime::getDevice();
    if (auto* p = impl_->pools[dev].load(std::memory_order_acquire)) return *p;
    std::lock_guard lock(impl_->mutex);
    if (auto* p = impl_->pools[dev].load(std::memory_order_relaxed)) return *p;
    auto owned = std::make_shared<detail::device_pool>(dev, impl_->managed);
    impl_->owned.push_back(owned);
    impl_->pools[dev].store(owned.get(), std::memory_order_release);
    return *owned;
  }

 private:
  struct impl {
    bool managed = false;
    std::mutex mutex;
    std::array<std::atomic<detail::device_pool*>, max_devices> pools{};
    std::vector<std::shared_ptr<detail::device_pool>> owned;
  };
  std::shared_ptr<impl> impl_;
};

// The pool that arrays use unless another allocator was chosen. It lives
// until the process ends, so arrays in static storage stay valid.
inline MemoryPool& get_default_memory_pool() {
  static MemoryPool* pool = new MemoryPool();
  return *pool;
}

// cupy.cuda.MemoryAsyncPool: stream-ordered allocation through CUDA's own
// pool (cudaMallocAsync). Memory is freed on the stream it was allocated on.
// The device's default pool keeps freed memory cached (its release
// threshold is raised to the maximum on first use).
class MemoryAsyncPool {
 public:
  memory_ptr malloc(std::size_t nbytes) {
    if (nbytes == 0) return nullptr;
    const int dev = runtime::getDevice();
    prepare(dev);
    auto stream = detail::current_stream_impl(dev);
    void* p = detail::report_malloc(dev, nbytes, nbytes,
                                    [&] { return allocate(dev, nbytes, stream->handle); });
    return memory_ptr(p, [stream, dev, nbytes](void* q) {
      detail::report_free(dev, q, nbytes, [&] { (void)cudaFreeAsync(q, stream->handle); });
    });
  }
  allocator_fn as_allocator() const {
    return [p = *this](std::size_t n) mutable { return p.malloc(n); };
  }

  // Returns the pool's cached memory to the device (after a device sync).
  void free_all_blocks() {
    const int dev = runtime::getDevice();
    runtime::deviceSynchronize();
    check(cudaMemPoolTrimTo(pool_of(dev), 0), "cudaMemPoolTrimTo");
  }
  std::size_t used_bytes() { return attribute(cudaMemPoolAttrUsedMemCurrent); }
  std::size_t total_bytes() { return attribute(cudaMemPoolAttrReservedMemCurrent); }
  std::size_t free_bytes() { return total_bytes() - used_bytes(); }
  std::size_t peak_total_bytes() { return attribute(cudaMemPoolAttrReservedMemHigh); }
  void reset_peak() {
    std::uint64_t zero = 0;
    check(cudaMemPoolSetAttribute(pool_of(runtime::getDevice()), cudaMemPoolAttrReservedMemHigh,
                                  &zero),
          "cudaMemPoolSetAttribute");
  }

 private:
  void* allocate(int dev, std::size_t nbytes, cudaStream_t handle) {
    void* p = nullptr;
    const cudaError_t e = cudaMallocAsync(&p, nbytes, handle);
    if (e == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      // Let the pool trim what it caches, then try once more.
      (void)cudaStreamSynchronize(handle);
      cudaMemPool_t pool{};
      check(cudaDeviceGetDefaultMemPool(&pool, dev), "cudaDeviceGetDefaultMemPool");
      check(cudaMemPoolTrimTo(pool, 0), "cudaMemPoolTrimTo");
      const cudaError_t again = cudaMallocAsync(&p, nbytes, handle);
      if (again == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        throw out_of_memory_error("Out of memory allocating " + cupp::detail::group_digits(nbytes) +
                                      " bytes through cudaMallocAsync on device " +
                                      std::to_string(dev),
                                  nbytes, total_bytes(), 0);
      }
      check(again, "cudaMallocAsync");
    } else {
      check(e, "cudaMallocAsync");
    }
    return p;
  }
  static cudaMemPool_t pool_of(int dev) {
    cudaMemPool_t pool{};
    check(cudaDeviceGetDefaultMemPool(&pool, dev), "cudaDeviceGetDefaultMemPool");
    return pool;
  }
  static void prepare(int dev) {
    static std::array<std::once_flag, max_devices> once;
    std::call_once(once[dev], [dev] {
      if (!runtime::getDeviceProperties(dev).memoryPoolsSupported)
        throw cuda_error(cudaErrorNotSupported,
                         "device " + std::to_string(dev) + " does not support cudaMallocAsync");
      std::uint64_t threshold = std::numeric_limits<std::uint64_t>::max();
      check(cudaMemPoolSetAttribute(pool_of(dev), cudaMemPoolAttrReleaseThreshold, &threshold),
            "cudaMemPoolSetAttribute");
    });
  }
  static std::size_t attribute(cudaMemPoolAttr attr) {
    std::uint64_t v = 0;
    check(cudaMemPoolGetAttribute(pool_of(runtime::getDevice()), attr, &v),
          "cudaMemPoolGetAttribute");
    return static_cast<std::size_t>(v);
  }
};

namespace detail {
// cudaMalloc or cudaMallocManaged for every allocation, freed with cudaFree.
// To memory hooks each is both a malloc and an upstream alloc.
inline allocator_fn uncached_allocator(bool managed) {
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
}
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
inline bool shrink_allocation(const memory_ptr& m, std::size_t nbytes) {
  auto* r = std::get_deleter<device_pool::chunk_return>(m);
  if (!r || r->c->ptr != m.get()) return false;
  r->pool->core().shrink(r->c, nbytes);
  return true;
}
}  // namespace detail

// The default memory pool as an allocator.
inline allocator_fn pool_allocator() {
  return get_default_memory_pool().as_allocator();
}

// A user-provided pair: allocate(nbytes, stream) returns device memory (or
// nullptr when out of memory); deallocate(ptr, nbytes, stream) takes it back
// and is called with the stream the memory was allocated on.
inline allocator_fn user_allocator(
    std::function<void*(std::size_t, cudaStream_t)> allocate,
    std::function<void(void*, std::size_t, cudaStream_t)> deallocate) {
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
}

namespace detail {

struct allocator_registry {
  std::mutex mutex;
  std::atomic<bool> custom{false};
  allocator_fn global;
};
inline allocator_registry& allocators() {
  static allocator_registry* r = new allocator_registry();
  return *r;
}
inline const allocator_fn*& thread_allocator() {
  thread_local const allocator_fn* a = nullptr;
  return a;
}

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
inline allocator_fn get_allocator() {
  if (const allocator_fn* t = detail::thread_allocator()) return *t;
  auto& r = detail::allocators();
  std::lock_guard lock(r.mutex);
  return r.global ? r.global : pool_allocator();
}

// Makes `fn` the calling thread's allocator until the scope ends
// (cupy.cuda.using_allocator).
class using_allocator {
 public:
  explicit using_allocator(allocator_fn fn) : fn_(std::move(fn)) {
    previous_ = detail::thread_allocator();
    if (!fn_) fn_ = pool_allocator();
    detail::thread_allocator() = &fn_;
  }
  using_allocator(const using_allocator&) = delete;
  using_allocator& operator=(const using_allocator&) = delete;
  ~using_allocator() { detail::thread_allocator() = previous_; }

 private:
  allocator_fn fn_;
  const allocator_fn* previous_;
};

namespace detail {

inline memory_ptr alloc_uncaptured(std::size_t nbytes) {
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
}

// Stream captures in progress, and what records their allocations (set by
// <cupp/cuda/graph.hpp>, which this header does not include).
inline std::atomic<int>& capture_count() {
  static std::atomic<int> n{0};
  return n;
}
using capture_keeper_fn = void (*)(const memory_ptr&, std::size_t);
inline std::atomic<capture_keeper_fn>& capture_keeper() {
  static std::atomic<capture_keeper_fn> f{nullptr};
  return f;
}

}  // namespace detail

// `nbytes` of device memory on the current device and stream, from the
// allocator in effect (cupy.cuda.alloc).
inline memory_ptr alloc(std::size_t nbytes) {
  memory_ptr m = detail::alloc_uncaptured(nbytes);
  // A graph being captured keeps what is allocated on its stream
  // (<cupp/cuda/graph.hpp>); one relaxed load when nothing is captured.
  if (detail::capture_count().load(std::memory_order_acquire) > 0)
    detail::capture_keeper().load(std::memory_order_acquire)(m, nbytes);
  return m;
}

// ---------------------------------------------------------------------------
// Pinned (page-locked) host memory.

namespace detail {

// An event that guards a pinned chunk until a copy that uses it completes.
struct pinned_token {
  cudaEvent_t event;
  int device;
};

class event_cache {
 public:
  pinned_token* acquire(int device) {
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
  }
  void release(pinned_token* t) {
    std::lock_guard lock(mutex_);
    free_[t->device].push_back(t);
  }

 private:
  std::mutex mutex_;
  std::array<std::vector<pinned_token*>, max_devices> free_;
};

inline event_cache& pinned_events() {
  static event_cache* c = new event_cache();
  return *c;
}

inline void* upstream_host_alloc(std::size_t n) {
  void* p = nullptr;
  const cudaError_t e = cudaHostAlloc(&p, n, cudaHostAllocPortable);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    return nullptr;
  }
  check(e, "cudaHostAlloc");
  return p;
}

}  // namespace detail

// cupy.cuda.PinnedMemoryPool: a cache of page-locked host memory, usable by
// every device. A block used by an asynchronous copy is not handed out again
// until the copy has completed, even if its owner lets go of it earlier.
class PinnedMemoryPool {
 public:
  PinnedMemoryPool() : impl_(std::make_shared<impl>()) {}

  memory_ptr malloc(std::size_t nbytes) {
    if (nbytes == 0) return nullptr;
    auto* c = impl_->core.allocate(nbytes, 0);
    return memory_ptr(c->ptr, [impl = impl_, c](void*) { impl->core.deallocate(c); });
  }
  allocator_fn as_allocator() const {
    return [p = *this](std::size_t n) mutable { return p.malloc(n); };
  }

  // Marks the block holding `p` as used by work now enqueued on `stream`:
  // it is not reused before that work is done. False if `p` is not from
  // this pool.
  bool record_use(const void* p, cudaStream_t stream, int device) {
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
  }
  bool owns(const void* p) { return impl_->core.owns(p); }

  void free_all_blocks() { impl_->core.free_all_blocks(); }
  std::size_t used_bytes() { return impl_->core.used_bytes(); }
  std::size_t total_bytes() { return impl_->core.total_bytes(); }
  std::size_t free_bytes() { return impl_->core.free_bytes(); }
  std::size_t peak_total_bytes() { return impl_->core.peak_total_bytes(); }
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

inline PinnedMemoryPool& get_default_pinned_memory_pool() {
  static PinnedMemoryPool* pool = new PinnedMemoryPool();
  return *pool;
}

namespace detail {
inline std::mutex& pinned_allocator_mutex() {
  static std::mutex* m = new std::mutex();
  return *m;
}
inline allocator_fn& pinned_allocator() {
  static allocator_fn* f = new allocator_fn();
  return *f;
}
}  // namespace detail

// Replaces the allocator of pinned memory (empty: the default pinned pool).
inline void set_pinned_memory_allocator(allocator_fn fn = {}) {
  std::lock_guard lock(detail::pinned_allocator_mutex());
  detail::pinned_allocator() = std::move(fn);
}

// `nbytes` of page-locked host memory (cupy.cuda.alloc_pinned_memory).
inline memory_ptr alloc_pinned_memory(std::size_t nbytes) {
  allocator_fn fn;
  {
    std::lock_guard lock(detail::pinned_allocator_mutex());
    fn = detail::pinned_allocator();
  }
  if (fn) return fn(nbytes);
  return get_default_pinned_memory_pool().malloc(nbytes);
}

}  // namespace cupp::cuda
