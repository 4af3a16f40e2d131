// The environment NCCL must start with. NCCL's statuses as cupp exceptions
// are vocabulary: <cupp/cuda/nccl_types.hpp>. Part of <cupp/nccl.hpp>.
#pragma once

#include <cstdlib>

namespace cupp::cuda {

namespace detail {

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

}  // namespace cupp::cuda
