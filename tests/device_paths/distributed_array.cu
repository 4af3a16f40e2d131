// Device paths of the distributed array (<cupp/distributed/array.hpp> and
// array_algorithms.hpp), its chunks all on the current device, some
// overlapping: make_2d_index_map, construction from host and device arrays
// in replica and sum modes, the properties, get, to_device, reshard,
// change_mode to every mode, every operator (+ - * / == != < <= > >= and
// unary -) and apply, lazy until evaluate or a conversion, sum, prod, max
// and min over all axes and along one, the reduction of an expression
// fused with it, and matmul; on float32, and on complex64, whose max and
// min modes are an error.
//
// Each chunk runs cupp's own kernels (elementwise, reductions, matmul),
// whose device paths their areas check: the six comparisons are evaluated
// in two expressions, and one expression is reduced, to keep this unit's
// kernels few. It needs no NCCL (one process drives every device).
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/distributed/array.hpp>
#include <cupp/generators.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/misc.hpp>

#include <complex>
#include <string>
#include <vector>

#include "checks.hpp"

namespace dist = cupp::distributed;
using cupp::slice;
using device_paths::expect;
using device_paths::expect_values;

namespace {

template <class T>
cupp::ndarray<T> host_values(const dist::distributed_array<T>& a) {
  return cupp::asarray(a.get());
}

// A grid of blocks, each on `dev`.
std::vector<std::vector<std::vector<int>>> on(int dev, std::size_t rows, std::size_t cols) {
  return std::vector<std::vector<std::vector<int>>>(rows,
                                                    std::vector<std::vector<int>>(cols, {dev}));
}

}  // namespace

void device_paths_distributed_array() {
  const int dev = cupp::cuda::runtime::getDevice();
  // x = [[1, 2, 3], [4, 5, 6]]: rows split 0:1 | 1:2, columns 0:2 | 2:3;
  // y the same values in mode sum over two chunks that share column 1.
  const cupp::ndarray<float> d = (cupp::arange<float>(6) + 1.0f).eval().reshape({2, 3});
  const std::vector<cupp::index_t> rows{0, 1, 2}, cols{0, 2, 3};
  const dist::index_map grid = dist::make_2d_index_map(rows, cols, on(dev, 2, 2));
  expect(grid.at(dev).size() == 4, "make_2d_index_map");
  const dist::index_map overlap{{dev, {{slice(0, 2), slice(0, 2)}, {slice(0, 2), slice(1, 3)}}}};
  const dist::distributed_array<float> x(d.get(), grid), y(d, overlap, dist::mode::sum);
  expect(x.shape() == cupp::shape_t{2, 3} && x.ndim() == 2 && x.size() == 6 &&
             x.get_mode() == dist::mode::replica && y.get_mode() == dist::mode::sum &&
             x.index_map().size() == 1 && x.devices() == std::vector<int>{dev} &&
             x.chunks().size() == 4 && y.chunks().size() == 2 && x.chunks()[3].device == dev,
         "distributed_array properties");
  expect_values(host_values(x), {1, 2, 3, 4, 5, 6}, "get (replica)");
  expect_values(y.to_device(dev), {1, 2, 3, 4, 5, 6}, "to_device (sum)");
  expect_values(host_values(x.reshard(overlap)), {1, 2, 3, 4, 5, 6}, "reshard");
  expect_values(host_values(y.reshard(grid)), {1, 2, 3, 4, 5, 6}, "reshard (sum)");
  for (const dist::mode md :
       {dist::mode::replica, dist::mode::sum, dist::mode::prod, dist::mode::max, dist::mode::min})
    expect_values(host_values(y.change_mode(md)), {1, 2, 3, 4, 5, 6},
                  std::string("change_mode to ") + dist::mode_name(md));

  // Element-wise, one kernel per chunk once evaluated (y is realigned to
  // x's chunks first).
  const dist::distributed_array<float> e = x * y + 2.0f - x;
  expect_values(host_values(e), {2, 4, 8, 14, 22, 32}, "x * y + 2 - x");
  expect_values(host_values(dist::evaluate(-x / y)), {-1, -1, -1, -1, -1, -1}, "-x / y");
  // (x < 3) != (3 <= x) holds everywhere; ((x > y) == (x >= y)) is false,
  // so equal to (x != 3) only where x is 3.
  expect_values(host_values(dist::evaluate((x < 3.0f) != (3.0f <= x))), {1, 1, 1, 1, 1, 1},
                "< != <=");
  expect_values(host_values(dist::evaluate(((x > y) == (x >= y)) == (x != 3.0f))),
                {0, 0, 1, 0, 0, 0}, "> == >= == !=");
  const auto f = [](const auto& a, const auto& b) { return cupp::maximum(a - b, b); };
  expect_values(host_values(dist::evaluate(dist::apply(f, x * 3.0f, y))), {2, 4, 6, 8, 10, 12},
                "apply");

  // Reductions over all axes (a 0-d array), of an expression, along an axis.
  expect_values(dist::sum(x), {21}, "sum");
  expect_values(dist::prod(y), {720}, "prod");
  expect_values(dist::max(x), {6}, "max");
  expect_values(dist::min(y), {1}, "min");
  expect_values(dist::sum(x * y), {91}, "sum of an expression");
  expect_values(host_values(dist::sum(x, 0)), {5, 7, 9}, "sum along 0");
  expect_values(host_values(dist::prod(y, 1)), {6, 120}, "prod along 1");
  expect_values(host_values(dist::max(x, -1)), {3, 6}, "max along -1");
  expect_values(host_values(dist::min(y, 0)), {1, 2, 3}, "min along 0");
  expect(dist::sum(x, 0).get_mode() == dist::mode::sum, "sum along an axis is in mode sum");

  // matmul: x's column split (0:2 | 2:3) is b's row split.
  const std::vector<cupp::index_t> b_cols{0, 1, 2};
  const dist::distributed_array<float> b(
      (cupp::arange<float>(6) + 1.0f).eval().reshape({3, 2}).get(),
      dist::make_2d_index_map(cols, b_cols, on(dev, 2, 2)));
  const auto c = dist::matmul(x, b);
  expect(c.get_mode() == dist::mode::sum, "matmul's mode");
  expect_values(host_values(c), {22, 28, 49, 64}, "matmul");

  // complex64: sum mode is fine, max and min modes are not.
  const cupp::ndarray<cupp::complex64> dz = d.astype<cupp::complex64>() * std::complex<float>(0, 1);
  const dist::distributed_array<cupp::complex64> z(dz, overlap, dist::mode::sum);
  expect_values(cupp::imag(z.to_device(dev)), {1, 2, 3, 4, 5, 6}, "complex64 in mode sum");
  bool refused = false;
  try {
    (void)z.change_mode(dist::mode::max);
  } catch (const cupp::value_error&) {
    refused = true;
  }
  expect(refused, "complex64 has no max mode");
}
