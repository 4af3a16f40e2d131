// What an NCCL communicator owns and how cupp waits for NCCL: polling with
// a timeout, aborting instead of hanging, the thread's open group
// (nccl_options is vocabulary: <cupp/cuda/nccl_types.hpp>). Part of
// <cupp/nccl.hpp>.
#pragma once

#include <nccl.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <cupp/cuda/nccl_types.hpp>

namespace cupp::cuda {

namespace detail {

// Waits that poll: yielding for the first millisecond (a collective on
// fast links ends within microseconds), then sleeping, so that a long
// wait does not hold a core.
class nccl_poll {
  using clock = std::chrono::steady_clock;

 public:
  explicit nccl_poll(std::chrono::milliseconds timeout) : start_(clock::now()) {
    deadline_ =
        timeout >= std::chrono::hours(24 * 365) ? clock::time_point::max() : start_ + timeout;
  }
  bool expired() const { return clock::now() >= deadline_; }
  void pause() const {
    const auto waited = clock::now() - start_;
    if (waited < std::chrono::milliseconds(1))
      std::this_thread::yield();
    else if (waited < std::chrono::milliseconds(100))
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    else
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

 private:
  clock::time_point start_, deadline_;
};

// The state a non-blocking communicator settles in: ncclSuccess, an error,
// or ncclInProgress when the timeout passed first.
inline ncclResult_t nccl_settle(ncclComm_t comm, std::chrono::milliseconds timeout) {
  for (nccl_poll poll(timeout);; poll.pause()) {
    ncclResult_t state = ncclSuccess;
    const ncclResult_t asked = ncclCommGetAsyncError(comm, &state);
    if (asked != ncclSuccess) return asked;
    if (state != ncclInProgress || poll.expired()) return state;
  }
}

inline std::string nccl_timeout_text(const char* what, std::chrono::milliseconds timeout) {
  return std::string(what) + " did not complete within " + std::to_string(timeout.count()) +
         " ms; the communicator was aborted";
}

// What a communicator object owns. Shared with the thread's open group,
// which must reach the communicators it enqueued on at its end, even if
// the object that made the call was moved meanwhile.
struct nccl_comm_state {
  ncclComm_t handle = nullptr;
  int device = -1, rank = 0, size = 0;
  nccl_options options;

  nccl_comm_state() = default;
  nccl_comm_state(const nccl_comm_state&) = delete;
  nccl_comm_state& operator=(const nccl_comm_state&) = delete;
  ~nccl_comm_state() { release(); }

  // ncclCommAbort: stops the communicator's work; its peers' pending
  // operations fail instead of waiting for this rank.
  void abort_quietly() noexcept {
    if (ncclComm_t c = std::exchange(handle, nullptr)) (void)ncclCommAbort(c);
  }
  // Builds the error before aborting: NCCL's last-error text is read from
  // the live communicator.
  [[noreturn]] void fail(ncclResult_t r, const std::string& what) {
    if (r == ncclInProgress) {
      nccl_timeout_error e(nccl_timeout_text(what.c_str(), options.timeout));
      abort_quietly();
      throw e;
    }
    nccl_error e(r, what + "; the communicator was aborted", handle);
    abort_quietly();
    throw e;
  }
  // Finalizes and destroys, and aborts instead when the communicator is in
  // error or does not finish within the timeout (a dead peer must not make
  // a destructor hang). Returns the status that made it abort.
  ncclResult_t release() noexcept {
    const ncclComm_t c = std::exchange(handle, nullptr);
    if (!c) return ncclSuccess;
    ncclResult_t state = ncclSuccess;
    ncclResult_t r = ncclCommGetAsyncError(c, &state);
    if (r == ncclSuccess) r = state;
    if (r == ncclSuccess && !options.blocking) {
      r = ncclCommFinalize(c);
      if (r == ncclSuccess || r == ncclInProgress) r = nccl_settle(c, options.timeout);
    }
    if (r != ncclSuccess) {
      (void)ncclCommAbort(c);
      return r;
    }
    // Once finalized, destroying only frees local resources.
    r = ncclCommDestroy(c);
    return r == ncclInProgress ? ncclSuccess : r;
  }
};

// The calling thread's open group: its depth and the communicators it
// enqueued on, which a non-blocking group's end must wait for.
struct nccl_group_state {
  int depth = 0;
  std::vector<std::shared_ptr<nccl_comm_state>> members;
};
inline nccl_group_state& nccl_thread_group() {
  thread_local nccl_group_state g;
  return g;
}

}  // namespace detail
}  // namespace cupp::cuda
