// docs/distributed.md's example: N processes, one GPU each, summing an
// expression across ranks. Start one process per rank:
//
//   for r in 0 1 2 3; do ./distributed 4 $r & done; wait
//
// Without arguments it runs as the only rank of a group of one (any
// machine with one GPU); without a GPU it says so and exits.
#include <cupp/cupp.hpp>
#include <cupp/distributed/process_group.hpp>

#include <cstdio>
#include <cstdlib>

namespace dist = cupp::distributed;

int main(int argc, char** argv) {
  if (!cupp::cuda::is_available()) {
    std::printf("no CUDA device: the process group needs one GPU per rank\n");
    return 0;
  }
  const int n = argc > 2 ? std::atoi(argv[1]) : 1, rank = argc > 2 ? std::atoi(argv[2]) : 0;
  // A group of one serves its store on a free port; ranks of a real group
  // meet at CUPP_DISTRIBUTED_HOST:CUPP_DISTRIBUTED_PORT (127.0.0.1:13333).
  auto& pg =
      n == 1 ? dist::init_process_group(1, 0, "127.0.0.1", 0) : dist::init_process_group(n, rank);
  cupp::ndarray<float> x = cupp::ones<float>(cupp::shape_t{1 << 20}) * float(rank + 1);
  cupp::ndarray<float> total(x.shape());
  pg.all_reduce(x * 2, total);  // x * 2 evaluated once, then summed over ranks
  pg.barrier();
  std::printf("rank %d of %d on GPU %d: total[0] = %g (expected %d)\n", pg.rank(), pg.size(),
              pg.device_id(), static_cast<double>(total(0).item()), n * (n + 1));
  dist::destroy_process_group();
  return 0;
}
