// Streams and events, and the current stream of each thread and device.
// Every operation of cupp is enqueued on the current stream, as in CuPy.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <ostream>
#include <string_view>

#include <cupp/config.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/cuda/runtime.hpp>

namespace cupp::cuda {

class Event;
class stream_scope;

namespace detail {

// Allocation caches key their free lists by this id rather than by the
// cudaStream_t value, which CUDA may hand out again after a stream is
// destroyed while memory freed on the old stream is still in flight.
inline std::uint64_t next_stream_id() CUPP_HOST_BODY({
  static std::atomic<std::uint64_t> next{2};
  return next.fetch_add(1, std::memory_order_relaxed);
});

struct stream_impl {
  cudaStream_t handle = nullptr;
  int device = -1;  // -1: the null and per-thread streams, valid on any device
  std::uint64_t id = 0;
  bool owned = false;
  bool non_blocking = false;
  int priority = 0;

  stream_impl() = default;
  stream_impl(const stream_impl&) = delete;
  stream_impl& operator=(const stream_impl&) = delete;
  ~stream_impl() CUPP_HOST_BODY({
    // Pending work still completes; CUDA releases the stream afterwards.
    if (owned && handle) (void)cudaStreamDestroy(handle);
  });
};

inline const std::shared_ptr<stream_impl>& null_stream_impl() CUPP_HOST_BODY({
  static const std::shared_ptr<stream_impl> s = [] {
    auto p = std::make_shared<stream_impl>();
    p->id = 0;
    return p;
  }();
  return s;
});

// The per-thread default stream is a different stream on every thread, so
// each thread gets its own id for it.
inline const std::shared_ptr<stream_impl>& ptds_impl() CUPP_HOST_BODY({
  thread_local const std::shared_ptr<stream_impl> s = [] {
    auto p = std::make_shared<stream_impl>();
    p->handle = cudaStreamPerThread;
    p->id = next_stream_id();
    return p;
  }();
  return s;
});

inline std::atomic<int>& default_stream_mode() CUPP_HOST_BODY({
  // -1: not read yet; 0: legacy null stream; 1: per-thread default stream.
  static std::atomic<int> mode{-1};
  return mode;
});

inline bool default_is_per_thread() CUPP_HOST_BODY({
  int m = default_stream_mode().load(std::memory_order_relaxed);
  if (m < 0) {
    const char* env = std::getenv("CUPP_CUDA_PER_THREAD_DEFAULT_STREAM");
    m = (env && std::string_view(env) != "0" && std::string_view(env) != "") ? 1 : 0;
    int expected = -1;
    default_stream_mode().compare_exchange_strong(expected, m);
    m = default_stream_mode().load(std::memory_order_relaxed);
  }
  return m == 1;
});

// The stream set current on this thread for each device (null: the default).
inline std::array<std::shared_ptr<stream_impl>, max_devices>& current_streams() CUPP_HOST_BODY({
  thread_local std::array<std::shared_ptr<stream_impl>, max_devices> table{};
  return table;
});

inline const std::shared_ptr<stream_impl>& current_stream_impl(int device) CUPP_HOST_BODY({
  const auto& s = current_streams()[device];
  if (s) return s;
  return default_is_per_thread() ? ptds_impl() : null_stream_impl();
});

}  // namespace detail

// A CUDA stream. Copies of a Stream share one stream; it is destroyed when
// the last copy goes, if cupp created it.
class Stream {
 public:
  // A new stream on the current device. non_blocking streams do not wait
  // for the legacy null stream; lower priority numbers run first.
  explicit Stream(bool non_blocking = false, int priority = 0) CUPP_HOST_BODY({
    auto p = std::make_shared<detail::stream_impl>();
    p->device = runtime::getDevice();
    p->non_blocking = non_blocking;
    p->priority = priority;
    p->id = detail::next_stream_id();
    check(cudaStreamCreateWithPriority(
              &p->handle, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault, priority),
          "cudaStreamCreateWithPriority");
    p->owned = true;
    impl_ = std::move(p);
  });

  // The legacy default stream (cupy.cuda.Stream.null).
  static Stream null() { return Stream(detail::null_stream_impl()); }
  // The per-thread default stream of the calling thread (Stream.ptds).
  static Stream per_thread() { return Stream(detail::ptds_impl()); }
  // Wraps a stream created elsewhere; cupp never destroys it
  // (cupy.cuda.ExternalStream).
  static Stream from_handle(cudaStream_t handle, int device = -1) CUPP_HOST_BODY({
    if (handle == nullptr) return null();
    if (handle == cudaStreamPerThread) return per_thread();
    auto p = std::make_shared<detail::stream_impl>();
    p->handle = handle;
    p->device = device;
    p->id = detail::next_stream_id();
    impl_flags(*p);
    return Stream(std::move(p));
  });

  cudaStream_t handle() const noexcept { return impl_->handle; }
  // The device the stream belongs to, or -1 for the null and per-thread
  // default streams, which exist on every device.
  int device_id() const noexcept { return impl_->device; }
  bool non_blocking() const noexcept { return impl_->non_blocking; }
  int priority() const noexcept { return impl_->priority; }
  bool is_null() const noexcept { return impl_->handle == nullptr; }
  std::uint64_t id() const noexcept { return impl_->id; }

  // Blocks until all work on the stream is done.
  void synchronize() const { check(cudaStreamSynchronize(handle()), "cudaStreamSynchronize"); }
  // True when all work on the stream is done (cudaStreamQuery).
  bool done() const CUPP_HOST_BODY({
    const cudaError_t e = cudaStreamQuery(handle());
    if (e == cudaErrorNotReady) {
      (void)cudaGetLastError();
      return false;
    }
    check(e, "cudaStreamQuery");
    return true;
  });
  // Later work on this stream waits until `event` has completed.
  void wait_event(const Event& event) const;
  // Records an event on this stream and returns it.
  Event record() const;
  void record(Event& event) const;
  // Runs `fn` on a CUDA thread once the work before it on this stream is
  // done. `fn` must not call CUDA.
  void launch_host_func(std::function<void()> fn) const CUPP_HOST_BODY({
    auto* heap = new std::function<void()>(std::move(fn));
    const cudaError_t e = cudaLaunchHostFunc(
        handle(),
        [](void* user) {
          std::unique_ptr<std::function<void()>> f(static_cast<std::function<void()>*>(user));
          (*f)();
        },
        heap);
    if (e != cudaSuccess) {
      delete heap;
      check(e, "cudaLaunchHostFunc");
    }
  });

  // The same question as done(), under the name of the CUDA call.
  bool query() const { return done(); }

  // Makes this the calling thread's current stream on its device (the
  // current device for the null and per-thread streams).
  void use() const { detail::current_streams()[target_device()] = impl_; }
  // Makes this stream current until the scope ends.
  [[nodiscard]] stream_scope scope() const;

  friend bool operator==(const Stream& a, const Stream& b) noexcept {
    return a.impl_->id == b.impl_->id;
  }
  friend std::ostream& operator<<(std::ostream& os, const Stream& s) CUPP_HOST_BODY({
    return os << "<Stream " << static_cast<const void*>(s.handle()) << " (device " << s.device_id()
              << ")>";
  });

  // For the memory pools and transfers.
  const std::shared_ptr<detail::stream_impl>& impl() const noexcept { return impl_; }
  explicit Stream(std::shared_ptr<detail::stream_impl> impl) noexcept : impl_(std::move(impl)) {}

 private:
  static void impl_flags(detail::stream_impl& p) CUPP_HOST_BODY({
    unsigned flags = 0;
    if (cudaStreamGetFlags(p.handle, &flags) == cudaSuccess)
      p.non_blocking = (flags & cudaStreamNonBlocking) != 0;
    else
      (void)cudaGetLastError();
    int prio = 0;
    if (cudaStreamGetPriority(p.handle, &prio) == cudaSuccess)
      p.priority = prio;
    else
      (void)cudaGetLastError();
  });
  int target_device() const { return impl_->device >= 0 ? impl_->device : runtime::getDevice(); }

  std::shared_ptr<detail::stream_impl> impl_;
  friend class stream_scope;
};

// Restores the stream that was current before, on the same device.
class stream_scope {
 public:
  explicit stream_scope(const Stream& s)
      : device_(s.target_device()) CUPP_HOST_BODY({
          previous_ = detail::current_streams()[device_];
          detail::current_streams()[device_] = s.impl();
        });
  stream_scope(const stream_scope&) = delete;
  stream_scope& operator=(const stream_scope&) = delete;
  ~stream_scope() { detail::current_streams()[device_] = std::move(previous_); }

 private:
  int device_;
  std::shared_ptr<detail::stream_impl> previous_;
};

inline stream_scope Stream::scope() const {
  return stream_scope(*this);
}

// The calling thread's current stream on the current device (or on
// `device`): the null stream unless a Stream was made current, or the
// per-thread default stream when CUPP_CUDA_PER_THREAD_DEFAULT_STREAM=1 or
// set_default_stream_per_thread(true).
inline Stream get_current_stream(int device = -1) CUPP_HOST_BODY({
  if (device < 0) device = runtime::getDevice();
  return Stream(detail::current_stream_impl(device));
});

// Chooses what get_current_stream() returns where no stream was made
// current: the legacy null stream (false, the default) or the per-thread
// default stream (true).
inline void set_default_stream_per_thread(bool per_thread) {
  detail::default_stream_mode().store(per_thread ? 1 : 0);
}

// A CUDA event. Copies share one event.
class Event {
 public:
  // block: synchronize() yields the CPU instead of spinning.
  // disable_timing: cheaper, but get_elapsed_time cannot use it.
  // interprocess: shareable with other processes; requires disable_timing.
  explicit Event(bool block = false, bool disable_timing = false, bool interprocess = false) {
    if (interprocess && !disable_timing)
      throw value_error("Timing must be disabled for interprocess events");
    unsigned flags = cudaEventDefault;
    if (block) flags |= cudaEventBlockingSync;
    if (disable_timing) flags |= cudaEventDisableTiming;
    if (interprocess) flags |= cudaEventInterprocess;
    cudaEvent_t e = nullptr;
    check(cudaEventCreateWithFlags(&e, flags), "cudaEventCreateWithFlags");
    impl_ = std::shared_ptr<CUevent_st>(e, [](cudaEvent_t ev) { (void)cudaEventDestroy(ev); });
    interprocess_ = interprocess;
  }

  // Takes ownership of an event created elsewhere (an IPC event opened
  // from another process): destroyed when the last copy goes.
  static Event adopt(cudaEvent_t e) { return Event(e); }

  cudaEvent_t handle() const noexcept { return impl_.get(); }

  // Records the event at the current end of `stream` (the current stream
  // when none is given).
  void record(const Stream& stream) {
    check(cudaEventRecord(handle(), stream.handle()), "cudaEventRecord");
  }
  void record() { record(get_current_stream()); }
  // Blocks until the recorded work is done.
  void synchronize() const { check(cudaEventSynchronize(handle()), "cudaEventSynchronize"); }
  // True when the recorded work is done (or nothing was recorded).
  bool done() const CUPP_HOST_BODY({
    const cudaError_t e = cudaEventQuery(handle());
    if (e == cudaErrorNotReady) {
      (void)cudaGetLastError();
      return false;
    }
    check(e, "cudaEventQuery");
    return true;
  });
  bool query() const { return done(); }
  // Handle for cudaIpcOpenEventHandle in another process.
  cudaIpcEventHandle_t ipc_handle() const CUPP_HOST_BODY({
    if (!interprocess_) throw value_error("the event was not created with interprocess=true");
    cudaIpcEventHandle_t h{};
    check(cudaIpcGetEventHandle(&h, handle()), "cudaIpcGetEventHandle");
    return h;
  });

 private:
  explicit Event(cudaEvent_t e)
      : impl_(e, [](cudaEvent_t ev) { (void)cudaEventDestroy(ev); }), interprocess_(true) {}

  std::shared_ptr<CUevent_st> impl_;
  bool interprocess_ = false;
};

// Milliseconds between two recorded events (cupy.cuda.get_elapsed_time).
inline float get_elapsed_time(const Event& start, const Event& end) CUPP_HOST_BODY({
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start.handle(), end.handle()), "cudaEventElapsedTime");
  return ms;
});

inline void Stream::wait_event(const Event& event) const {
  check(cudaStreamWaitEvent(handle(), event.handle(), 0), "cudaStreamWaitEvent");
}
inline void Stream::record(Event& event) const {
  event.record(*this);
}
inline Event Stream::record() const CUPP_HOST_BODY({
  Event e;
  e.record(*this);
  return e;
});

}  // namespace cupp::cuda
