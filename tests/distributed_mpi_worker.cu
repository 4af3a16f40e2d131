// One rank of the MPI test (started by tests/distributed_mpi_test.cu with
// mpirun): a process group bootstrapped through MPI, an NCCL communicator
// made from MPI_COMM_WORLD, their collectives checked against host
// computations, and argument checks gathered through MPI. Exit status 0 on
// success; a message on stderr otherwise.
#include <cupp/cupp.hpp>
#include <cupp/distributed/mpi.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace dist = cupp::distributed;
using cupp::index_t;
using cupp::shape_t;

namespace {

int failures = 0;

void expect(bool ok, const char* what, int rank) {
  if (!ok) {
    std::fprintf(stderr, "rank %d: %s\n", rank, what);
    ++failures;
  }
}

std::vector<float> host(const cupp::ndarray<float>& a) {
  const auto h = cupp::asnumpy(a);
  return std::vector<float>(h.data(), h.data() + h.size());
}

int run() {
  dist::process_group_options o;
  o.timeout = std::chrono::seconds(60);
  o.check_arguments = true;
  auto& pg = dist::init_process_group_mpi(MPI_COMM_WORLD, o);
  const int n = pg.size(), me = pg.rank();
  const index_t m = 4096;
  cupp::ndarray<float> x = cupp::ones<float>(shape_t{m}) * float(me + 1);
  const auto sum = host(pg.all_reduce(x * 2.f));
  bool ok = true;
  for (const float v : sum) ok = ok && v == float(n * (n + 1));
  expect(ok, "all_reduce through the MPI-bootstrapped group", me);
  cupp::ndarray<float> all(shape_t{n, m});
  pg.all_gather(x, all);
  const auto g = host(all);
  ok = true;
  for (int r = 0; r < n; ++r)
    for (index_t i = 0; i < m; ++i) ok = ok && g[r * m + i] == float(r + 1);
  expect(ok, "all_gather", me);
  // Disagreeing shapes: every rank raises (gathered through MPI).
  if (n > 1) {
    bool raised = false;
    try {
      cupp::ndarray<float> y = cupp::ones<float>(shape_t{me == n - 1 ? 8 : 4});
      pg.all_reduce(y, y);
    } catch (const cupp::value_error&) {
      raised = true;
    }
    expect(raised, "no value_error for disagreeing shapes", me);
  }
  pg.barrier();
  dist::destroy_process_group();
  // An NCCL communicator straight from MPI_COMM_WORLD.
  auto comm = cupp::cuda::nccl_communicator_from_mpi(MPI_COMM_WORLD);
  cupp::ndarray<float> z = cupp::ones<float>(shape_t{m});
  comm.all_reduce(z, z);
  comm.synchronize();
  ok = true;
  for (const float v : host(z)) ok = ok && v == float(n);
  expect(ok, "nccl_communicator_from_mpi all_reduce", me);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rc = 1;
  try {
    rc = run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
  }
  // A failing rank must fail the job (mpirun reports a non-zero exit).
  int worst = 0;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
