// One rank of a multi-process test of cupp::distributed (started by
// tests/distributed_test.cu, one process per GPU):
//
//   distributed_worker SCENARIO N_RANKS RANK PORT
//
// collectives: every collective of the process group on inputs that each
//   rank can compute for every other rank (value = f(rank, i)), so each
//   rank checks its results against a host computation.
// kill: the last rank exits right after the group is made; the others must
//   get an exception from a collective + synchronize within the timeout.
// mismatch: with argument checks on, the last rank passes a different
//   shape; every rank must get a value_error (and nobody hangs).
// Exit status 0 on success; a message on stderr otherwise.
#include <cupp/cupp.hpp>
#include <cupp/distributed/process_group.hpp>

#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

namespace dist = cupp::distributed;
using cupp::index_t;
using cupp::shape_t;

namespace {

int failures = 0;

void expect(bool ok, const std::string& what, int rank) {
  if (!ok) {
    std::fprintf(stderr, "rank %d: %s\n", rank, what.c_str());
    ++failures;
  }
}

// Rank r's element i.
double value(int r, index_t i) {
  return static_cast<double>((r + 1) * 1000 + (i % 97));
}

template <class T>
cupp::ndarray<T> input(int r, const shape_t& s) {
  cupp::host::ndarray<T> h(s);
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = static_cast<T>(value(r, i));
  return cupp::asarray(h);
}

template <class T>
std::vector<T> host(const cupp::ndarray<T>& a) {
  const auto h = cupp::asnumpy(a);
  return std::vector<T>(h.data(), h.data() + h.size());
}

template <class T>
void collectives(dist::process_group& pg) {
  const int n = pg.size(), me = pg.rank();
  const index_t m = 1000;
  const auto x = input<T>(me, shape_t{m});
  // all_reduce: sum and max, out of a lazy input (x * 1).
  {
    cupp::ndarray<T> out(shape_t{m});
    pg.all_reduce(x * T(1), out);
    const auto got = host(out);
    bool ok = true;
    for (index_t i = 0; i < m; ++i) {
      double want = 0;
      for (int r = 0; r < n; ++r) want += value(r, i);
      ok = ok && got[i] == static_cast<T>(want);
    }
    expect(ok, "all_reduce sum", me);
    const auto mx = host(pg.all_reduce(x, dist::reduce_op::max));
    ok = true;
    for (index_t i = 0; i < m; ++i) ok = ok && mx[i] == static_cast<T>(value(n - 1, i));
    expect(ok, "all_reduce max", me);
  }
  // reduce to the last rank.
  {
    cupp::ndarray<T> out = cupp::zeros<T>(shape_t{m});
    pg.reduce(x, out, n - 1);
    const auto got = host(out);
    bool ok = true;
    for (index_t i = 0; i < m; ++i) {
      double want = 0;
      for (int r = 0; r < n; ++r) want += value(r, i);
      ok = ok && got[i] == (me == n - 1 ? static_cast<T>(want) : T(0));
    }
    expect(ok, "reduce", me);
  }
  // broadcast from rank 1 into a strided output.
  {
    cupp::ndarray<T> wide = input<T>(me, shape_t{m, 2});
    const auto col = wide(cupp::slice(), 0);
    pg.broadcast(col, 1 % n);
    const auto got = host(col.copy());
    bool ok = true;
    for (index_t i = 0; i < m; ++i) ok = ok && got[i] == static_cast<T>(value(1 % n, 2 * i));
    expect(ok, "broadcast", me);
  }
  // reduce_scatter and all_gather.
  {
    const auto big = input<T>(me, shape_t{n * m});
    cupp::ndarray<T> part(shape_t{m});
    pg.reduce_scatter(big, part);
    auto got = host(part);
    bool ok = true;
    for (index_t i = 0; i < m; ++i) {
      double want = 0;
      for (int r = 0; r < n; ++r) want += value(r, me * m + i);
      ok = ok && got[i] == static_cast<T>(want);
    }
    expect(ok, "reduce_scatter", me);
    cupp::ndarray<T> all(shape_t{n, m});
    pg.all_gather(x, all);
    got = host(all);
    ok = true;
    for (int r = 0; r < n; ++r)
      for (index_t i = 0; i < m; ++i) ok = ok && got[r * m + i] == static_cast<T>(value(r, i));
    expect(ok, "all_gather", me);
  }
  // A ring of send_recv: from the previous rank, to the next.
  {
    cupp::ndarray<T> from(shape_t{m});
    const int next = (me + 1) % n, prev = (me + n - 1) % n;
    if (n == 2) {
      pg.send_recv(x, from, next);
    } else if (me % 2 == 0) {
      pg.send(x, next);
      pg.recv(from, prev);
    } else {
      pg.recv(from, prev);
      pg.send(x, next);
    }
    const auto got = host(from);
    bool ok = true;
    for (index_t i = 0; i < m; ++i) ok = ok && got[i] == static_cast<T>(value(prev, i));
    expect(ok, "send/recv", me);
  }
  // scatter from 0, gather to the last rank, all_to_all.
  {
    const auto rows = input<T>(me, shape_t{n, m});
    cupp::ndarray<T> mine(shape_t{m});
    pg.scatter(rows, mine, 0);
    auto got = host(mine);
    bool ok = true;
    for (index_t i = 0; i < m; ++i) ok = ok && got[i] == static_cast<T>(value(0, me * m + i));
    expect(ok, "scatter", me);
    cupp::ndarray<T> gathered = cupp::zeros<T>(shape_t{n, m});
    pg.gather(x, gathered, n - 1);
    got = host(gathered);
    ok = true;
    for (int r = 0; r < n; ++r)
      for (index_t i = 0; i < m; ++i)
        ok = ok && got[r * m + i] == (me == n - 1 ? static_cast<T>(value(r, i)) : T(0));
    expect(ok, "gather", me);
    cupp::ndarray<T> swapped(shape_t{n, m});
    pg.all_to_all(rows, swapped);
    got = host(swapped);
    ok = true;
    for (int r = 0; r < n; ++r)
      for (index_t i = 0; i < m; ++i)
        ok = ok && got[r * m + i] == static_cast<T>(value(r, me * m + i));
    expect(ok, "all_to_all", me);
  }
  pg.barrier();
}

int run(std::string scenario, int n, int rank, int port) {
  dist::process_group_options o;
  // The same scenarios over NCCL's non-blocking mode.
  if (scenario.ends_with("_nonblocking")) {
    o.nccl_blocking = false;
    scenario.resize(scenario.size() - std::string("_nonblocking").size());
  }
  o.timeout = std::chrono::seconds(scenario == "collectives" ? 120 : 20);
  if (scenario == "mismatch") o.check_arguments = true;
  dist::process_group pg(n, rank, "127.0.0.1", port, o);
  if (scenario == "collectives") {
    collectives<float>(pg);
    collectives<std::int64_t>(pg);
    collectives<double>(pg);
    return failures == 0 ? 0 : 1;
  }
  if (scenario == "kill") {
    pg.barrier();
    if (rank == n - 1) _exit(3);
    const auto t0 = std::chrono::steady_clock::now();
    try {
      cupp::ndarray<float> x = cupp::ones<float>(shape_t{1 << 20});
      for (int k = 0; k < 3; ++k) pg.all_reduce(x, x);
      pg.synchronize();
    } catch (const std::exception& e) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::fprintf(stderr, "rank %d: got the expected error after %.1f s: %s\n", rank, s, e.what());
      return s < 60 ? 0 : 1;
    }
    std::fprintf(stderr, "rank %d: no error although the last rank died\n", rank);
    return 1;
  }
  if (scenario == "mismatch") {
    const index_t m = rank == n - 1 ? 8 : 4;
    try {
      cupp::ndarray<float> x = cupp::ones<float>(shape_t{m});
      pg.all_reduce(x, x);
      pg.synchronize();
    } catch (const cupp::value_error& e) {
      std::fprintf(stderr, "rank %d: got the expected value_error: %s\n", rank, e.what());
      return 0;
    }
    std::fprintf(stderr, "rank %d: no value_error for disagreeing shapes\n", rank);
    return 1;
  }
  std::fprintf(stderr, "unknown scenario %s\n", scenario.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s SCENARIO N_RANKS RANK PORT\n", argv[0]);
    return 2;
  }
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  try {
    return run(argv[1], std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %s: %s\n", argv[3], e.what());
    return 1;
  }
}
