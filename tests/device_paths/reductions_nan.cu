// Device paths of the NaN-ignoring reductions: nansum, nanprod, nanmax,
// nanmin, nanargmax, nanargmin, nanmean, nanvar and nanstd (with axis,
// keepdims, ddof), on a float32 device array holding a NaN.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
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

// b = 1 .. 24 in C order, shape (4, 6), with NaN in place of 14 (element 13,
// row 2). Values from NumPy.
void nan_forms(const cupp::ndarray<float>& b) {
  expect_near(value(cupp::nansum(b)), 286, "nansum");
  expect_values(cupp::nansum(b, 1), {21, 57, 79, 129}, "nansum axis 1");
  expect(cupp::nansum(b, 1, cupp::kw::keepdims = true).shape() == cupp::shape_t{4, 1},
         "nansum keepdims");
  expect_near(value(cupp::nanprod(b(2))), 954720, "nanprod");
  expect_near(value(cupp::nanmax(b)), 24, "nanmax");
  expect_near(value(cupp::nanmin(b)), 1, "nanmin");
  expect_values(cupp::nanmin(b, 1), {1, 7, 13, 19}, "nanmin axis 1");
  expect_near(value(cupp::nanargmax(b)), 23, "nanargmax");
  expect_near(value(cupp::nanargmin(b)), 0, "nanargmin");
  expect_values(cupp::nanargmax(b, 0), {3, 3, 3, 3, 3, 3}, "nanargmax axis 0");
  expect_values(cupp::nanargmin(b, 1), {0, 0, 0, 0}, "nanargmin axis 1");
  expect_near(value(cupp::nanmean(b)), 12.434783, "nanmean");
  expect_values(cupp::nanmean(b, 1), {3.5, 9.5, 15.8, 21.5}, "nanmean axis 1");
  expect_near(value(cupp::nanvar(b)), 49.89792, "nanvar");
  expect_near(value(cupp::nanstd(b)), 7.063846, "nanstd");
  expect_near(value(cupp::nanvar(b(2), cupp::none, cupp::kw::ddof = 1)), 3.7, "nanvar ddof=1");
}

}  // namespace

void device_paths_reductions_nan() {
  const cupp::ndarray<float> a = cupp::arange<float>(1, 25).reshape({4, 6});
  const cupp::ndarray<float> b = cupp::where(a == 14, std::numeric_limits<float>::quiet_NaN(), a);
  expect(std::isnan(b.item(13)), "b holds a NaN");
  nan_forms(b);
}
