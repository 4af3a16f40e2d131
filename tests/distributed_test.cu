// cupp::distributed's process group: every collective on a one-rank group
// in this process (against the same operation on one ordinary array), the
// argument errors, and, where the machine has several GPUs, groups of 2 and
// N processes (tests/distributed_worker.cu, one per GPU): every collective,
// a rank killed mid-run (the others get an error, nothing hangs) and ranks
// whose arguments disagree (a value_error on every rank).
#include <cupp/cupp.hpp>
#include <cupp/distributed/process_group.hpp>
#include <cupp/generators.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "cupp_test.hpp"

extern char** environ;

namespace dist = cupp::distributed;
using cupp::index_t;
using cupp::shape_t;

namespace {

template <class T>
std::vector<T> host(const cupp::ndarray<T>& a) {
  const auto h = cupp::asnumpy(a.copy());
  return std::vector<T>(h.data(), h.data() + h.size());
}

cupp::ndarray<float> ramp(const shape_t& s) {
  cupp::host::ndarray<float> h(s);
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = static_cast<float>(i % 101) - 50.f;
  return cupp::asarray(h);
}

dist::process_group one_rank(bool checks = false) {
  dist::process_group_options o;
  o.timeout = std::chrono::seconds(30);
  o.check_arguments = checks;
  return dist::process_group(1, 0, "127.0.0.1", 0, o);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(one_rank_group)

BOOST_AUTO_TEST_CASE(collectives_match_one_array) {
  for (const bool checks : {false, true}) {
    BOOST_TEST_CONTEXT("check_arguments " << checks) {
      auto pg = one_rank(checks);
      BOOST_TEST(pg.size() == 1);
      BOOST_TEST(pg.rank() == 0);
      const auto x = ramp(shape_t{6, 5});
      const auto want = host(x);
      for (const auto op : {dist::reduce_op::sum, dist::reduce_op::prod, dist::reduce_op::max,
                            dist::reduce_op::min, dist::reduce_op::avg})
        BOOST_TEST(host(pg.all_reduce(x, op)) == want);
      // A lazy input and a strided output.
      cupp::ndarray<float> wide = cupp::zeros<float>(shape_t{6, 10});
      const auto every_other = wide(cupp::slice(), cupp::slice(cupp::_, cupp::_, 2));
      pg.all_reduce(x * 2.f, every_other);
      auto doubled = want;
      for (auto& v : doubled) v *= 2;
      BOOST_TEST(host(every_other) == doubled);
      BOOST_TEST(host(wide(cupp::slice(), cupp::slice(1, cupp::_, 2))) ==
                 std::vector<float>(30, 0.f));
      cupp::ndarray<float> out(shape_t{6, 5});
      pg.reduce(x, out, 0);
      BOOST_TEST(host(out) == want);
      auto b = x.copy();
      pg.broadcast(b, 0);
      BOOST_TEST(host(b) == want);
      pg.reduce_scatter(x, out);
      BOOST_TEST(host(out) == want);
      cupp::ndarray<float> stacked(shape_t{1, 6, 5});
      pg.all_gather(x, stacked);
      BOOST_TEST(host(stacked) == want);
      pg.scatter(x.reshape({1, 6, 5}), out, 0);
      BOOST_TEST(host(out) == want);
      cupp::ndarray<float> gathered = cupp::zeros<float>(shape_t{1, 6, 5});
      pg.gather(x, gathered, 0);
      BOOST_TEST(host(gathered) == want);
      cupp::ndarray<float> swapped(shape_t{1, 30});
      pg.all_to_all(x.reshape({1, 30}), swapped);
      BOOST_TEST(host(swapped) == want);
      // int64 and an empty array.
      const cupp::ndarray<std::int64_t> k = cupp::arange<std::int64_t>(0, 17);
      BOOST_TEST(host(pg.all_reduce(k, dist::reduce_op::max)) == host(k));
      cupp::ndarray<float> none(shape_t{0});
      pg.all_reduce(none, none);
      pg.barrier();
      pg.synchronize();
    }
  }
}

BOOST_AUTO_TEST_CASE(argument_errors) {
  auto pg = one_rank();
  const auto x = ramp(shape_t{4});
  cupp::ndarray<float> out(shape_t{4}), wrong(shape_t{5});
  BOOST_CHECK_THROW(pg.reduce(x, out, 1), cupp::value_error);
  BOOST_CHECK_THROW(pg.broadcast(out, -1), cupp::value_error);
  BOOST_CHECK_THROW(pg.send(x, 0), cupp::value_error);  // itself
  BOOST_CHECK_THROW(pg.recv(out, 3), cupp::value_error);
  BOOST_CHECK_THROW(pg.all_reduce(x, wrong), cupp::value_error);
  BOOST_CHECK_THROW(pg.reduce_scatter(x, wrong), cupp::value_error);
  BOOST_CHECK_THROW(pg.all_gather(x, wrong), cupp::value_error);
  BOOST_CHECK_THROW(pg.all_to_all(ramp(shape_t{2, 2}), out), cupp::value_error);
  BOOST_CHECK_THROW(pg.scatter(x, out, 0), cupp::value_error);  // in must be (1, 4)
  BOOST_CHECK_THROW(dist::process_group(2, 2, "127.0.0.1", 0), cupp::value_error);
  BOOST_CHECK_THROW(dist::process_group(0, 0, "127.0.0.1", 0), cupp::value_error);
  dist::process_group_options far;
  far.device = cupp::cuda::runtime::getDeviceCount();
  BOOST_CHECK_THROW(dist::process_group(1, 0, "127.0.0.1", 0, far), cupp::value_error);
}

BOOST_AUTO_TEST_CASE(default_group) {
  BOOST_TEST(!dist::is_initialized());
  BOOST_CHECK_THROW(dist::default_process_group(), std::runtime_error);
  dist::process_group_options o;
  o.timeout = std::chrono::seconds(30);
  auto& pg = dist::init_process_group(1, 0, "127.0.0.1", 0, o);
  BOOST_TEST(&dist::default_process_group() == &pg);
  BOOST_CHECK_THROW(dist::init_process_group(1, 0, "127.0.0.1", 0, o), std::runtime_error);
  dist::destroy_process_group();
  BOOST_TEST(!dist::is_initialized());
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

// The worker beside this executable, so that a build tree copied elsewhere
// (the device runs) still finds it; the configured path otherwise.
std::string worker_path() {
  std::error_code ec;
  const auto here = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto beside = here.parent_path() / "distributed_worker";
    if (std::filesystem::exists(beside, ec)) return beside.string();
  }
  return CUPP_DISTRIBUTED_WORKER;
}

// Starts n workers of `scenario` (one per rank), waits for all of them up to
// `limit`, kills what is left, and returns how many exited with 0.
int run_workers(const std::string& scenario, int n, std::chrono::seconds limit) {
  const int port = 20000 + static_cast<int>(getpid() % 20000);
  std::vector<pid_t> pids;
  for (int r = 0; r < n; ++r) {
    const std::string args[] = {worker_path(), scenario, std::to_string(n), std::to_string(r),
                                std::to_string(port)};
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    BOOST_REQUIRE(posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) == 0);
    pids.push_back(pid);
  }
  int passed = 0;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (const pid_t pid : pids) {
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        BOOST_ERROR(scenario << ": a worker did not finish within " << limit.count() << " s");
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) ++passed;
  }
  return passed;
}

bool several_gpus() {
  return cupp::cuda::runtime::getDeviceCount() >= 2;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(several_processes)

BOOST_AUTO_TEST_CASE(collectives_with_2_and_n_ranks) {
  const int n = cupp::cuda::runtime::getDeviceCount();
  if (n < 2) {
    BOOST_TEST_MESSAGE("one GPU: the multi-process collectives need two or more (skipped)");
    return;
  }
  BOOST_TEST(run_workers("collectives", 2, std::chrono::seconds(240)) == 2);
  if (n > 2) BOOST_TEST(run_workers("collectives", n, std::chrono::seconds(240)) == n);
  // NCCL's non-blocking mode, with 2 ranks.
  BOOST_TEST(run_workers("collectives_nonblocking", 2, std::chrono::seconds(240)) == 2);
}

BOOST_AUTO_TEST_CASE(a_killed_rank_does_not_hang_the_others) {
  if (!several_gpus()) {
    BOOST_TEST_MESSAGE("one GPU: skipped");
    return;
  }
  const int n = cupp::cuda::runtime::getDeviceCount();
  // Every rank but the killed one reports the expected error.
  BOOST_TEST(run_workers("kill", n, std::chrono::seconds(120)) == n - 1);
  BOOST_TEST(run_workers("kill_nonblocking", n, std::chrono::seconds(120)) == n - 1);
}

BOOST_AUTO_TEST_CASE(disagreeing_arguments_raise_everywhere) {
  if (!several_gpus()) {
    BOOST_TEST_MESSAGE("one GPU: skipped");
    return;
  }
  const int n = cupp::cuda::runtime::getDeviceCount();
  BOOST_TEST(run_workers("mismatch", n, std::chrono::seconds(120)) == n);
}

BOOST_AUTO_TEST_SUITE_END()
