// cupp::cuda::Device: a CUDA device, the per-thread current device, and an
// RAII scope that makes a device current (the C++ form of
// `with cupy.cuda.Device(1):`).
#pragma once

#include <ostream>
#include <string>

#include <cupp/config.hpp>
#include <cupp/cuda/runtime.hpp>

namespace cupp::cuda {

class device_scope;

class Device {
 public:
  // The current device of the calling thread.
  Device() : id_(runtime::getDevice()) {}
  // Device `id`; throws cuda_error (cudaErrorInvalidDevice) if there is none.
  explicit Device(int id) : id_(id) { detail::check_device_id(id); }

  int id() const noexcept { return id_; }
  // Makes this the current device of the calling thread.
  void use() const { runtime::setDevice(id_); }
  // Makes this device current until the returned scope ends, then restores
  // the device that was current before.
  [[nodiscard]] device_scope scope() const;
  // Waits for all work on this device.
  void synchronize() const;

  const DeviceProperties& properties() const { return runtime::getDeviceProperties(id_); }
  // "90" for an H100, as cupy.cuda.Device.compute_capability.
  std::string compute_capability() const CUPP_HOST_BODY({
    const auto& p = properties();
    return std::to_string(p.major) + std::to_string(p.minor);
  });

  friend bool operator==(const Device& a, const Device& b) noexcept { return a.id_ == b.id_; }
  friend std::ostream& operator<<(std::ostream& os, const Device& d) {
    return os << "<CUDA Device " << d.id_ << ">";
  }

  // For ids already known to be valid (an array's device): no count query.
  struct unchecked_t {};
  Device(int id, unchecked_t) noexcept : id_(id) {}

 private:
  int id_;
};

// Restores the previously current device on destruction. Not copyable: one
// scope, one restore.
class device_scope {
 public:
  explicit device_scope(int device) : previous_(runtime::getDevice()) {
    if (device != previous_) runtime::setDevice(device);
  }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;
  ~device_scope() CUPP_HOST_BODY({
    int now = -1;
    if (cudaGetDevice(&now) == cudaSuccess && now != previous_) (void)cudaSetDevice(previous_);
  });

 private:
  int previous_;
};

inline device_scope Device::scope() const {
  return device_scope(id_);
}

inline void Device::synchronize() const CUPP_HOST_BODY({
  device_scope s(id_);
  runtime::deviceSynchronize();
});

// The current device of the calling thread.
inline Device get_device() {
  return Device(runtime::getDevice(), Device::unchecked_t{});
}

}  // namespace cupp::cuda
