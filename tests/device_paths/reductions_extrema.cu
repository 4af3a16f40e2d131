// Device paths of the ordering reductions: max/amax, min/amin, argmax,
// argmin and ptp (with axis, keepdims, initial) and their methods, on
// float32 device arrays. (all, any, count_nonzero and the comparisons of
// whole arrays are in reductions_logic.cu.)
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
// Each reduction instantiates several kernels per operand type: the calls
// reuse a few operand types so that the unit stays quick to compile.
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc/arithmetic.hpp>

#include "checks.hpp"

using device_paths::expect;
using device_paths::expect_near;
using device_paths::value;
using device_paths::expect_values;

namespace {

// a = 1 .. 24 in C order, shape (4, 6): row i holds 6i + 1 .. 6i + 6.
void extrema(const cupp::ndarray<float>& a) {
  expect_near(value(cupp::max(a)), 24, "max");
  expect_values(cupp::amax(a, 0), {19, 20, 21, 22, 23, 24}, "amax axis 0");
  expect_near(value(cupp::max(a, 1, cupp::kw::keepdims = true)(2, 0)), 18, "max keepdims");
  expect_near(value(cupp::max(a, cupp::kw::initial = 100)), 100, "max initial");
  expect_near(value(cupp::min(a)), 1, "min");
  expect_values(cupp::amin(a, 1), {1, 7, 13, 19}, "amin axis 1");
  expect_near(value(cupp::argmax(a)), 23, "argmax");
  expect_near(value(cupp::argmin(a)), 0, "argmin");
  expect_values(cupp::argmax(a, 1), {5, 5, 5, 5}, "argmax axis 1");
  expect_values(cupp::argmin(a, 0), {0, 0, 0, 0, 0, 0}, "argmin axis 0");
  expect_values(cupp::argmax(a.T(), 0), {5, 5, 5, 5}, "argmax of a transposed view");
  expect_near(value(cupp::ptp(a)), 23, "ptp");
  expect_values(cupp::ptp(a, 1), {5, 5, 5, 5}, "ptp axis 1");
}

void methods(const cupp::ndarray<float>& a) {
  expect_near(value(a.min()), 1, "a.min()");
  expect_near(value(a.max(0, cupp::kw::keepdims = true)(0, 5)), 24, "a.max(0, keepdims)");
  expect_near(value(a.argmin()), 0, "a.argmin()");
  expect_values(a.argmax(1), {5, 5, 5, 5}, "a.argmax(1)");
}

}  // namespace

void device_paths_reductions_extrema() {
  const cupp::ndarray<float> a = cupp::arange<float>(1, 25).reshape({4, 6});
  extrema(a);
  methods(a);
}
