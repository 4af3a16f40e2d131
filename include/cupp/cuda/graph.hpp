// CUDA graphs (cupy.cuda.Graph): any sequence of cupp operations captured
// from a stream, instantiated once and launched again and again with one
// call, or updated in place where a new capture has the same topology.
//
//   cupp::cuda::Stream s(true);
//   cupp::ndarray<float> z;
//   cupp::cuda::graph g = cupp::cuda::capture(s, [&] { z = x * y + w; });
//   for (int i = 0; i < 1000; ++i) g.launch(s);  // z = x * y + w again
//
// The memory pool knows about captures it is told of: every allocation
// made on the capturing stream while it captures belongs to the graph too,
// and goes back to the pool only when the graph (and every array holding
// it) is gone, so that a replay never writes into memory the pool has given
// to someone else.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>

namespace cupp::cuda {

// A capture that could not be made into a graph: an operation that
// synchronises (or is otherwise not capturable) ran while capturing, or the
// capture was ended on the wrong stream.
class graph_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {

// The captures in progress, each with the allocations made on its stream.
struct capture_session {
  cudaStream_t stream;
  std::vector<memory_ptr> kept;
  std::size_t bytes = 0;
};

struct capture_registry {
  std::mutex mutex;
  std::vector<capture_session*> sessions;
};
inline capture_registry& captures() {
  static capture_registry* r = new capture_registry();
  return *r;
}

// Called by cuda::alloc for each allocation while a capture is active
// (memory.hpp checks a counter first, so nothing is paid otherwise).
inline void keep_for_capture(const memory_ptr& m, std::size_t nbytes) {
  const cudaStream_t s = current_stream_impl(runtime::getDevice())->handle;
  auto& r = captures();
  const std::lock_guard lock(r.mutex);
  for (capture_session* c : r.sessions)
    if (c->stream == s) {
      c->kept.push_back(m);
      c->bytes += nbytes;
    }
}

}  // namespace detail

class graph;

// Stream capture in progress on a stream: cupp operations issued there are
// recorded rather than run. end() returns the instantiated graph. A
// capture still open when the object goes (an exception in the captured
// code) is ended and discarded.
class graph_capture {
 public:
  explicit graph_capture(const Stream& s, cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed)
      : stream_(s), session_(std::make_unique<detail::capture_session>()) {
    if (s.is_null() || s.handle() == cudaStreamPerThread)
      throw graph_error("cupp: a default stream cannot be captured; capture a cupp::cuda::Stream");
    session_->stream = s.handle();
    check(cudaStreamBeginCapture(s.handle(), mode), "cudaStreamBeginCapture");
    auto& r = detail::captures();
    const std::lock_guard lock(r.mutex);
    r.sessions.push_back(session_.get());
    detail::capture_keeper().store(&detail::keep_for_capture, std::memory_order_release);
    detail::capture_count().fetch_add(1, std::memory_order_release);
  }
  graph_capture(const graph_capture&) = delete;
  graph_capture& operator=(const graph_capture&) = delete;
  ~graph_capture() {
    if (!open_) return;
    cudaGraph_t g = nullptr;
    (void)cudaStreamEndCapture(stream_.handle(), &g);
    if (g) (void)cudaGraphDestroy(g);
    (void)cudaGetLastError();
    unregister();
  }

  graph end();

 private:
  void unregister() {
    auto& r = detail::captures();
    const std::lock_guard lock(r.mutex);
    r.sessions.erase(std::find(r.sessions.begin(), r.sessions.end(), session_.get()));
    detail::capture_count().fetch_sub(1, std::memory_order_release);
    open_ = false;
  }

  Stream stream_;
  std::unique_ptr<detail::capture_session> session_;
  bool open_ = true;
};

// An instantiated graph (cudaGraphExec_t) with the memory its kernels use.
class graph {
 public:
  graph(const graph&) = delete;
  graph& operator=(const graph&) = delete;
  graph(graph&& o) noexcept
      : graph_(std::exchange(o.graph_, nullptr)),
        exec_(std::exchange(o.exec_, nullptr)),
        kept_(std::move(o.kept_)),
        kept_bytes_(std::exchange(o.kept_bytes_, 0)),
        capture_stream_(o.capture_stream_),
        launched_elsewhere_(o.launched_elsewhere_) {}
  graph& operator=(graph&& o) noexcept {
    if (this != &o) {
      release();
      graph_ = std::exchange(o.graph_, nullptr);
      exec_ = std::exchange(o.exec_, nullptr);
      kept_ = std::move(o.kept_);
      kept_bytes_ = std::exchange(o.kept_bytes_, 0);
      capture_stream_ = o.capture_stream_;
      launched_elsewhere_ = o.launched_elsewhere_;
    }
    return *this;
  }
  ~graph() { release(); }

  // Runs the graph on `s` (cupy.cuda.Graph.launch).
  void launch(const Stream& s) const {
    check(cudaGraphLaunch(exec_, s.handle()), "cudaGraphLaunch");
    if (s.handle() != capture_stream_) launched_elsewhere_ = true;
  }
  void launch() const { launch(get_current_stream()); }
  // Uploads the graph to the device ahead of its first launch.
  void upload(const Stream& s) const {
    check(cudaGraphUpload(exec_, s.handle()), "cudaGraphUpload");
  }

  // Takes the kernels' arguments (pointers, sizes, scalars) of `other`, a
  // capture of the same sequence of operations, without instantiating
  // again: true on success; false, and this graph unchanged, where the
  // topology or the kinds of node differ.
  bool update(graph&& other) {
    cudaGraphExecUpdateResultInfo info{};
    const cudaError_t e = cudaGraphExecUpdate(exec_, other.graph_, &info);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      if (e == cudaErrorGraphExecUpdateFailure) return false;
      check(e, "cudaGraphExecUpdate");
    }
    // The memory other's kernels use is now this graph's to keep.
    kept_.insert(kept_.end(), other.kept_.begin(), other.kept_.end());
    kept_bytes_ += other.kept_bytes_;
    std::swap(graph_, other.graph_);
    return true;
  }

  // The nodes of the captured graph (kernels, copies, memsets...).
  std::size_t num_nodes() const {
    std::size_t n = 0;
    check(cudaGraphGetNodes(graph_, nullptr, &n), "cudaGraphGetNodes");
    return n;
  }
  // The allocations the graph keeps from the pool, and their bytes.
  std::size_t kept_allocations() const noexcept { return kept_.size(); }
  std::size_t kept_bytes() const noexcept { return kept_bytes_; }
  cudaGraph_t handle() const noexcept { return graph_; }
  cudaGraphExec_t exec_handle() const noexcept { return exec_; }

 private:
  friend class graph_capture;
  graph(cudaGraph_t g, std::vector<memory_ptr> kept, std::size_t bytes, cudaStream_t s)
      : graph_(g), kept_(std::move(kept)), kept_bytes_(bytes), capture_stream_(s) {
    const cudaError_t e = cudaGraphInstantiate(&exec_, graph_, 0);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      cudaGraphDestroy(graph_);
      graph_ = nullptr;
      check(e, "cudaGraphInstantiate");
    }
  }
  void release() noexcept {
    if (exec_) (void)cudaGraphExecDestroy(exec_);
    if (graph_) (void)cudaGraphDestroy(graph_);
    exec_ = nullptr;
    graph_ = nullptr;
    // The kept memory goes back to the pool in the capture stream's order:
    // launches on other streams are waited for first.
    if (launched_elsewhere_ && !kept_.empty()) (void)cudaDeviceSynchronize();
    kept_.clear();
    kept_bytes_ = 0;
  }

  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  std::vector<memory_ptr> kept_;
  std::size_t kept_bytes_ = 0;
  cudaStream_t capture_stream_ = nullptr;
  mutable bool launched_elsewhere_ = false;
};

inline graph graph_capture::end() {
  if (!open_) throw graph_error("cupp: this capture has already ended");
  cudaGraph_t g = nullptr;
  const cudaError_t e = cudaStreamEndCapture(stream_.handle(), &g);
  std::vector<memory_ptr> kept = std::move(session_->kept);
  const std::size_t bytes = session_->bytes;
  unregister();
  if (e != cudaSuccess || !g) {
    (void)cudaGetLastError();
    if (g) (void)cudaGraphDestroy(g);
    throw graph_error(std::string("cupp: the stream capture failed (") + cudaGetErrorString(e) +
                      "): an operation that synchronises or cannot be captured ran while "
                      "capturing (item(), to_vector(), a copy to pageable host memory, "
                      "a synchronize)");
  }
  return graph(g, std::move(kept), bytes, stream_.handle());
}

// Captures what `f` issues with `s` as the current stream, and returns the
// instantiated graph (the body of CuPy's begin_capture ... end_capture). An
// exception from f (the CUDA error of an operation that synchronises while
// capturing, say) ends the capture, discards it and propagates as a
// graph_error; nothing is kept.
template <class F>
graph capture(const Stream& s, F&& f, cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed) {
  graph_capture c(s, mode);
  {
    const stream_scope scope(s);
    try {
      f();
    } catch (const graph_error&) {
      throw;
    } catch (const std::exception& e) {
      throw graph_error(std::string("cupp: an operation could not be captured: ") + e.what());
    }
  }
  return c.end();
}

// True while `s` is capturing (cupy.cuda.Stream.is_capturing).
inline bool is_capturing(const Stream& s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  check(cudaStreamIsCapturing(s.handle(), &st), "cudaStreamIsCapturing");
  return st == cudaStreamCaptureStatusActive;
}

}  // namespace cupp::cuda
