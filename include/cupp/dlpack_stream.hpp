// The stream= argument of DLPack exchange: cupp::dlpack::consumer_stream,
// the stream on which the consumer of an exported device array will use it
// (the Python array API's __dlpack__(stream=...)). A vocabulary header, so
// that the export machinery of detail/interop/ takes it as to_dlpack
// (<cupp/dlpack.hpp>) receives it.
// cupp-layer: vocabulary
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include <cupp/cuda/stream.hpp>
#include <cupp/errors.hpp>

namespace cupp {

namespace detail::interop {

// The consumer's stream as the Python array API's __dlpack__(stream=) has
// it: the legacy default stream unless told otherwise, or no handshake.
enum class consumer_kind : std::uint8_t { legacy_default, stream, no_sync };

}  // namespace detail::interop

namespace dlpack {

// The stream on which the consumer will use an exported device array: the
// stream= argument of the Python array API's __dlpack__. to_dlpack orders
// that stream after the work already queued on the array's device (on the
// producer's current stream), so the consumer reads finished values
// without the host waiting.
class consumer_stream {
 public:
  // The legacy default stream: what __dlpack__(stream=None) means for CUDA.
  consumer_stream() noexcept = default;
  consumer_stream(cudaStream_t s) noexcept  // NOLINT: a raw stream reads as one
      : kind_(detail::interop::consumer_kind::stream), handle_(s) {}
  consumer_stream(const cuda::Stream& s) noexcept  // NOLINT
      : consumer_stream(s.handle()) {}

  // __dlpack__(stream=-1): the consumer orders its own work; no handshake.
  static consumer_stream no_sync() noexcept {
    consumer_stream c;
    c.kind_ = detail::interop::consumer_kind::no_sync;
    return c;
  }

  // The integer a Python consumer passes as stream=: -1 no handshake, 1 the
  // legacy default stream, 2 the per-thread default stream, any larger
  // value a cudaStream_t. 0 is ambiguous in the protocol and refused, as
  // are values below -1 (value_error).
  static consumer_stream from_python(std::int64_t v) {
    if (v == -1) return no_sync();
    if (v == 1) return consumer_stream(cudaStreamLegacy);
    if (v == 2) return consumer_stream(cudaStreamPerThread);
    if (v > 2)
      return consumer_stream(reinterpret_cast<cudaStream_t>(static_cast<std::intptr_t>(v)));
    throw value_error("to_dlpack: stream=" + std::to_string(v) +
                      " is not a CUDA stream in the DLPack protocol (None, -1, 1, 2 or a "
                      "stream pointer)");
  }

  bool is_no_sync() const noexcept { return kind_ == detail::interop::consumer_kind::no_sync; }
  // True unless built from a stream (or from_python(>= 1)).
  bool is_default() const noexcept {
    return kind_ == detail::interop::consumer_kind::legacy_default;
  }
  // The stream to order (the legacy default stream when none was named).
  cudaStream_t handle() const noexcept { return is_default() ? cudaStreamLegacy : handle_; }

 private:
  detail::interop::consumer_kind kind_ = detail::interop::consumer_kind::legacy_default;
  cudaStream_t handle_ = nullptr;
};

}  // namespace dlpack

}  // namespace cupp
