// Device paths of tiling, repeating, rolling, padding and resizing (tile,
// repeat, roll, rot90, pad in every mode, resize: lazy gathers that fuse)
// and of diagonals and triangles (diag, diagonal, diagflat, tril, triu,
// fill_diagonal), on float32 device arrays.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/diagonals.hpp>
#include <cupp/generators.hpp>
#include <cupp/rearranging.hpp>
#include <cupp/ufunc/arithmetic.hpp>

#include "checks.hpp"

using cupp::_;
using device_paths::expect;
using device_paths::expect_values;

namespace {

using shape = cupp::shape_t;
using cupp::pad_mode;

// x = 0 .. 23 in C order, shape (4, 6): x[i, j] = 6i + j. Expected values
// from NumPy.
void rearranging(const cupp::ndarray<float>& x) {
  const cupp::ndarray<float> v = cupp::array<float>({1, 2});
  const cupp::ndarray<float> a = cupp::array<float>({{1, 2}, {3, 4}});
  const cupp::ndarray<float> r4 = cupp::arange<float>(4).eval();
  expect_values(cupp::tile(v, 2), {1, 2, 1, 2}, "tile");
  expect_values(cupp::tile(a, {2, 1}), {1, 2, 3, 4, 1, 2, 3, 4}, "tile reps");
  expect_values(cupp::tile(v, 2) * 2 + 1, {3, 5, 3, 5}, "tile fused");
  expect_values(cupp::repeat(v, 2), {1, 1, 2, 2}, "repeat");
  expect_values(cupp::repeat(a, {1, 2}, 1), {1, 2, 2, 3, 4, 4}, "repeat counts axis 1");
  expect_values(cupp::repeat(a, 2), {1, 1, 2, 2, 3, 3, 4, 4}, "repeat (flattened)");
  expect_values(cupp::roll(cupp::arange<float>(5).eval(), 2), {3, 4, 0, 1, 2}, "roll");
  expect_values(cupp::roll(x, {1, -2}, {0, 1}).eval()(0), {20, 21, 22, 23, 18, 19}, "roll axes");
  expect_values(cupp::roll(x, 5).eval()(0), {19, 20, 21, 22, 23, 0}, "roll (flattened)");
  expect_values(cupp::roll(x, 1, 0) - x, {18, 18, 18, 18, 18, 18, -6, -6, -6, -6, -6, -6,
                                          -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6, -6},
                "roll fused");
  expect_values(cupp::rot90(a), {2, 4, 1, 3}, "rot90");
  expect_values(cupp::rot90(a, 2), {4, 3, 2, 1}, "rot90 k=2");
  expect_values(cupp::rot90(x, 1, {1, 0})(0), {18, 12, 6, 0}, "rot90 axes (1, 0)");
  expect_values(cupp::pad(v, 1), {0, 1, 2, 0}, "pad");
  expect_values(cupp::pad(v, {1, 2}, pad_mode::edge), {1, 1, 2, 2, 2}, "pad edge");
  expect_values(cupp::pad(r4, 2, pad_mode::reflect), {2, 1, 0, 1, 2, 3, 2, 1}, "pad reflect");
  expect_values(cupp::pad(r4, 2, pad_mode::symmetric), {1, 0, 0, 1, 2, 3, 3, 2}, "pad symmetric");
  expect_values(cupp::pad(r4, 2, pad_mode::wrap), {2, 3, 0, 1, 2, 3, 0, 1}, "pad wrap");
  expect_values(cupp::pad(a, {{1, 0}, {0, 1}}, pad_mode::constant, 5), {5, 5, 5, 1, 2, 5, 3, 4, 5},
                "pad constant 5");
  expect_values(cupp::pad(a, 1, pad_mode::constant, {{7, 8}, {9, 10}}),
                {9, 7, 7, 10, 9, 1, 2, 10, 9, 3, 4, 10, 9, 8, 8, 10}, "pad per-axis constants");
  expect_values(cupp::resize(cupp::arange<float>(3).eval(), {2, 3}), {0, 1, 2, 0, 1, 2}, "resize");
  expect_values(cupp::resize(cupp::arange<float>(3).eval(), 5), {0, 1, 2, 0, 1}, "resize 1-d");
}

void diagonals(const cupp::ndarray<float>& x) {
  const cupp::ndarray<float> v = cupp::array<float>({1, 2});
  const cupp::ndarray<float> a = cupp::array<float>({{1, 2}, {3, 4}});
  expect_values(cupp::diag(v), {1, 0, 0, 2}, "diag (1-d)");
  expect_values(cupp::diag(v, 1), {0, 1, 0, 0, 0, 2, 0, 0, 0}, "diag (1-d) k=1");
  expect_values(cupp::diag(x), {0, 7, 14, 21}, "diag (2-d)");
  expect_values(cupp::diag(x, 1), {1, 8, 15, 22}, "diag (2-d) k=1");
  expect_values(cupp::diagonal(x, 1), {1, 8, 15, 22}, "diagonal");
  const cupp::ndarray<float> d = x.diagonal();
  expect(!d.flags().writeable, "diagonal is read-only");
  expect_values(d, {0, 7, 14, 21}, "x.diagonal()");
  const cupp::ndarray<float> y = cupp::arange<float>(24).reshape({2, 3, 4});
  const cupp::ndarray<float> d3 = cupp::diagonal(y, 0, 1, 2);
  expect(d3.shape() == shape{2, 3}, "diagonal axes (1, 2)");
  expect_values(d3, {0, 5, 10, 12, 17, 22}, "diagonal axes (1, 2) values");
  const cupp::ndarray<float> df = cupp::diagflat(a);
  expect(df.shape() == shape{4, 4}, "diagflat shape");
  expect_values(df.diagonal(), {1, 2, 3, 4}, "diagflat");
  expect_values(cupp::diagflat(v, -1), {0, 0, 0, 1, 0, 0, 0, 2, 0}, "diagflat k=-1");
  expect_values(cupp::tril(x).eval()(1), {6, 7, 0, 0, 0, 0}, "tril");
  expect_values(cupp::triu(x, 1).eval()(1), {0, 0, 8, 9, 10, 11}, "triu k=1");
  expect_values(cupp::tril(x * 2).eval()(1), {12, 14, 0, 0, 0, 0}, "tril of an expression");
  expect_values(cupp::tril(cupp::arange<float>(3).eval()), {0, 0, 0, 0, 1, 0, 0, 1, 2},
                "tril (1-d)");
  const cupp::ndarray<float> m = cupp::zeros<float>({3, 3});
  cupp::fill_diagonal(m, 5);
  expect_values(m, {5, 0, 0, 0, 5, 0, 0, 0, 5}, "fill_diagonal");
  cupp::fill_diagonal(m, v);
  expect_values(m, {1, 0, 0, 0, 2, 0, 0, 0, 1}, "fill_diagonal (array)");
  const cupp::ndarray<float> tall = cupp::zeros<float>({5, 2});
  cupp::fill_diagonal(tall, 1, true);
  expect_values(tall, {1, 0, 0, 1, 0, 0, 1, 0, 0, 1}, "fill_diagonal wrap");
}

}  // namespace

void device_paths_rearranging() {
  const cupp::ndarray<float> x = cupp::arange<float>(24).reshape({4, 6});
  rearranging(x);
  diagonals(x);
}
