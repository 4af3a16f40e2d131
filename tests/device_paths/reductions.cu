// Device paths of the summing reductions: sum, prod, mean, average, var and
// std, with the options NumPy offers (axis as an int, a list or none,
// keepdims, where, initial, out, dtype), reductions of expressions, the
// methods (x.sum() ...), and a complex64 sum, on float32 device arrays.
// (Extrema and logic are in reductions_extrema.cu, the NaN forms in
// reductions_nan.cu, scans and user reductions in scans.cu.)
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
// Each reduction instantiates several kernels per operand type: the calls
// reuse a few operand types so that the unit stays quick to compile.
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc/arithmetic.hpp>

#include <type_traits>
#include <vector>

#include "checks.hpp"

using device_paths::expect;
using device_paths::expect_at;
using device_paths::expect_near;
using device_paths::value;
using device_paths::expect_values;

namespace {

// a = 1 .. 24 in C order, shape (4, 6): row i holds 6i + 1 .. 6i + 6.
void sums(const cupp::ndarray<float>& a) {
  const auto total = cupp::sum(a);
  static_assert(std::is_same_v<decltype(total), const cupp::ndarray<float>>);
  expect(total.ndim() == 0, "sum is 0-d");
  expect_near(value(total), 300, "sum");
  expect_values(cupp::sum(a, 0), {40, 44, 48, 52, 56, 60}, "sum axis 0");
  expect_values(cupp::sum(a, -1), {21, 57, 93, 129}, "sum axis -1");
  expect_near(value(cupp::sum(a, {0, 1})), 300, "sum axes (0, 1)");
  expect_near(value(cupp::sum(a, cupp::none)), 300, "sum axis none");
  const auto kd = cupp::sum(a, 1, cupp::kw::keepdims = true);
  expect(kd.shape() == cupp::shape_t{4, 1}, "sum keepdims shape");
  expect_values(kd, {21, 57, 93, 129}, "sum keepdims");
  expect_near(value(cupp::sum(a, cupp::kw::initial = 1)), 301, "sum initial");
  expect_near(value(cupp::sum(a.T(), 1)(0)), 40, "sum of a transposed view");
  // where= (a lazy mask), with and without initial=.
  expect_near(value(cupp::sum(a, cupp::kw::where = a > 12)), 222, "sum where");
  expect_values(cupp::sum(a, 1, cupp::kw::where = a > 12, cupp::kw::initial = 0.5),
                {0.5, 0.5, 93.5, 129.5}, "sum axis where initial");
  // An expression (read once, never stored), dtype= and out= of float64.
  const auto d = cupp::sum<double>(a * a);
  static_assert(std::is_same_v<decltype(d), const cupp::ndarray<double>>);
  expect_near(value(d), 4900, "sum of an expression, dtype=float64");
  const cupp::ndarray<double> o(cupp::shape_t{4});
  cupp::sum(a * a, 1, cupp::out(o));
  expect_values(o, {91, 559, 1459, 2791}, "sum out= (float64)");

  expect_near(value(cupp::prod(a(0))), 720, "prod");
  expect_values(cupp::prod(a(cupp::slice(0, 2), cupp::slice(0, 2)), 1), {2, 56}, "prod axis 1");
  expect_near(value(cupp::mean(a)), 12.5, "mean");
  expect_values(cupp::mean(a, 0), {10, 11, 12, 13, 14, 15}, "mean axis 0");
  expect_near(value(cupp::var(a)), 47.916668, "var");
  expect_near(value(cupp::std(a)), 6.922187, "std");
  expect_near(value(cupp::var(a, cupp::none, cupp::kw::ddof = 1)), 50.0, "var ddof=1");
  expect_near(value(cupp::std(a, cupp::none, cupp::kw::ddof = 1)), 7.071068, "std ddof=1");
  expect_values(cupp::var(a, 1), {2.9166667, 2.9166667, 2.9166667, 2.9166667}, "var axis 1");
  expect_at(cupp::std(a, 0, cupp::kw::keepdims = true), 0, 6.708204, "std axis 0 keepdims");
}

void averages(const cupp::ndarray<float>& a) {
  expect_near(value(cupp::average(a)), 12.5, "average");
  expect_near(value(cupp::average(a, cupp::kw::weights = a)), 16.333334, "average weights");
  const cupp::ndarray<float> w = cupp::array<float>({1, 0, 0, 0, 0, 0});
  expect_values(cupp::average(a, 1, cupp::kw::weights = w), {1, 7, 13, 19}, "average 1-d weights");
  auto [avg, wsum] = cupp::average(a, cupp::kw::weights = a, cupp::kw::returned);
  expect_near(value(avg), 16.333334, "average returned (average)");
  expect_near(value(wsum), 300, "average returned (weight sum)");
  auto [avg2, count] = cupp::average(a, 0, cupp::kw::returned);
  expect_values(avg2, {10, 11, 12, 13, 14, 15}, "average returned, no weights");
  expect_values(count, {4, 4, 4, 4, 4, 4}, "average returned count");
}

void methods(const cupp::ndarray<float>& a) {
  expect_near(value(a.sum()), 300, "a.sum()");
  expect_values(a.sum(1), {21, 57, 93, 129}, "a.sum(1)");
  expect_near(value(a(0).prod()), 720, "a.prod()");
  expect_near(value(a.mean()), 12.5, "a.mean()");
  expect_near(value(a.var()), 47.916668, "a.var()");
  expect_near(value(a.std()), 6.922187, "a.std()");
  expect_near(value((a * a).sum<double>()), 4900, "(a * a).sum<double>()");
}

void complex_sum() {
  using c64 = cupp::complex64;
  const std::vector<c64> zs{c64(1, 2), c64(3, -1), c64(0.5f, 0.5f)};
  const cupp::ndarray<c64> z = cupp::asarray(zs);
  const c64 s = cupp::sum(z).item();
  expect_near(s.real(), 4.5, "complex sum (real part)");
  expect_near(s.imag(), 1.5, "complex sum (imaginary part)");
}

}  // namespace

void device_paths_reductions() {
  const cupp::ndarray<float> a = cupp::arange<float>(1, 25).reshape({4, 6});
  sums(a);
  averages(a);
  methods(a);
  complex_sum();
}
