// The CUDA runtime as cupp uses it: error checking that throws with the
// error's name, device count and cached device properties (the C++ side of
// cupy.cuda.runtime).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include <cupp/config.hpp>
#include <cupp/errors.hpp>

namespace cupp::cuda {

// cupy.cuda.runtime.CUDARuntimeError: a CUDA call failed. The message starts
// with the error's name, as CuPy's does ("cudaErrorInvalidDevice: invalid
// device ordinal").
class cuda_error : public std::runtime_error {
 public:
  explicit cuda_error(cudaError_t code, const std::string& context = {})
      : std::runtime_error(make_message(code, context)), code_(code) {}
  cudaError_t code() const noexcept { return code_; }

 protected:
  struct message_t {};
  cuda_error(cudaError_t code, const std::string& message, message_t)
      : std::runtime_error(message), code_(code) {}

 private:
  static std::string make_message(cudaError_t code, const std::string& context);
  cudaError_t code_;
};

namespace detail {

// The errors CUDA reports when there is no device to run on: no driver
// (the runtime then reports an "insufficient" driver of version 0), a stub
// driver library, a driver that cannot initialise, or no device.
inline bool no_device_code(cudaError_t code) noexcept CUPP_HOST_BODY({
  if (code == cudaErrorInsufficientDriver) {
    int v = 0;
    return cudaDriverGetVersion(&v) != cudaSuccess || v == 0;
  }
  return code == cudaErrorNoDevice || code == cudaErrorStubLibrary ||
         code == cudaErrorInitializationError;
});

inline std::string cuda_version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

}  // namespace detail

inline std::string cuda_error::make_message(cudaError_t code, const std::string& context) {
  std::string m = cudaGetErrorName(code);
  m += ": ";
  m += cudaGetErrorString(code);
  if (!context.empty()) m += " (" + context + ")";
  int driver = 0, runtime = 0;
  // A driver older than the runtime: say which versions meet.
  if (code == cudaErrorInsufficientDriver && cudaDriverGetVersion(&driver) == cudaSuccess &&
      driver > 0 && cudaRuntimeGetVersion(&runtime) == cudaSuccess)
    m += ": the installed driver supports CUDA " + detail::cuda_version_string(driver) +
         ", this program uses the CUDA " + detail::cuda_version_string(runtime) +
         " runtime; update the driver";
  return m;
}

// What the first use of the GPU throws where there is none: no NVIDIA
// driver, no device, or a driver that cannot start (the codes of
// detail::no_device_code). The message says so in words, with CUDA's error
// (whose text for a missing driver, "CUDA driver version is insufficient",
// would send one to update a driver that is not there), and points to host
// arrays, which need no GPU. A cuda_error, so that handlers of CUDA errors
// catch it too.
class no_device_error : public cuda_error {
 public:
  explicit no_device_error(cudaError_t code, const std::string& context = {})
      : cuda_error(code, make_message(code, context), message_t{}) {}

 private:
  static std::string make_message(cudaError_t code, const std::string& context) CUPP_HOST_BODY({
    std::string m = cudaGetErrorName(code);
    m += ": ";
    switch (code) {
      case cudaErrorNoDevice:
        m += "no CUDA device was found";
        break;
      case cudaErrorInsufficientDriver:
      case cudaErrorStubLibrary:
        m += "no CUDA driver was found, so no CUDA device can be used";
        break;
      default:
        m += "no usable CUDA device or driver was found";
        break;
    }
    m += " (CUDA reports \"";
    m += cudaGetErrorString(code);
    m += '"';
    if (!context.empty()) m += " in " + context;
    m += "). cupp::cuda::is_available() is false: device arrays (cupp::ndarray) need an NVIDIA "
         "GPU and its driver; host arrays (cupp::host::ndarray, cupp::host::zeros, "
         "cupp::host::arange ...) run without one";
    return m;
  });
};

// Throws cuda_error when a runtime call failed (no_device_error when there
// is no device or driver to run on). The error is taken off the thread's
// error state so that a later check does not see it again.
inline void check(cudaError_t code, const char* what = nullptr) CUPP_HOST_BODY({
  if (code != cudaSuccess) {
    (void)cudaGetLastError();
    if (detail::no_device_code(code)) throw no_device_error(code, what ? what : "");
    throw cuda_error(code, what ? what : "");
  }
});

// Checks the launch that was just enqueued on this thread.
inline void check_last_launch(const char* what = "kernel launch") {
  check(cudaGetLastError(), what);
}

// The most devices cupp keeps per-device state for.
inline constexpr int max_devices = 64;

// The subset of cudaDeviceProp that CuPy's getDeviceProperties exposes and
// that cupp's launch code reads, captured once per device.
struct DeviceProperties {
  std::string name;
  std::array<unsigned char, 16> uuid{};
  std::size_t totalGlobalMem = 0;
  std::size_t sharedMemPerBlock = 0;
  std::size_t sharedMemPerBlockOptin = 0;
  std::size_t sharedMemPerMultiprocessor = 0;
  std::size_t totalConstMem = 0;
  int regsPerBlock = 0;
  int regsPerMultiprocessor = 0;
  int warpSize = 0;
  int maxThreadsPerBlock = 0;
  std::array<int, 3> maxThreadsDim{};
  std::array<int, 3> maxGridSize{};
  int maxThreadsPerMultiProcessor = 0;
  int maxBlocksPerMultiProcessor = 0;
  int major = 0;
  int minor = 0;
  int multiProcessorCount = 0;
  int clockRate = 0;        // kHz
  int memoryClockRate = 0;  // kHz
  int memoryBusWidth = 0;   // bits
  int l2CacheSize = 0;
  int persistingL2CacheMaxSize = 0;
  int asyncEngineCount = 0;
  int deviceOverlap = 0;  // 1 when copies overlap kernels (asyncEngineCount > 0)
  int concurrentKernels = 0;
  int integrated = 0;
  int canMapHostMemory = 0;
  int unifiedAddressing = 0;
  int managedMemory = 0;
  int concurrentManagedAccess = 0;
  int pageableMemoryAccess = 0;
  int ECCEnabled = 0;
  int pciBusID = 0;
  int pciDeviceID = 0;
  int pciDomainID = 0;
  int cooperativeLaunch = 0;
  int memoryPoolsSupported = 0;
  int streamPrioritiesSupported = 0;
};

namespace runtime {

// Number of CUDA devices. Throws cuda_error when there is no driver or no
// device, as cupy.cuda.runtime.getDeviceCount does; is_available() asks the
// same question without throwing.
inline int getDeviceCount() CUPP_HOST_BODY({
  int n = 0;
  check(cudaGetDeviceCount(&n), "cudaGetDeviceCount");
  return n;
});

inline int getDevice() CUPP_HOST_BODY({
  int d = 0;
  check(cudaGetDevice(&d), "cudaGetDevice");
  return d;
});

inline void setDevice(int device) {
  check(cudaSetDevice(device), "cudaSetDevice");
}

inline void deviceSynchronize() {
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

inline int runtimeGetVersion() CUPP_HOST_BODY({
  int v = 0;
  check(cudaRuntimeGetVersion(&v), "cudaRuntimeGetVersion");
  return v;
});

inline int driverGetVersion() CUPP_HOST_BODY({
  int v = 0;
  check(cudaDriverGetVersion(&v), "cudaDriverGetVersion");
  return v;
});

// Free and total bytes of the current device.
inline std::pair<std::size_t, std::size_t> memGetInfo() CUPP_HOST_BODY({
  std::size_t free_bytes = 0, total = 0;
  check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
  return {free_bytes, total};
});

}  // namespace runtime

// cupy.cuda.is_available(): true when a driver and at least one device exist.
inline bool is_available() noexcept CUPP_HOST_BODY({
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return n > 0;
});

namespace detail {

// Throws a cuda_error naming the ordinal when `device` does not exist.
inline void check_device_id(int device) CUPP_HOST_BODY({
  const int n = runtime::getDeviceCount();
  if (device < 0 || device >= n)
    throw cuda_error(cudaErrorInvalidDevice, "device " + std::to_string(device) + " requested, " +
                                                 std::to_string(n) +
                                                 (n == 1 ? " device" : " devices") + " present");
});

inline DeviceProperties query_properties(int device) CUPP_HOST_BODY({
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
  DeviceProperties r;
  r.name = p.name;
  for (int i = 0; i < 16; ++i) r.uuid[i] = static_cast<unsigned char>(p.uuid.bytes[i]);
  r.totalGlobalMem = p.totalGlobalMem;
  r.sharedMemPerBlock = p.sharedMemPerBlock;
  r.sharedMemPerBlockOptin = p.sharedMemPerBlockOptin;
  r.sharedMemPerMultiprocessor = p.sharedMemPerMultiprocessor;
  r.totalConstMem = p.totalConstMem;
  r.regsPerBlock = p.regsPerBlock;
  r.regsPerMultiprocessor = p.regsPerMultiprocessor;
  r.warpSize = p.warpSize;
  r.maxThreadsPerBlock = p.maxThreadsPerBlock;
  for (int i = 0; i < 3; ++i) {
    r.maxThreadsDim[i] = p.maxThreadsDim[i];
    r.maxGridSize[i] = p.maxGridSize[i];
  }
  r.maxThreadsPerMultiProcessor = p.maxThreadsPerMultiProcessor;
  r.maxBlocksPerMultiProcessor = p.maxBlocksPerMultiProcessor;
  r.major = p.major;
  r.minor = p.minor;
  r.multiProcessorCount = p.multiProcessorCount;
  // Fields CUDA 13 dropped from cudaDeviceProp remain device attributes.
  if (cudaDeviceGetAttribute(&r.clockRate, cudaDevAttrClockRate, device) != cudaSuccess)
    (void)cudaGetLastError();
  if (cudaDeviceGetAttribute(&r.memoryClockRate, cudaDevAttrMemoryClockRate, device) != cudaSuccess)
    (void)cudaGetLastError();
  r.memoryBusWidth = p.memoryBusWidth;
  r.l2CacheSize = p.l2CacheSize;
  r.persistingL2CacheMaxSize = p.persistingL2CacheMaxSize;
  r.asyncEngineCount = p.asyncEngineCount;
  r.deviceOverlap = p.asyncEngineCount > 0 ? 1 : 0;
  r.concurrentKernels = p.concurrentKernels;
  r.integrated = p.integrated;
  r.canMapHostMemory = p.canMapHostMemory;
  r.unifiedAddressing = p.unifiedAddressing;
  r.managedMemory = p.managedMemory;
  r.concurrentManagedAccess = p.concurrentManagedAccess;
  r.pageableMemoryAccess = p.pageableMemoryAccess;
  r.ECCEnabled = p.ECCEnabled;
  r.pciBusID = p.pciBusID;
  r.pciDeviceID = p.pciDeviceID;
  r.pciDomainID = p.pciDomainID;
  r.cooperativeLaunch = p.cooperativeLaunch;
  r.memoryPoolsSupported = p.memoryPoolsSupported;
  r.streamPrioritiesSupported = p.streamPrioritiesSupported;
  return r;
});

}  // namespace detail

namespace runtime {

// Properties of a device, queried on first use and cached for the process:
// launch code reads them on every call and must not pay for a query.
inline const DeviceProperties& getDeviceProperties(int device) CUPP_HOST_BODY({
  static std::array<std::atomic<const DeviceProperties*>, max_devices> cache{};
  static std::mutex mutex;
  if (device < 0 || device >= max_devices) detail::check_device_id(device);
  if (const DeviceProperties* p = cache[device].load(std::memory_order_acquire)) return *p;
  std::lock_guard lock(mutex);
  if (const DeviceProperties* p = cache[device].load(std::memory_order_relaxed)) return *p;
  detail::check_device_id(device);
  // Never freed: references handed out stay valid until the process ends.
  auto* p = new DeviceProperties(detail::query_properties(device));
  cache[device].store(p, std::memory_order_release);
  return *p;
});

}  // namespace runtime
}  // namespace cupp::cuda
