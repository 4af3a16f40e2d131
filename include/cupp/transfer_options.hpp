// cupp::transfer_options: the options of a host <-> device copy (get, set,
// asarray, asnumpy). A vocabulary header, so that internal headers that
// copy arrays between host and device (the .npy writer) take the options
// as ndarray's members do.
// cupp-layer: vocabulary
#pragma once

#include <optional>

#include <cupp/cuda/stream.hpp>
#include <cupp/shape.hpp>

namespace cupp {

// Options of a host <-> device copy (CuPy's stream=, blocking=, order=).
// Write them with designated initializers: x.get({.stream = s, .blocking = false}).
struct transfer_options {
  // The stream to order the copy on; the current stream when empty.
  std::optional<cuda::Stream> stream{};
  // false: return as soon as the copy is enqueued. The host memory involved
  // stays allocated until the copy completes; read results only after
  // synchronizing the stream.
  bool blocking = true;
  // Layout of the host result of get(): C (default), F, or A/K to keep the
  // device array's layout when it is F-contiguous.
  order ord = order::C;
};

}  // namespace cupp
