// cuRAND's host API for the legacy RandomState (CuPy's stream): one
// generator per RandomState, since a cuRAND generator carries its state
// (XORWOW's, and the offset past what it has drawn). A device generator
// writes device memory on the stream it is bound to; a host generator
// (curandCreateGeneratorHost) computes the same sequence on the CPU, with
// no GPU needed. Every status that is not success becomes
// cupp::cuda::curand_error (<cupp/cuda/curand.hpp>), whose message starts
// with the status's name, as CuPy's CURANDError does.
#pragma once

#include <curand.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include <cupp/cuda/curand.hpp>

namespace cupp::detail::random {

// An owned cuRAND generator. Creating a device generator binds it to the
// device current at that moment; its own state memory is cuRAND's.
class curand_generator {
 public:
  curand_generator() = default;
  curand_generator(curandRngType_t type, bool on_host) : on_host_(on_host) {
    cuda::check(
        on_host ? curandCreateGeneratorHost(&handle_, type) : curandCreateGenerator(&handle_, type),
        on_host ? "curandCreateGeneratorHost" : "curandCreateGenerator");
  }
  curand_generator(curand_generator&& other) noexcept
      : handle_(std::exchange(other.handle_, nullptr)), on_host_(other.on_host_) {}
  curand_generator& operator=(curand_generator&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
      on_host_ = other.on_host_;
    }
    return *this;
  }
  curand_generator(const curand_generator&) = delete;
  curand_generator& operator=(const curand_generator&) = delete;
  ~curand_generator() { reset(); }

  explicit operator bool() const noexcept { return handle_ != nullptr; }
  curandGenerator_t handle() const noexcept { return handle_; }
  bool on_host() const noexcept { return on_host_; }

  // As CuPy seeds it: the seed, and the offset back to the sequence's start
  // (for the generators that have one: not MT19937 and MTGP32).
  void seed(std::uint64_t seed, bool reset_offset = true) {
    cuda::check(curandSetPseudoRandomGeneratorSeed(handle_, seed),
                "curandSetPseudoRandomGeneratorSeed");
    if (reset_offset) cuda::check(curandSetGeneratorOffset(handle_, 0), "curandSetGeneratorOffset");
  }
  // A device generator launches on `stream` (the caller's current stream).
  void bind(cudaStream_t stream) {
    if (!on_host_) cuda::check(curandSetStream(handle_, stream), "curandSetStream");
  }

  // (0, 1].
  void uniform(float* out, std::size_t n) {
    cuda::check(curandGenerateUniform(handle_, out, n), "curandGenerateUniform");
  }
  void uniform(double* out, std::size_t n) {
    cuda::check(curandGenerateUniformDouble(handle_, out, n), "curandGenerateUniformDouble");
  }
  // Pseudo-random generators make normals in Box-Muller pairs: n must be
  // even (CURAND_STATUS_LENGTH_NOT_MULTIPLE otherwise).
  void normal(float* out, std::size_t n, double mean, double stddev) {
    cuda::check(
        curandGenerateNormal(handle_, out, n, static_cast<float>(mean), static_cast<float>(stddev)),
        "curandGenerateNormal");
  }
  void normal(double* out, std::size_t n, double mean, double stddev) {
    cuda::check(curandGenerateNormalDouble(handle_, out, n, mean, stddev),
                "curandGenerateNormalDouble");
  }
  void lognormal(float* out, std::size_t n, double mean, double stddev) {
    cuda::check(curandGenerateLogNormal(handle_, out, n, static_cast<float>(mean),
                                        static_cast<float>(stddev)),
                "curandGenerateLogNormal");
  }
  void lognormal(double* out, std::size_t n, double mean, double stddev) {
    cuda::check(curandGenerateLogNormalDouble(handle_, out, n, mean, stddev),
                "curandGenerateLogNormalDouble");
  }
  // lambda > 0 (CURAND_STATUS_OUT_OF_RANGE otherwise).
  void poisson(unsigned int* out, std::size_t n, double lambda) {
    cuda::check(curandGeneratePoisson(handle_, out, n, lambda), "curandGeneratePoisson");
  }

 private:
  void reset() noexcept {
    // The status is ignored: at exit the CUDA context may already be gone.
    if (handle_) (void)curandDestroyGenerator(handle_);
    handle_ = nullptr;
  }
  curandGenerator_t handle_ = nullptr;
  bool on_host_ = false;
};

}  // namespace cupp::detail::random
