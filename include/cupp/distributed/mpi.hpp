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

#if !__has_include(<mpi.h>)
#error \
    "cupp: <cupp/distributed/mpi.hpp> needs MPI's <mpi.h>, which is not on the include path. Install OpenMPI (Debian/Ubuntu: sudo apt install libopenmpi-dev openmpi-bin) and link the CMake target cupp::mpi, which cupp's configure makes where it finds MPI and NCCL (rerun CMake after installing). Without CMake, add the flags that `mpicxx --showme:compile` and `mpicxx --showme:link` print."
#endif
#include <mpi.h>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <cupp/distributed/process_group.hpp>
#include <cupp/nccl.hpp>

#include <cupp/detail/distributed/mpi_bootstrap.hpp>

namespace cupp::distributed {

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
