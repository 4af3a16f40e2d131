// cupy.cuda.nccl for cupp: NCCL communicators (one process per GPU from a
// unique id, or one process driving several GPUs with init_all), the
// collectives on raw pointers as CuPy takes them and on cupp device arrays,
// grouped calls, every NCCL status as a cupp::cuda::nccl_error, and waits
// that turn a peer's failure into an exception within a timeout instead of
// a hang.
//
// Only programs that include this header need NCCL (target cupp::nccl);
// <cupp/cupp.hpp> does not include it.
//
// NVLink multicast (NVLS) stays off: before NCCL's first call, an unset
// NCCL_NVLS_ENABLE is set to 0 (a value the user gave is left alone).
//
// NCCL's vocabulary (nccl_error, nccl_timeout_error, check, reduce_op,
// nccl_options) is in <cupp/cuda/nccl_types.hpp>; the machinery (NCCL's
// environment, dtype rules, communicator state and waits) in
// detail/nccl/. The namespace is cupp::cuda, as CuPy's cupy.cuda.nccl.
#pragma once

#include <nccl.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/cuda/nccl_types.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/nccl/dtypes.hpp>
#include <cupp/detail/nccl/environment.hpp>
#include <cupp/detail/nccl/state.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/ndarray.hpp>

namespace cupp::cuda {

// cupy.cuda.nccl.get_version(): the version of the NCCL library loaded, as
// NCCL_VERSION_CODE encodes it (22809 for 2.28.9).
inline int nccl_version() {
  int v = 0;
  check(ncclGetVersion(&v), "ncclGetVersion");
  return v;
}
// cupy.cuda.nccl.get_build_version(): the version of nccl.h compiled against.
constexpr int nccl_build_version() noexcept {
  return NCCL_VERSION_CODE;
}

// cupy.cuda.nccl.get_unique_id(): the id every rank of a new communicator
// is given; bytes() and from_bytes() carry it through a store or MPI.
struct nccl_unique_id {
  static nccl_unique_id create() {
    detail::nccl_environment();
    nccl_unique_id u;
    check(ncclGetUniqueId(&u.id), "ncclGetUniqueId");
    return u;
  }
  std::array<std::byte, NCCL_UNIQUE_ID_BYTES> bytes() const noexcept {
    std::array<std::byte, NCCL_UNIQUE_ID_BYTES> b{};
    std::memcpy(b.data(), id.internal, b.size());
    return b;
  }
  static nccl_unique_id from_bytes(std::span<const std::byte> bytes) {
    if (bytes.size() != NCCL_UNIQUE_ID_BYTES)
      throw value_error("an NCCL unique id has " + std::to_string(NCCL_UNIQUE_ID_BYTES) +
                        " bytes, got " + std::to_string(bytes.size()));
    nccl_unique_id u;
    std::memcpy(u.id.internal, bytes.data(), bytes.size());
    return u;
  }
  friend bool operator==(const nccl_unique_id& a, const nccl_unique_id& b) noexcept {
    return std::memcmp(a.id.internal, b.id.internal, NCCL_UNIQUE_ID_BYTES) == 0;
  }

  ncclUniqueId id{};
};

// ncclGroupStart / ncclGroupEnd (cupy.cuda.nccl.groupStart/groupEnd): the
// collectives between them run as one NCCL operation (needed for send and
// recv pairs, and for several communicators driven by one thread). Groups
// nest; the outermost end launches.
inline void group_start() {
  detail::nccl_environment();
  check(ncclGroupStart(), "ncclGroupStart");
  ++detail::nccl_thread_group().depth;
}

inline void group_end() {
  auto& g = detail::nccl_thread_group();
  const ncclResult_t r = ncclGroupEnd();
  if (g.depth > 0) --g.depth;
  std::vector<std::shared_ptr<detail::nccl_comm_state>> members;
  if (g.depth == 0) members.swap(g.members);
  if (r != ncclInProgress) return check(r, "ncclGroupEnd");
  // Every member settles (or is aborted) before the first failure is
  // reported, so that none is left in progress.
  std::exception_ptr first;
  for (const auto& m : members) {
    if (!m->handle) continue;
    const ncclResult_t s = detail::nccl_settle(m->handle, m->options.timeout);
    if (s == ncclSuccess) continue;
    try {
      m->fail(s, "ncclGroupEnd");
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

// A group for a scope: starts it, and ends it in the destructor (where an
// error cannot be reported: call end() to see it).
class nccl_group {
 public:
  nccl_group() { group_start(); }
  nccl_group(const nccl_group&) = delete;
  nccl_group& operator=(const nccl_group&) = delete;
  ~nccl_group() {
    if (open_) {
      try {
        group_end();
      } catch (...) {
      }
    }
  }
  void end() {
    if (!open_) return;
    open_ = false;
    group_end();
  }

 private:
  bool open_ = true;
};

// cupy.cuda.nccl.NcclCommunicator: one rank of an NCCL communicator, on one
// device. Move-only; the destructor finalizes and destroys the
// communicator (aborting it when it is in error or does not finish within
// the timeout). Not thread-safe: one thread at a time per communicator.
//
// The raw collectives take device pointers, counts in elements of NCCL's
// datatype, NCCL's op and a stream (when none is given, the current stream
// of the communicator's device). The typed ones take C-contiguous device
// arrays on the communicator's device, count from the arrays (checked
// before anything is enqueued), carry every cupp dtype (see
// detail::nccl_reduction_for for the reductions) and run on the current
// stream of that device. None waits for the collective to complete:
// synchronize() does, with a timeout.
class nccl_communicator {
 public:
  // Rank `rank` of `n_ranks`, on the current device; every rank calls this
  // with the same id. Waits for the others up to options.timeout.
  nccl_communicator(int n_ranks, const nccl_unique_id& id, int rank,
                    const nccl_options& options = {}) {
    if (n_ranks < 1)
      throw value_error("n_ranks must be at least 1 (got " + std::to_string(n_ranks) + ")");
    if (rank < 0 || rank >= n_ranks)
      throw value_error("rank " + std::to_string(rank) + " is out of range for " +
                        std::to_string(n_ranks) + " ranks");
    detail::nccl_environment();
    auto s = std::make_shared<detail::nccl_comm_state>();
    s->options = options;
    s->device = runtime::getDevice();
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = options.blocking ? 1 : 0;
    ncclResult_t r = ncclCommInitRankConfig(&s->handle, n_ranks, id.id, rank, &config);
    if (s->handle && (r == ncclSuccess || r == ncclInProgress) && !options.blocking)
      r = detail::nccl_settle(s->handle, options.timeout);
    if (r != ncclSuccess) {
      if (s->handle) s->fail(r, "ncclCommInitRankConfig");
      throw nccl_error(r, "ncclCommInitRankConfig");
    }
    s->rank = rank;
    s->size = n_ranks;
    state_ = std::move(s);
  }

  // ncclCommInitAll (NcclCommunicator.initAll): one communicator per
  // device, rank i on devices[i], for one process driving them all (from
  // one thread through groups, or one thread per device).
  static std::vector<nccl_communicator> init_all(std::span<const int> devices) {
    if (devices.empty()) throw value_error("init_all: no devices given");
    for (std::size_t i = 0; i < devices.size(); ++i) {
      detail::check_device_id(devices[i]);
      for (std::size_t j = 0; j < i; ++j)
        if (devices[j] == devices[i])
          throw value_error("init_all: device " + std::to_string(devices[i]) +
                            " is given twice (one rank per device)");
    }
    detail::nccl_environment();
    std::vector<ncclComm_t> handles(devices.size(), nullptr);
    check(ncclCommInitAll(handles.data(), static_cast<int>(devices.size()), devices.data()),
          "ncclCommInitAll");
    std::vector<nccl_communicator> comms;
    try {
      comms.reserve(devices.size());
      for (std::size_t i = 0; i < devices.size(); ++i) {
        auto s = std::make_shared<detail::nccl_comm_state>();
        s->options.blocking = true;  // what ncclCommInitAll makes
        s->device = devices[i];
        s->rank = static_cast<int>(i);
        s->size = static_cast<int>(devices.size());
        s->handle = std::exchange(handles[i], nullptr);
        comms.push_back(nccl_communicator(std::move(s)));
      }
    } catch (...) {
      for (ncclComm_t h : handles)
        if (h) (void)ncclCommAbort(h);
      throw;
    }
    return comms;
  }
  static std::vector<nccl_communicator> init_all(std::initializer_list<int> devices) {
    return init_all(std::span<const int>(devices.begin(), devices.size()));
  }

  nccl_communicator(nccl_communicator&&) noexcept = default;
  nccl_communicator& operator=(nccl_communicator&&) noexcept = default;
  ~nccl_communicator() = default;

  int device_id() const { return live("device_id").device; }
  int rank_id() const { return live("rank_id").rank; }
  int size() const { return live("size").size; }
  ncclComm_t get() const { return live("get").handle; }
  const nccl_options& options() const { return live("options").options; }

  // --- raw, as CuPy ---------------------------------------------------------

  void all_reduce(const void* send, void* recv, std::size_t count, ncclDataType_t type,
                  ncclRedOp_t op, std::optional<cudaStream_t> stream = {}) {
    auto& s = live("all_reduce");
    enqueued(s, ncclAllReduce(send, recv, count, type, op, s.handle, on(s, stream)),
             "ncclAllReduce");
  }
  void reduce(const void* send, void* recv, std::size_t count, ncclDataType_t type, ncclRedOp_t op,
              int root, std::optional<cudaStream_t> stream = {}) {
    auto& s = live("reduce");
    enqueued(s, ncclReduce(send, recv, count, type, op, root, s.handle, on(s, stream)),
             "ncclReduce");
  }
  void broadcast(const void* send, void* recv, std::size_t count, ncclDataType_t type, int root,
                 std::optional<cudaStream_t> stream = {}) {
    auto& s = live("broadcast");
    enqueued(s, ncclBroadcast(send, recv, count, type, root, s.handle, on(s, stream)),
             "ncclBroadcast");
  }
  // In place (NcclCommunicator.bcast).
  void bcast(void* buffer, std::size_t count, ncclDataType_t type, int root,
             std::optional<cudaStream_t> stream = {}) {
    broadcast(buffer, buffer, count, type, root, stream);
  }
  void reduce_scatter(const void* send, void* recv, std::size_t recv_count, ncclDataType_t type,
                      ncclRedOp_t op, std::optional<cudaStream_t> stream = {}) {
    auto& s = live("reduce_scatter");
    enqueued(s, ncclReduceScatter(send, recv, recv_count, type, op, s.handle, on(s, stream)),
             "ncclReduceScatter");
  }
  void all_gather(const void* send, void* recv, std::size_t send_count, ncclDataType_t type,
                  std::optional<cudaStream_t> stream = {}) {
    auto& s = live("all_gather");
    enqueued(s, ncclAllGather(send, recv, send_count, type, s.handle, on(s, stream)),
             "ncclAllGather");
  }
  void send(const void* send, std::size_t count, ncclDataType_t type, int peer,
            std::optional<cudaStream_t> stream = {}) {
    auto& s = live("send");
    enqueued(s, ncclSend(send, count, type, peer, s.handle, on(s, stream)), "ncclSend");
  }
  void recv(void* recv, std::size_t count, ncclDataType_t type, int peer,
            std::optional<cudaStream_t> stream = {}) {
    auto& s = live("recv");
    enqueued(s, ncclRecv(recv, count, type, peer, s.handle, on(s, stream)), "ncclRecv");
  }

  // --- typed, on device arrays ----------------------------------------------

  // recv = op over the ranks of send (send and recv may be the same array).
  template <class T>
  void all_reduce(const ndarray<T>& send, const ndarray<T>& recv, reduce_op op = reduce_op::sum) {
    reduction(collective::all_reduce, "all_reduce", buffer(send), buffer(recv), op, -1);
  }
  // recv on root = op over the ranks of send; recv is not read or written
  // on the other ranks.
  template <class T>
  void reduce(const ndarray<T>& send, const ndarray<T>& recv, int root,
              reduce_op op = reduce_op::sum) {
    reduction(collective::reduce, "reduce", buffer(send), buffer(recv), op, root);
  }
  // recv on every rank = send of root (send is read on root only); in place
  // when send and recv are the same array.
  template <class T>
  void broadcast(const ndarray<T>& send, const ndarray<T>& recv, int root) {
    movement(collective::broadcast, "broadcast", buffer(send), buffer(recv), root);
  }
  template <class T>
  void broadcast(const ndarray<T>& data, int root) {
    broadcast(data, data, root);
  }
  // Rank r's recv = op over the ranks of send's r-th block of recv.size()
  // elements (send.size() == size() * recv.size()).
  template <class T>
  void reduce_scatter(const ndarray<T>& send, const ndarray<T>& recv,
                      reduce_op op = reduce_op::sum) {
    reduction(collective::reduce_scatter, "reduce_scatter", buffer(send), buffer(recv), op, -1);
  }
  // recv = every rank's send, in rank order (recv.size() == size() * send.size()).
  template <class T>
  void all_gather(const ndarray<T>& send, const ndarray<T>& recv) {
    movement(collective::all_gather, "all_gather", buffer(send), buffer(recv), -1);
  }
  // Point to point: the peer's matching recv (send) must have as many
  // elements; put both directions of an exchange in one group.
  template <class T>
  void send(const ndarray<T>& data, int peer) {
    point_to_point(false, buffer(data), peer);
  }
  template <class T>
  void recv(const ndarray<T>& data, int peer) {
    point_to_point(true, buffer(data), peer);
  }

  // --- errors and completion ------------------------------------------------

  // ncclCommAbort: ends the communicator now (the object then holds none);
  // peers waiting on this rank get an error. Nothing to do when it holds
  // none.
  void abort() {
    if (!state_ || !state_->handle) return;
    const ncclComm_t c = std::exchange(state_->handle, nullptr);
    check(ncclCommAbort(c), "ncclCommAbort");
  }
  // NcclCommunicator.destroy: finalizes and destroys now (aborting instead,
  // and throwing, when the communicator is in error or its work does not
  // finish within the timeout).
  void destroy() {
    if (!state_ || !state_->handle) return;
    const ncclResult_t r = state_->release();
    if (r == ncclInProgress)
      throw nccl_timeout_error(
          detail::nccl_timeout_text("destroying the communicator", state_->options.timeout));
    if (r != ncclSuccess) throw nccl_error(r, "destroying the communicator; it was aborted");
  }

  // ncclCommGetAsyncError: throws the error NCCL recorded for work already
  // enqueued (a peer that failed, a network error). The communicator stays
  // as it is: abort() or destroy it.
  void check_async_error() {
    auto& s = live("check_async_error");
    ncclResult_t state = ncclSuccess;
    check(ncclCommGetAsyncError(s.handle, &state), "ncclCommGetAsyncError");
    if (state != ncclSuccess && state != ncclInProgress)
      throw nccl_error(state, "ncclCommGetAsyncError", s.handle);
  }

  // Waits until the work enqueued on `stream` is done, polling NCCL's
  // asynchronous errors meanwhile. On an error, or when `timeout` passes
  // first, aborts the communicator (so that its peers fail too) and throws:
  // nccl_error, cuda_error for a failed stream, nccl_timeout_error.
  void synchronize(cudaStream_t stream, std::chrono::milliseconds timeout) {
    auto& s = live("synchronize");
    device_scope on_device(s.device);
    for (detail::nccl_poll poll(timeout);; poll.pause()) {
      ncclResult_t state = ncclSuccess;
      const ncclResult_t asked = ncclCommGetAsyncError(s.handle, &state);
      if (asked != ncclSuccess) state = asked;
      if (state != ncclSuccess && state != ncclInProgress) s.fail(state, "synchronize");
      const cudaError_t e = cudaStreamQuery(stream);
      if (e == cudaSuccess) return;
      if (e != cudaErrorNotReady) {
        (void)cudaGetLastError();
        cuda_error error(e,
                         "cudaStreamQuery in nccl_communicator::synchronize; the "
                         "communicator was aborted");
        s.abort_quietly();
        throw error;
      }
      if (poll.expired()) {
        nccl_timeout_error error(detail::nccl_timeout_text("the work on the stream", timeout));
        s.abort_quietly();
        throw error;
      }
    }
  }
  // The current stream of the communicator's device, with its timeout.
  void synchronize() {
    auto& s = live("synchronize");
    synchronize(detail::current_stream_impl(s.device)->handle, s.options.timeout);
  }

 private:
  explicit nccl_communicator(std::shared_ptr<detail::nccl_comm_state> s) : state_(std::move(s)) {}

  detail::nccl_comm_state& live(const char* call) const {
    if (!state_)
      throw nccl_error::usage(std::string(call) + " on a communicator that was moved from");
    if (!state_->handle)
      throw nccl_error::usage(std::string(call) +
                              " on a communicator that was aborted or destroyed");
    return *state_;
  }

  static cudaStream_t on(const detail::nccl_comm_state& s, std::optional<cudaStream_t> stream) {
    return stream ? *stream : detail::current_stream_impl(s.device)->handle;
  }

  // A call's status: inside a group the communicator joins the group's wait;
  // alone, an enqueue NCCL reports in progress is waited for here (NCCL
  // forbids the next call on the communicator before it settles).
  void enqueued(detail::nccl_comm_state& s, ncclResult_t r, const char* what) {
    auto& g = detail::nccl_thread_group();
    if (g.depth > 0 && (r == ncclSuccess || r == ncclInProgress)) {
      bool known = false;
      for (const auto& m : g.members) known = known || m.get() == &s;
      if (!known) g.members.push_back(state_);
      return;
    }
    if (r == ncclInProgress) {
      r = detail::nccl_settle(s.handle, s.options.timeout);
      if (r != ncclSuccess) s.fail(r, what);
      return;
    }
    if (r != ncclSuccess) throw nccl_error(r, what, s.handle);
  }

  template <class T>
  static detail::nccl_buffer buffer(const ndarray<T>& a) {
    return {static_cast<void*>(a.data()),
            static_cast<std::size_t>(a.size()),
            sizeof(T),
            a.device_id(),
            a.is_c_contiguous(),
            a.flags().writeable,
            dtype_of<T>()};
  }

  void usable(const detail::nccl_comm_state& s, const detail::nccl_buffer& b, const char* call,
              const char* name, bool written) const {
    if (b.device != s.device)
      throw value_error(std::string(call) + ": " + name + " is on device " +
                        std::to_string(b.device) + ", not on the communicator's device " +
                        std::to_string(s.device));
    if (!b.contiguous)
      throw value_error(std::string(call) + ": " + name +
                        " must be C-contiguous (make it so with cupp::ascontiguousarray)");
    if (written && !b.writeable)
      throw value_error(std::string(call) + ": " + name + " is read-only");
  }

  static void sizes(const char* call, const char* rule, std::size_t got, std::size_t want) {
    if (got != want)
      throw value_error(std::string(call) + ": " + rule + " (expected " + std::to_string(want) +
                        " elements, got " + std::to_string(got) + ")");
  }

  void root_in_range(const detail::nccl_comm_state& s, const char* call, int root,
                     const char* what = "root") const {
    if (root < 0 || root >= s.size)
      throw value_error(std::string(call) + ": " + what + " " + std::to_string(root) +
                        " is out of range for " + std::to_string(s.size) + " ranks");
  }

  enum class collective { all_reduce, reduce, reduce_scatter, broadcast, all_gather };

  void reduction(collective kind, const char* call, const detail::nccl_buffer& send,
                 const detail::nccl_buffer& recv, reduce_op op, int root) {
    auto& s = live(call);
    const detail::nccl_reduction r = detail::nccl_reduction_for(send.type, op, call);
    if (kind == collective::reduce) root_in_range(s, call, root);
    const bool writes_recv = kind != collective::reduce || s.rank == root;
    usable(s, send, call, "send", false);
    if (writes_recv) usable(s, recv, call, "recv", true);
    const bool scatter = kind == collective::reduce_scatter;
    if (scatter)
      sizes(call, "send must have size() times as many elements as recv", send.size,
            recv.size * static_cast<std::size_t>(s.size));
    else if (writes_recv)
      sizes(call, "recv must have as many elements as send", recv.size, send.size);
    const std::size_t count = (scatter ? recv.size : send.size) * r.per_element;
    // Every rank's count is the same, so every rank skips alike.
    if (count == 0) return;
    if (scatter)
      reduce_scatter(send.data, recv.data, count, r.type, r.op);
    else if (kind == collective::reduce)
      reduce(send.data, recv.data, count, r.type, r.op, root);
    else
      all_reduce(send.data, recv.data, count, r.type, r.op);
  }

  // Data that only moves travels as bytes, whatever its dtype (NCCL itself
  // moves bytes for these: no cost).
  void movement(collective kind, const char* call, const detail::nccl_buffer& send,
                const detail::nccl_buffer& recv, int root) {
    auto& s = live(call);
    const bool gather = kind == collective::all_gather;
    if (!gather) root_in_range(s, call, root);
    if (gather || s.rank == root) usable(s, send, call, "send", false);
    usable(s, recv, call, "recv", true);
    if (gather)
      sizes(call, "recv must have size() times as many elements as send", recv.size,
            send.size * static_cast<std::size_t>(s.size));
    else
      sizes(call, "recv must have as many elements as send", recv.size, send.size);
    const std::size_t bytes = send.size * send.itemsize;
    if (bytes == 0) return;
    if (gather)
      all_gather(send.data, recv.data, bytes, ncclUint8);
    else
      broadcast(send.data, recv.data, bytes, ncclUint8, root);
  }

  void point_to_point(bool receiving, const detail::nccl_buffer& data, int peer) {
    const char* call = receiving ? "recv" : "send";
    auto& s = live(call);
    root_in_range(s, call, peer, "peer");
    usable(s, data, call, "data", receiving);
    const std::size_t bytes = data.size * data.itemsize;
    if (bytes == 0) return;
    if (receiving)
      recv(data.data, bytes, ncclUint8, peer);
    else
      send(data.data, bytes, ncclUint8, peer);
  }

  std::shared_ptr<detail::nccl_comm_state> state_;
};

}  // namespace cupp::cuda
