// Device paths of cov, corrcoef, correlate and convolve (cupp::matmul and
// cupp's correlation kernel). Values from NumPy. It also sorts, so that
// <cupp/sort.hpp> is in two units of one program (sort.cu is the other):
// a definition in it that is not inline would fail to link.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/correlation.hpp>
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/sort.hpp>

#include "checks.hpp"

using device_paths::expect_values;

void device_paths_correlation() {
  const cupp::ndarray<double> two = cupp::asarray(cupp::host::empty<double>({2, 3}));
  two.set(std::vector<double>{0, 1, 2, 2, 1, 0});
  expect_values(cupp::cov(two), {1, -1, -1, 1}, "cov");
  const cupp::ndarray<double> r = cupp::asarray(cupp::host::empty<double>({2, 3}));
  r.set(std::vector<double>{0, 1, 2, 2, 1, 0.5});
  expect_values(cupp::corrcoef(r), {1, -0.98198051, -0.98198051, 1}, "corrcoef");
  const cupp::ndarray<double> a = cupp::arange<double>(1, 4);
  const cupp::ndarray<double> v = cupp::asarray(cupp::host::empty<double>({3}));
  v.set(std::vector<double>{0, 1, 0.5});
  expect_values(cupp::correlate(a, v), {3.5}, "correlate");
  expect_values(cupp::convolve(a, v), {0, 1, 2.5, 4, 1.5}, "convolve");
  expect_values(cupp::convolve(a.astype<float>(), v.astype<float>(), "same"), {1, 2.5, 4},
                "convolve same, float32");
  expect_values(cupp::sort(cupp::convolve(a, v)), {0, 1, 1.5, 2.5, 4}, "sort of a convolution");
}
