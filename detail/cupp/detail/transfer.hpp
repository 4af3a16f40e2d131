// Byte copies between host and device memory.
//
// Pinned host memory is copied by the DMA engines directly. Pageable memory
// cannot be: the driver would stage it through a small buffer of its own one
// piece at a time. cupp stages large pageable copies itself, through two
// pinned buffers from the pinned pool: while the copy engine moves one
// buffer, a team of host threads fills (or drains) the other, so the slower
// of the two transfers sets the pace rather than their sum.
#pragma once

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cstring>
#include <exception>
#include <thread>
#include <vector>

#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/stream.hpp>

namespace cupp::detail {

// Tuning of the pageable pipeline; bench/transfer measures the choices.
struct transfer_tuning {
  std::size_t threshold = std::size_t{4} << 20;  // below: one plain copy
  std::size_t chunk = std::size_t{16} << 20;     // bytes per staging buffer
  int buffers = 2;                               // staging buffers in flight
  int threads = 0;                               // host copy threads; 0: automatic
};

inline transfer_tuning& tuning() {
  static transfer_tuning t;
  return t;
}

inline int copy_threads(std::size_t chunk) {
  if (tuning().threads > 0) return tuning().threads;
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  // One thread moves roughly 5-10 GB/s; four to eight saturate a PCIe 5
  // link without crowding the host. Small chunks are not worth splitting.
  const int wanted = static_cast<int>(std::min<unsigned>(8u, std::max(1u, hw / 2)));
  return chunk < (std::size_t{2} << 20) ? 1 : wanted;
}

// True for page-locked host memory (cudaHostAlloc or cudaHostRegister).
inline bool is_pinned(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

// Runs steps 0..n-1 with `team` threads. In each step every thread does its
// share (work(step, thread, team)); then one thread runs between(step)
// before any thread starts the next step. The calling thread is member 0;
// the others make `device` current first, since between() calls CUDA.
template <class Work, class Between>
void run_team(int team, std::size_t steps, int device, Work work, Between between) {
  if (team <= 1) {
    for (std::size_t i = 0; i < steps; ++i) {
      work(i, 0, 1);
      between(i);
    }
    return;
  }
  std::size_t step = 0;
  std::exception_ptr error;
  std::atomic<bool> stop{false};
  std::barrier sync(team, [&]() noexcept {
    if (!stop.load(std::memory_order_relaxed)) {
      try {
        between(step);
      } catch (...) {
        error = std::current_exception();
        stop.store(true, std::memory_order_relaxed);
      }
    }
    ++step;
  });
  auto member = [&](int t) {
    for (std::size_t i = 0; i < steps; ++i) {
      if (!stop.load(std::memory_order_relaxed)) work(i, t, team);
      sync.arrive_and_wait();
    }
  };
  std::vector<std::jthread> helpers;
  helpers.reserve(static_cast<std::size_t>(team - 1));
  for (int t = 1; t < team; ++t)
    helpers.emplace_back([&, t] {
      (void)cudaSetDevice(device);
      member(t);
    });
  member(0);
  helpers.clear();  // joins
  if (error) std::rethrow_exception(error);
}

// The part of [0, len) that thread t of `team` copies, in 64-byte units.
inline std::pair<std::size_t, std::size_t> share(std::size_t len, int t, int team) {
  const std::size_t unit = 64;
  const std::size_t units = (len + unit - 1) / unit;
  const std::size_t per =
      (units + static_cast<std::size_t>(team) - 1) / static_cast<std::size_t>(team);
  const std::size_t begin = std::min(len, per * unit * static_cast<std::size_t>(t));
  const std::size_t end = std::min(len, begin + per * unit);
  return {begin, end};
}

struct staging {
  std::vector<cuda::memory_ptr> buffers;
  std::vector<cuda::detail::pinned_token*> events;
  int device;

  staging(int n, std::size_t bytes, int dev) : device(dev) {
    auto& pool = cuda::get_default_pinned_memory_pool();
    for (int k = 0; k < n; ++k) {
      buffers.push_back(pool.malloc(bytes));
      events.push_back(cuda::detail::pinned_events().acquire(dev));
    }
  }
  char* buffer(std::size_t i) const {
    return static_cast<char*>(buffers[i % buffers.size()].get());
  }
  cudaEvent_t event(std::size_t i) const { return events[i % events.size()]->event; }
  // Hands the buffers back guarded by copies still in flight on `stream`.
  void release(cudaStream_t stream, bool wait) {
    auto& pool = cuda::get_default_pinned_memory_pool();
    if (wait) {
      for (auto* e : events) (void)cudaEventSynchronize(e->event);
    } else {
      for (auto& b : buffers) pool.record_use(b.get(), stream, device);
    }
    for (auto* e : events) cuda::detail::pinned_events().release(e);
    events.clear();
    buffers.clear();
  }
  ~staging() {
    // Reached with events left only when a copy failed: wait so that no
    // buffer returns to the pool while the copy engine may still use it.
    for (auto* e : events) {
      (void)cudaEventSynchronize(e->event);
      cuda::detail::pinned_events().release(e);
    }
  }
};

inline void pipelined_h2d(char* dst, const char* src, std::size_t n, int device,
                          cudaStream_t stream, bool blocking) {
  const auto& t = tuning();
  const std::size_t chunk = std::min(t.chunk, n);
  const std::size_t steps = (n + chunk - 1) / chunk;
  const int nbuf = static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(std::max(t.buffers, 1)), steps));
  staging st(nbuf, chunk, device);
  run_team(
      copy_threads(chunk), steps, device,
      [&](std::size_t i, int th, int team) {
        const std::size_t len = std::min(chunk, n - i * chunk);
        auto [b, e] = share(len, th, team);
        if (e > b) std::memcpy(st.buffer(i) + b, src + i * chunk + b, e - b);
      },
      [&](std::size_t i) {
        const std::size_t len = std::min(chunk, n - i * chunk);
        cuda::check(
            cudaMemcpyAsync(dst + i * chunk, st.buffer(i), len, cudaMemcpyHostToDevice, stream),
            "cudaMemcpyAsync");
        cuda::check(cudaEventRecord(st.event(i), stream), "cudaEventRecord");
        // The next step refills the buffer that chunk i + 1 - nbuf used.
        if (i + 1 < steps && i + 1 >= static_cast<std::size_t>(nbuf))
          cuda::check(cudaEventSynchronize(st.event(i + 1)), "cudaEventSynchronize");
      });
  st.release(stream, blocking);
}

inline void pipelined_d2h(char* dst, const char* src, std::size_t n, int device,
                          cudaStream_t stream) {
  const auto& t = tuning();
  const std::size_t chunk = std::min(t.chunk, n);
  const std::size_t steps = (n + chunk - 1) / chunk;
  const int nbuf = static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(std::max(t.buffers, 1)), steps));
  staging st(nbuf, chunk, device);
  auto enqueue = [&](std::size_t i) {
    const std::size_t len = std::min(chunk, n - i * chunk);
    cuda::check(cudaMemcpyAsync(st.buffer(i), src + i * chunk, len, cudaMemcpyDeviceToHost, stream),
                "cudaMemcpyAsync");
    cuda::check(cudaEventRecord(st.event(i), stream), "cudaEventRecord");
  };
  for (std::size_t i = 0; i < static_cast<std::size_t>(nbuf); ++i) enqueue(i);
  cuda::check(cudaEventSynchronize(st.event(0)), "cudaEventSynchronize");
  run_team(
      copy_threads(chunk), steps, device,
      [&](std::size_t i, int th, int team) {
        const std::size_t len = std::min(chunk, n - i * chunk);
        auto [b, e] = share(len, th, team);
        if (e > b) std::memcpy(dst + i * chunk + b, st.buffer(i) + b, e - b);
      },
      [&](std::size_t i) {
        if (i + nbuf < steps) enqueue(i + nbuf);
        if (i + 1 < steps)
          cuda::check(cudaEventSynchronize(st.event(i + 1)), "cudaEventSynchronize");
      });
  st.release(stream, true);
}

// Copies n bytes from host `src` to device `dst` (on `device`) in stream
// order. Blocking: returns when the data has arrived. Non-blocking: returns
// once `src` may be reused (pageable data is staged first; pinned memory
// from the pinned pool is kept from reuse until the copy is done).
inline void copy_host_to_device(void* dst, const void* src, std::size_t n, int device,
                                cudaStream_t stream, bool blocking) {
  if (n == 0) return;
  if (is_pinned(src)) {
    cuda::check(cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
    if (blocking)
      cuda::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    else
      cuda::get_default_pinned_memory_pool().record_use(src, stream, device);
    return;
  }
  if (n >= tuning().threshold) {
    pipelined_h2d(static_cast<char*>(dst), static_cast<const char*>(src), n, device, stream,
                  blocking);
    return;
  }
  if (blocking) {
    cuda::check(cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
    cuda::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return;
  }
  auto& pool = cuda::get_default_pinned_memory_pool();
  cuda::memory_ptr stage = pool.malloc(n);
  std::memcpy(stage.get(), src, n);
  cuda::check(cudaMemcpyAsync(dst, stage.get(), n, cudaMemcpyHostToDevice, stream),
              "cudaMemcpyAsync");
  pool.record_use(stage.get(), stream, device);
}

// Copies n bytes from device `src` to host `dst`. Blocking: returns when the
// data is on the host. Non-blocking: pinned destinations are written by the
// copy engine directly and kept from reuse until done; pageable ones are
// written by a host callback once the data has arrived in a pinned buffer,
// and `keep_alive` (the destination's owner) is held until then.
inline void copy_device_to_host(void* dst, const void* src, std::size_t n, int device,
                                cudaStream_t stream, bool blocking,
                                cuda::memory_ptr keep_alive = {}) {
  if (n == 0) return;
  if (is_pinned(dst)) {
    cuda::check(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
    if (blocking)
      cuda::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    else
      cuda::get_default_pinned_memory_pool().record_use(dst, stream, device);
    return;
  }
  if (blocking) {
    if (n >= tuning().threshold) {
      pipelined_d2h(static_cast<char*>(dst), static_cast<const char*>(src), n, device, stream);
    } else {
      cuda::check(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
      cuda::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    }
    return;
  }
  cuda::memory_ptr stage = cuda::get_default_pinned_memory_pool().malloc(n);
  cuda::check(cudaMemcpyAsync(stage.get(), src, n, cudaMemcpyDeviceToHost, stream),
              "cudaMemcpyAsync");
  auto* job =
      new std::pair<cuda::memory_ptr, cuda::memory_ptr>(std::move(stage), std::move(keep_alive));
  struct payload {
    void* dst;
    std::size_t n;
    std::pair<cuda::memory_ptr, cuda::memory_ptr>* job;
  };
  auto* p = new payload{dst, n, job};
  const cudaError_t e = cudaLaunchHostFunc(
      stream,
      [](void* user) {
        auto* q = static_cast<payload*>(user);
        std::memcpy(q->dst, q->job->first.get(), q->n);
        delete q->job;  // returns the staging buffer; no CUDA call involved
        delete q;
      },
      p);
  if (e != cudaSuccess) {
    (void)cudaStreamSynchronize(stream);
    delete job;
    delete p;
    cuda::check(e, "cudaLaunchHostFunc");
  }
}

// Enables peer access from `device` to `peer` once; false if the topology
// does not allow it.
inline bool enable_peer_access(int device, int peer) {
  static std::mutex mutex;
  static std::vector<std::pair<int, int>> enabled;
  std::lock_guard lock(mutex);
  for (auto& pr : enabled)
    if (pr.first == device && pr.second == peer) return true;
  int can = 0;
  cuda::check(cudaDeviceCanAccessPeer(&can, device, peer), "cudaDeviceCanAccessPeer");
  if (!can) return false;
  cuda::device_scope scope(device);
  const cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled)
    (void)cudaGetLastError();
  else
    cuda::check(e, "cudaDeviceEnablePeerAccess");
  enabled.emplace_back(device, peer);
  return true;
}

// Copies n bytes between device allocations, ordered on `stream` of the
// destination device (the current device). A source on another device is
// first fenced behind the work on that device's current stream.
inline void copy_device_to_device(void* dst, int dst_device, const void* src, int src_device,
                                  std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  if (dst_device == src_device) {
    cuda::check(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync");
    return;
  }
  // Work already queued on the source device may still be writing `src`.
  cudaEvent_t fence = nullptr;
  {
    cuda::device_scope scope(src_device);
    cuda::check(cudaEventCreateWithFlags(&fence, cudaEventDisableTiming), "cudaEventCreate");
    const cudaError_t rec =
        cudaEventRecord(fence, cuda::detail::current_stream_impl(src_device)->handle);
    if (rec != cudaSuccess) {
      (void)cudaEventDestroy(fence);
      cuda::check(rec, "cudaEventRecord");
    }
  }
  const cudaError_t waited = cudaStreamWaitEvent(stream, fence, 0);
  (void)cudaEventDestroy(fence);
  cuda::check(waited, "cudaStreamWaitEvent");
  if (enable_peer_access(dst_device, src_device)) {
    cuda::check(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, n, stream),
                "cudaMemcpyPeerAsync");
    return;
  }
  // No peer path: through pinned host memory.
  cuda::memory_ptr stage = cuda::get_default_pinned_memory_pool().malloc(n);
  cudaStream_t src_stream = cuda::detail::current_stream_impl(src_device)->handle;
  {
    cuda::device_scope scope(src_device);
    cuda::check(cudaMemcpyAsync(stage.get(), src, n, cudaMemcpyDeviceToHost, src_stream),
                "cudaMemcpyAsync");
    cuda::check(cudaStreamSynchronize(src_stream), "cudaStreamSynchronize");
  }
  cuda::check(cudaMemcpyAsync(dst, stage.get(), n, cudaMemcpyHostToDevice, stream),
              "cudaMemcpyAsync");
  cuda::get_default_pinned_memory_pool().record_use(stage.get(), stream, dst_device);
}

}  // namespace cupp::detail
