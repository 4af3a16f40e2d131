// bench/transfer: host <-> device bandwidth through cupp's transfer API,
// with raw cudaMemcpy as the reference, a device-to-device copy, and a sweep
// of the pageable pipeline's tuning (cupp::detail::tuning()).
//
// Cases (2 GiB of float32 by default; GB/s = bytes / seconds, 1 GB = 1e9 B;
// median of --reps runs after one warm-up run, host clock around a
// synchronized call):
//   h2d.pageable.cudaMemcpy   cudaMemcpy from a pageable buffer (reference)
//   h2d.pinned.cudaMemcpy     cudaMemcpy from pinned memory (reference)
//   h2d.pageable.asarray      cupp::asarray(host)          (allocates on the device)
//   h2d.pageable.set          x.set(host)
//   h2d.pinned.asarray        cupp::asarray(pinned host)   (host::empty_pinned)
//   h2d.pinned.set            x.set(pinned host)
//   d2h.pageable.cudaMemcpy   cudaMemcpy into a pageable buffer (reference)
//   d2h.pinned.cudaMemcpy     cudaMemcpy into pinned memory (reference)
//   d2h.pageable.asnumpy      cupp::asnumpy(x)   (allocates a new host array each time)
//   d2h.pageable.get_into     x.get_into(host)   (into a host array written before)
//   d2h.pinned.get_into       x.get_into(pinned host)
//   d2d.cudaMemcpyAsync       1 GiB device copy, CUDA events; (read + written) / time
//   d2d.copy                  x.copy() of 1 GiB (pool allocation included), CUDA events
// Then the sweep: x.set(host) and x.get_into(host) of --sweep-mib pageable
// MiB for every chunk x threads x buffers in the grid, best settings last.
// Every path is checked once: what comes back equals what went in.
//
//   bench_transfer [--mib 2048] [--d2d-mib 1024] [--reps 5] [--sweep-mib 512]
//                  [--sweep-reps 3] [--chunks 4,8,16,32,64] [--threads 1,2,4,8,12]
//                  [--buffers 2,3] [--sweep-max-seconds 45] [--no-sweep] [--json FILE]
// Exits 77 when there is no CUDA device, 1 on an error or a wrong result.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <cupp/creation.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/memory/transfer.hpp>
#include <cupp/ndarray.hpp>

#include "bench_common.hpp"

namespace {

using bench::clock_type;
using bench::seconds_since;
using cupp::index_t;

// ---------------------------------------------------------------------------
// Options.

struct options {
  std::size_t mib = 2048;
  std::size_t d2d_mib = 1024;
  int reps = 5;
  std::size_t sweep_mib = 512;
  int sweep_reps = 3;
  std::vector<int> chunks{4, 8, 16, 32, 64};
  std::vector<int> threads{1, 2, 4, 8, 12};
  std::vector<int> buffers{2, 3};
  double sweep_max_seconds = 45;
  bool sweep = true;
  std::string json;
};

options parse(int argc, char** argv) {
  options o;
  using bench::flag, bench::value;
  const bench::command_line cl(
      argc, argv,
      {value("--mib", "N", o.mib), value("--d2d-mib", "N", o.d2d_mib), value("--reps", "N", o.reps),
       value("--sweep-mib", "N", o.sweep_mib), value("--sweep-reps", "N", o.sweep_reps),
       value("--chunks", "a,b,..", o.chunks), value("--threads", "a,b,..", o.threads),
       value("--buffers", "a,b,..", o.buffers),
       value("--sweep-max-seconds", "S", o.sweep_max_seconds), flag("--no-sweep", o.sweep, false),
       value("--json", "FILE", o.json)});
  if (o.mib == 0 || o.reps < 1 || o.sweep_reps < 1) cl.usage();
  o.sweep_mib = std::min(o.sweep_mib, o.mib);
  return o;
}

// ---------------------------------------------------------------------------
// Host helpers: fill, clear and compare big buffers with every core, so that
// preparing 2 GiB does not take longer than moving it.

template <class F>
void parallel_bytes(std::size_t n, F f) {
  const unsigned team = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  const std::size_t per = (n / team + 4095) / 4096 * 4096;
  std::vector<std::thread> ts;
  for (unsigned t = 0; t < team; ++t) {
    const std::size_t b = std::min(n, per * t), e = std::min(n, b + per);
    if (e > b) ts.emplace_back([=] { f(b, e); });
  }
  for (auto& t : ts) t.join();
}

// Element i of the test data (as float32 bits): not zeros, not a ramp that
// compresses, and the same formula bench/cupy_reference.py uses.
inline std::uint32_t pattern(std::uint64_t i) {
  return static_cast<std::uint32_t>(i) * 2654435761u ^ 0x9E3779B9u;
}

void fill(void* p, std::size_t bytes) {
  auto* u = static_cast<std::uint32_t*>(p);
  parallel_bytes(bytes, [u](std::size_t b, std::size_t e) {
    for (std::size_t i = b / 4; i < e / 4; ++i) u[i] = pattern(i);
  });
}

void clear(void* p, std::size_t bytes, int value) {
  parallel_bytes(bytes, [p, value](std::size_t b, std::size_t e) {
    std::memset(static_cast<char*>(p) + b, value, e - b);
  });
}

// True when the buffer holds pattern(0 .. bytes/4).
bool holds_pattern(const void* p, std::size_t bytes) {
  const auto* u = static_cast<const std::uint32_t*>(p);
  std::atomic<bool> ok{true};
  parallel_bytes(bytes, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b / 4; i < e / 4; ++i)
      if (u[i] != pattern(i)) {
        ok = false;
        return;
      }
  });
  return ok;
}

// ---------------------------------------------------------------------------
// Timing and results.

struct result {
  std::string name;
  double value = 0;  // GB/s, median
  double min = 0, max = 0;
  std::vector<double> seconds;
  std::size_t bytes = 0;
  std::string note;
};

std::vector<result> results;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// `once` runs the operation once and returns its duration in seconds.
// `moved` is the byte count that GB/s divides: what crossed the link, or
// bytes read + written for device copies.
template <class F>
result measure(const std::string& name, std::size_t moved, int warmup, int reps, F once) {
  for (int i = 0; i < warmup; ++i) (void)once();
  result r;
  r.name = name;
  r.bytes = moved;
  for (int i = 0; i < reps; ++i) r.seconds.push_back(once());
  std::vector<double> gbs;
  for (double s : r.seconds) gbs.push_back(static_cast<double>(moved) / s / 1e9);
  r.value = static_cast<double>(moved) / median(r.seconds) / 1e9;
  r.min = *std::min_element(gbs.begin(), gbs.end());
  r.max = *std::max_element(gbs.begin(), gbs.end());
  return r;
}

void report(result r) {
  std::printf("  %-26s %9.2f GB/s   (min %.2f, max %.2f, %zu runs)%s%s\n", r.name.c_str(), r.value,
              r.min, r.max, r.seconds.size(), r.note.empty() ? "" : "  ", r.note.c_str());
  std::fflush(stdout);
  results.push_back(std::move(r));
}

// Host clock around a call that returns once the copy is done; the device
// is synchronized before the clock is read either way.
template <class F>
auto host_timed(F f) {
  return [f]() mutable {
    BENCH_CHECK(cudaDeviceSynchronize());
    const auto t0 = clock_type::now();
    f();
    BENCH_CHECK(cudaDeviceSynchronize());
    return seconds_since(t0);
  };
}

void check_ok(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("wrong data after ") + what);
  std::printf("  check %-40s ok\n", what);
}

// ---------------------------------------------------------------------------
// The sweep of the pageable pipeline.

struct sweep_row {
  std::size_t chunk_mib;
  int threads;  // 0: automatic
  int buffers;
  double h2d, d2h;  // GB/s, median
};

sweep_row sweep_one(std::size_t chunk_mib, int threads, int buffers, const cupp::ndarray<float>& d,
                    const cupp::host::ndarray<float>& src, const cupp::host::ndarray<float>& dst,
                    int reps) {
  auto& t = cupp::detail::tuning();
  t.chunk = chunk_mib << 20;
  t.threads = threads;
  t.buffers = buffers;
  const auto bytes = static_cast<std::size_t>(d.nbytes());
  // The warm-up runs double as the check: clear both ends first.
  BENCH_CHECK(cudaMemset(d.data(), 0xFF, bytes));
  clear(dst.data(), bytes, 0xAB);
  BENCH_CHECK(cudaDeviceSynchronize());
  auto h2d = measure("sweep.h2d", bytes, 0, 1, host_timed([&] { d.set(src); }));
  auto d2h = measure("sweep.d2h", bytes, 0, 1, host_timed([&] { d.get_into(dst); }));
  if (!holds_pattern(dst.data(), bytes))
    throw std::runtime_error("wrong data after the pageable round trip with chunk " +
                             std::to_string(chunk_mib) + " MiB, threads " +
                             std::to_string(threads) + ", buffers " + std::to_string(buffers));
  h2d = measure("sweep.h2d", bytes, 0, reps, host_timed([&] { d.set(src); }));
  d2h = measure("sweep.d2h", bytes, 0, reps, host_timed([&] { d.get_into(dst); }));
  return {chunk_mib, threads, buffers, h2d.value, d2h.value};
}

}  // namespace

int main(int argc, char** argv) {
  const options opt = parse(argc, argv);
  namespace cp = cupp;
  return bench::run_on_gpu("bench_transfer", [&] {
    std::vector<sweep_row> sweep;
    std::optional<sweep_row> best_h2d, best_d2h;
    const cupp::detail::transfer_tuning defaults = cupp::detail::tuning();
    const auto t_start = clock_type::now();
    cudaDeviceProp prop{};
    BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("bench_transfer on %s (sm_%d%d), %u host threads\n", prop.name, prop.major,
                prop.minor, std::thread::hardware_concurrency());
    std::printf(
        "pipeline defaults: threshold %zu MiB, chunk %zu MiB, buffers %d, threads %d "
        "(0: automatic, %d here)\n",
        defaults.threshold >> 20, defaults.chunk >> 20, defaults.buffers, defaults.threads,
        cupp::detail::copy_threads(defaults.chunk));

    const std::size_t bytes = opt.mib << 20;
    const index_t n = static_cast<index_t>(bytes / sizeof(float));
    const int warm = 1, reps = opt.reps;

    // The host buffers, written before any timing so no page is touched for
    // the first time inside a measurement (except where allocation is part
    // of what is measured: asnumpy).
    auto t_prep = clock_type::now();
    auto src = cp::host::empty<float>({n});
    auto dst = cp::host::empty<float>({n});
    auto psrc = cp::host::empty_pinned<float>({n});
    auto pdst = cp::host::empty_pinned<float>({n});
    fill(src.data(), bytes);
    fill(psrc.data(), bytes);
    clear(dst.data(), bytes, 0);
    clear(pdst.data(), bytes, 0);
    auto d = cp::empty<float>({n});
    BENCH_CHECK(cudaDeviceSynchronize());
    std::printf("prepared 4 x %zu MiB of host memory (2 pinned) in %.1f s\n\n", opt.mib,
                seconds_since(t_prep));

    // --- correctness, once per path -----------------------------------------
    std::printf("correctness (%zu MiB, data from a hash of the index):\n", opt.mib);
    {
      auto x = cp::asarray(src);
      auto back = cp::asnumpy(x);
      check_ok(holds_pattern(back.data(), bytes), "asarray(pageable) -> asnumpy");
    }
    BENCH_CHECK(cudaMemset(d.data(), 0, bytes));
    d.set(src);
    clear(dst.data(), bytes, 0);
    d.get_into(dst);
    check_ok(holds_pattern(dst.data(), bytes), "set(pageable) -> get_into(pageable)");
    BENCH_CHECK(cudaMemset(d.data(), 0, bytes));
    d.set(psrc);
    clear(pdst.data(), bytes, 0);
    d.get_into(pdst);
    check_ok(holds_pattern(pdst.data(), bytes), "set(pinned) -> get_into(pinned)");
    {
      auto x = cp::asarray(psrc);
      clear(pdst.data(), bytes, 0);
      x.get_into(pdst);
      check_ok(holds_pattern(pdst.data(), bytes), "asarray(pinned) -> get_into(pinned)");
    }
    std::printf("\n");

    // --- host -> device -------------------------------------------------------
    std::printf("host -> device, %zu MiB, median of %d after %d warm-up:\n", opt.mib, reps, warm);
    report(measure("h2d.pageable.cudaMemcpy", bytes, warm, reps, host_timed([&] {
                     BENCH_CHECK(cudaMemcpy(d.data(), src.data(), bytes, cudaMemcpyHostToDevice));
                   })));
    report(measure("h2d.pinned.cudaMemcpy", bytes, warm, reps, host_timed([&] {
                     BENCH_CHECK(cudaMemcpy(d.data(), psrc.data(), bytes, cudaMemcpyHostToDevice));
                   })));
    {
      std::optional<cp::ndarray<float>> x;
      report(measure("h2d.pageable.asarray", bytes, warm, reps, [&] {
        x.reset();  // back to the pool, outside the timed part
        BENCH_CHECK(cudaDeviceSynchronize());
        const auto t0 = clock_type::now();
        x = cp::asarray(src);
        BENCH_CHECK(cudaDeviceSynchronize());
        return seconds_since(t0);
      }));
      report(measure("h2d.pinned.asarray", bytes, warm, reps, [&] {
        x.reset();
        BENCH_CHECK(cudaDeviceSynchronize());
        const auto t0 = clock_type::now();
        x = cp::asarray(psrc);
        BENCH_CHECK(cudaDeviceSynchronize());
        return seconds_since(t0);
      }));
    }
    report(measure("h2d.pageable.set", bytes, warm, reps, host_timed([&] { d.set(src); })));
    report(measure("h2d.pinned.set", bytes, warm, reps, host_timed([&] { d.set(psrc); })));
    std::printf("\n");

    // --- device -> host -------------------------------------------------------
    std::printf("device -> host, %zu MiB, median of %d after %d warm-up:\n", opt.mib, reps, warm);
    report(measure("d2h.pageable.cudaMemcpy", bytes, warm, reps, host_timed([&] {
                     BENCH_CHECK(cudaMemcpy(dst.data(), d.data(), bytes, cudaMemcpyDeviceToHost));
                   })));
    report(measure("d2h.pinned.cudaMemcpy", bytes, warm, reps, host_timed([&] {
                     BENCH_CHECK(cudaMemcpy(pdst.data(), d.data(), bytes, cudaMemcpyDeviceToHost));
                   })));
    {
      std::optional<cp::host::ndarray<float>> r;
      report(measure("d2h.pageable.asnumpy", bytes, warm, reps, [&] {
        r.reset();  // freeing 2 GiB of host memory is not part of the copy
        BENCH_CHECK(cudaDeviceSynchronize());
        const auto t0 = clock_type::now();
        r = cp::asnumpy(d);
        BENCH_CHECK(cudaDeviceSynchronize());
        return seconds_since(t0);
      }));
    }
    report(
        measure("d2h.pageable.get_into", bytes, warm, reps, host_timed([&] { d.get_into(dst); })));
    report(
        measure("d2h.pinned.get_into", bytes, warm, reps, host_timed([&] { d.get_into(pdst); })));
    std::printf("\n");

    // --- device -> device -----------------------------------------------------
    {
      const std::size_t dbytes = std::min(opt.d2d_mib << 20, bytes);
      const index_t dn = static_cast<index_t>(dbytes / sizeof(float));
      auto a = cp::empty<float>({dn});
      auto b = cp::empty<float>({dn});
      BENCH_CHECK(cudaMemcpy(a.data(), d.data(), dbytes, cudaMemcpyDeviceToDevice));
      cudaEvent_t e0, e1;
      BENCH_CHECK(cudaEventCreate(&e0));
      BENCH_CHECK(cudaEventCreate(&e1));
      auto event_timed = [&](auto f) {
        return [&, f]() mutable {
          BENCH_CHECK(cudaEventRecord(e0, nullptr));
          f();
          BENCH_CHECK(cudaEventRecord(e1, nullptr));
          BENCH_CHECK(cudaEventSynchronize(e1));
          float ms = 0;
          BENCH_CHECK(cudaEventElapsedTime(&ms, e0, e1));
          return static_cast<double>(ms) * 1e-3;
        };
      };
      std::printf(
          "device -> device, %zu MiB, (read + written) / time, CUDA events, median of "
          "%d:\n",
          dbytes >> 20, 4 * reps);
      BENCH_CHECK(cudaMemset(b.data(), 0, dbytes));
      BENCH_CHECK(cudaMemcpyAsync(b.data(), a.data(), dbytes, cudaMemcpyDeviceToDevice, nullptr));
      {
        auto h = cp::asnumpy(b);
        check_ok(holds_pattern(h.data(), dbytes), "cudaMemcpyAsync device -> device");
        auto c = a.copy();
        auto hc = cp::asnumpy(c);
        check_ok(holds_pattern(hc.data(), dbytes), "ndarray::copy()");
      }
      report(measure("d2d.cudaMemcpyAsync", 2 * dbytes, 2, 4 * reps, event_timed([&] {
                       BENCH_CHECK(cudaMemcpyAsync(b.data(), a.data(), dbytes,
                                                   cudaMemcpyDeviceToDevice, nullptr));
                     })));
      std::optional<cp::ndarray<float>> c;
      report(measure("d2d.copy", 2 * dbytes, 2, 4 * reps, [&] {
        c.reset();
        return event_timed([&] { c = a.copy(); })();
      }));
      BENCH_CHECK(cudaEventDestroy(e0));
      BENCH_CHECK(cudaEventDestroy(e1));
      std::printf("\n");
    }

    // --- the sweep ------------------------------------------------------------
    if (opt.sweep) {
      const std::size_t sbytes = opt.sweep_mib << 20;
      const index_t sn = static_cast<index_t>(sbytes / sizeof(float));
      auto ssrc = cp::host::ndarray<float>::from_pointer(src.data(), {sn});
      auto sdst = cp::host::ndarray<float>::from_pointer(dst.data(), {sn});
      auto sd = cp::empty<float>({sn});
      std::printf("pageable pipeline sweep: set / get_into of %zu MiB, median of %d; GB/s\n",
                  opt.sweep_mib, opt.sweep_reps);
      std::printf("  %9s %8s %8s %10s %10s\n", "chunk MiB", "threads", "buffers", "H2D", "D2H");
      const auto t_sweep = clock_type::now();
      auto row = [&](std::size_t c, int t, int b, const char* tag) {
        const sweep_row r = sweep_one(c, t, b, sd, ssrc, sdst, opt.sweep_reps);
        std::printf("  %9zu %8d %8d %10.2f %10.2f%s\n", r.chunk_mib, r.threads, r.buffers, r.h2d,
                    r.d2h, tag);
        std::fflush(stdout);
        sweep.push_back(r);
        if (!best_h2d || r.h2d > best_h2d->h2d) best_h2d = r;
        if (!best_d2h || r.d2h > best_d2h->d2h) best_d2h = r;
      };
      const std::string tag = "  (defaults; threads 0 = automatic = " +
                              std::to_string(cupp::detail::copy_threads(defaults.chunk)) + ")";
      row(defaults.chunk >> 20, defaults.threads, defaults.buffers, tag.c_str());
      bool cut = false;
      for (int b : opt.buffers) {
        for (int c : opt.chunks) {
          for (int t : opt.threads) {
            if (seconds_since(t_sweep) > opt.sweep_max_seconds) {
              cut = true;
              break;
            }
            row(static_cast<std::size_t>(c), t, b, "");
          }
          if (cut) break;
        }
        if (cut) break;
      }
      if (cut)
        std::printf("  (sweep cut short after %.0f s: --sweep-max-seconds)\n",
                    opt.sweep_max_seconds);
      cupp::detail::tuning() = defaults;
      std::printf("  best H2D: chunk %zu MiB, threads %d, buffers %d: %.2f GB/s\n",
                  best_h2d->chunk_mib, best_h2d->threads, best_h2d->buffers, best_h2d->h2d);
      std::printf("  best D2H: chunk %zu MiB, threads %d, buffers %d: %.2f GB/s\n",
                  best_d2h->chunk_mib, best_d2h->threads, best_d2h->buffers, best_d2h->d2h);
      std::printf("  sweep took %.1f s\n\n", seconds_since(t_sweep));
    }
    std::printf("bench_transfer took %.1f s\n", seconds_since(t_start));

    if (!opt.json.empty()) {
      bench::write_json(opt.json, "transfer", prop.name, [&](std::ostream& f) {
        f << ",\n  \"bytes\": " << bytes << ",\n  \"results\": [\n";
        for (std::size_t i = 0; i < results.size(); ++i) {
          const result& r = results[i];
          f << "    {\"case\": \"" << r.name << "\", \"value\": " << r.value
            << ", \"unit\": \"GB/s\", \"bytes\": " << r.bytes << ", \"min\": " << r.min
            << ", \"max\": " << r.max << ", \"seconds\": [";
          for (std::size_t k = 0; k < r.seconds.size(); ++k) f << (k ? ", " : "") << r.seconds[k];
          f << "]}" << (i + 1 < results.size() ? ",\n" : "\n");
        }
        f << "  ],\n  \"sweep\": [\n";
        for (std::size_t i = 0; i < sweep.size(); ++i) {
          const sweep_row& r = sweep[i];
          f << "    {\"chunk_mib\": " << r.chunk_mib << ", \"threads\": " << r.threads
            << ", \"buffers\": " << r.buffers << ", \"h2d\": " << r.h2d << ", \"d2h\": " << r.d2h
            << "}" << (i + 1 < sweep.size() ? ",\n" : "\n");
        }
        f << "  ]";
        auto best = [&](const char* key, const std::optional<sweep_row>& r, double v) {
          f << ",\n  \"" << key << "\": ";
          if (!r)
            f << "null";
          else
            f << "{\"chunk_mib\": " << r->chunk_mib << ", \"threads\": " << r->threads
              << ", \"buffers\": " << r->buffers << ", \"gbs\": " << v << "}";
        };
        best("best_h2d", best_h2d, best_h2d ? best_h2d->h2d : 0);
        best("best_d2h", best_d2h, best_d2h ? best_d2h->d2h : 0);
      });
    }
  });
}
