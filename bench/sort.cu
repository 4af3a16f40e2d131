// Sorting, searching and counting on the GPU: the workloads of
// bench/cupy_sort.py. Each row has cupp's call and, where one exists, the
// raw CUB call doing the same work, timed with CUDA events in the same run
// (median of repeated loops after a warm-up), and cupp's result is checked
// once against the CUB call's (or, with none, against its definition).
//
//   sort.2p26.f32                 cupp::sort(x, cupp::none) of 2^26 float32
//                                 (cub::DeviceRadixSort::SortKeys)
//   argsort.2p26.f32              cupp::argsort(x, cupp::none) (DeviceRadixSort::SortPairs,
//                                 int64 values 0..n-1 made before the timing)
//   sort_expr.2p26.f32            cupp::sort(x * 2, cupp::none), beside cupp::sort(x, none)
//                                 timed in alternation; target: no slower
//   sort_rows.65536x1024.f32      cupp::sort(x) along the last axis of the same 2^26 values
//   sort_rows.1024x65536.f32      (DeviceSegmentedSort::SortKeys and StableSortKeys, fixed
//                                 segments from a counting iterator); ratio to the flat
//                                 sort's cupp figure, target <= 1.5
//   searchsorted.2p24in2p26.f32   cupp::searchsorted(a, v), 2^24 queries into 2^26 sorted
//                                 float32 (no raw CUB call: CUB has no vectorised search)
//   histogram.2p28.f32.256        cupp::histogram(x, 256, {lo, hi}) of 2^28 float32
//                                 (DeviceHistogram::HistogramEven, int counters); GB/s of x
//                                 read, and % of a same-run cudaMemcpyAsync of x counted
//                                 read + written (bench/README.md's convention)
//   bincount.2p26.i32.2p20        cupp::bincount(x) of 2^26 int32 in [0, 2^20), max present
//                                 (HistogramEven with 2^20 unit bins, the reference)
//   partition.2p26.f32            cupp::partition(x, 2^25), median(x), percentile(x,
//   median.2p26.f32               {1, 50, 99}) of the sort rows' 2^26 float32, beside the
//   percentile.2p26.f32           raw SortKeys and cupp's flat sort (target: below it)
//   unique_counts.2p26.i32.2p20   cupp::unique(x, {.return_counts = true}), 2^26 int32 in
//                                 [0, 2^20) (raw: SortKeys + RunLengthEncode::Encode)
//   isin.2p26.i32.2p16            cupp::isin(x, t), 2^26 int32 against 2^16 (no raw call)
//
// The CUB calls' outputs and temporary storage are allocated before the
// timing; cupp's figure is the call as a user writes it, result allocated
// from the pool. The CUB sorts get an int item count (32-bit offsets); the
// flat rows also time them with a 64-bit count, what cupp passes.
//
// Inputs, the same in cupy_sort.py: u(seed, k) is a splitmix64 hash of
// (seed, k) mapped to [0, 1) in float64; a float array holds
// scale * (u - 0.5) rounded to float32, an int array floor(u * m) with
// element 0 set to m - 1.
//
//   bench_sort [--runs 7] [--loop-ms 20] [--only SUBSTRING] [--json FILE]
#include <cupp/cupp.hpp>
#include <cupp/sort.hpp>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <map>
#include <utility>

#include "bench_common.hpp"
#include "bench_rows.hpp"

namespace {

using cupp::index_t;

using namespace bench_rows;

void expect_close(const std::string& name, double got, double want, double tol) {
  if (!(std::abs(got - want) <= tol * (1 + std::abs(want))))
    throw std::runtime_error(name + ": wrong result " + std::to_string(got) + ", expected " +
                             std::to_string(want));
}

void expect(const std::string& name, bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(name + ": wrong result: " + what);
}

// ---- inputs ------------------------------------------------------------------

__device__ double unit_hash(std::uint64_t seed, std::int64_t k) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(k);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

__global__ void fill_float(float* x, std::int64_t n, std::uint64_t seed, double scale) {
  for (std::int64_t k = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; k < n;
       k += std::int64_t{gridDim.x} * blockDim.x)
    x[k] = static_cast<float>(scale * (unit_hash(seed, k) - 0.5));
}

__global__ void fill_int(int* x, std::int64_t n, std::uint64_t seed, int m) {
  for (std::int64_t k = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; k < n;
       k += std::int64_t{gridDim.x} * blockDim.x)
    x[k] = k == 0 ? m - 1 : static_cast<int>(unit_hash(seed, k) * m);
}

cupp::ndarray<float> floats(index_t n, std::uint64_t seed, double scale = 1.0) {
  cupp::ndarray<float> x = cupp::empty<float>({n});
  fill_float<<<1024, 256, 0, stream()>>>(x.data(), n, seed, scale);
  BENCH_CHECK(cudaGetLastError());
  return x;
}

cupp::ndarray<int> ints(index_t n, std::uint64_t seed, int m) {
  cupp::ndarray<int> x = cupp::empty<int>({n});
  fill_int<<<1024, 256, 0, stream()>>>(x.data(), n, seed, m);
  BENCH_CHECK(cudaGetLastError());
  return x;
}

// CUB's temporary storage, sized by the query call and allocated once.
struct temp_storage {
  cupp::ndarray<std::uint8_t> buffer;
  std::size_t bytes = 0;
  template <class Query>
  explicit temp_storage(Query&& query) {
    BENCH_CHECK(query(bytes));
    buffer = cupp::empty<std::uint8_t>({static_cast<index_t>(std::max<std::size_t>(bytes, 1))});
  }
  void* data() { return buffer.data(); }
};

// Row r of a (rows, n) buffer starts at r * n: the segments' offsets.
struct row_start {
  std::int64_t n;
  __host__ __device__ std::int64_t operator()(std::int64_t r) const { return r * n; }
};

// ---- sorts of 2^26 float32 --------------------------------------------------------

constexpr index_t sort_n = index_t{1} << 26;

struct sort_problem {
  cupp::ndarray<float> x;  // 2^26 float32, seed 1
  double flat_cupp_ms = -1;
};

// Positions every sort row compares: both ends and a few inside.
std::vector<index_t> probes(index_t n) {
  return {0, n / 7, n / 3, n / 2, n - 2, n - 1};
}

void flat_sorts(bench_run& b, sort_problem& p) {
  const index_t n = sort_n;
  const cupp::ndarray<float>& x = p.x;
  cupp::ndarray<float> keys_out = cupp::empty<float>({n});
  const int count = static_cast<int>(n);

  if (b.wanted("sort.2p26.f32")) {
    row& r = b.start("sort.2p26.f32", "cupp::sort(x, cupp::none) of 2^26 float32");
    temp_storage ts([&](std::size_t& bytes) {
      return cub::DeviceRadixSort::SortKeys(nullptr, bytes, x.data(), keys_out.data(), count, 0, 32,
                                            stream());
    });
    cupp::ndarray<float> z;
    const auto [cupp_ms, vendor_ms] = b.time_pair(
        r, "cupp", [&] { z = cupp::sort(x, cupp::none); }, "cub::DeviceRadixSort::SortKeys",
        [&] {
          std::size_t bytes = ts.bytes;
          BENCH_CHECK(cub::DeviceRadixSort::SortKeys(ts.data(), bytes, x.data(), keys_out.data(),
                                                     count, 0, 32, stream()));
        });
    p.flat_cupp_ms = cupp_ms;
    for (index_t i : probes(n)) expect_close("sort.2p26.f32", z.item(i), keys_out.item(i), 0);
    temp_storage ts64([&](std::size_t& bytes) {
      return cub::DeviceRadixSort::SortKeys(nullptr, bytes, x.data(), keys_out.data(), n, 0, 32,
                                            stream());
    });
    b.time(r, "cub::DeviceRadixSort::SortKeys (int64 count)", [&] {
      std::size_t bytes = ts64.bytes;
      BENCH_CHECK(cub::DeviceRadixSort::SortKeys(ts64.data(), bytes, x.data(), keys_out.data(), n,
                                                 0, 32, stream()));
    });
    b.extra(r, "cupp_over_cub", cupp_ms / vendor_ms);
  }

  if (b.wanted("argsort.2p26.f32")) {
    row& r = b.start("argsort.2p26.f32", "cupp::argsort(x, cupp::none) of 2^26 float32");
    const cupp::ndarray<std::int64_t> iota = cupp::arange(std::int64_t{n});
    cupp::ndarray<std::int64_t> values_out = cupp::empty<std::int64_t>({n});
    temp_storage ts([&](std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(nullptr, bytes, x.data(), keys_out.data(), iota.data(),
                                             values_out.data(), count, 0, 32, stream());
    });
    cupp::ndarray<std::int64_t> z;
    const auto [cupp_ms, vendor_ms] = b.time_pair(
        r, "cupp", [&] { z = cupp::argsort(x, cupp::none); }, "cub::DeviceRadixSort::SortPairs",
        [&] {
          std::size_t bytes = ts.bytes;
          BENCH_CHECK(cub::DeviceRadixSort::SortPairs(ts.data(), bytes, x.data(), keys_out.data(),
                                                      iota.data(), values_out.data(), count, 0, 32,
                                                      stream()));
        });
    // Both stable, and the input has no -0.0 or NaN: the same indices.
    for (index_t i : probes(n))
      expect_close("argsort.2p26.f32", static_cast<double>(z.item(i)),
                   static_cast<double>(values_out.item(i)), 0);
    temp_storage ts64([&](std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(nullptr, bytes, x.data(), keys_out.data(), iota.data(),
                                             values_out.data(), n, 0, 32, stream());
    });
    b.time(r, "cub::DeviceRadixSort::SortPairs (int64 count)", [&] {
      std::size_t bytes = ts64.bytes;
      BENCH_CHECK(cub::DeviceRadixSort::SortPairs(ts64.data(), bytes, x.data(), keys_out.data(),
                                                  iota.data(), values_out.data(), n, 0, 32,
                                                  stream()));
    });
    b.extra(r, "cupp_over_cub", cupp_ms / vendor_ms);
  }

  if (b.wanted("sort_expr.2p26.f32")) {
    row& r = b.start("sort_expr.2p26.f32",
                     "cupp::sort(x * 2, cupp::none), beside cupp::sort(x, cupp::none); "
                     "target: no slower");
    cupp::ndarray<float> z, w;
    const auto [expr_ms, plain_ms] = b.time_pair(
        r, "cupp", [&] { z = cupp::sort(x * 2, cupp::none); }, "cupp sort(x, none)",
        [&] { w = cupp::sort(x, cupp::none); });
    for (index_t i : probes(n)) expect_close("sort_expr.2p26.f32", z.item(i), 2.0 * w.item(i), 0);
    b.extra(r, "expr_over_plain", expr_ms / plain_ms);
    if (p.flat_cupp_ms > 0) b.extra(r, "expr_over_sort_row", expr_ms / p.flat_cupp_ms);
    // What x * 2 costs written on its own: CUB's sorts read their keys
    // through a pointer, so the expression must be stored once.
    cupp::ndarray<float> e = cupp::empty<float>({n});
    const double eval_ms = b.time(r, "x * 2 written alone", [&] { cupp::copyto(e, x * 2); });
    b.extra(r, "plain_plus_eval_over_expr", (plain_ms + eval_ms) / expr_ms);
  }
}

// The flat sort's cupp figure, the row sorts' reference: the sort row's
// own when it ran, else timed here (and shown in the row asking for it).
double flat_reference(bench_run& b, row& r, sort_problem& p) {
  if (p.flat_cupp_ms < 0) {
    cupp::ndarray<float> z;
    p.flat_cupp_ms =
        b.time(r, "cupp sort(x, none) (reference)", [&] { z = cupp::sort(p.x, cupp::none); });
  }
  return p.flat_cupp_ms;
}

void row_sorts(bench_run& b, sort_problem& p, index_t rows) {
  const index_t n = sort_n / rows;
  const std::string name = "sort_rows." + std::to_string(rows) + "x" + std::to_string(n) + ".f32";
  if (!b.wanted(name)) return;
  row& r = b.start(name, "cupp::sort(x) along the last axis of (" + std::to_string(rows) + ", " +
                             std::to_string(n) + ") float32; target: <= 1.5x the flat sort");
  const cupp::ndarray<float> x = p.x.reshape({rows, n});
  cupp::ndarray<float> out = cupp::empty<float>({rows, n});
  const auto offsets = thrust::make_transform_iterator(
      thrust::make_counting_iterator<std::int64_t>(0), row_start{n});
  const std::int64_t total = sort_n, segments = rows;
  temp_storage ts([&](std::size_t& bytes) {
    return cub::DeviceSegmentedSort::SortKeys(nullptr, bytes, x.data(), out.data(), total, segments,
                                              offsets, offsets + 1, stream());
  });
  temp_storage stable([&](std::size_t& bytes) {
    return cub::DeviceSegmentedSort::StableSortKeys(nullptr, bytes, x.data(), out.data(), total,
                                                    segments, offsets, offsets + 1, stream());
  });
  cupp::ndarray<float> z;
  const auto [cupp_ms, vendor_ms] = b.time_pair(
      r, "cupp", [&] { z = cupp::sort(x); }, "cub::DeviceSegmentedSort::SortKeys",
      [&] {
        std::size_t bytes = ts.bytes;
        BENCH_CHECK(cub::DeviceSegmentedSort::SortKeys(ts.data(), bytes, x.data(), out.data(),
                                                       total, segments, offsets, offsets + 1,
                                                       stream()));
      });
  for (index_t i : probes(rows))
    for (index_t j : {index_t{0}, n / 2, n - 1})
      expect_close(name, z.item(i, j), out.item(i, j), 0);
  b.time(r, "cub::DeviceSegmentedSort::StableSortKeys", [&] {
    std::size_t bytes = stable.bytes;
    BENCH_CHECK(cub::DeviceSegmentedSort::StableSortKeys(stable.data(), bytes, x.data(), out.data(),
                                                         total, segments, offsets, offsets + 1,
                                                         stream()));
  });
  temp_storage radix([&](std::size_t& bytes) {
    return cub::DeviceSegmentedRadixSort::SortKeys(nullptr, bytes, x.data(), out.data(), int(total),
                                                   int(segments), offsets, offsets + 1, 0, 32,
                                                   stream());
  });
  b.time(r, "cub::DeviceSegmentedRadixSort::SortKeys", [&] {
    std::size_t bytes = radix.bytes;
    BENCH_CHECK(cub::DeviceSegmentedRadixSort::SortKeys(radix.data(), bytes, x.data(), out.data(),
                                                        int(total), int(segments), offsets,
                                                        offsets + 1, 0, 32, stream()));
  });
  b.extra(r, "cupp_over_cub", cupp_ms / vendor_ms);
  b.extra(r, "cupp_over_flat_sort", cupp_ms / flat_reference(b, r, p));
}

// ---- searching and counting ------------------------------------------------------------

void search_row(bench_run& b) {
  const std::string name = "searchsorted.2p24in2p26.f32";
  if (!b.wanted(name)) return;
  row& r = b.start(name,
                   "cupp::searchsorted(a, v), 2^24 float32 queries into 2^26 sorted float32; "
                   "no raw CUB call (CUB has no vectorised search)");
  const index_t n = sort_n, queries = index_t{1} << 24;
  const cupp::ndarray<float> a = cupp::sort(floats(n, 3), cupp::none), v = floats(queries, 4);
  cupp::ndarray<std::int64_t> z;
  b.time(r, "cupp", [&] { z = cupp::searchsorted(a, v); });
  // side='left': a[i - 1] < v <= a[i].
  for (index_t q : probes(queries)) {
    const index_t i = z.item(q);
    const float vq = v.item(q);
    expect(name, i >= 0 && i <= n, "index out of range");
    expect(name, i == 0 || a.item(i - 1) < vq, "a[i - 1] >= v at query " + std::to_string(q));
    expect(name, i == n || vq <= a.item(i), "a[i] < v at query " + std::to_string(q));
  }
}

void histogram_row(bench_run& b) {
  const std::string name = "histogram.2p28.f32.256";
  if (!b.wanted(name)) return;
  row& r = b.start(name,
                   "cupp::histogram(x, 256, {-0.5, 0.5}) of 2^28 float32; GB/s of x read, "
                   "% of the copy's (read + written) GB/s; target >= 80%");
  const index_t n = index_t{1} << 28;
  const int bins = 256;
  const double lo = -0.5, hi = 0.5;
  // Scale 0.999: every value strictly inside [lo, hi), also after rounding.
  const cupp::ndarray<float> x = floats(n, 5, 0.999);
  const double bytes = 4.0 * n;
  double copy_ms = 0;
  {
    cupp::ndarray<float> copy = cupp::empty<float>({n});
    copy_ms = b.time(r, "copy (cudaMemcpyAsync of x)", [&] {
      BENCH_CHECK(
          cudaMemcpyAsync(copy.data(), x.data(), 4 * n, cudaMemcpyDeviceToDevice, stream()));
    });
  }
  cupp::ndarray<int> counts = cupp::empty<int>({bins});
  const int samples = static_cast<int>(n);
  temp_storage ts([&](std::size_t& tb) {
    return cub::DeviceHistogram::HistogramEven(nullptr, tb, x.data(), counts.data(), bins + 1,
                                               static_cast<float>(lo), static_cast<float>(hi),
                                               samples, stream());
  });
  decltype(cupp::histogram(x, bins, std::pair{lo, hi})) z;
  const auto [cupp_ms, vendor_ms] = b.time_pair(
      r, "cupp",
      [&] {
        z = cupp::histogram(x, bins, std::pair{lo, hi});
      },
      "cub::DeviceHistogram::HistogramEven",
      [&] {
        std::size_t tb = ts.bytes;
        BENCH_CHECK(cub::DeviceHistogram::HistogramEven(ts.data(), tb, x.data(), counts.data(),
                                                        bins + 1, static_cast<float>(lo),
                                                        static_cast<float>(hi), samples, stream()));
      });
  // CUB's and NumPy's bin arithmetic may place a value on an edge
  // differently: bins agree closely, the total exactly.
  expect_close(name, static_cast<double>(cupp::ndarray<std::int64_t>(cupp::sum(z.hist)).item()),
               static_cast<double>(n), 0);
  for (index_t i : {index_t{0}, index_t{1}, index_t{bins / 2}, index_t{bins - 1}})
    expect_close(name, static_cast<double>(z.hist.item(i)), counts.item(i), 1e-4);
  const double copy_gbs = 2 * bytes / (copy_ms * 1e-3) / 1e9;
  b.extra(r, "copy_gbs", copy_gbs);
  b.extra(r, "cupp_gbs", bytes / (cupp_ms * 1e-3) / 1e9);
  b.extra(r, "cupp_of_copy_pct", 100.0 * bytes / (cupp_ms * 1e-3) / 1e9 / copy_gbs);
  b.extra(r, "cub_gbs", bytes / (vendor_ms * 1e-3) / 1e9);
  b.extra(r, "cub_of_copy_pct", 100.0 * bytes / (vendor_ms * 1e-3) / 1e9 / copy_gbs);
}

void bincount_row(bench_run& b) {
  const std::string name = "bincount.2p26.i32.2p20";
  if (!b.wanted(name)) return;
  row& r = b.start(name,
                   "cupp::bincount(x) of 2^26 int32 in [0, 2^20), max present; "
                   "reference: HistogramEven with 2^20 unit bins (no max, no int64 counts)");
  const index_t n = index_t{1} << 26;
  const int m = 1 << 20;
  const cupp::ndarray<int> x = ints(n, 6, m);
  cupp::ndarray<int> counts = cupp::empty<int>({m});
  const int samples = static_cast<int>(n);
  temp_storage ts([&](std::size_t& tb) {
    return cub::DeviceHistogram::HistogramEven(nullptr, tb, x.data(), counts.data(), m + 1, 0, m,
                                               samples, stream());
  });
  cupp::ndarray<std::int64_t> z;
  b.time(r, "cupp", [&] { z = cupp::bincount(x); });
  b.time(r, "cub::DeviceHistogram::HistogramEven (reference)", [&] {
    std::size_t tb = ts.bytes;
    BENCH_CHECK(cub::DeviceHistogram::HistogramEven(ts.data(), tb, x.data(), counts.data(), m + 1,
                                                    0, m, samples, stream()));
  });
  expect(name, z.size() == m, "length " + std::to_string(z.size()));
  for (index_t i : probes(m)) expect_close(name, static_cast<double>(z.item(i)), counts.item(i), 0);
}

// ---- selection, order statistics, unique, sets ------------------------------------------

// partition, median and percentile beside the full sort of the same values
// (their target: measurably cheaper) and the raw CUB SortKeys.
void selection_rows(bench_run& b, sort_problem& p) {
  const index_t n = sort_n, kth = n / 2;
  const std::int64_t count = n;
  cupp::ndarray<float> keys_out = cupp::empty<float>({n});
  temp_storage ts([&](std::size_t& bytes) {
    return cub::DeviceRadixSort::SortKeys(nullptr, bytes, p.x.data(), keys_out.data(), count, 0, 32,
                                          stream());
  });
  auto raw_sort = [&] {
    std::size_t bytes = ts.bytes;
    BENCH_CHECK(cub::DeviceRadixSort::SortKeys(ts.data(), bytes, p.x.data(), keys_out.data(), count,
                                               0, 32, stream()));
  };
  if (b.wanted("partition.2p26.f32")) {
    row& r = b.start("partition.2p26.f32",
                     "cupp::partition(x, 2^25) of 2^26 float32; target: below the full sort");
    cupp::ndarray<float> z;
    const auto [cupp_ms, vendor_ms] = b.time_pair(
        r, "cupp", [&] { z = cupp::partition(p.x, kth); }, "cub::DeviceRadixSort::SortKeys",
        raw_sort);
    expect_close("partition.2p26.f32", z.item(kth), keys_out.item(kth), 0);
    b.extra(r, "cupp_over_full_sort", cupp_ms / flat_reference(b, r, p));
    b.extra(r, "cupp_over_cub_sort", cupp_ms / vendor_ms);
  }
  if (b.wanted("median.2p26.f32")) {
    row& r = b.start("median.2p26.f32", "cupp::median(x) of 2^26 float32");
    decltype(cupp::median(p.x)) z;
    const auto [cupp_ms, vendor_ms] = b.time_pair(
        r, "cupp", [&] { z = cupp::median(p.x); }, "cub::DeviceRadixSort::SortKeys", raw_sort);
    const double want = 0.5 * (double(keys_out.item(kth - 1)) + double(keys_out.item(kth)));
    expect_close("median.2p26.f32", z.item(), want, 1e-6);
    b.extra(r, "cupp_over_full_sort", cupp_ms / flat_reference(b, r, p));
    b.extra(r, "cupp_over_cub_sort", cupp_ms / vendor_ms);
  }
  if (b.wanted("percentile.2p26.f32")) {
    row& r = b.start("percentile.2p26.f32", "cupp::percentile(x, {1, 50, 99}) of 2^26 float32");
    decltype(cupp::percentile(p.x, {1.0, 50.0, 99.0})) z;
    const auto [cupp_ms, vendor_ms] = b.time_pair(
        r, "cupp",
        [&] {
          z = cupp::percentile(p.x, {1.0, 50.0, 99.0});
        },
        "cub::DeviceRadixSort::SortKeys", raw_sort);
    expect(r.name, z.size() == 3, "three percentiles");
    b.extra(r, "cupp_over_full_sort", cupp_ms / flat_reference(b, r, p));
    b.extra(r, "cupp_over_cub_sort", cupp_ms / vendor_ms);
  }
}

void unique_row(bench_run& b) {
  const std::string name = "unique_counts.2p26.i32.2p20";
  if (!b.wanted(name)) return;
  row& r = b.start(name,
                   "cupp::unique(x, {.return_counts = true}), 2^26 int32 in [0, 2^20); raw: "
                   "CUB SortKeys + RunLengthEncode::Encode");
  const index_t n = sort_n;
  const cupp::ndarray<int> x = ints(n, 7, 1 << 20);
  cupp::ndarray<int> sorted = cupp::empty<int>({n}), values = cupp::empty<int>({n});
  cupp::ndarray<std::int64_t> counts = cupp::empty<std::int64_t>({n}),
                              runs = cupp::empty<std::int64_t>({1});
  const std::int64_t count = n;
  temp_storage sort_ts([&](std::size_t& bytes) {
    return cub::DeviceRadixSort::SortKeys(nullptr, bytes, x.data(), sorted.data(), count, 0, 32,
                                          stream());
  });
  temp_storage rle_ts([&](std::size_t& bytes) {
    return cub::DeviceRunLengthEncode::Encode(nullptr, bytes, sorted.data(), values.data(),
                                              counts.data(), runs.data(), count, stream());
  });
  cupp::unique_result<int, cupp::device_space> z;
  const auto [cupp_ms, vendor_ms] = b.time_pair(
      r, "cupp", [&] { z = cupp::unique(x, {.return_counts = true}); },
      "cub SortKeys + RunLengthEncode::Encode (no count read)",
      [&] {
        std::size_t bytes = sort_ts.bytes;
        BENCH_CHECK(cub::DeviceRadixSort::SortKeys(sort_ts.data(), bytes, x.data(), sorted.data(),
                                                   count, 0, 32, stream()));
        bytes = rle_ts.bytes;
        BENCH_CHECK(cub::DeviceRunLengthEncode::Encode(rle_ts.data(), bytes, sorted.data(),
                                                       values.data(), counts.data(), runs.data(),
                                                       count, stream()));
      });
  expect(name, z.values.size() == runs.item(0), "number of values");
  b.extra(r, "cupp_over_raw", cupp_ms / vendor_ms);
}

void isin_row(bench_run& b) {
  const std::string name = "isin.2p26.i32.2p16";
  if (!b.wanted(name)) return;
  row& r = b.start(name,
                   "cupp::isin(x, t): 2^26 int32 in [0, 2^20) against 2^16 values; no raw CUB "
                   "call (CUB has no membership test)");
  const cupp::ndarray<int> x = ints(sort_n, 8, 1 << 20), t = ints(index_t{1} << 16, 9, 1 << 20);
  cupp::ndarray<bool> z;
  b.time(r, "cupp", [&] { z = cupp::isin(x, t); });
  const auto ts = cupp::sort(t);
  for (index_t i : probes(sort_n)) {
    const int v = x.item(i);
    const auto pos = cupp::searchsorted(ts, v).item();
    const bool want = pos < ts.size() && ts.item(pos) == v;
    expect(name, z.item(i) == want, "membership of element " + std::to_string(i));
  }
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  bench::command_line(
      argc, argv,
      {bench::value("--runs", "N", o.runs), bench::value("--loop-ms", "MS", o.loop_ms),
       bench::value("--only", "SUBSTRING", o.only), bench::value("--json", "FILE", o.json)});
  return bench::run_on_gpu("bench_sort", [&] {
    const auto& props = cupp::cuda::runtime::getDeviceProperties(cupp::cuda::runtime::getDevice());
    bench_run b(o, "sort", 44);
    {
      sort_problem p;
      p.x = floats(sort_n, 1);
      flat_sorts(b, p);
      row_sorts(b, p, 65536);
      row_sorts(b, p, 1024);
      selection_rows(b, p);
    }
    cupp::cuda::get_default_memory_pool().free_all_blocks();
    unique_row(b);
    cupp::cuda::get_default_memory_pool().free_all_blocks();
    isin_row(b);
    cupp::cuda::get_default_memory_pool().free_all_blocks();
    search_row(b);
    cupp::cuda::get_default_memory_pool().free_all_blocks();
    histogram_row(b);
    cupp::cuda::get_default_memory_pool().free_all_blocks();
    bincount_row(b);

    if (!o.json.empty()) b.write_json(o.json, props.name);
  });
}
