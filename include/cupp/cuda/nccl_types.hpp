// NCCL's vocabulary for cupp (cupy.cuda.nccl's types): its statuses as
// exceptions (cupp::cuda::nccl_error, nccl_timeout_error, check), the
// reductions of the typed collectives (reduce_op) and how a communicator
// waits (nccl_options). The communicator itself is in <cupp/nccl.hpp>; the
// internals of detail/nccl/ name these types.
#pragma once

#include <nccl.h>

#include <chrono>
#include <stdexcept>
#include <string>

namespace cupp::cuda {

namespace detail {

inline const char* nccl_result_name(ncclResult_t r) noexcept {
  constexpr const char* names[] = {
      "ncclSuccess",         "ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError",
      "ncclInvalidArgument", "ncclInvalidUsage",       "ncclRemoteError", "ncclInProgress"};
  const int i = static_cast<int>(r);
  return i >= 0 && i < 8 ? names[i] : "ncclResult";
}

}  // namespace detail

// cupy.cuda.nccl.NcclError: an NCCL call failed. The message starts with
// the status's name, then NCCL's text for it, the call, and NCCL's own
// account of the last error where it has one.
class nccl_error : public std::runtime_error {
 public:
  nccl_error(ncclResult_t result, const std::string& context, ncclComm_t comm = nullptr)
      : std::runtime_error(make_message(result, context, comm)), result_(result) {}
  ncclResult_t result() const noexcept { return result_; }
  // A misuse cupp detects itself (ncclInvalidUsage, with cupp's words
  // only: NCCL's last error would belong to some earlier call).
  static nccl_error usage(const std::string& what) {
    return nccl_error(ncclInvalidUsage, "ncclInvalidUsage: " + what, message_t{});
  }

 protected:
  struct message_t {};
  nccl_error(ncclResult_t result, const std::string& message, message_t)
      : std::runtime_error(message), result_(result) {}

 private:
  static std::string make_message(ncclResult_t r, const std::string& context, ncclComm_t comm) {
    std::string m = detail::nccl_result_name(r);
    m += ": ";
    m += ncclGetErrorString(r);
    if (!context.empty()) m += " (" + context + ")";
    // NCCL keeps the last error's text per process, not per call: only
    // worth adding for a real failure.
    if (r != ncclSuccess && r != ncclInProgress) {
      const char* last = ncclGetLastError(comm);
      if (last && *last) m += std::string(": ") + last;
    }
    return m;
  }
  ncclResult_t result_;
};

// A wait on NCCL or on a stream outlived its timeout; result() is
// ncclInProgress. The communicator was aborted, so its peers see an error
// too rather than waiting for this rank.
class nccl_timeout_error : public nccl_error {
 public:
  explicit nccl_timeout_error(const std::string& message)
      : nccl_error(ncclInProgress, "ncclInProgress: " + message, message_t{}) {}
};

// Throws nccl_error for any status but ncclSuccess (ncclInProgress
// included: a non-blocking communicator's calls are waited for by
// nccl_communicator, not by check).
inline void check(ncclResult_t result, const char* what) {
  if (result != ncclSuccess) throw nccl_error(result, what ? what : "");
}

// The reductions of the typed collectives (NCCL's ncclSum ... ncclAvg).
enum class reduce_op { sum, prod, max, min, avg };

// How a communicator waits for NCCL.
struct nccl_options {
  // The longest a wait may take: initialisation (every rank must join),
  // an enqueue NCCL reports in progress, the end of a group, destruction.
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  // true: NCCL's blocking calls, as CuPy makes them; an enqueue only
  // launches (a few microseconds), and synchronize() still polls with the
  // timeout and aborts, so a peer that dies mid-run is an error. Only the
  // initialisation waits for every rank without a timeout.
  // false: NCCL's non-blocking mode, in which initialisation is polled with
  // the timeout too (a rank that never joins is an error, not a hang), but
  // NCCL completes every call on a helper thread that cupp waits for: about
  // 40-80 us a call on an H200, against 8 us blocking.
  bool blocking = true;
};

}  // namespace cupp::cuda
