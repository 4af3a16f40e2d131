// Reductions and scans on the GPU: the workloads of bench/cupy_reduction.py,
// timed with CUDA events (median of repeated loops after a warm-up), with
// the bytes each reads compared against the device-to-device copy bandwidth
// measured in the same run.
//
//   copy.f32                 cudaMemcpyAsync of 2^28 float32 (read + write)
//   sum.f32                  sum(x), 2^28 float32 -> 0-d (bytes read)
//   argmax.f32               argmax(x), 2^28 float32 (bytes read)
//   sum_xy.f32               sum(x * y), 2^28 float32 each, fused: x and y are
//                            read once and x * y is never stored (bytes read)
//   cumsum.f32               cumsum(x), 2^28 float32 (bytes read + written)
//   sum_axis0.16384x16384    sum(x, 0) and sum(x, 1) of a 16384 x 16384 float32
//   sum_axis1.16384x16384    matrix (bytes read)
//   sum_axis{1,0}.1000000x8  sum over one axis of (1000000, 8) and (8, 1000000)
//   sum_axis{1,0}.8x1000000  float32 (32 MB read; the calls cycle through enough
//                            copies that no call finds its input in L2)
//   read.32MB                what one call can read on this GPU at that size: a
//                            hand-written kernel (four 16-byte loads in flight
//                            per thread, one wave, a block's sum stored) over
//                            the same cycled 32 MB copies (bytes read)
//   copy.32MB                cudaMemcpyAsync of each copy's first half into its
//                            second half (16 MB read + 16 MB written)
//   sum_small.gpu_us         sum(x) of 1000 float32: GPU us per call in a loop,
//   sum_small.host_us        and host us per call (the time the CPU spends issuing)
//   launch_empty.gpu_us      an empty kernel launched in the same kind of loop: the
//                            floor under sum_small on this machine
//
// Each line: NAME, ms per call, GB/s and the percentage of copy.f32's GB/s.
//
//   bench_reduction [--log2n 28] [--side 16384] [--reps 10] [--runs 7] [--json FILE]
//                   [--sweep] [--row-sum] [--only CASE]
//
// --sweep also times the full, square and thin cases under other settings
// of cupp::detail::reduce_tuning() (printed only); --only runs one thin
// case (after the copy), for a profiler; --row-sum runs only the square
// row sum under other grids, beside a hand-written block per row and CUB's
// DeviceSegmentedReduce::Sum (row_sum.*).
#include <cupp/cupp.hpp>
#include <cupp/reductions.hpp>
// cupp::cumsum lives in scans.hpp, new with the reductions: the cumsum case
// is compiled when the headers declare it (has_cumsum below) and prints
// SKIPPED otherwise.
#if __has_include(<cupp/scans.hpp>)
#include <cupp/scans.hpp>
#endif

#include <cub/device/device_segmented_reduce.cuh>

#include <cmath>
#include <cstdint>

#include "bench_common.hpp"

namespace {

// The 32 MB ceiling: the least a reduction kernel can do per element (no
// index arithmetic, no partial results, no second pass).
__global__ void __launch_bounds__(256) read_ceiling(const float4* x, std::int64_t n4, float* out) {
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * 256;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * 256 + threadIdx.x;
  float acc = 0;
  for (; i + 3 * step < n4; i += 4 * step) {
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = x[i + u * step];
#pragma unroll
    for (int u = 0; u < 4; ++u) acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < n4; i += step) acc += (x[i].x + x[i].y) + (x[i].z + x[i].w);
  for (int s = 16; s > 0; s >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, s);
  __shared__ float warp_sum[8];
  if (threadIdx.x % 32 == 0) warp_sum[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    float b = 0;
    for (int w = 0; w < 8; ++w) b += warp_sum[w];
    out[blockIdx.x] = b;
  }
}

__global__ void empty_kernel() {}

// The row sum as CUB's segmented reduce lays it out (what CuPy runs for
// sum(x, 1)): one block per row, no grid-stride loop, so that the hardware
// hands rows to multiprocessors as they free up; four 16-byte loads in
// flight per thread.
__global__ void __launch_bounds__(256)
    row_sum_block_per_row(const float4* x, std::int64_t n4_per_row, float* out) {
  const float4* row = x + static_cast<std::int64_t>(blockIdx.x) * n4_per_row;
  float acc = 0;
  std::int64_t i = threadIdx.x;
  for (; i + 3 * 256 < n4_per_row; i += 4 * 256) {
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = row[i + u * 256];
#pragma unroll
    for (int u = 0; u < 4; ++u) acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < n4_per_row; i += 256) acc += (row[i].x + row[i].y) + (row[i].z + row[i].w);
  for (int s = 16; s > 0; s >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, s);
  __shared__ float warp_sum[8];
  if (threadIdx.x % 32 == 0) warp_sum[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    float b = 0;
    for (int w = 0; w < 8; ++w) b += warp_sum[w];
    out[blockIdx.x] = b;
  }
}

struct options {
  int log2n = 28;
  int side = 16384;      // the square matrix's side
  int reps = 10;         // calls per timed loop
  int runs = 7;          // timed loops; the median is reported
  bool sweep = false;    // also time the reduction cases under other tunings
  bool row_sum = false;  // only the square row sum's variants (after the copy)
  std::string only;      // run only this thin case (and the copy), e.g. for a profiler
  std::string json;
};

struct row {
  std::string name;
  double value;
  std::string unit;
  double ms;     // per call
  double bytes;  // counted per call (0: a time, not a bandwidth)
};

// Median milliseconds per call of f over `runs` loops of `reps` calls.
template <class F>
double time_ms(const options& o, F&& f) {
  return bench::median_ms_per_call(o.runs, o.reps, f);
}

template <class T>
cupp::ndarray<T> filled(cupp::shape_t shape, double v) {
  cupp::ndarray<T> x = cupp::empty<T>(shape);
  cupp::copyto(x, v);
  return x;
}

// Each case is checked once: a wrong answer fails the run.
void expect(const char* name, double got, double want, double rel = 1e-5) {
  if (!(std::abs(got - want) <= rel * std::abs(want)))
    throw std::runtime_error(std::string(name) + ": wrong result " + std::to_string(got) +
                             ", expected " + std::to_string(want));
}

// cupp::cumsum found by argument-dependent lookup, so that this file compiles
// whether or not the included headers declare it.
template <class X>
concept has_cumsum = requires(const X& x) {
  cumsum(x);
};

template <class X, class Add>
void cumsum_case(const options& o, const X& x, Add&& add) {
  const cupp::index_t n = x.size();
  if constexpr (has_cumsum<X>) {
    decltype(cumsum(x)) z;
    add("cumsum.f32", time_ms(o, [&] { z = cumsum(x); }), 2.0 * n * 4);
    expect("cumsum.f32", z.item(999), 1000.0, 0);
    expect("cumsum.f32", z.item(n - 1), static_cast<double>(n), 1e-3);
  } else {
    (void)o;
    (void)add;
    std::printf("%-24s SKIPPED: this build of cupp has no cumsum\n", "cumsum.f32");
  }
}

}  // namespace

// --row-sum: sum(x, 1) of the square matrix under other grids, beside a
// hand-written block per row and CUB's DeviceSegmentedReduce::Sum (CuPy's
// call for it), in one process. cupp's grid is min(rows, waves x the
// blocks the device holds) blocks, each walking rows with a stride of the
// grid; waves 15 gives about a block per row on 132 multiprocessors
// (16 would split each row in two).
template <class Props, class Add>
void row_sum_variants(const options& o, const Props& props, Add&& add) {
  const cupp::index_t m = o.side;
  auto x = filled<float>({m, m}, 1.0);
  cupp::ndarray<float> z;
  auto& tune = cupp::detail::reduce_tuning();
  const auto saved = tune;
  for (int waves : {2, 4, 8, 15}) {
    tune.waves = waves;
    const std::string name = "row_sum.cupp.waves" + std::to_string(waves);
    add(name, time_ms(o, [&] { z = cupp::sum(x, 1); }), 4.0 * m * m);
    expect(name.c_str(), z.item(m - 1), static_cast<double>(m));
  }
  tune = saved;
  // The general walk (a chunk's coordinates and count per load) that the
  // dense rows mode replaces for this layout.
  tune.dense_rows = false;
  add("row_sum.cupp.general", time_ms(o, [&] { z = cupp::sum(x, 1); }), 4.0 * m * m);
  expect("row_sum.cupp.general", z.item(m - 1), static_cast<double>(m));
  tune = saved;
  add("row_sum.cupp", time_ms(o, [&] { z = cupp::sum(x, 1); }), 4.0 * m * m);
  expect("row_sum.cupp", z.item(m - 1), static_cast<double>(m));
  cudaStream_t s = cupp::cuda::get_current_stream().handle();
  auto out = cupp::empty<float>({m});
  add("row_sum.block_per_row",
      time_ms(o,
              [&] {
                row_sum_block_per_row<<<static_cast<unsigned>(m), 256, 0, s>>>(
                    reinterpret_cast<const float4*>(x.data()), m / 4, out.data());
              }),
      4.0 * m * m);
  expect("row_sum.block_per_row", out.item(m - 1), static_cast<double>(m));
  std::vector<int> host_offsets(static_cast<std::size_t>(m) + 1);
  for (cupp::index_t i = 0; i <= m; ++i)
    host_offsets[static_cast<std::size_t>(i)] = static_cast<int>(i * m);
  auto offsets = cupp::empty<int>({m + 1});
  BENCH_CHECK(cudaMemcpy(offsets.data(), host_offsets.data(), sizeof(int) * (m + 1),
                         cudaMemcpyHostToDevice));
  std::size_t temp_bytes = 0;
  BENCH_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, temp_bytes, x.data(), out.data(),
                                              static_cast<int>(m), offsets.data(),
                                              offsets.data() + 1, s));
  auto temp =
      cupp::empty<std::uint8_t>({static_cast<cupp::index_t>(std::max<std::size_t>(temp_bytes, 1))});
  add("row_sum.cub_segmented",
      time_ms(o,
              [&] {
                BENCH_CHECK(cub::DeviceSegmentedReduce::Sum(temp.data(), temp_bytes, x.data(),
                                                            out.data(), static_cast<int>(m),
                                                            offsets.data(), offsets.data() + 1, s));
              }),
      4.0 * m * m);
  expect("row_sum.cub_segmented", out.item(m - 1), static_cast<double>(m));
  int per_sm = 0;
  BENCH_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, row_sum_block_per_row, 256, 0));
  std::printf("(hand-written kernel: %d blocks of 256 per multiprocessor, %d multiprocessors)\n",
              per_sm, props.multiProcessorCount);
}

int main(int argc, char** argv) {
  options o;
  bench::command_line(
      argc, argv,
      {bench::value("--log2n", "K", o.log2n), bench::value("--side", "N", o.side),
       bench::value("--reps", "N", o.reps), bench::value("--runs", "N", o.runs),
       bench::value("--json", "FILE", o.json), bench::flag("--sweep", o.sweep, true),
       bench::flag("--row-sum", o.row_sum, true), bench::value("--only", "CASE", o.only)});
  if (o.row_sum) o.only = "row-sum";  // the other cases are skipped
  return bench::run_on_gpu("bench_reduction", [&] {
    const auto& props = cupp::cuda::runtime::getDeviceProperties(cupp::cuda::runtime::getDevice());
    const cupp::index_t n = cupp::index_t{1} << o.log2n;
    std::vector<row> rows;
    double copy_gbs = 0;
    auto add = [&](const std::string& name, double ms, double bytes) {
      const double gbs = bytes > 0 ? bytes / (ms * 1e-3) / 1e9 : 0;
      rows.push_back({name, bytes > 0 ? gbs : ms, bytes > 0 ? "GB/s" : "ms", ms, bytes});
      std::printf("%-24s %10.4f ms", name.c_str(), ms);
      if (bytes > 0) std::printf("  %8.1f GB/s", gbs);
      if (bytes > 0 && copy_gbs > 0) std::printf("  %5.1f%% of copy", 100.0 * gbs / copy_gbs);
      std::printf("\n");
    };

    {  // the copy bandwidth everything is compared against
      auto x = filled<float>({n}, 1.0), y = filled<float>({n}, 2.0);
      cudaStream_t s = cupp::cuda::get_current_stream().handle();
      const double ms = time_ms(o, [&] {
        BENCH_CHECK(cudaMemcpyAsync(y.data(), x.data(), n * 4, cudaMemcpyDeviceToDevice, s));
      });
      add("copy.f32", ms, 2.0 * n * 4);
      copy_gbs = rows.back().value;
    }
    if (o.row_sum) row_sum_variants(o, props, add);
    if (o.only.empty()) {
      auto x = filled<float>({n}, 1.0);
      cupp::ndarray<float> z;
      add("sum.f32", time_ms(o, [&] { z = cupp::sum(x); }), 1.0 * n * 4);
      expect("sum.f32", z.item(), static_cast<double>(n));
      // argmax: one larger element near the end.
      const float big = 2.0f;
      const cupp::index_t at = n - 1000;
      BENCH_CHECK(cudaMemcpy(x.data() + at, &big, 4, cudaMemcpyHostToDevice));
      cupp::ndarray<std::int64_t> i;
      add("argmax.f32", time_ms(o, [&] { i = cupp::argmax(x); }), 1.0 * n * 4);
      if (i.item() != at) throw std::runtime_error("argmax.f32: wrong result");
    }
    if (o.only.empty()) {
      auto x = filled<float>({n}, 1.5), y = filled<float>({n}, 2.0);
      cupp::ndarray<float> z;
      add("sum_xy.f32", time_ms(o, [&] { z = cupp::sum(x * y); }), 2.0 * n * 4);
      expect("sum_xy.f32", z.item(), 3.0 * n);
    }
    if (o.only.empty()) {
      auto x = filled<float>({n}, 1.0);
      cumsum_case(o, x, add);
    }
    if (o.only.empty()) {
      const cupp::index_t m = o.side;
      auto x = filled<float>({m, m}, 1.0);
      cupp::ndarray<float> z;
      for (int axis : {0, 1}) {
        const std::string name =
            "sum_axis" + std::to_string(axis) + "." + std::to_string(m) + "x" + std::to_string(m);
        add(name, time_ms(o, [&] { z = cupp::sum(x, axis); }), 4.0 * m * m);
        expect(name.c_str(), z.item(0), static_cast<double>(m));
        expect(name.c_str(), z.item(m - 1), static_cast<double>(m));
      }
    }
    {
      // 32 MB fits in the H100's 50 MB L2: the calls cycle through copies
      // that together span four times the L2, so each reads memory.
      options more = o;  // short calls: more of them per timed loop
      more.reps = o.reps * 10;
      const cupp::index_t shapes[][2] = {{1000000, 8}, {8, 1000000}};
      for (const auto& shape : shapes) {
        const cupp::index_t r = shape[0], c = shape[1];
        const double bytes = 4.0 * r * c;
        const int copies =
            std::max(1, static_cast<int>(std::ceil(4.0 * props.l2CacheSize / bytes)));
        std::vector<cupp::ndarray<float>> xs;
        for (int i = 0; i < copies; ++i) xs.push_back(filled<float>({r, c}, 1.0));
        cupp::ndarray<float> z;
        if (o.only.empty() && r > c) {  // the ceilings, once: both shapes are the same bytes
          cudaStream_t s = cupp::cuda::get_current_stream().handle();
          int per_sm = 0;
          BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_ceiling, 256, 0));
          const int blocks = per_sm * props.multiProcessorCount;
          auto sink = filled<float>({blocks}, 0.0);
          std::size_t k = 0;
          add("read.32MB",
              time_ms(more,
                      [&] {
                        read_ceiling<<<blocks, 256, 0, s>>>(
                            reinterpret_cast<const float4*>(xs[k++ % xs.size()].data()),
                            static_cast<std::int64_t>(r * c / 4), sink.data());
                      }),
              bytes);
          add("copy.32MB",
              time_ms(more,
                      [&] {
                        // Only the first halves are read: none is in L2 when copied.
                        float* from = xs[k++ % xs.size()].data();
                        BENCH_CHECK(cudaMemcpyAsync(from + r * c / 2, from,
                                                    static_cast<std::size_t>(bytes / 2),
                                                    cudaMemcpyDeviceToDevice, s));
                      }),
              bytes);
        }
        for (int axis : {1, 0}) {
          const std::string name =
              "sum_axis" + std::to_string(axis) + "." + std::to_string(r) + "x" + std::to_string(c);
          if (!o.only.empty() && name != o.only) continue;
          std::size_t k = 0;
          add(name, time_ms(more, [&] { z = cupp::sum(xs[k++ % xs.size()], axis); }), bytes);
          const double want = static_cast<double>(axis == 0 ? r : c);
          expect(name.c_str(), z.item(0), want);
          expect(name.c_str(), z.item(z.size() - 1), want);
        }
      }
    }
    if (o.only.empty()) {
      auto x = filled<float>({1000}, 1.0);
      cupp::ndarray<float> z;
      options many = o;
      many.reps = 1000;
      const double gpu_us = time_ms(many, [&] { z = cupp::sum(x); }) * 1e3;
      rows.push_back({"sum_small.gpu_us", gpu_us, "us", gpu_us * 1e-3, 0});
      std::printf("%-24s %10.3f us per call (GPU, loops of %d calls)\n", "sum_small.gpu_us", gpu_us,
                  many.reps);
      // Host time: calls issued back to back, fewer than the launch queue holds.
      const double host_us = bench::median_host_us_per_call(o.runs, 200, [&] { z = cupp::sum(x); });
      rows.push_back({"sum_small.host_us", host_us, "us", 0, 0});
      std::printf("%-24s %10.3f us per call (host)\n", "sum_small.host_us", host_us);
      cupp::cuda::get_current_stream().synchronize();
      expect("sum_small", z.item(), 1000.0, 0);
      // The floor under both: an empty kernel launched the same way.
      cudaStream_t s = cupp::cuda::get_current_stream().handle();
      const double empty_us = time_ms(many, [&] { empty_kernel<<<1, 256, 0, s>>>(); }) * 1e3;
      rows.push_back({"launch_empty.gpu_us", empty_us, "us", empty_us * 1e-3, 0});
      std::printf("%-24s %10.3f us per call (GPU, loops of %d calls)\n", "launch_empty.gpu_us",
                  empty_us, many.reps);
    }
    if (o.sweep) {
      // The reduction kernels' tuning (cupp::detail::reduce_tuning()): the
      // full, square and thin cases under each setting, printed only.
      auto& tune = cupp::detail::reduce_tuning();
      const auto saved = tune;
      auto full = filled<float>({n}, 1.0);
      auto square = filled<float>({o.side, o.side}, 1.0);
      std::vector<cupp::ndarray<float>> thin[2];  // (8, 1e6) and (1e6, 8), cycled past the L2
      for (int i = 0; i < 8; ++i) {
        thin[0].push_back(filled<float>({8, 1000000}, 1.0));
        thin[1].push_back(filled<float>({1000000, 8}, 1.0));
      }
      options more = o;
      more.reps = o.reps * 10;
      for (int waves : {1, 2, 4})
        for (int run : {4, 8, 32}) {
          tune.waves = waves;
          tune.outer_min_run = run;
          auto line = [&](const char* name, double ms, double bytes) {
            std::printf("sweep waves=%d run=%-2d %-22s %8.4f ms %8.1f GB/s %5.1f%%\n", waves, run,
                        name, ms, bytes / (ms * 1e-3) / 1e9,
                        100.0 * bytes / (ms * 1e-3) / 1e9 / copy_gbs);
          };
          cupp::ndarray<float> z;
          cupp::ndarray<std::int64_t> i;
          line("sum", time_ms(o, [&] { z = cupp::sum(full); }), 4.0 * n);
          line("argmax", time_ms(o, [&] { i = cupp::argmax(full); }), 4.0 * n);
          line("square.axis0", time_ms(o, [&] { z = cupp::sum(square, 0); }),
               4.0 * o.side * o.side);
          line("square.axis1", time_ms(o, [&] { z = cupp::sum(square, 1); }),
               4.0 * o.side * o.side);
          for (int t = 0; t < 2; ++t)
            for (int axis : {1, 0}) {
              std::size_t k = 0;
              const bool tall = t == 1;
              const char* names[2][2] = {{"8x1e6.axis0", "8x1e6.axis1"},
                                         {"1e6x8.axis0", "1e6x8.axis1"}};
              line(names[tall][axis],
                   time_ms(more, [&] { z = cupp::sum(thin[tall][k++ % 8], axis); }), 32e6);
            }
        }
      tune = saved;
      // A warp per row of the square matrix up to this many chunks a row,
      // a block per row past it, and the thin rows under more flat waves.
      for (cupp::index_t work : {cupp::index_t{512}, cupp::index_t{2048}, cupp::index_t{1} << 62}) {
        tune.warp_team_max_work = work;
        cupp::ndarray<float> z;
        const double ms = time_ms(o, [&] { z = cupp::sum(square, 1); });
        std::printf("sweep warp_team_max_work=%-20lld square.axis1 %8.4f ms %8.1f GB/s\n",
                    static_cast<long long>(work), ms, 4.0 * o.side * o.side / (ms * 1e-3) / 1e9);
      }
      tune = saved;
      for (int flat_waves : {1, 2, 4}) {
        tune.flat_rows_waves = flat_waves;
        cupp::ndarray<float> z;
        std::size_t k = 0;
        const double ms = time_ms(more, [&] { z = cupp::sum(thin[1][k++ % 8], 1); });
        std::printf("sweep flat_rows_waves=%d 1e6x8.axis1 %8.4f ms %8.1f GB/s\n", flat_waves, ms,
                    32e6 / (ms * 1e-3) / 1e9);
      }
      tune = saved;
    }
    if (!o.json.empty())
      bench::write_json(o.json, "reduction", props.name, [&](std::ostream& f) {
        f << ",\n  \"copy_gbs\": " << copy_gbs << ",\n  \"results\": [";
        for (std::size_t i = 0; i < rows.size(); ++i)
          f << (i ? ",\n" : "\n") << "    {\"case\": \"" << rows[i].name
            << "\", \"value\": " << rows[i].value << ", \"unit\": \"" << rows[i].unit
            << "\", \"ms\": " << rows[i].ms << ", \"bytes\": " << rows[i].bytes << "}";
        f << "\n  ]";
      });
  });
}
