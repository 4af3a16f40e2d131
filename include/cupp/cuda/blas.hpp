// cuBLAS for cupp (cupy.cuda.device.get_cublas_handle): a handle per device
// and per thread, made on first use and bound, at every call, to the
// current stream of its device; its workspace comes from cupp's memory
// pool; every status that is not success becomes cupp::cuda::cublas_error.
// Only <cupp/linalg.hpp> includes this header, so a program that uses
// arrays alone neither links cuBLAS nor compiles its headers.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include <cupp/cuda/device.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>

namespace cupp::cuda {

// cupy_backends.cuda.libs.cublas.CUBLASError: a cuBLAS call failed. The
// message starts with the status's name, as CuPy's does.
class cublas_error : public std::runtime_error {
 public:
  cublas_error(cublasStatus_t status, const std::string& context)
      : std::runtime_error(message(status, context)), status_(status) {}
  cublasStatus_t status() const noexcept { return status_; }

 private:
  static std::string message(cublasStatus_t s, const std::string& context) {
    std::string m = cublasGetStatusName(s);
    m += ": ";
    m += cublasGetStatusString(s);
    if (!context.empty()) m += " (" + context + ")";
    return m;
  }
  cublasStatus_t status_;
};

inline void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) throw cublas_error(status, what ? what : "");
}

// Whether float32 products may use TF32 tensor cores (10-bit mantissas),
// as CuPy's CUPY_TF32=1 allows. Off unless CUPP_TF32=1 is set in the
// environment or set_allow_tf32(true) is called; NumPy's float32 products
// are full float32, and so are cupp's by default.
namespace detail {
inline std::atomic<int>& tf32_setting() {
  static std::atomic<int> v{-1};  // -1: the environment not read yet
  return v;
}
}  // namespace detail

inline bool allow_tf32() {
  int v = detail::tf32_setting().load(std::memory_order_relaxed);
  if (v < 0) {
    const char* env = std::getenv("CUPP_TF32");
    v = env && std::string_view(env) == "1" ? 1 : 0;
    int expected = -1;
    detail::tf32_setting().compare_exchange_strong(expected, v);
    v = detail::tf32_setting().load(std::memory_order_relaxed);
  }
  return v == 1;
}
inline void set_allow_tf32(bool allow) {
  detail::tf32_setting().store(allow ? 1 : 0);
}

namespace detail {

// A handle and the workspace it keeps for its life (cuBLAS asks for
// 32 MiB on Hopper and later, 4 MiB before; without one it allocates its
// own with cudaMalloc inside calls, which a stream capture cannot hold),
// and a cuBLASLt handle, which takes the same workspace (the thread's
// cuBLAS and cuBLASLt calls on one device run in its stream's order).
struct blas_state {
  cublasHandle_t handle = nullptr;
  cublasLtHandle_t lt = nullptr;
  memory_ptr workspace;
  std::size_t workspace_bytes = 0;
  blas_state() = default;
  blas_state(const blas_state&) = delete;
  blas_state& operator=(const blas_state&) = delete;
  ~blas_state() {
    // At thread exit; the status is ignored: the process may be ending
    // with the CUDA context already gone.
    if (handle) (void)cublasDestroy(handle);
    if (lt) (void)cublasLtDestroy(lt);
  }
};

inline blas_state& blas_state_for(int device) {
  thread_local std::array<std::unique_ptr<blas_state>, max_devices> table{};
  auto& slot = table[static_cast<std::size_t>(device)];
  if (!slot) {
    auto s = std::make_unique<blas_state>();
    device_scope scope(device);
    check(cublasCreate(&s->handle), "cublasCreate");
    const int major = runtime::getDeviceProperties(device).major;
    const std::size_t bytes = (major >= 9 ? std::size_t{32} : std::size_t{4}) << 20;
    s->workspace = alloc(bytes);
    s->workspace_bytes = bytes;
    check(cublasSetWorkspace(s->handle, s->workspace.get(), bytes), "cublasSetWorkspace");
    check(cublasLtCreate(&s->lt), "cublasLtCreate");
    slot = std::move(s);
  }
  return *slot;
}

}  // namespace detail

// The calling thread's cuBLAS handle for `device`, bound to the device's
// current stream and to the TF32 setting. Call it right before the cuBLAS
// call it serves, with `device` current.
inline cublasHandle_t blas_handle(int device) {
  detail::check_device_id(device);
  cublasHandle_t h = detail::blas_state_for(device).handle;
  check(cublasSetStream(h, detail::current_stream_impl(device)->handle), "cublasSetStream");
  check(cublasSetMathMode(h, allow_tf32() ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH),
        "cublasSetMathMode");
  return h;
}

// The calling thread's cuBLASLt handle for `device` and the workspace its
// calls may use (the cuBLAS handle's). cuBLASLt takes the stream at each
// call; use the device's current stream.
struct blas_lt {
  cublasLtHandle_t handle;
  void* workspace;
  std::size_t workspace_bytes;
};
inline blas_lt blas_lt_handle(int device) {
  detail::check_device_id(device);
  detail::blas_state& s = detail::blas_state_for(device);
  return {s.lt, s.workspace.get(), s.workspace_bytes};
}

}  // namespace cupp::cuda
