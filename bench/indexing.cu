// Indexing and array manipulation on the GPU: the workloads of
// bench/cupy_indexing.py, timed with CUDA events (median of repeated loops
// after a warm-up), with the bytes each moves compared against the
// device-to-device copy bandwidth measured in the same run.
//
//   copy.f32                    cudaMemcpyAsync of 2^28 float32 (read + write)
//   transpose.16384.f32         ascontiguousarray(m.T) of a 16384 x 16384 float32
//   transpose.16384.f64         matrix, and of a float64 one (read + write)
//   mask.i64                    x[x % 3 == 1] on 2^27 int64 (x read, the
//                               selected third written); ms is the figure
//   gather.f32                  x[idx]: 2^26 random int64 indices into 2^26
//   gather_unchecked.f32        float32, checked and unchecked (indices, the
//                               result and one read of x)
//   gather_l2.f32               the same indices modulo 2^22 into 2^22 float32
//   gather_l2_unchecked.f32     (L2-resident), checked and unchecked
//                               (16 MiB: the source stays in L2)
//   concatenate.axis0.f32       8 arrays of 2^25 float32 along axis 0, and 8 of
//   concatenate.axis1.f32       (4096, 8192) along axis 1 (read + write)
//
// Each line: NAME, ms per call, GB/s and the percentage of copy.f32's GB/s.
//
//   bench_indexing [--reps 10] [--runs 7] [--json FILE]
#include <cupp/cupp.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>

#include "bench_common.hpp"

namespace {

struct options {
  int reps = 10;  // calls per timed loop
  int runs = 7;   // timed loops; the median is reported
  std::string json;
};

struct row {
  std::string name;
  double value;
  std::string unit;
  double ms;     // per call
  double bytes;  // counted per call
};

// Median milliseconds per call of f over `runs` loops of `reps` calls.
template <class F>
double time_ms(const options& o, F&& f) {
  return bench::median_ms_per_call(o.runs, o.reps, f);
}

// Each case is checked once: a wrong answer fails the run.
void expect(const std::string& name, bool ok) {
  if (!ok) throw std::runtime_error(name + ": wrong result");
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  bench::command_line(argc, argv,
                      {bench::value("--reps", "N", o.reps), bench::value("--runs", "N", o.runs),
                       bench::value("--json", "FILE", o.json)});
  return bench::run_on_gpu("bench_indexing", [&] {
    const auto& props = cupp::cuda::runtime::getDeviceProperties(cupp::cuda::runtime::getDevice());
    std::vector<row> rows;
    double copy_gbs = 0;
    auto add = [&](const std::string& name, double ms, double bytes) {
      const double gbs = bytes / (ms * 1e-3) / 1e9;
      rows.push_back({name, gbs, "GB/s", ms, bytes});
      std::printf("%-24s %10.4f ms  %8.1f GB/s", name.c_str(), ms, gbs);
      if (copy_gbs > 0) std::printf("  %5.1f%% of copy", 100.0 * gbs / copy_gbs);
      std::printf("\n");
    };

    {  // the copy bandwidth everything is compared against
      const cupp::index_t n = cupp::index_t{1} << 28;
      cupp::ndarray<float> x = cupp::ones<float>({n}), y = cupp::zeros<float>({n});
      cudaStream_t s = cupp::cuda::get_current_stream().handle();
      const double ms = time_ms(o, [&] {
        BENCH_CHECK(cudaMemcpyAsync(y.data(), x.data(), n * 4, cudaMemcpyDeviceToDevice, s));
      });
      add("copy.f32", ms, 2.0 * n * 4);
      copy_gbs = rows.back().value;
    }
    {
      const cupp::index_t m = 16384;
      auto transpose = [&]<class T>(const char* name, T) {
        cupp::ndarray<T> a = cupp::arange<T>(m * m).reshape({m, m});
        cupp::ndarray<T> r;
        add(name, time_ms(o, [&] { r = cupp::ascontiguousarray(a.T()); }), 2.0 * m * m * sizeof(T));
        expect(name, r.is_c_contiguous() && r.item(3, 5) == a.item(5, 3) &&
                         r.item(m - 1, 7) == a.item(7, m - 1));
      };
      transpose("transpose.16384.f32", float{});
      transpose("transpose.16384.f64", double{});
    }
#if __has_include(<cupp/boolean_indexing.hpp>)
    {
      const cupp::index_t n = cupp::index_t{1} << 27;
      cupp::ndarray<std::int64_t> x = cupp::arange<std::int64_t>(n);
      cupp::ndarray<std::int64_t> r;
      const cupp::index_t count = (n + 1) / 3;  // 1, 4, 7, ... below n
      add("mask.i64", time_ms(o, [&] { r = x(x % 3 == 1); }), 8.0 * n + 8.0 * count);
      expect("mask.i64", r.size() == count && r.item(0) == 1 && r.item(count - 1) == 3 * count - 2);
    }
#endif
#if __has_include(<cupp/advanced_indexing.hpp>)
    {
      const cupp::index_t n = cupp::index_t{1} << 26;
      cupp::ndarray<float> x = cupp::arange<float>(n);
      std::vector<std::int64_t> h(static_cast<std::size_t>(n));
      std::mt19937_64 rng(7);
      for (auto& v : h) v = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
      cupp::ndarray<std::int64_t> idx = cupp::empty<std::int64_t>({n});
      idx.set(std::span<const std::int64_t>(h));
      cupp::ndarray<float> y;
      const double bytes = 8.0 * n + 4.0 * n + 4.0 * n;
      add("gather.f32", time_ms(o, [&] { y = x(idx); }), bytes);
      expect("gather.f32", y.item(12345) == x.item(h[12345]) && y.item(n - 1) == x.item(h.back()));
      add("gather_unchecked.f32", time_ms(o, [&] { y = x(idx).unchecked(); }), bytes);
      expect("gather_unchecked.f32", y.item(777) == x.item(h[777]));
      // The same indices into a source that L2 holds (16 MiB): what the
      // gather costs when its random reads do not each pull a DRAM sector.
      const cupp::index_t m = cupp::index_t{1} << 22;
      cupp::ndarray<float> small = cupp::arange<float>(m);
      cupp::ndarray<std::int64_t> near = idx % m;
      const double near_bytes = 8.0 * n + 4.0 * n + 4.0 * m;
      add("gather_l2.f32", time_ms(o, [&] { y = small(near); }), near_bytes);
      expect("gather_l2.f32", y.item(4242) == small.item(h[4242] % m));
      add("gather_l2_unchecked.f32", time_ms(o, [&] { y = small(near).unchecked(); }), near_bytes);
      expect("gather_l2_unchecked.f32", y.item(99) == small.item(h[99] % m));
      if (std::getenv("CUPP_BENCH_GATHER_SWEEP")) {
        // The flat gather kernel alone (no allocation, no check), by items a
        // thread and cache hints, from the L2-resident and the large source.
        cupp::ndarray<float> out = cupp::empty<float>({n});
        const cudaStream_t s = cupp::cuda::get_current_stream().handle();
        auto variant = [&](const char* name, auto launch) {
          for (int big = 0; big < 2; ++big) {
            const char* src = reinterpret_cast<const char*>(big ? x.data() : small.data());
            const auto* ip = big ? idx.data() : near.data();
            const double ms = time_ms(o, [&] {
              launch(src, 4, big ? n : m, ip, reinterpret_cast<char*>(out.data()), n,
                     cupp::detail::index_mode::trusted, nullptr, s);
            });
            std::printf("sweep gather %-12s %-5s %8.4f ms\n", name, big ? "dram" : "l2", ms);
          }
        };
        variant("items4", cupp::detail::launch_flat_gather<4, 4, false>);
        variant("items4.hint", cupp::detail::launch_flat_gather<4, 4, true>);
        variant("items8", cupp::detail::launch_flat_gather<4, 8, false>);
        variant("items8.hint", cupp::detail::launch_flat_gather<4, 8, true>);
      }
    }
#endif
#if __has_include(<cupp/joining.hpp>)
    {
      const cupp::index_t n = cupp::index_t{1} << 25;
      std::vector<cupp::ndarray<float>> parts;
      for (int i = 0; i < 8; ++i) parts.push_back(cupp::full<float>({n}, static_cast<float>(i)));
      cupp::ndarray<float> r;
      add("concatenate.axis0.f32", time_ms(o, [&] { r = cupp::concatenate(parts); }),
          2.0 * 8 * n * 4);
      expect("concatenate.axis0.f32", r.size() == 8 * n && r.item(3 * n) == 3.0f);
      std::vector<cupp::ndarray<float>> cols;
      for (int i = 0; i < 8; ++i)
        cols.push_back(cupp::full<float>({4096, 8192}, static_cast<float>(i)));
      add("concatenate.axis1.f32", time_ms(o, [&] { r = cupp::concatenate(cols, 1); }),
          2.0 * 8 * n * 4);
      expect("concatenate.axis1.f32",
             r.shape() == (cupp::shape_t{4096, 65536}) && r.item(4095, 5 * 8192 + 3) == 5.0f);
    }
#endif
    if (!o.json.empty())
      bench::write_json(o.json, "indexing", props.name, [&](std::ostream& f) {
        f << ",\n  \"copy_gbs\": " << copy_gbs << ",\n  \"results\": [";
        for (std::size_t i = 0; i < rows.size(); ++i)
          f << (i ? ",\n" : "\n") << "    {\"case\": \"" << rows[i].name
            << "\", \"value\": " << rows[i].value << ", \"unit\": \"" << rows[i].unit
            << "\", \"ms\": " << rows[i].ms << ", \"bytes\": " << rows[i].bytes << "}";
        f << "\n  ]";
      });
  });
}
