// A process group and an NCCL communicator bootstrapped through MPI:
// tests/distributed_mpi_worker.cu under mpirun, with one rank (any GPU
// machine) and with one rank per GPU where there are several.
#include <cupp/cuda/runtime.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "cupp_test.hpp"

namespace {

// The worker beside this executable and the launcher from $CUPP_MPIEXEC, so
// that a build tree copied to another machine still runs; the configured
// paths otherwise.
std::string worker_path() {
  std::error_code ec;
  const auto here = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto beside = here.parent_path() / "distributed_mpi_worker";
    if (std::filesystem::exists(beside, ec)) return beside.string();
  }
  return CUPP_MPI_WORKER;
}

std::string launcher() {
  const char* from_env = std::getenv("CUPP_MPIEXEC");
  return from_env != nullptr && *from_env != '\0' ? from_env : CUPP_MPIEXEC;
}

int mpirun(int ranks) {
  const std::string cmd = launcher() +
                          " --allow-run-as-root --oversubscribe -x NCCL_NVLS_ENABLE=0 -np " +
                          std::to_string(ranks) + " " + worker_path();
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  // OpenMPI's launcher refuses to run as root without these.
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

BOOST_AUTO_TEST_CASE(one_rank) {
  BOOST_TEST(mpirun(1) == 0);
}

BOOST_AUTO_TEST_CASE(one_rank_per_gpu) {
  const int n = cupp::cuda::runtime::getDeviceCount();
  if (n < 2) {
    BOOST_TEST_MESSAGE("one GPU: the MPI run over several GPUs needs two or more (skipped)");
    return;
  }
  BOOST_TEST(mpirun(n) == 0);
}
