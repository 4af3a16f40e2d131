// Device paths of the logical reductions (all, any, count_nonzero with axis
// and keepdims, and the methods) and of the comparisons of whole arrays
// (allclose, array_equal, array_equiv), on float32 device arrays and bool
// expressions.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
// Each reduction instantiates several kernels per operand type: the calls
// reuse a few operand types so that the unit stays quick to compile.
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc/arithmetic.hpp>

#include <limits>

#include "checks.hpp"

using device_paths::expect;
using device_paths::expect_near;
using device_paths::value;
using device_paths::expect_values;

namespace {

// a = 1 .. 24 in C order, shape (4, 6): row i holds 6i + 1 .. 6i + 6.
void logic(const cupp::ndarray<float>& a) {
  expect(!cupp::all(a > 12).item(), "all");
  expect(cupp::any(a > 12).item(), "any");
  expect(cupp::all(a > 0).item(), "all (true)");
  expect(!cupp::any(a > 24).item(), "any (false)");
  expect_values(cupp::any(a > 12, 1), {0, 0, 1, 1}, "any axis 1");
  expect_values(cupp::all(a > 6, 1), {0, 1, 1, 1}, "all axis 1");
  expect_values(cupp::all(a > 6, 0, cupp::kw::keepdims = true), {0, 0, 0, 0, 0, 0},
                "all axis 0 keepdims");
  expect_near(value(cupp::count_nonzero(a > 12)), 12, "count_nonzero");
  expect_values(cupp::count_nonzero(a > 12, 1), {0, 0, 6, 6}, "count_nonzero axis 1");

  expect(cupp::allclose(a, a + 1e-6f), "allclose");
  expect(!cupp::allclose(a, a + 1), "allclose (false)");
  // b is a with NaN in place of 14 (element 13).
  const cupp::ndarray<float> b = cupp::where(a == 14, std::numeric_limits<float>::quiet_NaN(), a);
  expect(cupp::array_equal(a, a), "array_equal");
  expect(!cupp::array_equal(a, a(0)), "array_equal (shapes differ)");
  expect(!cupp::array_equal(b, b), "array_equal (NaN)");
  expect(cupp::array_equal(b, b, true), "array_equal equal_nan");
  expect(cupp::array_equiv(a(cupp::slice(0, 1)), a(0)), "array_equiv (broadcast)");
  expect(!cupp::array_equiv(a, a(0)), "array_equiv (false)");
}

void methods(const cupp::ndarray<float>& a) {
  expect(!(a > 12).all().item(), "(a > 12).all()");
  expect_values((a > 12).any(1), {0, 0, 1, 1}, "(a > 12).any(1)");
}

}  // namespace

void device_paths_reductions_logic() {
  const cupp::ndarray<float> a = cupp::arange<float>(1, 25).reshape({4, 6});
  logic(a);
  methods(a);
}
