// MPI's side of a process group: its status checks, a communicator's rank
// and size, and the exchanges a process group needs (rank 0's bytes to
// every rank, every rank's text to every rank) over an MPI communicator.
// Part of <cupp/distributed/mpi.hpp>.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <cupp/distributed/process_group_bootstrap.hpp>

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

}  // namespace cupp::distributed
