// cuRAND's errors for cupp (cupy_backends.cuda.libs.curand.CURANDError):
// cupp::cuda::curand_error, whose message starts with the status's name,
// and the check that turns every status that is not success into one.
// The legacy RandomState's cuRAND generators (detail/random/
// legacy_curand.hpp) check their calls with it; a program may catch
// curand_error by name.
#pragma once

#include <curand.h>

#include <stdexcept>
#include <string>

namespace cupp::cuda {

// cupy_backends.cuda.libs.curand.CURANDError: a cuRAND call failed.
class curand_error : public std::runtime_error {
 public:
  curand_error(curandStatus_t status, const std::string& context)
      : std::runtime_error(message(status, context)), status_(status) {}
  curandStatus_t status() const noexcept { return status_; }

  // cuRAND has no function that names its statuses.
  static const char* name(curandStatus_t s) noexcept {
    switch (s) {
      case CURAND_STATUS_SUCCESS:
        return "CURAND_STATUS_SUCCESS";
      case CURAND_STATUS_VERSION_MISMATCH:
        return "CURAND_STATUS_VERSION_MISMATCH";
      case CURAND_STATUS_NOT_INITIALIZED:
        return "CURAND_STATUS_NOT_INITIALIZED";
      case CURAND_STATUS_ALLOCATION_FAILED:
        return "CURAND_STATUS_ALLOCATION_FAILED";
      case CURAND_STATUS_TYPE_ERROR:
        return "CURAND_STATUS_TYPE_ERROR";
      case CURAND_STATUS_OUT_OF_RANGE:
        return "CURAND_STATUS_OUT_OF_RANGE";
      case CURAND_STATUS_LENGTH_NOT_MULTIPLE:
        return "CURAND_STATUS_LENGTH_NOT_MULTIPLE";
      case CURAND_STATUS_DOUBLE_PRECISION_REQUIRED:
        return "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED";
      case CURAND_STATUS_LAUNCH_FAILURE:
        return "CURAND_STATUS_LAUNCH_FAILURE";
      case CURAND_STATUS_PREEXISTING_FAILURE:
        return "CURAND_STATUS_PREEXISTING_FAILURE";
      case CURAND_STATUS_INITIALIZATION_FAILED:
        return "CURAND_STATUS_INITIALIZATION_FAILED";
      case CURAND_STATUS_ARCH_MISMATCH:
        return "CURAND_STATUS_ARCH_MISMATCH";
      case CURAND_STATUS_INTERNAL_ERROR:
        return "CURAND_STATUS_INTERNAL_ERROR";
    }
    return "CURAND_STATUS_UNKNOWN";
  }
  static const char* description(curandStatus_t s) noexcept {
    switch (s) {
      case CURAND_STATUS_SUCCESS:
        return "no error";
      case CURAND_STATUS_VERSION_MISMATCH:
        return "header and library versions do not match";
      case CURAND_STATUS_NOT_INITIALIZED:
        return "generator not initialized";
      case CURAND_STATUS_ALLOCATION_FAILED:
        return "memory allocation failed";
      case CURAND_STATUS_TYPE_ERROR:
        return "generator is of the wrong type";
      case CURAND_STATUS_OUT_OF_RANGE:
        return "argument out of range";
      case CURAND_STATUS_LENGTH_NOT_MULTIPLE:
        return "length requested is not a multiple of dimension";
      case CURAND_STATUS_DOUBLE_PRECISION_REQUIRED:
        return "GPU lacks double precision";
      case CURAND_STATUS_LAUNCH_FAILURE:
        return "kernel launch failure";
      case CURAND_STATUS_PREEXISTING_FAILURE:
        return "preexisting failure on library entry";
      case CURAND_STATUS_INITIALIZATION_FAILED:
        return "initialization of CUDA failed";
      case CURAND_STATUS_ARCH_MISMATCH:
        return "the GPU does not support the requested feature";
      case CURAND_STATUS_INTERNAL_ERROR:
        return "internal library error";
    }
    return "unknown status";
  }

 private:
  static std::string message(curandStatus_t s, const std::string& context) {
    std::string m = name(s);
    m += ": ";
    m += description(s);
    if (!context.empty()) m += " (" + context + ")";
    return m;
  }
  curandStatus_t status_;
};

inline void check(curandStatus_t status, const char* what) {
  if (status != CURAND_STATUS_SUCCESS) throw curand_error(status, what ? what : "");
}

}  // namespace cupp::cuda
