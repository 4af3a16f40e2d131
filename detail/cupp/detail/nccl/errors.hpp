// NCCL's statuses as cupp exceptions (cupp::cuda::nccl_error) and the
// environment NCCL must start with. Part of <cupp/cuda/nccl.hpp>.
#pragma once

#include <nccl.h>

#include <cstdlib>
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

// NCCL reads its environment once, at its first initialisation; multicast
// objects made on shared machines can take GPUs out of service, so the
// variable must be in place before that.
inline void nccl_environment() {
  static const bool done = [] {
    if (!std::getenv("NCCL_NVLS_ENABLE")) setenv("NCCL_NVLS_ENABLE", "0", 0);
    return true;
  }();
  (void)done;
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

}  // namespace cupp::cuda
