// Collectives of cupp::distributed's process group beside the raw NCCL
// call on the same communicator and stream, as nccl-tests measures them:
// all_reduce (in place) and all_gather of float32 from 8 KiB to 1 GiB,
// median ms per call over CUDA-event-timed loops, and the bus bandwidth
// (all_reduce: bytes / t * 2(n-1)/n; all_gather: total bytes / t * (n-1)/n).
// One process per GPU; bench/run_distributed.sh starts them:
//
//   bench/run_distributed.sh BUILD_DIR N [--json FILE]
//   bench_distributed --ranks N --rank R --port P [--json FILE] [--max-mib M]
//                     [--nonblocking]
//
// --nonblocking makes the group's communicator an NCCL non-blocking one, to
// show what that mode costs per call.
// Rank 0 prints the table and writes the JSON.
#include <cupp/cupp.hpp>
#include <cupp/distributed/process_group.hpp>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace dist = cupp::distributed;

namespace {

// A raw NCCL call on the group's communicator. In NCCL's non-blocking mode
// (--nonblocking) NCCL may answer ncclInProgress, and then the enqueue is
// complete once ncclCommGetAsyncError no longer says so.
void raw(ncclResult_t r, ncclComm_t comm, const char* what) {
  while (r == ncclInProgress) {
    ncclResult_t state = ncclSuccess;
    cupp::cuda::check(ncclCommGetAsyncError(comm, &state), "ncclCommGetAsyncError");
    r = state;
  }
  cupp::cuda::check(r, what);
}

struct row {
  std::string collective;
  std::size_t bytes;
  double cupp_ms, nccl_ms, cupp_busbw, nccl_busbw;
};

}  // namespace

int main(int argc, char** argv) {
  int ranks = 1, rank = 0, port = 29500;
  int max_mib = 1024;
  std::string json;
  bool nonblocking = false;
  bench::command_line(
      argc, argv,
      {bench::value("--ranks", "N", ranks), bench::value("--rank", "R", rank),
       bench::value("--port", "P", port), bench::value("--max-mib", "M", max_mib),
       bench::value("--json", "FILE", json), bench::flag("--nonblocking", nonblocking, true)});
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  return bench::run_on_gpu("bench_distributed", [&] {
    dist::process_group_options o;
    o.timeout = std::chrono::seconds(120);
    o.nccl_blocking = !nonblocking;
    dist::process_group pg(ranks, rank, "127.0.0.1", port, o);
    cupp::cuda::device_scope on(pg.device_id());
    cudaStream_t s = cupp::cuda::detail::current_stream_impl(pg.device_id())->handle;
    ncclComm_t comm = pg.communicator().get();
    const double n = ranks;
    std::vector<row> rows;
    for (std::size_t bytes = 8 << 10; bytes <= (std::size_t(max_mib) << 20); bytes *= 2) {
      const auto count = static_cast<cupp::index_t>(bytes / sizeof(float));
      const int reps = bytes <= (8u << 20) ? 50 : bytes <= (128u << 20) ? 10 : 3;
      cupp::ndarray<float> x = cupp::ones<float>(cupp::shape_t{count});
      pg.barrier();
      const double c = bench::median_ms_per_call(s, 5, reps, [&] { pg.all_reduce(x, x); });
      pg.barrier();
      const double r = bench::median_ms_per_call(s, 5, reps, [&] {
        raw(ncclAllReduce(x.data(), x.data(), static_cast<std::size_t>(count), ncclFloat32, ncclSum,
                          comm, s),
            comm, "ncclAllReduce");
      });
      const double f = 2 * (n - 1) / n;
      rows.push_back({"all_reduce", bytes, c, r, bytes / c / 1e6 * f, bytes / r / 1e6 * f});
      // all_gather: `bytes` is the gathered total, as nccl-tests counts it.
      const auto part = std::max<cupp::index_t>(1, count / ranks);
      cupp::ndarray<float> in = cupp::ones<float>(cupp::shape_t{part});
      cupp::ndarray<float> out(cupp::shape_t{part * ranks});
      pg.barrier();
      const double cg = bench::median_ms_per_call(s, 5, reps, [&] { pg.all_gather(in, out); });
      pg.barrier();
      const double rg = bench::median_ms_per_call(s, 5, reps, [&] {
        raw(ncclAllGather(in.data(), out.data(), static_cast<std::size_t>(part), ncclFloat32, comm,
                          s),
            comm, "ncclAllGather");
      });
      const double total = double(part) * ranks * sizeof(float), g = (n - 1) / n;
      rows.push_back({"all_gather", static_cast<std::size_t>(total), cg, rg, total / cg / 1e6 * g,
                      total / rg / 1e6 * g});
    }
    pg.barrier();
    if (rank != 0) return;
    cudaDeviceProp p{};
    BENCH_CHECK(cudaGetDeviceProperties(&p, pg.device_id()));
    std::printf("%d ranks, %s, NCCL %s mode; ms per call (median), bus bandwidth GB/s\n", ranks,
                p.name, nonblocking ? "non-blocking" : "blocking");
    std::printf("%-11s %12s %10s %10s %10s %10s %8s\n", "collective", "bytes", "cupp ms", "nccl ms",
                "cupp GB/s", "nccl GB/s", "ratio");
    for (const auto& r : rows)
      std::printf("%-11s %12zu %10.4f %10.4f %10.1f %10.1f %8.3f\n", r.collective.c_str(), r.bytes,
                  r.cupp_ms, r.nccl_ms, r.cupp_busbw, r.nccl_busbw, r.cupp_ms / r.nccl_ms);
    if (!json.empty())
      bench::write_json(json, "distributed", p.name, [&](std::ostream& f) {
        f << ",\n  \"ranks\": " << ranks << ",\n  \"rows\": [";
        for (std::size_t i = 0; i < rows.size(); ++i)
          f << (i ? "," : "") << "\n    {\"collective\": \"" << rows[i].collective
            << "\", \"bytes\": " << rows[i].bytes << ", \"cupp_ms\": " << rows[i].cupp_ms
            << ", \"nccl_ms\": " << rows[i].nccl_ms << ", \"cupp_busbw\": " << rows[i].cupp_busbw
            << ", \"nccl_busbw\": " << rows[i].nccl_busbw << "}";
        f << "\n  ]";
      });
  });
}
