// MPI as the way to start and bootstrap a cupp process group (cupyx's
// init_process_group(use_mpi=True)): ranks and size from an MPI
// communicator, NCCL's unique id broadcast from rank 0 with MPI_Bcast,
// argument checks gathered with MPI_Allgather; no TCP store. Also an NCCL
// communicator made straight from an MPI communicator.
//
//   MPI_Init(&argc, &argv);
//   auto& pg = cupp::distributed::init_process_group_mpi(MPI_COMM_WORLD);
//   ...
//   cupp::distributed::destroy_process_group();
//   MPI_Finalize();
//
// Needs <mpi.h> and the CMake target cupp::mpi (OpenMPI: Debian's
// libopenmpi-dev); start with `mpirun -np N ./app` (NCCL_NVLS_ENABLE=0 is
// passed on with `-x NCCL_NVLS_ENABLE=0`, and cupp sets it when unset).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <cupp/cuda/nccl.hpp>
#include <cupp/distributed/process_group.hpp>

namespace cupp::distributed {

namespace detail {

inline void check_mpi(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(what) + " failed: " + std::string(text, length));
}

inline int mpi_rank(MPI_Comm comm) {
  int r = 0;
  check_mpi(MPI_Comm_rank(comm, &r), "MPI_Comm_rank");
  return r;
}

inline int mpi_size(MPI_Comm comm) {
  int n = 0;
  check_mpi(MPI_Comm_size(comm, &n), "MPI_Comm_size");
  return n;
}

// The exchanges a process group needs, over an MPI communicator.
inline process_group_bootstrap mpi_bootstrap(MPI_Comm comm) {
  process_group_bootstrap b;
  b.share_from_rank_0 = [comm](std::span<const std::byte> mine) {
    int length = static_cast<int>(mine.size());
    check_mpi(MPI_Bcast(&length, 1, MPI_INT, 0, comm), "MPI_Bcast");
    std::vector<std::byte> out(mine.begin(), mine.end());
    out.resize(static_cast<std::size_t>(length));
    check_mpi(MPI_Bcast(out.data(), length, MPI_BYTE, 0, comm), "MPI_Bcast");
    return out;
  };
  b.gather_texts = [comm](const std::string& mine) {
    const int n = mpi_size(comm);
    int length = static_cast<int>(mine.size());
    std::vector<int> lengths(static_cast<std::size_t>(n)), offsets(static_cast<std::size_t>(n));
    check_mpi(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm),
              "MPI_Allgather");
    int total = 0;
    for (int r = 0; r < n; ++r) {
      offsets[static_cast<std::size_t>(r)] = total;
      total += lengths[static_cast<std::size_t>(r)];
    }
    std::vector<char> all(static_cast<std::size_t>(total));
    check_mpi(MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(),
                             offsets.data(), MPI_CHAR, comm),
              "MPI_Allgatherv");
    std::vector<std::string> texts;
    for (int r = 0; r < n; ++r)
      texts.emplace_back(all.data() + offsets[static_cast<std::size_t>(r)],
                         static_cast<std::size_t>(lengths[static_cast<std::size_t>(r)]));
    return texts;
  };
  return b;
}

}  // namespace detail

// A process group of the ranks of `comm` (each rank on GPU rank % devices,
// or options.device), kept as the default group as init_process_group's.
inline process_group& init_process_group_mpi(MPI_Comm comm = MPI_COMM_WORLD,
                                             const process_group_options& options = {}) {
  auto& g = detail::default_group();
  if (g) throw std::runtime_error("cupp::distributed: the process group is already initialised");
  g = std::make_unique<process_group>(detail::mpi_size(comm), detail::mpi_rank(comm),
                                      detail::mpi_bootstrap(comm), options);
  return *g;
}

}  // namespace cupp::distributed

namespace cupp::cuda {

// An NCCL communicator of the ranks of `comm`, on the current device, its
// unique id broadcast from rank 0 with MPI_Bcast.
inline nccl_communicator nccl_communicator_from_mpi(MPI_Comm comm,
                                                    const nccl_options& options = {}) {
  const int rank = distributed::detail::mpi_rank(comm);
  nccl_unique_id id;
  if (rank == 0) id = nccl_unique_id::create();
  distributed::detail::check_mpi(MPI_Bcast(&id.id, sizeof id.id, MPI_BYTE, 0, comm), "MPI_Bcast");
  return nccl_communicator(distributed::detail::mpi_size(comm), id, rank, options);
}

}  // namespace cupp::cuda
