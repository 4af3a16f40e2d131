// cuSOLVER for cupp (cupy.cuda.device.get_cusolver_handle): a dense-solver
// handle and a 64-bit API parameter object per device and per thread, made
// on first use and bound, at every call, to the current stream of their
// device; every status that is not success becomes
// cupp::cuda::cusolver_error. Workspaces come from cupp's memory pool at
// each call (solver_workspace). Only <cupp/linalg.hpp> includes this header.
#pragma once

#include <cusolverDn.h>

#include <array>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <cupp/cuda/device.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>

namespace cupp::cuda {

// cupy_backends.cuda.libs.cusolver.CUSOLVERError: a cuSOLVER call failed.
class cusolver_error : public std::runtime_error {
 public:
  cusolver_error(cusolverStatus_t status, const std::string& context)
      : std::runtime_error(message(status, context)), status_(status) {}
  cusolverStatus_t status() const noexcept { return status_; }

  static const char* name(cusolverStatus_t s) noexcept {
    switch (s) {
      case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
      case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
      case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
      case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
      case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
      case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
      case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED:
        return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
      case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
      case CUSOLVER_STATUS_INVALID_WORKSPACE: return "CUSOLVER_STATUS_INVALID_WORKSPACE";
      default: return "CUSOLVER_STATUS_ERROR";
    }
  }

 private:
  static std::string message(cusolverStatus_t s, const std::string& context) {
    std::string m = name(s);
    m += " (" + std::to_string(static_cast<int>(s)) + ")";
    if (!context.empty()) m += ": " + context;
    return m;
  }
  cusolverStatus_t status_;
};

inline void check(cusolverStatus_t status, const char* what) {
  if (status != CUSOLVER_STATUS_SUCCESS) throw cusolver_error(status, what ? what : "");
}

namespace detail {

struct solver_state {
  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;
  solver_state() = default;
  solver_state(const solver_state&) = delete;
  solver_state& operator=(const solver_state&) = delete;
  ~solver_state() {
    // At thread exit; statuses ignored (the CUDA context may be gone).
    if (params) (void)cusolverDnDestroyParams(params);
    if (handle) (void)cusolverDnDestroy(handle);
  }
};

inline solver_state& solver_state_for(int device) {
  thread_local std::array<std::unique_ptr<solver_state>, max_devices> table{};
  auto& slot = table[static_cast<std::size_t>(device)];
  if (!slot) {
    auto s = std::make_unique<solver_state>();
    device_scope scope(device);
    check(cusolverDnCreate(&s->handle), "cusolverDnCreate");
    check(cusolverDnCreateParams(&s->params), "cusolverDnCreateParams");
    slot = std::move(s);
  }
  return *slot;
}

}  // namespace detail

// The calling thread's cuSOLVER handle for `device`, bound to the device's
// current stream. Call it right before the calls it serves, with `device`
// current.
inline cusolverDnHandle_t solver_handle(int device) {
  detail::check_device_id(device);
  cusolverDnHandle_t h = detail::solver_state_for(device).handle;
  check(cusolverDnSetStream(h, detail::current_stream_impl(device)->handle), "cusolverDnSetStream");
  return h;
}

// The parameter object of the 64-bit API (cusolverDnX*) for `device`
// (default algorithms).
inline cusolverDnParams_t solver_params(int device) {
  return detail::solver_state_for(device).params;
}

// The workspaces one cuSOLVER call asks for: device bytes from cupp's pool
// (stream-ordered on the current stream, so they may be released as soon
// as the call is queued) and host bytes for the 64-bit API's host part.
struct solver_workspace {
  memory_ptr device;
  std::vector<unsigned char> host;
  solver_workspace(std::size_t device_bytes, std::size_t host_bytes = 0)
      : device(alloc(device_bytes > 0 ? device_bytes : 1)), host(host_bytes > 0 ? host_bytes : 1) {}
  void* device_ptr() const { return device.get(); }
  void* host_ptr() { return host.data(); }
};

}  // namespace cupp::cuda
