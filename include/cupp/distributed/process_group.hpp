// cupyx.distributed for cupp: a process group of n ranks, one GPU each,
// bootstrapped through a TCP store that rank 0 serves (rank 0 makes NCCL's
// unique id and publishes it; the others read it), with CuPy's NCCLBackend
// collectives on cupp arrays and lazy expressions. Every collective is
// enqueued on the current stream of the group's device and returns without
// waiting for it (no host synchronisation per call); `synchronize()` and
// `barrier()` wait, with the group's timeout, and turn a peer's failure
// into an exception instead of a hang.
//
//   auto& pg = cupp::distributed::init_process_group(n, rank);  // 127.0.0.1:13333
//   // pg.device_id() (rank % devices) is now the current device
//   pg.all_reduce(x * 2, y);                                     // y = sum over ranks
//   pg.barrier();
//
// Inputs may be any expression of the group's device (evaluated once into a
// contiguous buffer where they are not one already); outputs are device
// arrays of the group's device (written through a buffer where they are not
// contiguous). With check_arguments on (or CUPP_DISTRIBUTED_CHECKS=1), each
// call first compares its arguments across ranks through the store, so that
// disagreeing ranks get a value_error instead of a hang (one store round
// trip per call: meant for debugging).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <span>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/cuda/device.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/distributed/process_group_bootstrap.hpp>
#include <cupp/distributed/store.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/expression.hpp>
#include <cupp/nccl.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/space_check.hpp>

namespace cupp::distributed {

using cuda::reduce_op;

struct process_group_options {
  // How long a bootstrap step, synchronize() or barrier() may wait.
  std::chrono::milliseconds timeout{std::chrono::seconds(300)};
  // The GPU of this rank: -1 takes rank % (number of visible devices).
  int device = -1;
  // Compare every call's arguments across ranks first (default: the
  // environment variable CUPP_DISTRIBUTED_CHECKS=1).
  std::optional<bool> check_arguments;
  // NCCL's blocking mode for the group's communicator (see
  // cuda::nccl_options::blocking). The bootstrap waits, with the timeout,
  // until every rank has arrived before NCCL's initialisation starts, so
  // only a rank that dies inside that initialisation can hang the others.
  bool nccl_blocking = true;
};

namespace detail {

inline bool checks_from_environment() {
  const char* v = std::getenv("CUPP_DISTRIBUTED_CHECKS");
  return v && std::string_view(v) != "0" && std::string_view(v) != "";
}

inline std::string shape_text(const shape_t& s) {
  return cupp::detail::np_shape(s);
}

}  // namespace detail

class process_group {
 public:
  // Bootstrapped through a TCP store that rank 0 serves on host:port.
  process_group(int n_ranks, int rank, std::string host, int port,
                const process_group_options& options = {})
      : n_(n_ranks), rank_(rank), timeout_(options.timeout) {
    check_ranks();
    store_ = std::make_unique<tcp_store>(std::move(host), port, rank == 0, timeout_);
    tcp_store* store = store_.get();
    process_group_bootstrap b;
    b.share_from_rank_0 = [store, rank](std::span<const std::byte> mine) {
      const std::string key = "cupp/process_group/nccl_unique_id";
      if (rank == 0) {
        store->set(key, mine);
        return std::vector<std::byte>(mine.begin(), mine.end());
      }
      return store->get(key);
    };
    std::uint64_t* sequence = &sequence_;
    const int n = n_ranks;
    b.gather_texts = [store, rank, n, sequence](const std::string& mine) {
      const std::string prefix = "cupp/process_group/check/" + std::to_string((*sequence)++) + "/";
      store->set(prefix + std::to_string(rank), mine);
      std::vector<std::string> all(static_cast<std::size_t>(n));
      for (int r = 0; r < n; ++r)
        all[static_cast<std::size_t>(r)] =
            r == rank ? mine : store->get_string(prefix + std::to_string(r));
      return all;
    };
    start(std::move(b), options);
  }

  // Bootstrapped by the caller's own means (MPI, a job scheduler ...).
  process_group(int n_ranks, int rank, process_group_bootstrap bootstrap,
                const process_group_options& options = {})
      : n_(n_ranks), rank_(rank), timeout_(options.timeout) {
    check_ranks();
    start(std::move(bootstrap), options);
  }

  process_group(const process_group&) = delete;
  process_group& operator=(const process_group&) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return n_; }
  int device_id() const noexcept { return device_; }
  std::chrono::milliseconds timeout() const noexcept { return timeout_; }
  bool checks_arguments() const noexcept { return check_; }
  // The group's TCP store (a group bootstrapped otherwise has none).
  tcp_store& store() {
    if (!store_) throw std::runtime_error("cupp::distributed: this process group has no TCP store");
    return *store_;
  }
  cuda::nccl_communicator& communicator() { return *comm_; }

  // out = op over ranks of in (every rank).
  template <Expression X, class T>
  void all_reduce(const X& in, const ndarray<T>& out, reduce_op op = reduce_op::sum) {
    CUPP_SAME_SPACE(X, ndarray<T>);
    agree("all_reduce", in.shape(), out, -1, op);
    require_shape(out, in.shape(), "all_reduce", "out");
    const auto src = contiguous<T>(in);
    through(out, [&](const ndarray<T>& dst) { comm_->all_reduce(src, dst, op); });
  }
  template <Expression X>
  auto all_reduce(const X& in, reduce_op op = reduce_op::sum) {
    using T = typename std::remove_cvref_t<decltype(as_operand(in))>::value_type;
    cuda::device_scope on(device_);
    ndarray<T> out(in.shape());
    all_reduce(in, out, op);
    return out;
  }

  // out (on root) = op over ranks of in; other ranks' out is not written.
  template <Expression X, class T>
  void reduce(const X& in, const ndarray<T>& out, int root, reduce_op op = reduce_op::sum) {
    CUPP_SAME_SPACE(X, ndarray<T>);
    check_root(root);
    agree("reduce", in.shape(), out, root, op);
    if (rank_ == root) require_shape(out, in.shape(), "reduce", "out");
    const auto src = contiguous<T>(in);
    if (rank_ == root)
      through(out, [&](const ndarray<T>& dst) { comm_->reduce(src, dst, root, op); });
    else
      comm_->reduce(src, src, root, op);
  }

  // in_out on every rank = in_out of root.
  template <class T>
  void broadcast(const ndarray<T>& in_out, int root) {
    check_root(root);
    agree("broadcast", in_out.shape(), in_out, root, reduce_op::sum);
    on_device(in_out, "in_out");
    through(
        in_out, [&](const ndarray<T>& buf) { comm_->broadcast(buf, buf, root); },
        /*read_first=*/true);
  }

  // Rank r's out = op over ranks of in's r-th block (in.size() == size() * out.size()).
  template <Expression X, class T>
  void reduce_scatter(const X& in, const ndarray<T>& out, reduce_op op = reduce_op::sum) {
    CUPP_SAME_SPACE(X, ndarray<T>);
    agree("reduce_scatter", in.shape(), out, -1, op);
    on_device(out, "out");
    if (cupp::detail::size_of(in.shape()) != out.size() * n_)
      throw value_error("reduce_scatter: in has " +
                        std::to_string(cupp::detail::size_of(in.shape())) +
                        " elements, not size() * out.size() = " + std::to_string(out.size() * n_));
    const auto src = contiguous<T>(in);
    through(out, [&](const ndarray<T>& dst) { comm_->reduce_scatter(src, dst, op); });
  }

  // out = the ranks' in one after the other (out.size() == size() * in.size()).
  template <Expression X, class T>
  void all_gather(const X& in, const ndarray<T>& out) {
    CUPP_SAME_SPACE(X, ndarray<T>);
    agree("all_gather", in.shape(), out, -1, reduce_op::sum);
    on_device(out, "out");
    if (out.size() != cupp::detail::size_of(in.shape()) * n_)
      throw value_error("all_gather: out has " + std::to_string(out.size()) +
                        " elements, not size() * in.size() = " +
                        std::to_string(cupp::detail::size_of(in.shape()) * n_));
    const auto src = contiguous<T>(in);
    through(out, [&](const ndarray<T>& dst) { comm_->all_gather(src, dst); });
  }

  template <Expression X>
  void send(const X& in, int peer) {
    check_peer(peer);
    using T = typename std::remove_cvref_t<decltype(as_operand(in))>::value_type;
    const auto src = contiguous<T>(in);
    comm_->send(src, peer);
  }

  template <class T>
  void recv(const ndarray<T>& out, int peer) {
    check_peer(peer);
    on_device(out, "out");
    through(out, [&](const ndarray<T>& dst) { comm_->recv(dst, peer); });
  }

  // Sends in to peer and receives out from it, in one group (no deadlock
  // when both sides call it).
  template <Expression X, class T>
  void send_recv(const X& in, const ndarray<T>& out, int peer) {
    CUPP_SAME_SPACE(X, ndarray<T>);
    check_peer(peer);
    on_device(out, "out");
    using U = typename std::remove_cvref_t<decltype(as_operand(in))>::value_type;
    const auto src = contiguous<U>(in);
    through(out, [&](const ndarray<T>& dst) {
      cuda::nccl_group group;
      comm_->send(src, peer);
      comm_->recv(dst, peer);
      group.end();
    });
  }

  // Rank r's out = in[r] of root (in has shape (size(), *out.shape) on root;
  // other ranks' in is not read).
  template <Expression X, class T>
  void scatter(const X& in, const ndarray<T>& out, int root) {
    CUPP_SAME_SPACE(X, ndarray<T>);
    check_root(root);
    agree("scatter", out.shape(), out, root, reduce_op::sum);
    on_device(out, "out");
    if (rank_ == root) require_shape(in.shape(), stacked(out.shape()), "scatter", "in");
    through(out, [&](const ndarray<T>& dst) {
      std::optional<ndarray<T>> src;
      if (rank_ == root) src = contiguous<T>(in);
      cuda::nccl_group group;
      if (rank_ == root)
        for (int r = 0; r < n_; ++r) {
          const ndarray<T> part = row(*src, r);
          if (r == root)
            copy_on_stream(part, dst);
          else
            comm_->send(part, r);
        }
      if (rank_ != root) comm_->recv(dst, root);
      group.end();
    });
  }

  // out[r] on root = rank r's in (out has shape (size(), *in.shape) on root).
  template <Expression X, class T>
  void gather(const X& in, const ndarray<T>& out, int root) {
    CUPP_SAME_SPACE(X, ndarray<T>);
    check_root(root);
    agree("gather", in.shape(), out, root, reduce_op::sum);
    const auto src = contiguous<T>(in);
    if (rank_ != root) {
      comm_->send(src, root);
      return;
    }
    require_shape(out, stacked(in.shape()), "gather", "out");
    through(out, [&](const ndarray<T>& dst) {
      cuda::nccl_group group;
      for (int r = 0; r < n_; ++r) {
        const ndarray<T> part = row(dst, r);
        if (r == root)
          copy_on_stream(src, part);
        else
          comm_->recv(part, r);
      }
      group.end();
    });
  }

  // out[r] = rank r's in[rank()] (both of shape (size(), ...)).
  template <Expression X, class T>
  void all_to_all(const X& in, const ndarray<T>& out) {
    CUPP_SAME_SPACE(X, ndarray<T>);
    agree("all_to_all", in.shape(), out, -1, reduce_op::sum);
    on_device(out, "out");
    if (in.shape().empty() || in.shape()[0] != n_)
      throw value_error("all_to_all: in's first axis must have size() = " + std::to_string(n_) +
                        " elements (shape " + detail::shape_text(in.shape()) + ")");
    require_shape(out, in.shape(), "all_to_all", "out");
    const auto src = contiguous<T>(in);
    through(out, [&](const ndarray<T>& dst) {
      cuda::nccl_group group;
      for (int r = 0; r < n_; ++r) {
        if (r == rank_) {
          copy_on_stream(row(src, r), row(dst, r));
          continue;
        }
        comm_->send(row(src, r), r);
        comm_->recv(row(dst, r), r);
      }
      group.end();
    });
  }

  // Waits for the group's work on the current stream of its device, with
  // the group's timeout; a failed peer becomes an exception.
  void synchronize() {
    comm_->synchronize(cuda::detail::current_stream_impl(device_)->handle, timeout_);
  }

  // Returns once every rank has called it (one all_reduce of one element,
  // then synchronize()).
  void barrier() {
    cuda::device_scope on(device_);
    if (!barrier_token_) barrier_token_.emplace(shape_t{1});
    comm_->all_reduce(*barrier_token_, *barrier_token_, reduce_op::sum);
    synchronize();
  }

 private:
  template <class A>
  void on_device(const A& a, const char* name) const {
    if (a.device_id() != device_)
      throw value_error(std::string(name) + " is on device " + std::to_string(a.device_id()) +
                        ", not on the process group's device " + std::to_string(device_));
  }

  void check_root(int root) const {
    if (root < 0 || root >= n_)
      throw value_error("root " + std::to_string(root) + " is out of range for " +
                        std::to_string(n_) + " ranks");
  }
  void check_peer(int peer) const {
    if (peer < 0 || peer >= n_ || peer == rank_)
      throw value_error("peer " + std::to_string(peer) + " is not another rank of " +
                        std::to_string(n_) + " (this is rank " + std::to_string(rank_) + ")");
  }

  shape_t stacked(const shape_t& s) const {
    shape_t r{static_cast<index_t>(n_)};
    for (int i = 0; i < s.size(); ++i) r.push_back(s[i]);
    return r;
  }

  template <class A>
  void require_shape(const A& a, const shape_t& want, const char* call, const char* name) const {
    on_device(a, name);
    require_shape(a.shape(), want, call, name);
  }
  void require_shape(const shape_t& got, const shape_t& want, const char* call,
                     const char* name) const {
    if (!(got == want))
      throw value_error(std::string(call) + ": " + name + " has shape " + detail::shape_text(got) +
                        ", expected " + detail::shape_text(want));
  }

  // An operand as a C-contiguous device array of T on the group's device:
  // itself when it already is one, else evaluated (and converted) once.
  template <class T, Expression X>
  ndarray<T> contiguous(const X& x) {
    if constexpr (std::is_same_v<std::remove_cvref_t<X>, ndarray<T>>) {
      if (x.device_id() != device_)
        throw value_error("in is on device " + std::to_string(x.device_id()) +
                          ", not on the process group's device " + std::to_string(device_));
      if (x.is_c_contiguous()) return x;
    }
    cuda::device_scope on(device_);
    ndarray<T> out(x.shape());
    if (out.size() > 0) copyto(out, x);
    return out;
  }

  // Runs `f` on out itself when it is C-contiguous, else on a contiguous
  // buffer copied back into out afterwards (and filled from it first when
  // the collective reads it, as broadcast does).
  template <class T, class F>
  void through(const ndarray<T>& out, F&& f, bool read_first = false) {
    on_device(out, "out");
    cuda::device_scope on(device_);
    if (out.is_c_contiguous()) {
      f(out);
      return;
    }
    ndarray<T> buf(out.shape());
    if (read_first && buf.size() > 0) copyto(buf, out);
    f(buf);
    if (buf.size() > 0) copyto(out, buf);
  }

  // Row r of a C-contiguous (n, ...) array, as a contiguous view.
  template <class T>
  static ndarray<T> row(const ndarray<T>& a, int r) {
    shape_t s;
    for (int i = 1; i < a.shape().size(); ++i) s.push_back(a.shape()[i]);
    const index_t n = cupp::detail::size_of(s);
    strides_t st = cupp::detail::contiguous_strides(s, static_cast<index_t>(sizeof(T)), order::C);
    return ndarray<T>(a.data() + static_cast<index_t>(r) * n, s, st, a.memory(), a.device_id(),
                      false);
  }

  template <class T>
  void copy_on_stream(const ndarray<T>& from, const ndarray<T>& to) {
    if (from.size() == 0) return;
    cuda::check(cudaMemcpyAsync(
                    to.data(), from.data(), static_cast<std::size_t>(from.size()) * sizeof(T),
                    cudaMemcpyDeviceToDevice, cuda::detail::current_stream_impl(device_)->handle),
                "cudaMemcpyAsync");
  }

  // With checks on: every rank publishes the call's signature under the
  // call's sequence number and reads every other rank's, so that all ranks
  // (not only the odd one out) raise the same error instead of entering a
  // collective that would never complete.
  template <class A>
  void agree(const char* call, const shape_t& in_shape, const A&, int root, reduce_op op) {
    if (!check_) return;
    using T = typename A::value_type;
    const std::string mine = std::string(call) + " of " + std::string(dtype_of<T>().name) + " " +
                             detail::shape_text(in_shape) +
                             (root >= 0 ? " to root " + std::to_string(root) : "") + " op " +
                             std::to_string(static_cast<int>(op));
    const std::vector<std::string> all = bootstrap_.gather_texts(mine);
    for (int r = 0; r < n_; ++r) {
      const std::string& theirs = all[static_cast<std::size_t>(r)];
      if (theirs != mine)
        throw value_error("process group ranks disagree: rank " + std::to_string(rank_) +
                          " called " + mine + ", rank " + std::to_string(r) + " called " + theirs);
    }
  }

  void check_ranks() const {
    if (n_ < 1) throw value_error("n_ranks must be at least 1 (got " + std::to_string(n_) + ")");
    if (rank_ < 0 || rank_ >= n_)
      throw value_error("rank " + std::to_string(rank_) + " is out of range for " +
                        std::to_string(n_) + " ranks");
  }

  void start(process_group_bootstrap b, const process_group_options& options) {
    bootstrap_ = std::move(b);
    check_ = options.check_arguments.value_or(detail::checks_from_environment());
    const int devices = cuda::runtime::getDeviceCount();
    if (devices < 1) throw std::runtime_error("cupp::distributed: no CUDA device is visible");
    device_ = options.device >= 0 ? options.device : rank_ % devices;
    if (device_ >= devices)
      throw value_error("device " + std::to_string(device_) + " is out of range (" +
                        std::to_string(devices) + " visible)");
    const auto made = rank_ == 0 ? cuda::nccl_unique_id::create() : cuda::nccl_unique_id{};
    const auto mine = made.bytes();
    const auto id = cuda::nccl_unique_id::from_bytes(
        bootstrap_.share_from_rank_0(std::span<const std::byte>(mine.data(), mine.size())));
    // The rank's device becomes the calling thread's current device, so
    // that arrays made after this land where the group's collectives run.
    cuda::runtime::setDevice(device_);
    // Every rank has the id once every rank has arrived here: after this a
    // blocking initialisation cannot wait for a rank that never came.
    (void)bootstrap_.gather_texts("ready");
    cuda::nccl_options nccl;
    nccl.timeout = timeout_;
    nccl.blocking = options.nccl_blocking;
    comm_.emplace(n_, id, rank_, nccl);
  }

  int n_;
  int rank_;
  int device_ = 0;
  std::chrono::milliseconds timeout_;
  bool check_ = false;
  std::uint64_t sequence_ = 0;
  std::unique_ptr<tcp_store> store_;
  process_group_bootstrap bootstrap_;
  std::optional<cuda::nccl_communicator> comm_;
  std::optional<ndarray<std::int32_t>> barrier_token_;
};

namespace detail {
inline std::unique_ptr<process_group>& default_group() {
  static std::unique_ptr<process_group> g;
  return g;
}
inline std::string host_from_environment() {
  const char* v = std::getenv("CUPP_DISTRIBUTED_HOST");
  return v && *v ? v : "127.0.0.1";
}
inline int port_from_environment() {
  const char* v = std::getenv("CUPP_DISTRIBUTED_PORT");
  return v && *v ? std::atoi(v) : 13333;
}
}  // namespace detail

// cupyx.distributed.init_process_group: this process's group, kept as the
// default one (destroy_process_group() ends it). Host and port default to
// CUPP_DISTRIBUTED_HOST / CUPP_DISTRIBUTED_PORT, else 127.0.0.1:13333.
inline process_group& init_process_group(int n_ranks, int rank, std::string host, int port,
                                         const process_group_options& options = {}) {
  auto& g = detail::default_group();
  if (g) throw std::runtime_error("cupp::distributed: the process group is already initialised");
  g = std::make_unique<process_group>(n_ranks, rank, std::move(host), port, options);
  return *g;
}
inline process_group& init_process_group(int n_ranks, int rank,
                                         const process_group_options& options = {}) {
  return init_process_group(n_ranks, rank, detail::host_from_environment(),
                            detail::port_from_environment(), options);
}

inline bool is_initialized() {
  return detail::default_group() != nullptr;
}

inline process_group& default_process_group() {
  auto& g = detail::default_group();
  if (!g) throw std::runtime_error("cupp::distributed: init_process_group has not been called");
  return *g;
}

inline void destroy_process_group() {
  detail::default_group().reset();
}

}  // namespace cupp::distributed
