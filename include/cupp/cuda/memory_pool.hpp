// Device memory pools: the owning pointer and allocator types every
// allocator shares, cupp's caching pool per device (MemoryPool, the
// default memory pool) and CUDA's stream-ordered pool (MemoryAsyncPool).
// Part of <cupp/cuda/memory.hpp>, which users include.
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

#include <cupp/config.hpp>
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
inline std::size_t parse_memory_limit(const char* text, std::size_t device_total) CUPP_HOST_BODY({
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
});

// Stream captures in progress (<cupp/cuda/graph.hpp> counts them). While
// one runs, the pool neither frees idle segments to keep to its budget nor
// makes one stream wait for another: either would reach into the capture.
inline std::atomic<int>& capture_count() CUPP_HOST_BODY({
  static std::atomic<int> n{0};
  return n;
});

// cudaMalloc-style upstream that turns "out of memory" into nullptr so the
// pool can empty its cache and retry.
inline void* upstream_malloc(std::size_t n, bool managed) CUPP_HOST_BODY({
  void* p = nullptr;
  const cudaError_t e = managed ? cudaMallocManaged(&p, n) : cudaMalloc(&p, n);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    return nullptr;
  }
  check(e, managed ? "cudaMallocManaged" : "cudaMalloc");
  return p;
});

// One device's caching pool. Deleters of the memory it hands out hold a
// reference to it, so the pool outlives every allocation.
class device_pool : public std::enable_shared_from_this<device_pool> {
 public:
  // The budget's default: at most about 3x the peak in use (a soak of 1 to
  // 32 streams allocating 8 B to 2.4 MB arrays held up to 20x before), and
  // free growth below 16 MiB, where a move between streams costs more than
  // the memory it saves.
  static constexpr double default_budget_ratio = 3.0;
  static constexpr std::size_t budget_floor = std::size_t{16} << 20;

  device_pool(int device, bool managed)
      : device_(device),
        core_({.allocate = [managed](std::size_t n) { return upstream_malloc(n, managed); },
               .deallocate = [](void* p, std::size_t) { (void)cudaFree(p); },
               .token_ready = {},
               .token_release = {}},
              "device " + std::to_string(device)) CUPP_HOST_BODY({
          // Requests up to 1 MiB share 2 MiB segments; larger ones take whole
          // 2 MiB pages, whose slack serves the next slightly larger request.
          core_.set_small_segments(std::size_t{1} << 20, std::size_t{2} << 20);
          core_.set_large_granularity(std::size_t{2} << 20);
          core_.set_budget(default_budget_ratio, budget_floor);
          core_.set_mover([this](std::uint64_t arena) { return stream_of(arena); },
                          [this](const std::shared_ptr<void>& from) { return order_after(from); },
                          [] { return capture_count().load(std::memory_order_acquire) == 0; });
          core_.report_to_hooks(device);
          if (const char* env = std::getenv("CUPP_GPU_MEMORY_LIMIT"); env && *env) {
            const std::size_t total = runtime::getDeviceProperties(device).totalGlobalMem;
            core_.set_limit(parse_memory_limit(env, total));
          }
        });
  device_pool(const device_pool&) = delete;
  device_pool& operator=(const device_pool&) = delete;
  ~device_pool() {
    if (event_) (void)cudaEventDestroy(event_);
  }

  // Returns a chunk to the pool when the last handle to it goes; a named
  // type, so that shrink() can find the chunk behind a memory_ptr.
  struct chunk_return {
    std::shared_ptr<device_pool> pool;
    cupp::detail::caching_allocator::chunk* c;
    void operator()(void*) const { pool->core_.deallocate(c); }
  };

  // Memory for the calling thread's current stream on this device.
  memory_ptr malloc(std::size_t n) CUPP_HOST_BODY({
    if (n == 0) return nullptr;
    const std::uint64_t arena = detail::current_stream_impl(device_)->id;
    auto* c = core_.allocate(n, arena);
    return memory_ptr(c->ptr, chunk_return{shared_from_this(), c});
  });

  int device() const noexcept { return device_; }
  cupp::detail::caching_allocator& core() noexcept { return core_; }

 private:
  // The stream behind the calling thread's arena, when its idle memory may
  // serve other streams: a stream cupp created, which the pool keeps alive
  // while it holds the stream's segments. The null and per-thread streams
  // and streams made elsewhere keep theirs (a per-thread stream's handle
  // names another stream on another thread; a foreign one may be gone).
  std::shared_ptr<void> stream_of(std::uint64_t arena) const CUPP_HOST_BODY({
    const auto& s = detail::current_stream_impl(device_);
    if (s->id != arena || !s->owned) return {};
    return s;
  });

  // Called with the pool's lock held, which also guards event_: the calling
  // thread's stream waits for everything queued so far on `from`.
  bool order_after(const std::shared_ptr<void>& from) CUPP_HOST_BODY({
    const cudaStream_t source = static_cast<const stream_impl*>(from.get())->handle;
    const cudaStream_t target = detail::current_stream_impl(device_)->handle;
    // A capture would take the wait into its graph: no moves then.
    for (cudaStream_t s : {source, target}) {
      cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
      if (cudaStreamIsCapturing(s, &status) != cudaSuccess ||
          status != cudaStreamCaptureStatusNone) {
        (void)cudaGetLastError();
        return false;
      }
    }
    if (!event_ && cudaEventCreateWithFlags(&event_, cudaEventDisableTiming) != cudaSuccess) {
      (void)cudaGetLastError();
      event_ = nullptr;
      return false;
    }
    // The wait takes the event as recorded now, so one event serves every move.
    if (cudaEventRecord(event_, source) != cudaSuccess ||
        cudaStreamWaitEvent(target, event_, 0) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return true;
  });

  int device_;
  cudaEvent_t event_ = nullptr;
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

  // Gives the cached segments that are entirely free back to CUDA (on the
  // current device; only those freed on `stream` when it is given).
  void free_all_blocks() { pool().core().free_all_blocks(); }
  void free_all_blocks(const Stream& stream) CUPP_HOST_BODY({
    const std::uint64_t id = stream.id();
    pool().core().free_all_blocks(&id);
  });
  // Bytes in live allocations.
  std::size_t used_bytes() { return pool().core().used_bytes(); }
  // Bytes held from CUDA: in use plus cached.
  std::size_t total_bytes() { return pool().core().total_bytes(); }
  // Bytes cached for reuse.
  std::size_t free_bytes() { return pool().core().free_bytes(); }
  // The most total_bytes() has been since creation or reset_peak().
  std::size_t peak_total_bytes() { return pool().core().peak_total_bytes(); }
  // The most used_bytes() has been since creation or reset_peak().
  std::size_t peak_used_bytes() { return pool().core().peak_used_bytes(); }
  void reset_peak() { pool().core().reset_peak(); }
  // Free chunks in the cache.
  std::size_t n_free_blocks() { return pool().core().n_free_blocks(); }

  // Caps total_bytes() on the current device (0: no cap). Throws
  // value_error when the cap is below the bytes in use.
  void set_limit(std::size_t bytes) { pool().core().set_limit(bytes); }
  // Caps it at a share of the device's memory, 0 <= fraction <= 1.
  void set_limit_fraction(double fraction) CUPP_HOST_BODY({
    if (!(fraction >= 0.0 && fraction <= 1.0))
      throw value_error("memory limit fraction must lie in [0, 1], got " +
                        std::to_string(fraction));
    const int dev = runtime::getDevice();
    const double total = static_cast<double>(runtime::getDeviceProperties(dev).totalGlobalMem);
    set_limit(static_cast<std::size_t>(fraction * total));
  });
  std::size_t get_limit() { return pool().core().get_limit(); }

  // Past max(16 MiB, ratio x the most in use since free_all_blocks()), the
  // pool reuses idle memory of other streams (after an event) and gives idle
  // segments back before it takes more from CUDA. 3 by default; 0: the pool
  // only grows (until out of memory or a limit), and streams never share.
  void set_budget_ratio(double ratio) CUPP_HOST_BODY({
    if (!(ratio == 0.0 || ratio >= 1.0))
      throw value_error("memory pool budget ratio must be 0 or at least 1, got " +
                        std::to_string(ratio));
    pool().core().set_budget(ratio, detail::device_pool::budget_floor);
  });
  double get_budget_ratio() { return pool().core().budget_ratio(); }

  // The single-device pool behind the current device.
  detail::device_pool& pool() CUPP_HOST_BODY({
    const int dev = runtime::getDevice();
    if (auto* p = impl_->pools[dev].load(std::memory_order_acquire)) return *p;
    std::lock_guard lock(impl_->mutex);
    if (auto* p = impl_->pools[dev].load(std::memory_order_relaxed)) return *p;
    auto owned = std::make_shared<detail::device_pool>(dev, impl_->managed);
    impl_->owned.push_back(owned);
    impl_->pools[dev].store(owned.get(), std::memory_order_release);
    return *owned;
  });

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
inline MemoryPool& get_default_memory_pool() CUPP_HOST_BODY({
  static MemoryPool* pool = new MemoryPool();
  return *pool;
});

// cupy.cuda.MemoryAsyncPool: stream-ordered allocation through CUDA's own
// pool (cudaMallocAsync). Memory is freed on the stream it was allocated on.
// The device's default pool keeps freed memory cached (its release
// threshold is raised to the maximum on first use).
class MemoryAsyncPool {
 public:
  memory_ptr malloc(std::size_t nbytes) CUPP_HOST_BODY({
    if (nbytes == 0) return nullptr;
    const int dev = runtime::getDevice();
    prepare(dev);
    auto stream = detail::current_stream_impl(dev);
    void* p = detail::report_malloc(dev, nbytes, nbytes,
                                    [&] { return allocate(dev, nbytes, stream->handle); });
    return memory_ptr(p, [stream, dev, nbytes](void* q) {
      detail::report_free(dev, q, nbytes, [&] { (void)cudaFreeAsync(q, stream->handle); });
    });
  });
  allocator_fn as_allocator() const {
    return [p = *this](std::size_t n) mutable { return p.malloc(n); };
  }

  // Returns the pool's cached memory to the device (after a device sync).
  void free_all_blocks() CUPP_HOST_BODY({
    const int dev = runtime::getDevice();
    runtime::deviceSynchronize();
    check(cudaMemPoolTrimTo(pool_of(dev), 0), "cudaMemPoolTrimTo");
  });
  std::size_t used_bytes() { return attribute(cudaMemPoolAttrUsedMemCurrent); }
  std::size_t total_bytes() { return attribute(cudaMemPoolAttrReservedMemCurrent); }
  std::size_t free_bytes() { return total_bytes() - used_bytes(); }
  std::size_t peak_total_bytes() { return attribute(cudaMemPoolAttrReservedMemHigh); }
  void reset_peak() CUPP_HOST_BODY({
    std::uint64_t zero = 0;
    check(cudaMemPoolSetAttribute(pool_of(runtime::getDevice()), cudaMemPoolAttrReservedMemHigh,
                                  &zero),
          "cudaMemPoolSetAttribute");
  });

 private:
  void* allocate(int dev, std::size_t nbytes, cudaStream_t handle) CUPP_HOST_BODY({
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
  });
  static cudaMemPool_t pool_of(int dev) CUPP_HOST_BODY({
    cudaMemPool_t pool{};
    check(cudaDeviceGetDefaultMemPool(&pool, dev), "cudaDeviceGetDefaultMemPool");
    return pool;
  });
  static void prepare(int dev) CUPP_HOST_BODY({
    static std::array<std::once_flag, max_devices> once;
    std::call_once(once[dev], [dev] {
      if (!runtime::getDeviceProperties(dev).memoryPoolsSupported)
        throw cuda_error(cudaErrorNotSupported,
                         "device " + std::to_string(dev) + " does not support cudaMallocAsync");
      std::uint64_t threshold = std::numeric_limits<std::uint64_t>::max();
      check(cudaMemPoolSetAttribute(pool_of(dev), cudaMemPoolAttrReleaseThreshold, &threshold),
            "cudaMemPoolSetAttribute");
    });
  });
  static std::size_t attribute(cudaMemPoolAttr attr) CUPP_HOST_BODY({
    std::uint64_t v = 0;
    check(cudaMemPoolGetAttribute(pool_of(runtime::getDevice()), attr, &v),
          "cudaMemPoolGetAttribute");
    return static_cast<std::size_t>(v);
  });
};

}  // namespace cupp::cuda
