// bench/memory_pool: the cost of one allocate/free pair and the device memory
// it holds, through cupp's caching pool and through CUDA's own allocators;
// then the pool under the soak of the memory GPU test, with its budget and
// without.
//
// Workload: a window of live allocations (64 by default). Each step frees
// one of them, chosen at random, and allocates a new one in its place: one
// free + one allocate per step. Sizes are log-uniform from 512 B to 64 MiB
// (the "mixed" pattern) or all 4 KiB (the "small" pattern, which shows the
// fixed cost per call). The sequence comes from a fixed seed through
// splitmix64, the same generator bench/cupy_reference.py uses, so both
// programs replay the same sizes and slots.
//
// Allocators, all on one non-blocking stream made current for the run:
//   pool_malloc      cupp::cuda::get_default_memory_pool().malloc(n)
//   alloc            cupp::cuda::alloc(n): the path ndarray takes
//   async_pool       cupp::cuda::MemoryAsyncPool().malloc(n)
//   cudaMallocAsync  cudaMallocAsync / cudaFreeAsync (release threshold max)
//   cudaMalloc       cudaMalloc / cudaFree
// A free is dropping the owning pointer for the cupp allocators.
//
// Time per pair is wall clock over the timed steps (after a warm-up), with
// the stream synchronized before the clock is read. Peak device memory:
// the pool's peak_total_bytes(), cudaMemPoolAttrReservedMemHigh for the
// stream-ordered allocators, and for cudaMalloc the rise of used device
// memory (cudaMemGetInfo) sampled whenever the live bytes reach a new high.
//
// The soak (--soak-rounds rounds per thread; 0 leaves it out): 1, 8 and 32
// threads, each on a non-blocking stream of its own, each round allocating
// from the default pool what a round of the GPU soak test allocates (an
// input and a result of n doubles, a reduction's partials and scalar, a
// gather's indices and values of m doubles and a flag; n and m uniform in
// 1..300,000), a cudaMemsetAsync on each so that the streams hold work, the
// result kept three rounds. Rows: µs per pool.malloc (host clock around the
// call), the pool's peak held (peak_total_bytes) and peak in use
// (peak_used_bytes) and their ratio, the moves of idle segments between
// streams and the segments given back. "budget" is the default pool;
// "no-budget" the same with set_budget_ratio(0), the pool before budgets.
//
//   bench_memory_pool [--pairs 1000000] [--malloc-pairs 1000000] [--warmup 10000]
//                     [--window 64] [--max-seconds 60] [--seed 42]
//                     [--small-bytes 4096] [--soak-rounds 500] [--json FILE]
// Exits 77 when there is no CUDA device.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/stream.hpp>

#include "bench_common.hpp"

namespace {

using bench::clock_type;
using bench::seconds_since;

// ---------------------------------------------------------------------------
// Options.

struct options {
  std::size_t pairs = 1'000'000;
  std::size_t malloc_pairs = 1'000'000;
  std::size_t warmup = 10'000;
  std::size_t window = 64;
  double max_seconds = 60.0;
  std::uint64_t seed = 42;
  std::size_t small_bytes = 4096;
  std::size_t soak_rounds = 500;
  std::string json;
};

options parse(int argc, char** argv) {
  options o;
  using bench::value;
  const bench::command_line cl(
      argc, argv,
      {value("--pairs", "N", o.pairs), value("--malloc-pairs", "N", o.malloc_pairs),
       value("--warmup", "N", o.warmup), value("--window", "N", o.window),
       value("--max-seconds", "S", o.max_seconds), value("--seed", "N", o.seed),
       value("--small-bytes", "N", o.small_bytes), value("--soak-rounds", "N", o.soak_rounds),
       value("--json", "FILE", o.json)});
  if (o.window == 0 || o.pairs == 0) cl.usage();
  return o;
}

// ---------------------------------------------------------------------------
// The workload. Draw k of the sequence is splitmix64(seed + (k + 1) * gamma),
// which numpy reproduces with vectorized uint64 arithmetic.

std::uint64_t draw(std::uint64_t seed, std::uint64_t k) {
  std::uint64_t z = seed + (k + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// 512 B * 2^(17 u): log-uniform over [512 B, 64 MiB).
std::size_t mixed_size(std::uint64_t r) {
  const double u = static_cast<double>(r >> 11) * 0x1.0p-53;
  const auto s = static_cast<std::size_t>(std::floor(512.0 * std::exp2(17.0 * u)));
  return std::clamp<std::size_t>(s, 512, std::size_t{64} << 20);
}

struct step {
  std::uint32_t slot;
  std::uint64_t size;
};

struct workload {
  std::vector<std::uint64_t> initial;  // sizes filling the window
  std::vector<step> steps;
  std::vector<std::uint8_t> new_high;  // live bytes reach a new high after this step
  std::uint64_t peak_live = 0;         // over the initial fill and every step
};

workload make_workload(std::size_t window, std::size_t nsteps, std::uint64_t seed,
                       std::size_t fixed_size) {
  workload w;
  auto size_of = [&](std::uint64_t k) -> std::uint64_t {
    return fixed_size ? fixed_size : mixed_size(draw(seed, k));
  };
  std::uint64_t live = 0;
  for (std::size_t i = 0; i < window; ++i) {
    w.initial.push_back(size_of(i));
    live += w.initial.back();
  }
  w.peak_live = live;
  std::vector<std::uint64_t> sizes = w.initial;
  w.steps.resize(nsteps);
  w.new_high.assign(nsteps, 0);
  for (std::size_t s = 0; s < nsteps; ++s) {
    const std::uint64_t k = window + 2 * s;
    const auto slot = static_cast<std::uint32_t>(draw(seed, k) % window);
    const std::uint64_t size = size_of(k + 1);
    w.steps[s] = {slot, size};
    live = live - sizes[slot] + size;
    sizes[slot] = size;
    if (live > w.peak_live) {
      w.peak_live = live;
      w.new_high[s] = 1;
    }
  }
  return w;
}

// ---------------------------------------------------------------------------
// Results.

struct result {
  std::string pattern;    // mixed | small
  std::string allocator;  // pool_malloc | alloc | async_pool | cudaMallocAsync | cudaMalloc
  std::size_t pairs = 0;  // timed pairs
  bool capped = false;    // stopped by --max-seconds
  double seconds = 0;
  double us_per_pair = 0;
  double peak_bytes = 0;       // device memory held at the peak
  double peak_live_bytes = 0;  // the bytes the program asked for at the peak
};

// ---------------------------------------------------------------------------
// The allocators. Each has handle alloc(size), void release(handle&),
// void sync(), void on_new_high() and double peak().

struct cupp_pool_alloc {
  cupp::cuda::MemoryPool& pool = cupp::cuda::get_default_memory_pool();
  bool through_alloc = false;  // cupp::cuda::alloc instead of pool.malloc
  cudaStream_t stream;
  using handle = cupp::cuda::memory_ptr;
  void reset() {
    pool.free_all_blocks();
    pool.reset_peak();
  }
  handle alloc(std::size_t n) { return through_alloc ? cupp::cuda::alloc(n) : pool.malloc(n); }
  void release(handle& h) { h.reset(); }
  void sync() { BENCH_CHECK(cudaStreamSynchronize(stream)); }
  void on_new_high() {}
  double peak() { return static_cast<double>(pool.peak_total_bytes()); }
  void finish() { pool.free_all_blocks(); }
};

cudaMemPool_t default_mempool() {
  int dev = 0;
  BENCH_CHECK(cudaGetDevice(&dev));
  cudaMemPool_t p{};
  BENCH_CHECK(cudaDeviceGetDefaultMemPool(&p, dev));
  return p;
}

void reset_mempool() {
  BENCH_CHECK(cudaDeviceSynchronize());
  cudaMemPool_t p = default_mempool();
  BENCH_CHECK(cudaMemPoolTrimTo(p, 0));
  std::uint64_t zero = 0;
  BENCH_CHECK(cudaMemPoolSetAttribute(p, cudaMemPoolAttrReservedMemHigh, &zero));
  // Keep freed memory cached, as cupp's MemoryAsyncPool does.
  std::uint64_t threshold = UINT64_MAX;
  BENCH_CHECK(cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &threshold));
}

double mempool_high() {
  std::uint64_t v = 0;
  BENCH_CHECK(cudaMemPoolGetAttribute(default_mempool(), cudaMemPoolAttrReservedMemHigh, &v));
  return static_cast<double>(v);
}

struct cupp_async_alloc {
  cupp::cuda::MemoryAsyncPool pool;
  cudaStream_t stream;
  using handle = cupp::cuda::memory_ptr;
  void reset() { reset_mempool(); }
  handle alloc(std::size_t n) { return pool.malloc(n); }
  void release(handle& h) { h.reset(); }
  void sync() { BENCH_CHECK(cudaStreamSynchronize(stream)); }
  void on_new_high() {}
  double peak() { return mempool_high(); }
  void finish() { reset_mempool(); }
};

struct raw_async_alloc {
  cudaStream_t stream;
  using handle = void*;
  void reset() { reset_mempool(); }
  handle alloc(std::size_t n) {
    void* p = nullptr;
    BENCH_CHECK(cudaMallocAsync(&p, n, stream));
    return p;
  }
  void release(handle& h) {
    if (h) BENCH_CHECK(cudaFreeAsync(h, stream));
    h = nullptr;
  }
  void sync() { BENCH_CHECK(cudaStreamSynchronize(stream)); }
  void on_new_high() {}
  double peak() { return mempool_high(); }
  void finish() { reset_mempool(); }
};

struct raw_malloc_alloc {
  cudaStream_t stream;
  std::size_t baseline_used = 0;
  std::size_t peak_used = 0;
  using handle = void*;
  static std::size_t used() {
    std::size_t free_b = 0, total = 0;
    BENCH_CHECK(cudaMemGetInfo(&free_b, &total));
    return total - free_b;
  }
  void reset() {
    BENCH_CHECK(cudaDeviceSynchronize());
    baseline_used = used();
    peak_used = 0;
  }
  handle alloc(std::size_t n) {
    void* p = nullptr;
    BENCH_CHECK(cudaMalloc(&p, n));
    return p;
  }
  void release(handle& h) {
    if (h) BENCH_CHECK(cudaFree(h));
    h = nullptr;
  }
  void sync() { BENCH_CHECK(cudaStreamSynchronize(stream)); }
  void on_new_high() {
    const std::size_t u = used();
    if (u > baseline_used) peak_used = std::max(peak_used, u - baseline_used);
  }
  double peak() { return static_cast<double>(peak_used); }
  void finish() {}
};

// Runs `warmup` untimed steps, then up to `timed` timed ones (fewer when
// max_seconds runs out; checked every 256 steps).
template <class A>
result run(A& a, const workload& w, std::size_t warmup, std::size_t timed, double max_seconds) {
  result r;
  a.reset();
  std::vector<typename A::handle> live(w.initial.size());
  for (std::size_t i = 0; i < w.initial.size(); ++i) live[i] = a.alloc(w.initial[i]);
  a.on_new_high();
  std::size_t s = 0;
  for (; s < warmup; ++s) {
    const step& st = w.steps[s];
    a.release(live[st.slot]);
    live[st.slot] = a.alloc(st.size);
    if (w.new_high[s]) a.on_new_high();
  }
  a.sync();
  const std::size_t end = warmup + timed;
  const auto t0 = clock_type::now();
  for (; s < end; ++s) {
    const step& st = w.steps[s];
    a.release(live[st.slot]);
    live[st.slot] = a.alloc(st.size);
    if (w.new_high[s]) a.on_new_high();
    if ((s & 255) == 255 && seconds_since(t0) > max_seconds) {
      ++s;
      r.capped = s < end;
      break;
    }
  }
  a.sync();
  r.seconds = seconds_since(t0);
  r.pairs = s - warmup;
  r.us_per_pair = r.pairs ? r.seconds / static_cast<double>(r.pairs) * 1e6 : 0.0;
  r.peak_bytes = a.peak();
  // The live-byte high over the steps that ran.
  std::vector<std::uint64_t> sizes = w.initial;
  std::uint64_t live_bytes = 0, high = 0;
  for (auto v : sizes) live_bytes += v;
  high = live_bytes;
  for (std::size_t k = 0; k < s; ++k) {
    live_bytes = live_bytes - sizes[w.steps[k].slot] + w.steps[k].size;
    sizes[w.steps[k].slot] = w.steps[k].size;
    high = std::max(high, live_bytes);
  }
  r.peak_live_bytes = static_cast<double>(high);
  for (auto& h : live) a.release(h);
  a.sync();
  a.finish();
  return r;
}

// ---------------------------------------------------------------------------
// The soak.

struct soak_result {
  int threads = 0;
  bool budget = true;
  std::size_t allocations = 0;
  double seconds = 0;       // wall clock of the whole soak
  double us_per_alloc = 0;  // host time inside pool.malloc, per call
  double peak_held = 0, peak_used = 0;
  std::size_t moves = 0, released = 0;
};

soak_result run_soak(int threads, bool budget, std::size_t rounds, std::uint64_t seed) {
  auto& pool = cupp::cuda::get_default_memory_pool();
  BENCH_CHECK(cudaDeviceSynchronize());
  pool.free_all_blocks();
  pool.reset_peak();
  pool.set_budget_ratio(budget ? cupp::cuda::detail::device_pool::default_budget_ratio : 0.0);
  const auto before = pool.pool().core().stats();
  std::vector<double> inside(static_cast<std::size_t>(threads), 0.0);
  std::vector<std::size_t> count(static_cast<std::size_t>(threads), 0);
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  const auto t0 = clock_type::now();
  {
    std::vector<std::jthread> workers;
    for (int t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        try {
          cupp::cuda::Stream stream(/*non_blocking=*/true);
          auto scope = stream.scope();
          const std::uint64_t mine =
              seed + 1000 * static_cast<std::uint64_t>(threads) + static_cast<std::uint64_t>(t);
          std::uint64_t k = 0;
          auto doubles = [&] { return 1 + draw(mine, k++) % 300'000; };
          double& busy = inside[static_cast<std::size_t>(t)];
          std::size_t& n_allocs = count[static_cast<std::size_t>(t)];
          auto take = [&](std::size_t bytes) {
            const auto a = clock_type::now();
            auto m = pool.malloc(bytes);
            busy += seconds_since(a);
            ++n_allocs;
            BENCH_CHECK(cudaMemsetAsync(m.get(), 0, bytes, stream.handle()));
            return m;
          };
          std::deque<cupp::cuda::memory_ptr> kept;
          for (std::size_t r = 0; r < rounds; ++r) {
            const std::size_t n = doubles(), m = doubles();
            auto x = take(8 * n);
            auto y = take(8 * n);
            {
              auto partials = take(8 * ((n + 1023) / 1024));
              auto sum = take(8);
            }
            auto idx = take(8 * m);
            auto values = take(8 * m);
            auto flag = take(16);
            kept.push_back(std::move(y));
            if (kept.size() > 3) kept.pop_front();
          }
          kept.clear();
          BENCH_CHECK(cudaStreamSynchronize(stream.handle()));
        } catch (...) {
          errors[static_cast<std::size_t>(t)] = std::current_exception();
        }
      });
  }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  soak_result r;
  r.seconds = seconds_since(t0);
  r.threads = threads;
  r.budget = budget;
  double busy = 0;
  for (int t = 0; t < threads; ++t) {
    busy += inside[static_cast<std::size_t>(t)];
    r.allocations += count[static_cast<std::size_t>(t)];
  }
  r.us_per_alloc = r.allocations ? busy / static_cast<double>(r.allocations) * 1e6 : 0.0;
  r.peak_held = static_cast<double>(pool.peak_total_bytes());
  r.peak_used = static_cast<double>(pool.peak_used_bytes());
  const auto after = pool.pool().core().stats();
  r.moves = after.adopted - before.adopted;
  r.released = after.released - before.released;
  pool.set_budget_ratio(cupp::cuda::detail::device_pool::default_budget_ratio);
  pool.free_all_blocks();
  return r;
}

void print_soak_header() {
  std::printf("\n%-5s %7s %-9s %10s %10s %12s %12s %8s %8s %8s %8s\n", "soak", "threads", "pool",
              "allocs", "us/alloc", "peak MiB", "in-use MiB", "ratio", "moves", "given", "seconds");
}

void print_soak_row(const soak_result& r) {
  std::printf("%-5s %7d %-9s %10zu %10.3f %12.1f %12.1f %8.2f %8zu %8zu %8.2f\n", "soak", r.threads,
              r.budget ? "budget" : "no-budget", r.allocations, r.us_per_alloc,
              r.peak_held / 1048576.0, r.peak_used / 1048576.0,
              r.peak_used > 0 ? r.peak_held / r.peak_used : 0.0, r.moves, r.released, r.seconds);
  std::fflush(stdout);
}

void print_header() {
  std::printf("%-8s %-16s %10s %12s %14s %14s %8s\n", "pattern", "allocator", "pairs", "us/pair",
              "peak MiB", "live-peak MiB", "peak/live");
}

void print_row(const result& r) {
  std::printf("%-8s %-16s %10zu %12.3f %14.1f %14.1f %8.2f%s\n", r.pattern.c_str(),
              r.allocator.c_str(), r.pairs, r.us_per_pair, r.peak_bytes / 1048576.0,
              r.peak_live_bytes / 1048576.0,
              r.peak_live_bytes > 0 ? r.peak_bytes / r.peak_live_bytes : 0.0,
              r.capped ? "  (capped by --max-seconds)" : "");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const options opt = parse(argc, argv);
  return bench::run_on_gpu("bench_memory_pool", [&] {
    cudaDeviceProp prop{};
    BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
    int driver = 0, runtime = 0;
    BENCH_CHECK(cudaDriverGetVersion(&driver));
    BENCH_CHECK(cudaRuntimeGetVersion(&runtime));
    std::printf("bench_memory_pool on %s (sm_%d%d), driver %d, runtime %d\n", prop.name, prop.major,
                prop.minor, driver, runtime);
    std::printf("window %zu live allocations, warm-up %zu steps, seed %llu, max %.0f s per run\n",
                opt.window, opt.warmup, static_cast<unsigned long long>(opt.seed), opt.max_seconds);
    std::printf("counts: %zu pairs for the pools and cudaMallocAsync, %zu for cudaMalloc\n\n",
                opt.pairs, opt.malloc_pairs);

    cupp::cuda::Stream stream(/*non_blocking=*/true);
    auto scope = stream.scope();
    const cudaStream_t s = stream.handle();

    std::vector<result> results;
    print_header();
    const std::size_t nsteps = opt.warmup + std::max(opt.pairs, opt.malloc_pairs);
    for (const std::string pattern : {"mixed", "small"}) {
      const workload w =
          make_workload(opt.window, nsteps, opt.seed, pattern == "small" ? opt.small_bytes : 0);
      auto record = [&](const char* name, result r) {
        r.pattern = pattern;
        r.allocator = name;
        print_row(r);
        results.push_back(r);
      };
      {
        cupp_pool_alloc a{.stream = s};
        record("pool_malloc", run(a, w, opt.warmup, opt.pairs, opt.max_seconds));
      }
      {
        cupp_pool_alloc a{.through_alloc = true, .stream = s};
        record("alloc", run(a, w, opt.warmup, opt.pairs, opt.max_seconds));
      }
      {
        cupp_async_alloc a{.stream = s};
        record("async_pool", run(a, w, opt.warmup, opt.pairs, opt.max_seconds));
      }
      {
        raw_async_alloc a{.stream = s};
        record("cudaMallocAsync", run(a, w, opt.warmup, opt.pairs, opt.max_seconds));
      }
      {
        raw_malloc_alloc a{.stream = s};
        const std::size_t warm = std::min<std::size_t>(opt.warmup, 1000);
        record("cudaMalloc", run(a, w, warm, opt.malloc_pairs, opt.max_seconds));
      }
    }

    std::vector<soak_result> soaks;
    if (opt.soak_rounds > 0) {
      print_soak_header();
      for (const int threads : {1, 8, 32})
        for (const bool budget : {true, false}) {
          soaks.push_back(run_soak(threads, budget, opt.soak_rounds, opt.seed));
          print_soak_row(soaks.back());
        }
    }

    if (!opt.json.empty()) {
      bench::write_json(opt.json, "memory_pool", prop.name, [&](std::ostream& f) {
        f << ",\n  \"window\": " << opt.window << ",\n  \"seed\": " << opt.seed
          << ",\n  \"results\": [\n";
        for (std::size_t i = 0; i < results.size(); ++i) {
          const result& r = results[i];
          char buf[512];
          std::snprintf(buf, sizeof buf,
                        "    {\"case\": \"%s.%s\", \"value\": %.6g, \"unit\": \"us/pair\", "
                        "\"pairs\": %zu, \"capped\": %s, \"seconds\": %.6g, \"peak_bytes\": %.0f, "
                        "\"peak_live_bytes\": %.0f}",
                        r.pattern.c_str(), r.allocator.c_str(), r.us_per_pair, r.pairs,
                        r.capped ? "true" : "false", r.seconds, r.peak_bytes, r.peak_live_bytes);
          f << buf << (i + 1 < results.size() || !soaks.empty() ? ",\n" : "\n");
        }
        for (std::size_t i = 0; i < soaks.size(); ++i) {
          const soak_result& r = soaks[i];
          char buf[512];
          std::snprintf(buf, sizeof buf,
                        "    {\"case\": \"soak.t%d.%s\", \"value\": %.6g, \"unit\": \"us/alloc\", "
                        "\"allocations\": %zu, \"seconds\": %.6g, \"peak_bytes\": %.0f, "
                        "\"peak_used_bytes\": %.0f, \"moves\": %zu, \"released\": %zu}",
                        r.threads, r.budget ? "budget" : "no_budget", r.us_per_alloc, r.allocations,
                        r.seconds, r.peak_held, r.peak_used, r.moves, r.released);
          f << buf << (i + 1 < soaks.size() ? ",\n" : "\n");
        }
        f << "  ]";
      });
    }
  });
}
