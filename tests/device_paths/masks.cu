// Device paths of boolean masks and the nonzero family: x(mask) reads (bool
// arrays, lazy bool expressions, masks over the leading axes, x(true) and
// x(false)), assignment and in-place updates through masks, nonzero (and
// the method), where(condition), flatnonzero, argwhere, compress, extract,
// place, putmask and select, on float32 device arrays.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/boolean_indexing.hpp>
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/comparison.hpp>

#include <vector>

#include "checks.hpp"

using device_paths::expect;
using device_paths::expect_values;

namespace {

// x = 0 .. 23 in C order, shape (4, 6): x[i, j] = 6i + j. Expected values
// from NumPy.
void reads(const cupp::ndarray<float>& x) {
  const cupp::ndarray<float> r = x(x % 7 == 3);
  expect_values(r, {3, 10, 17}, "x(lazy mask)");
  const cupp::ndarray<bool> m = x > 20;
  expect_values(x(m).eval(), {21, 22, 23}, "x(bool array)");
  expect_values(x(m).copy(), {21, 22, 23}, "x(mask).copy()");
  const cupp::ndarray<bool> rows = cupp::array<bool>({true, false, false, true});
  const cupp::ndarray<float> picked = x(rows);
  expect(picked.shape() == cupp::shape_t{2, 6}, "x(row mask) shape");
  expect_values(picked(cupp::_, 0), {0, 18}, "x(row mask)");
  expect(x(true).eval().shape() == cupp::shape_t{1, 4, 6}, "x(true)");
  expect(x(false).eval().shape() == cupp::shape_t{0, 4, 6}, "x(false)");
  // A strided operand: every other column.
  const cupp::ndarray<float> odd = x(cupp::_, cupp::slice(1, cupp::_, 2));
  expect_values(odd(odd > 18).eval(), {19, 21, 23}, "strided x(mask)");
}

void writes(const cupp::ndarray<float>& x) {
  const cupp::ndarray<float> y = x.copy();
  y(y > 20) = 0;
  y(y > 17) = cupp::array<float>({-1, -2, -3});
  expect_values(y(3), {-1, -2, -3, 0, 0, 0}, "x(mask) = scalar, = values");
  const cupp::ndarray<bool> rows = cupp::array<bool>({true, false, false, true});
  y(rows) += 1;
  expect_values(y(3), {0, -1, -2, 1, 1, 1}, "x(row mask) += scalar");
  y(rows) = cupp::arange<float>(100, 106).eval();
  expect_values(y(0), {100, 101, 102, 103, 104, 105}, "x(row mask) = row");
  y(x % 5 == 0) -= 50;
  expect_values(y(0), {50, 101, 102, 103, 104, 55}, "x(mask) -= scalar");
  expect_values(y(3), {100, 101, 52, 103, 104, 105}, "x(mask) -= scalar (row 3)");
  const cupp::ndarray<bool> big = y > 100;
  y(big) *= cupp::full<float>({8}, 2);
  expect_values(y(0), {50, 202, 204, 206, 208, 55}, "x(mask) *= values");
}

void nonzero_family(const cupp::ndarray<float>& x) {
  const auto nz = cupp::nonzero(x > 20);
  expect(nz.size() == 2, "nonzero: one array per axis");
  expect_values(nz[0], {3, 3, 3}, "nonzero rows");
  expect_values(nz[1], {3, 4, 5}, "nonzero columns");
  const auto nzm = x.nonzero();
  expect(nzm[0].size() == 23, "x.nonzero() count");
  expect_values(cupp::where(x > 20)[1], {3, 4, 5}, "where(condition)");
  expect_values(cupp::flatnonzero(x > 20), {21, 22, 23}, "flatnonzero");
  const auto aw = cupp::argwhere(x > 20);
  expect(aw.shape() == cupp::shape_t{3, 2}, "argwhere shape");
  expect_values(aw, {3, 3, 3, 4, 3, 5}, "argwhere");

  const cupp::ndarray<bool> c2 = cupp::array<bool>({false, true});
  expect_values(cupp::compress(c2, x, 1), {1, 7, 13, 19}, "compress axis 1");
  expect_values(cupp::compress(cupp::array<bool>({true, false, true}), x), {0, 2},
                "compress (flattened)");
  expect_values(cupp::extract(x > 20, x), {21, 22, 23}, "extract");

  const cupp::ndarray<float> p = cupp::arange<float>(6).eval();
  cupp::place(p, p > 2, cupp::array<float>({10, 20}));
  expect_values(p, {0, 1, 2, 10, 20, 10}, "place");
  const cupp::ndarray<float> q = cupp::arange<float>(6).eval();
  cupp::putmask(q, q > 2, cupp::array<float>({10, 20}));
  expect_values(q, {0, 1, 2, 20, 10, 20}, "putmask (cycled values)");
  const cupp::ndarray<float> s = cupp::arange<float>(6).eval();
  cupp::putmask(s, s > 3, s * 10);
  expect_values(s, {0, 1, 2, 3, 40, 50}, "putmask (values of a's shape)");

  const std::vector<cupp::ndarray<bool>> conds{x<5, x> 20};
  const std::vector<cupp::ndarray<float>> choices{x, x * 10};
  const cupp::ndarray<float> sel = cupp::select(conds, choices, -1.0f);
  expect_values(sel(0), {0, 1, 2, 3, 4, -1}, "select (row 0)");
  expect_values(sel(3), {-1, -1, -1, 210, 220, 230}, "select (row 3)");
}

}  // namespace

void device_paths_masks() {
  const cupp::ndarray<float> x = cupp::arange<float>(24).reshape({4, 6});
  reads(x);
  writes(x);
  nonzero_family(x);
}
