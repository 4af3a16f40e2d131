// Scaling of cupp::distributed's distributed array over the GPUs of one
// machine: z = x * y + w (one fused kernel per chunk) and sum(x * y) (fused
// per chunk, then the partial sums combined on the first GPU) of 2^28
// float32 split by rows over 1, 2, 4 ... GPUs, beside the same expressions
// on one ordinary array of one GPU. Median ms per call of loops timed on
// the host with every GPU synchronised; speedup = one GPU / N GPUs
// (target: >= 0.95 N for the element-wise expression).
//
//   bench_distributed_array [--log2 28] [--runs 5] [--json FILE]
#include <cupp/cupp.hpp>
#include <cupp/distributed/array.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace dist = cupp::distributed;

namespace {

void sync_all(int n) {
  for (int d = 0; d < n; ++d) {
    cupp::cuda::device_scope on(d);
    BENCH_CHECK(cudaDeviceSynchronize());
  }
}

template <class F>
double median_ms(int devices, int runs, int reps, F&& f) {
  for (int i = 0; i < 2; ++i) f();
  sync_all(devices);
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = bench::clock_type::now();
    for (int i = 0; i < reps; ++i) f();
    sync_all(devices);
    t.push_back(bench::seconds_since(t0) * 1e3 / reps);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Microseconds the host spends issuing one call (no synchronisation inside
// the timed loop): where it exceeds the GPU time of a call, the host bounds
// the rate, not the GPUs.
template <class F>
double host_issue_us(int devices, int runs, int reps, F&& f) {
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    sync_all(devices);
    const auto t0 = bench::clock_type::now();
    for (int i = 0; i < reps; ++i) f();
    t.push_back(bench::seconds_since(t0) * 1e6 / reps);
    sync_all(devices);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct row {
  int gpus;
  double expr_ms, sum_ms, sum_host_us;
};

}  // namespace

int main(int argc, char** argv) {
  int log2n = 28, runs = 5;
  std::string json;
  bench::command_line(argc, argv,
                      {bench::value("--log2", "N", log2n), bench::value("--runs", "R", runs),
                       bench::value("--json", "FILE", json)});
  return bench::run_on_gpu("bench_distributed_array", [&] {
    const int devices = cupp::cuda::runtime::getDeviceCount();
    const cupp::index_t cols = 1024, rows_total = (cupp::index_t(1) << log2n) / cols;
    const cupp::shape_t shape{rows_total, cols};
    // One GPU, ordinary arrays.
    cupp::cuda::device_scope on0(0);
    const cupp::ndarray<float> x = cupp::ones<float>(shape), y = cupp::ones<float>(shape) * 2.f,
                               w = cupp::ones<float>(shape) * 3.f;
    const double one_expr = median_ms(1, runs, 5, [&] { cupp::ndarray<float> z = x * y + w; });
    const double one_sum = median_ms(1, runs, 5, [&] { (void)cupp::sum(x * y); });
    const double one_sum_host = host_issue_us(1, runs, 5, [&] { (void)cupp::sum(x * y); });
    std::vector<row> rows;
    for (int n = 1; n <= devices; n *= 2) {
      dist::index_map m;
      for (int d = 0; d < n; ++d)
        m[d].push_back({cupp::slice(rows_total * d / n, rows_total * (d + 1) / n)});
      const dist::distributed_array<float> dx(x, m), dy(y, m), dw(w, m);
      const double e =
          median_ms(n, runs, 5, [&] { dist::distributed_array<float> z = dx * dy + dw; });
      const double s = median_ms(n, runs, 5, [&] { (void)dist::sum(dx * dy); });
      const double h = host_issue_us(n, runs, 5, [&] { (void)dist::sum(dx * dy); });
      rows.push_back({n, e, s, h});
    }
    cudaDeviceProp p{};
    BENCH_CHECK(cudaGetDeviceProperties(&p, 0));
    std::printf("2^%d float32 (%lld x %lld), %s; ms per call (median)\n", log2n,
                static_cast<long long>(rows_total), static_cast<long long>(cols), p.name);
    std::printf(
        "one GPU, ordinary arrays: z = x * y + w %.4f ms, sum(x * y) %.4f ms (host issues it in "
        "%.1f us)\n",
        one_expr, one_sum, one_sum_host);
    std::printf("%5s %12s %9s %12s %9s %14s\n", "GPUs", "x*y+w ms", "speedup", "sum(x*y) ms",
                "speedup", "sum host us");
    for (const auto& r : rows)
      std::printf("%5d %12.4f %9.3f %12.4f %9.3f %14.1f\n", r.gpus, r.expr_ms, one_expr / r.expr_ms,
                  r.sum_ms, one_sum / r.sum_ms, r.sum_host_us);
    if (!json.empty())
      bench::write_json(json, "distributed_array", p.name, [&](std::ostream& f) {
        f << ",\n  \"one_gpu_expr_ms\": " << one_expr << ",\n  \"one_gpu_sum_ms\": " << one_sum
          << ",\n  \"rows\": [";
        for (std::size_t i = 0; i < rows.size(); ++i)
          f << (i ? "," : "") << "\n    {\"gpus\": " << rows[i].gpus
            << ", \"expr_ms\": " << rows[i].expr_ms << ", \"sum_ms\": " << rows[i].sum_ms
            << ", \"sum_host_us\": " << rows[i].sum_host_us << "}";
        f << "\n  ]";
      });
  });
}
