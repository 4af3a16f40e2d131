// Device paths of NCCL and the process group, run on one GPU: the
// communicator (<cupp/nccl.hpp>: one rank from a unique id and from
// init_all, every typed collective on float32 and, where NCCL reduces
// pairs of floats, complex64, the raw collectives on a stream, nested
// groups, send/recv to itself, the waits, abort and destroy) and the
// process group (<cupp/distributed/process_group.hpp>: one rank
// bootstrapped by the caller with argument checks on, every collective
// once, int64 once, and the default group over the TCP store). The
// distributed array needs no NCCL: distributed_array.cu.
//
// Built where NCCL is found (linked to cupp::nccl). Point to point between
// two ranks (send, recv, send_recv) is instantiated here but needs a peer:
// tests/distributed_worker.cu runs it, with every other collective, on
// several GPUs; MPI's bootstrap (<cupp/distributed/mpi.hpp>) is compiled in
// tests/distributed_mpi_worker.cu where cupp::mpi exists.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/distributed/process_group.hpp>
#include <cupp/generators.hpp>
#include <cupp/nccl.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/misc.hpp>

#include <chrono>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "checks.hpp"

namespace dist = cupp::distributed;
namespace nc = cupp::cuda;
using device_paths::expect;
using device_paths::expect_values;

namespace {

nc::nccl_options quick() {
  nc::nccl_options o;
  o.timeout = std::chrono::seconds(60);
  return o;
}

// 1, 2, ..., n as float32 on the current device.
cupp::ndarray<float> counting(cupp::index_t n) {
  return (cupp::arange<float>(n) + 1.0f).eval();
}

void communicator() {
  expect(nc::nccl_version() > 0 && nc::nccl_version() / 10000 == nc::nccl_build_version() / 10000,
         "nccl_version");
  const auto id = nc::nccl_unique_id::create();
  const auto bytes = id.bytes();
  expect(
      nc::nccl_unique_id::from_bytes(std::span<const std::byte>(bytes.data(), bytes.size())) == id,
      "nccl_unique_id bytes round trip");

  nc::nccl_communicator comm(1, id, 0, quick());
  expect(comm.size() == 1 && comm.rank_id() == 0 && comm.get() != nullptr &&
             comm.device_id() == nc::runtime::getDevice() && comm.options().blocking,
         "communicator properties");

  // Typed collectives; one rank: every result is the input.
  const auto x = counting(4);
  const cupp::ndarray<float> out = cupp::zeros<float>({4});
  comm.all_reduce(x, out);
  expect_values(out, {1, 2, 3, 4}, "all_reduce");
  const cupp::ndarray<float> twice = x * 2.0f;
  comm.reduce(twice, out, 0, nc::reduce_op::max);
  expect_values(out, {2, 4, 6, 8}, "reduce max");
  comm.broadcast(x, out, 0);
  expect_values(out, {1, 2, 3, 4}, "broadcast");
  const cupp::ndarray<float> inplace = x * 3.0f;
  comm.broadcast(inplace, 0);
  comm.all_reduce(inplace, inplace, nc::reduce_op::avg);
  expect_values(inplace, {3, 6, 9, 12}, "broadcast and all_reduce in place");
  comm.reduce_scatter(x, out, nc::reduce_op::min);
  expect_values(out, {1, 2, 3, 4}, "reduce_scatter");
  comm.all_gather(twice, out);
  expect_values(out, {2, 4, 6, 8}, "all_gather");
  {
    nc::nccl_group group;
    comm.send(x, 0);
    comm.recv(out, 0);
    group.end();
  }
  expect_values(out, {1, 2, 3, 4}, "send/recv to itself");
  // complex64 reduces as pairs of float32 (sum and avg only).
  const cupp::ndarray<cupp::complex64> z = x.astype<cupp::complex64>() * std::complex<float>(1, 1);
  const cupp::ndarray<cupp::complex64> zout = cupp::zeros<cupp::complex64>({4});
  comm.all_reduce(z, zout, nc::reduce_op::avg);
  expect_values(cupp::imag(zout), {1, 2, 3, 4}, "all_reduce complex64");
  comm.reduce(z, zout, 0);
  comm.reduce_scatter(z, zout);
  comm.all_gather(z, zout);
  expect_values(cupp::real(zout), {1, 2, 3, 4}, "reduce_scatter, all_gather complex64");
  comm.synchronize();
  comm.check_async_error();

  // Raw pointers on a stream of their own, in nested groups.
  const nc::Stream stream(true);
  const cupp::ndarray<float> raw = cupp::zeros<float>({4});
  nc::group_start();
  comm.all_reduce(x.data(), raw.data(), 4, ncclFloat32, ncclSum, stream.handle());
  nc::group_start();
  comm.reduce(x.data(), raw.data(), 2, ncclFloat32, ncclProd, 0, stream.handle());
  nc::group_end();
  nc::group_end();
  comm.broadcast(x.data(), raw.data(), 4, ncclFloat32, 0, stream.handle());
  comm.bcast(raw.data(), 4, ncclFloat32, 0, stream.handle());
  comm.reduce_scatter(x.data(), raw.data(), 4, ncclFloat32, ncclMax, stream.handle());
  comm.all_gather(x.data(), raw.data(), 4, ncclFloat32, stream.handle());
  nc::group_start();
  comm.send(x.data(), 4, ncclFloat32, 0, stream.handle());
  comm.recv(raw.data(), 4, ncclFloat32, 0, stream.handle());
  nc::group_end();
  comm.synchronize(stream.handle(), std::chrono::seconds(60));
  expect_values(raw, {1, 2, 3, 4}, "raw collectives");
  comm.destroy();

  auto all = nc::nccl_communicator::init_all({nc::runtime::getDevice()});
  expect(all.size() == 1 && all[0].size() == 1, "init_all");
  all[0].all_reduce(x, out);
  all[0].synchronize();
  expect_values(out, {1, 2, 3, 4}, "all_reduce (init_all)");
  all[0].abort();
}

// One rank, bootstrapped by the caller (no store), arguments checked.
dist::process_group_bootstrap alone() {
  dist::process_group_bootstrap b;
  b.share_from_rank_0 = [](std::span<const std::byte> mine) {
    return std::vector<std::byte>(mine.begin(), mine.end());
  };
  b.gather_texts = [](const std::string& mine) { return std::vector<std::string>{mine}; };
  return b;
}

void process_group() {
  dist::process_group_options o;
  o.timeout = std::chrono::seconds(60);
  o.check_arguments = true;
  dist::process_group pg(1, 0, alone(), o);
  expect(pg.size() == 1 && pg.rank() == 0 && pg.checks_arguments(), "process_group properties");
  expect(pg.communicator().size() == 1, "process_group communicator");
  const auto x = counting(6);
  // A lazy input into a strided output.
  const cupp::ndarray<float> wide = cupp::zeros<float>({12});
  const auto every_other = wide(cupp::slice(cupp::_, cupp::_, 2));
  pg.all_reduce(x * 2.0f, every_other);
  expect_values(wide, {2, 0, 4, 0, 6, 0, 8, 0, 10, 0, 12, 0}, "all_reduce (lazy, strided)");
  expect_values(pg.all_reduce(x, dist::reduce_op::max), {1, 2, 3, 4, 5, 6}, "all_reduce max");
  const cupp::ndarray<float> out = cupp::zeros<float>({6});
  pg.reduce(x, out, 0);
  expect_values(out, {1, 2, 3, 4, 5, 6}, "reduce");
  const cupp::ndarray<float> b = x * 4.0f;
  pg.broadcast(b, 0);
  expect_values(b, {4, 8, 12, 16, 20, 24}, "broadcast");
  pg.reduce_scatter(x - 1.0f, out);
  expect_values(out, {0, 1, 2, 3, 4, 5}, "reduce_scatter");
  const cupp::ndarray<float> stacked = cupp::zeros<float>({1, 6});
  pg.all_gather(x, stacked);
  expect_values(stacked, {1, 2, 3, 4, 5, 6}, "all_gather");
  pg.scatter(x.reshape({1, 6}) * 2.0f, out, 0);
  expect_values(out, {2, 4, 6, 8, 10, 12}, "scatter");
  pg.gather(x, stacked, 0);
  pg.all_to_all(x.reshape({1, 6}), stacked);
  expect_values(stacked, {1, 2, 3, 4, 5, 6}, "gather, all_to_all");
  // Point to point needs a peer: instantiated here, run by the worker.
  if (pg.size() > 1) {
    pg.send(x, 1);
    pg.recv(out, 1);
    pg.send_recv(x, out, 1);
  }
  const cupp::ndarray<std::int64_t> k = cupp::arange<std::int64_t>(5);
  expect_values(pg.all_reduce(k), {0, 1, 2, 3, 4}, "all_reduce int64");
  pg.barrier();
  pg.synchronize();

  // The default group, over a TCP store on an ephemeral port of this host.
  o.check_arguments = false;
  expect(!dist::is_initialized(), "no default group yet");
  auto& g = dist::init_process_group(1, 0, "127.0.0.1", 0, o);
  expect(&dist::default_process_group() == &g && g.store().port() > 0, "init_process_group");
  g.all_reduce(x, out);
  g.barrier();
  expect_values(out, {1, 2, 3, 4, 5, 6}, "default group all_reduce");
  dist::destroy_process_group();
  expect(!dist::is_initialized(), "destroy_process_group");
}

}  // namespace

void device_paths_distributed() {
  // NVLink multicast stays off in this process, as in every test of the area.
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  communicator();
  process_group();
}
