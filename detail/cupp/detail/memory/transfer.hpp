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
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <unistd.h>
#include <vector>

#include <cupp/config.hpp>
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

inline transfer_tuning& tuning() CUPP_HOST_BODY({
  static transfer_tuning t;
  return t;
});

inline int copy_threads(std::size_t chunk) CUPP_HOST_BODY({
  if (tuning().threads > 0) return tuning().threads;
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  const int hw = online > 0 ? static_cast<int>(online) : 1;
  // One thread moves about 5 GB/s of pageable memory; on a 16-core H100
  // host 12 threads reached 45 GB/s where 8 reached 30 (bench/transfer's
  // sweep). Leave a quarter of the cores to the rest of the program.
  const int wanted = std::clamp(hw - hw / 4, 1, 16);
  return chunk < (std::size_t{2} << 20) ? 1 : wanted;
});

// True for page-locked host memory (cudaHostAlloc or cudaHostRegister).
inline bool is_pinned(const void* p) CUPP_HOST_BODY({
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
});

// A persistent team of host threads for staged copies. Threads are made
// on first use (POSIX threads: <thread> and <barrier> would add seconds to
// every translation unit that includes arrays) and wait on a futex between
// copies. One copy uses the team at a time; a copy that finds it busy runs
// on its calling thread alone.
class copy_team {
 public:
  struct job {
    void* ctx;
    void (*work)(void* ctx, std::size_t step, int member, int members);
    bool (*between)(void* ctx, std::size_t step);  // false: stop
    std::size_t steps;
    int members;
    int device;
  };

  static copy_team& instance() CUPP_HOST_BODY({
    static copy_team* team = new copy_team();  // never destroyed: workers may still wait
    return *team;
  });

  // Runs `j` with up to j.members threads, the caller being member 0.
  // Returns false, having done nothing, when another copy holds the team.
  bool try_run(job j) CUPP_HOST_BODY({
    std::unique_lock lock(busy_, std::try_to_lock);
    if (!lock.owns_lock()) return false;
    j.members = grow(j.members);
    job_ = j;
    stop_.store(false, std::memory_order_relaxed);
    arrived_.store(0, std::memory_order_relaxed);
    finished_.store(0, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    participate(j, 0);
    for (int f = finished_.load(std::memory_order_acquire); f != j.members - 1;
         f = finished_.load(std::memory_order_acquire))
      finished_.wait(f, std::memory_order_acquire);
    return true;
  });

 private:
  struct start_args {
    copy_team* team;
    int index;
  };

  // Makes workers until `members - 1` exist; returns how many members the
  // job can have.
  int grow(int members) CUPP_HOST_BODY({
    while (workers_ < members - 1) {
      auto* args = new start_args{this, workers_ + 1};
      pthread_t t;
      if (pthread_create(&t, nullptr, &copy_team::worker_main, args) != 0) {
        delete args;
        break;
      }
      pthread_detach(t);
      ++workers_;
    }
    return std::min(members, workers_ + 1);
  });

  static void* worker_main(void* raw) CUPP_HOST_BODY({
    std::unique_ptr<start_args> args(static_cast<start_args*>(raw));
    copy_team& team = *args->team;
    const int index = args->index;
    int device = -1;
    std::uint32_t seen = 0;
    for (;;) {
      team.generation_.wait(seen, std::memory_order_acquire);
      seen = team.generation_.load(std::memory_order_acquire);
      const job j = team.job_;
      if (index >= j.members) continue;
      if (j.device != device) {
        (void)cudaSetDevice(j.device);  // between() may run here and calls CUDA
        device = j.device;
      }
      team.participate(j, index);
      team.finished_.fetch_add(1, std::memory_order_release);
      team.finished_.notify_all();
    }
    return nullptr;
  });

  // Step i: every member does its share, then the last to arrive runs
  // between(i) while the others wait for the phase to advance.
  void participate(const job& j, int index) CUPP_HOST_BODY({
    for (std::size_t i = 0; i < j.steps; ++i) {
      const std::uint32_t phase = phase_.load(std::memory_order_acquire);
      if (!stop_.load(std::memory_order_relaxed)) j.work(j.ctx, i, index, j.members);
      if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == j.members) {
        arrived_.store(0, std::memory_order_relaxed);
        if (!stop_.load(std::memory_order_relaxed) && !j.between(j.ctx, i))
          stop_.store(true, std::memory_order_relaxed);
        phase_.fetch_add(1, std::memory_order_release);
        phase_.notify_all();
      } else {
        phase_.wait(phase, std::memory_order_acquire);
      }
    }
  });

  std::mutex busy_;
  int workers_ = 0;
  job job_{};
  std::atomic<std::uint32_t> generation_{0};
  std::atomic<std::uint32_t> phase_{0};
  std::atomic<int> arrived_{0};
  std::atomic<int> finished_{0};
  std::atomic<bool> stop_{false};
};

// Runs steps 0..n-1 with `team` threads. In each step every thread does its
// share (work(step, thread, team)); then one thread runs between(step)
// before any thread starts the next step. The calling thread is member 0;
// the others make `device` current first, since between() calls CUDA. The
// first exception from between() stops the remaining steps and is rethrown.
template <class Work, class Between>
void run_team(int team, std::size_t steps, int device, Work work, Between between) {
  struct context {
    Work& work;
    Between& between;
    std::exception_ptr error;
  } ctx{work, between, nullptr};
  copy_team::job j{
      &ctx,
      [](void* c, std::size_t i, int t, int n) { static_cast<context*>(c)->work(i, t, n); },
      [](void* c, std::size_t i) {
        auto* x = static_cast<context*>(c);
        try {
          x->between(i);
          return true;
        } catch (...) {
          x->error = std::current_exception();
          return false;
        }
      },
      steps,
      team,
      device};
  if (team <= 1 || !copy_team::instance().try_run(j)) {
    for (std::size_t i = 0; i < steps; ++i) {
      work(i, 0, 1);
      if (!j.between(&ctx, i)) break;
    }
  }
  if (ctx.error) std::rethrow_exception(ctx.error);
}

// The part of [0, len) that thread t of `team` copies, in 64-byte units.
inline std::pair<std::size_t, std::size_t> share(std::size_t len, int t, int team) CUPP_HOST_BODY({
  const std::size_t unit = 64;
  const std::size_t units = (len + unit - 1) / unit;
  const std::size_t per =
      (units + static_cast<std::size_t>(team) - 1) / static_cast<std::size_t>(team);
  const std::size_t begin = std::min(len, per * unit * static_cast<std::size_t>(t));
  const std::size_t end = std::min(len, begin + per * unit);
  return {begin, end};
});

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
  void release(cudaStream_t stream, bool wait) CUPP_HOST_BODY({
    auto& pool = cuda::get_default_pinned_memory_pool();
    if (wait) {
      for (auto* e : events) (void)cudaEventSynchronize(e->event);
    } else {
      for (auto& b : buffers) pool.record_use(b.get(), stream, device);
    }
    for (auto* e : events) cuda::detail::pinned_events().release(e);
    events.clear();
    buffers.clear();
  });
  ~staging() CUPP_HOST_BODY({
    // Reached with events left only when a copy failed: wait so that no
    // buffer returns to the pool while the copy engine may still use it.
    for (auto* e : events) {
      (void)cudaEventSynchronize(e->event);
      cuda::detail::pinned_events().release(e);
    }
  });
};

inline void pipelined_h2d(char* dst, const char* src, std::size_t n, int device,
                          cudaStream_t stream, bool blocking) CUPP_HOST_BODY({
  const auto& t = tuning();
  const std::size_t chunk = std::min(t.chunk, n);
  const std::size_t steps = (n + chunk - 1) / chunk;
  const int nbuf = static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(std::max(t.buffers, 1)), steps));
  // Buffers of the configured size whatever n is: the pool caches one size.
  staging st(nbuf, std::max(chunk, t.chunk), device);
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
});

inline void pipelined_d2h(char* dst, const char* src, std::size_t n, int device,
                          cudaStream_t stream) CUPP_HOST_BODY({
  const auto& t = tuning();
  const std::size_t chunk = std::min(t.chunk, n);
  const std::size_t steps = (n + chunk - 1) / chunk;
  const int nbuf = static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(std::max(t.buffers, 1)), steps));
  // Buffers of the configured size whatever n is: the pool caches one size.
  staging st(nbuf, std::max(chunk, t.chunk), device);
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
});

// One cudaMemcpyAsync. Blocking: waits for it. Otherwise `host_side`, if it
// is pinned-pool memory, is kept from reuse until the copy is done.
inline void single_copy(void* dst, const void* src, std::size_t n, cudaMemcpyKind kind,
                        const void* host_side, int device, cudaStream_t stream, bool blocking) {
  cuda::check(cudaMemcpyAsync(dst, src, n, kind, stream), "cudaMemcpyAsync");
  if (blocking)
    cuda::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  else
    cuda::get_default_pinned_memory_pool().record_use(host_side, stream, device);
}

// Copies n bytes from host `src` to device `dst` (on `device`) in stream
// order. Blocking: returns when the data has arrived. Non-blocking: returns
// once `src` may be reused (pageable data is staged first; pinned memory
// from the pinned pool is kept from reuse until the copy is done).
inline void copy_host_to_device(void* dst, const void* src, std::size_t n, int device,
                                cudaStream_t stream, bool blocking) CUPP_HOST_BODY({
  if (n == 0) return;
  if (is_pinned(src))
    return single_copy(dst, src, n, cudaMemcpyHostToDevice, src, device, stream, blocking);
  if (n >= tuning().threshold) {
    pipelined_h2d(static_cast<char*>(dst), static_cast<const char*>(src), n, device, stream,
                  blocking);
    return;
  }
  if (blocking) return single_copy(dst, src, n, cudaMemcpyHostToDevice, src, device, stream, true);
  cuda::memory_ptr stage = cuda::get_default_pinned_memory_pool().malloc(n);
  std::memcpy(stage.get(), src, n);
  single_copy(dst, stage.get(), n, cudaMemcpyHostToDevice, stage.get(), device, stream, false);
});

// Copies n bytes from device `src` to host `dst`. Blocking: returns when the
// data is on the host. Non-blocking: pinned destinations are written by the
// copy engine directly and kept from reuse until done; pageable ones are
// written by a host callback once the data has arrived in a pinned buffer,
// and `keep_alive` (the destination's owner) is held until then.
inline void copy_device_to_host(void* dst, const void* src, std::size_t n, int device,
                                cudaStream_t stream, bool blocking,
                                cuda::memory_ptr keep_alive = {}) {
  if (n == 0) return;
  if (is_pinned(dst))
    return single_copy(dst, src, n, cudaMemcpyDeviceToHost, dst, device, stream, blocking);
  if (blocking) {
    if (n >= tuning().threshold)
      pipelined_d2h(static_cast<char*>(dst), static_cast<const char*>(src), n, device, stream);
    else
      single_copy(dst, src, n, cudaMemcpyDeviceToHost, dst, device, stream, true);
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
// does not allow it, or if CUPP_PEER_ACCESS=0 asks for copies through the
// host (for systems whose peer path is broken, and to test that path).
inline bool enable_peer_access(int device, int peer) CUPP_HOST_BODY({
  static const bool allowed = [] {
    const char* env = std::getenv("CUPP_PEER_ACCESS");
    return !(env && env[0] == '0' && env[1] == '\0');
  }();
  if (!allowed) return false;
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
});

// Copies n bytes between device allocations, ordered on `stream` of the
// destination device (the current device). A source on another device is
// first fenced behind the work on that device's current stream.
inline void copy_device_to_device(void* dst, int dst_device, const void* src, int src_device,
                                  std::size_t n, cudaStream_t stream) CUPP_HOST_BODY({
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
});

}  // namespace cupp::detail
