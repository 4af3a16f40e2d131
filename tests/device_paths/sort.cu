// Device paths of sorting, searching, counting and histograms: sort and
// argsort (one array through DeviceRadixSort, rows through
// DeviceSegmentedSort, another axis, a lazy input, NaN and -0.0), the
// in-place sort and its member, lexsort, sort_complex, searchsorted,
// digitize, bincount (with weights), histogram (even bins with a range,
// explicit edges, a string rule), histogram2d and histogramdd, partition,
// median, percentile, unique and the set routines. Values from NumPy.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/sort.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/misc.hpp>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <utility>

#include "checks.hpp"

using device_paths::expect_values;

namespace {

template <class T>
cupp::ndarray<T> device_of(std::initializer_list<double> values) {
  auto h = cupp::host::empty<T>({static_cast<cupp::index_t>(values.size())});
  cupp::index_t i = 0;
  for (double v : values) h.data()[i++] = static_cast<T>(v);
  return cupp::asarray(h);
}

}  // namespace

void device_paths_sort() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto x = device_of<float>({3, -1, nan, 0.5, -0.0, 2});
  expect_values(cupp::sort(x, cupp::none), {-1, -0.0, 0.5, 2, 3, nan}, "sort float32");
  expect_values(cupp::argsort(x), {1, 4, 3, 5, 0, 2}, "argsort float32");
  expect_values(cupp::sort(x * 2), {-2, -0.0, 1, 4, 6, nan}, "sort of an expression");
  // m = (arange(12)[::-1] % 5).reshape(3, 4)
  const cupp::ndarray<float> m = (cupp::arange<float>(11, -1, -1) % 5).eval().reshape({3, 4});
  expect_values(cupp::sort(m, 0), {1, 0, 0, 0, 2, 1, 1, 3, 3, 2, 4, 4}, "sort along axis 0");
  expect_values(cupp::argsort(m, 1), {1, 0, 3, 2, 2, 1, 0, 3, 3, 2, 1, 0}, "argsort of rows");
  expect_values(cupp::sort(m.astype<std::int32_t>()), {0, 1, 3, 4, 0, 1, 2, 4, 0, 1, 2, 3},
                "sort int32 rows");
  expect_values(cupp::sort(m.astype<cupp::float16>(), cupp::none),
                {0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4}, "sort float16");
  const cupp::ndarray<double> inplace = m.astype<double>();
  cupp::sort_inplace(inplace, 0);
  expect_values(inplace, {1, 0, 0, 0, 2, 1, 1, 3, 3, 2, 4, 4}, "sort_inplace");
  const cupp::ndarray<double> member = m.astype<double>();
  member.sort(0);
  expect_values(member, {1, 0, 0, 0, 2, 1, 1, 3, 3, 2, 4, 4}, "ndarray.sort");
  expect_values(
      cupp::lexsort(device_of<std::int64_t>({1, 0, 1, 0}), device_of<std::int64_t>({3, 3, 1, 2})),
      {2, 3, 1, 0}, "lexsort");
  expect_values(cupp::real(cupp::sort_complex(device_of<std::int32_t>({1, 3, 2}))), {1, 2, 3},
                "sort_complex");

  const auto a = device_of<float>({1, 2, 2, 5});
  expect_values(cupp::searchsorted(a, device_of<float>({2, 0, 6, nan})), {1, 0, 4, 4},
                "searchsorted");
  expect_values(cupp::searchsorted(a, device_of<float>({2, 5}), "right"), {3, 4},
                "searchsorted right");
  const auto bins = device_of<double>({1, 2, 3});
  expect_values(cupp::digitize(device_of<double>({0.5, 1.5, 3.0}), bins), {0, 1, 3}, "digitize");
  expect_values(cupp::digitize(device_of<double>({0.5, 1.5, 3.0}), bins, true), {0, 1, 2},
                "digitize right");
  expect_values(cupp::bincount(device_of<std::int32_t>({0, 3, 3, 1})), {1, 1, 0, 2}, "bincount");
  expect_values(
      cupp::bincount(device_of<std::int64_t>({0, 3, 3, 1}), device_of<double>({0.5, 1, 2, 4})),
      {0.5, 4, 0, 3}, "bincount with weights");

  const auto h = device_of<float>({0, 0.5, 1, 1.5, 2});
  const auto even = cupp::histogram(h, 4, std::pair<double, double>{0, 2});
  expect_values(even.hist, {1, 1, 1, 2}, "histogram, even bins");
  expect_values(even.bin_edges, {0, 0.5, 1, 1.5, 2}, "histogram edges");
  const auto edges = cupp::histogram(h, device_of<float>({0, 1, 2}));
  expect_values(edges.hist, {2, 3}, "histogram, explicit edges");
  const auto rule = cupp::histogram(h, "sturges");
  expect_values(rule.hist, {1, 1, 1, 2}, "histogram, sturges");
  const auto h2 = cupp::histogram2d(device_of<double>({0, 1, 1}), device_of<double>({0, 0, 1}), 2);
  expect_values(h2.hist, {1, 0, 1, 1}, "histogram2d");
  const cupp::ndarray<double> sample = device_of<double>({0, 0, 1, 0, 1, 1}).reshape({3, 2});
  expect_values(cupp::histogramdd(sample, 2).hist, {1, 0, 1, 1}, "histogramdd");

  // Partitioning, order statistics, unique and the set routines; a row of
  // 2^15 elements takes the radix selection.
  const auto y = device_of<float>({5, 1, 4, 1, 3, 9, 2});
  expect_values(cupp::sort(cupp::partition(y, 3)), {1, 1, 2, 3, 4, 5, 9}, "partition");
  expect_values(cupp::partition(y, 3)(3), {3}, "partition's kth");
  expect_values(cupp::argpartition(y, 0)(0), {1}, "argpartition");
  const auto r = cupp::arange<float>(32768) * -1;
  expect_values(cupp::partition(r, 100)(100), {-32667}, "partition by radix selection");
  expect_values(cupp::median(y), {3}, "median");
  expect_values(cupp::median(r), {-16383.5}, "median by radix selection");
  expect_values(cupp::percentile(y, {0.0, 50.0, 100.0}), {1, 3, 9}, "percentile");
  expect_values(cupp::nanquantile(device_of<double>({nan, 1, 3}), 0.5), {2}, "nanquantile");
  expect_values(cupp::unique(y), {1, 2, 3, 4, 5, 9}, "unique");
  const auto uc = cupp::unique(y, {.return_inverse = true, .return_counts = true});
  expect_values(uc.counts, {2, 1, 1, 1, 1, 1}, "unique counts");
  expect_values(uc.inverse, {4, 0, 3, 0, 2, 5, 1}, "unique inverse");
  expect_values(cupp::isin(y, device_of<float>({1, 9})), {0, 1, 0, 1, 0, 1, 0}, "isin");
  expect_values(cupp::isin(device_of<std::int32_t>({3, 7, 8}), device_of<std::int32_t>({8, 3})),
                {1, 0, 1}, "isin of integers (table)");
  const auto z = device_of<float>({9, 4, 7});
  expect_values(cupp::intersect1d(y, z), {4, 9}, "intersect1d");
  expect_values(cupp::union1d(y, z), {1, 2, 3, 4, 5, 7, 9}, "union1d");
  expect_values(cupp::setdiff1d(y, z), {1, 2, 3, 5}, "setdiff1d");
  expect_values(cupp::setxor1d(y, z), {1, 2, 3, 5, 7}, "setxor1d");
}
