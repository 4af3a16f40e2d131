// cupp::distributed::process_group_bootstrap: what a process group is
// bootstrapped through (<cupp/distributed/process_group.hpp>). Vocabulary,
// because the internals of other ways to start a group (MPI,
// detail/distributed/mpi_bootstrap.hpp) make one.
// cupp-layer: vocabulary
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace cupp::distributed {

// How the ranks of a group exchange the few bytes they need before NCCL
// can: rank 0's NCCL unique id, and (for argument checks) one string per
// rank. The TCP store gives one; MPI another (<cupp/distributed/mpi.hpp>).
struct process_group_bootstrap {
  // Every rank passes its bytes; every rank gets rank 0's.
  std::function<std::vector<std::byte>(std::span<const std::byte>)> share_from_rank_0;
  // Every rank passes its text; every rank gets every rank's, in rank order.
  std::function<std::vector<std::string>(const std::string&)> gather_texts;
};

}  // namespace cupp::distributed
