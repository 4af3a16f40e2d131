// A process group and an NCCL communicator bootstrapped through MPI:
// tests/distributed_mpi_worker.cu under mpirun, with one rank (any GPU
// machine) and with one rank per GPU where there are several.
#include <cupp/cuda/runtime.hpp>

#include <cstdlib>
#include <string>

#include "cupp_test.hpp"

namespace {

int mpirun(int ranks) {
  const std::string cmd = std::string(CUPP_MPIEXEC) +
                          " --allow-run-as-root --oversubscribe -x NCCL_NVLS_ENABLE=0 -np " +
                          std::to_string(ranks) + " " + CUPP_MPI_WORKER;
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
