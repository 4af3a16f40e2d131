// Device paths of indexing: basic indexing (integers, slices, newaxis,
// ellipsis, run-time index lists) and assignment through views, integer-array
// indexing (gathers, fused gathers, assignment and in-place updates),
// scatter_add/max/min, and the take/put family (take, take_along_axis, put,
// put_along_axis, choose) with their modes, on float32 device arrays and
// int64 indices. (Boolean masks and the nonzero family are in masks.cu.)
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/advanced_indexing.hpp>
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/math.hpp>

#include <cstdint>
#include <vector>

#include "checks.hpp"

using cupp::_;
using cupp::ellipsis;
using cupp::newaxis;
using cupp::slice;
using device_paths::expect;
using device_paths::expect_at;
using device_paths::expect_near;
using device_paths::expect_values;

namespace {

using ivec = std::vector<std::int64_t>;

// x = 0 .. 23 in C order, shape (4, 6): x[i, j] = 6i + j.
void basic(const cupp::ndarray<float>& x) {
  expect_values(x(1), {6, 7, 8, 9, 10, 11}, "x(1)");
  expect_values(x(-1), {18, 19, 20, 21, 22, 23}, "x(-1)");
  expect_near(x(1, 2).item(), 8, "x(1, 2)");
  expect(x(slice(1, 3)).shape() == cupp::shape_t{2, 6}, "x(slice(1, 3))");
  expect_values(x(0, slice(1, 5, 2)), {1, 3}, "x(0, slice(1, 5, 2))");
  expect(x(slice(3)).shape() == cupp::shape_t{3, 6}, "x(slice(3))");
  expect_near(x(slice(2, _)).item(0), 12, "x(slice(2, _))");
  expect_near(x(slice(_, _, -1)).item(0), 18, "x(slice(_, _, -1))");
  expect_values(x(_, 0), {0, 6, 12, 18}, "x(_, 0)");
  expect(x(newaxis, _).shape() == cupp::shape_t{1, 4, 6}, "x(newaxis, _)");
  expect(x(_, newaxis).shape() == cupp::shape_t{4, 1, 6}, "x(_, newaxis)");
  expect_values(x(ellipsis, 0), {0, 6, 12, 18}, "x(ellipsis, 0)");
  expect(x().shape() == x.shape(), "x()");
  const std::vector<cupp::index_item> items{1, slice(0, 2)};
  expect_values(x(items), {6, 7}, "x(items)");
  // A strided, reversed view read by a kernel.
  expect_values(x(slice(_, _, -2), slice(_, _, 3)) * 1, {18, 21, 6, 9}, "reversed strided view");

  // Writing through views.
  const cupp::ndarray<float> y = x.copy();
  y(slice(0, 1)) = x(slice(1, 2)) * 2;
  expect_values(y(0), {12, 14, 16, 18, 20, 22}, "view = expression");
  y(1, _) = 5;
  expect_values(y(1), {5, 5, 5, 5, 5, 5}, "view = scalar");
  const cupp::ndarray<float> v = y(2);
  v(ellipsis) = x(0);
  expect_values(y(2), {0, 1, 2, 3, 4, 5}, "v(ellipsis) = array");
  cupp::copyto(y(3), 1.5f);
  expect_values(y(3), {1.5, 1.5, 1.5, 1.5, 1.5, 1.5}, "copyto(view, scalar)");
  y(_, 0) *= 2;
  expect_values(y(_, 0), {24, 10, 0, 3}, "view *= scalar");
  // Overlapping operands in another layout read through a temporary.
  const cupp::ndarray<float> z = cupp::arange<float>(6).eval();
  z(slice(1, _)) += z(slice(_, -1));
  expect_values(z, {0, 1, 3, 5, 7, 9}, "z[1:] += z[:-1]");
}

void gathers(const cupp::ndarray<float>& x) {
  const cupp::ndarray<std::int64_t> idx = cupp::asarray(ivec{3, 0, -1});
  const cupp::ndarray<float> r = x(idx);
  expect(r.shape() == cupp::shape_t{3, 6}, "x(idx) shape");
  expect_values(r(_, 0), {18, 0, 18}, "x(idx)");
  expect_values(x(ivec{1, 2}).eval()(_, 1), {7, 13}, "x(vector)");
  expect_values(x(cupp::asnumpy(idx)).eval()(_, 5), {23, 5, 23}, "x(host index array)");
  const cupp::ndarray<std::int64_t> jdx = cupp::asarray(ivec{0, 5, 2});
  expect_values(x(idx, jdx), {18, 5, 20}, "x(idx, jdx)");
  expect_values(x(_, jdx).eval()(0), {0, 5, 2}, "x(_, jdx)");
  expect_values(x(1, jdx), {6, 11, 8}, "x(1, jdx)");
  // A gather inside an expression: one kernel.
  const cupp::ndarray<float> flat = x.ravel();
  const cupp::ndarray<std::int64_t> sq = cupp::asarray(ivec{4, 9, 16});
  expect_values(cupp::sqrt(flat(sq)) * 2, {4, 6, 8}, "sqrt(x(idx)) * 2");
  expect_values(flat(sq).unchecked(), {4, 9, 16}, "x(idx).unchecked()");
  const cupp::ndarray<double> widened = flat(sq);
  expect_values(widened, {4, 9, 16}, "ndarray<double> = x(idx)");

  // Assignment and in-place updates through index arrays.
  const cupp::ndarray<float> f = cupp::arange<float>(10).eval();
  f(ivec{1, 3}) = -1;
  expect_values(f(slice(0, 4)), {0, -1, 2, -1}, "x(idx) = scalar");
  f(ivec{1, 3}) += 10;
  expect_values(f(slice(0, 4)), {0, 9, 2, 9}, "x(idx) += scalar");
  f(ivec{0, 2}) = f(ivec{5, 6}) * 2;
  expect_values(f(slice(0, 4)), {10, 9, 12, 9}, "x(idx) = gather expression");
  f(sq(slice(0, 1))) = cupp::array<float>({-4});
  expect_near(f.item(4), -4, "x(device idx) = array");
  f(ivec{7, 8}) *= f(ivec{1, 1});
  expect_values(f(slice(7, 9)), {63, 72}, "x(idx) *= gather");
}

void scatters() {
  const cupp::ndarray<float> s = cupp::zeros<float>({4});
  const cupp::ndarray<std::int64_t> idx = cupp::asarray(ivec{0, 1, 1, 3});
  cupp::scatter_add(s, idx, 1.0f);
  expect_values(s, {1, 2, 0, 1}, "scatter_add scalar");
  cupp::scatter_add(s, idx, cupp::array<float>({1, 2, 3, 4}));
  expect_values(s, {2, 7, 0, 5}, "scatter_add array");
  cupp::scatter_max(s, idx, 6.0f);
  expect_values(s, {6, 7, 0, 6}, "scatter_max");
  cupp::scatter_min(s, ivec{0, 1, 1, 3}, 3.0f);
  expect_values(s, {3, 3, 0, 3}, "scatter_min");
  const cupp::ndarray<float> m = cupp::zeros<float>({3, 3});
  cupp::scatter_add(m, ivec{0, 0, 2}, ivec{1, 1, 2}, 1.0f);
  expect_values(m, {0, 2, 0, 0, 0, 0, 0, 0, 1}, "scatter_add two index arrays");
  cupp::scatter_add(m, ivec{1}, slice(0, 2), 5.0f);
  expect_values(m(1), {5, 5, 0}, "scatter_add index and slice");
}

void take_put(const cupp::ndarray<float>& x) {
  expect_values(cupp::take(x, ivec{0, 7, 23}), {0, 7, 23}, "take (flattened)");
  const cupp::ndarray<std::int64_t> idx = cupp::asarray(ivec{3, 0});
  expect_values(cupp::take(x, idx, 0)(_, 1), {19, 1}, "take axis 0");
  expect_values(cupp::take(x, ivec{7}, 1, cupp::take_mode::wrap), {1, 7, 13, 19}, "take mode wrap");
  expect_values(cupp::take(x, ivec{-1, 10}, 1, cupp::take_mode::clip),
                {0, 5, 6, 11, 12, 17, 18, 23}, "take mode clip");
  const cupp::ndarray<std::int64_t> along = cupp::asarray(ivec{5, 0, 1, 2}, {4, 1});
  expect_values(cupp::take_along_axis(x, along, 1), {5, 6, 13, 20}, "take_along_axis");
  expect_values(cupp::take_along_axis(x, ivec{3, 1}, std::nullopt), {3, 1},
                "take_along_axis (flattened)");

  const cupp::ndarray<float> p = cupp::arange<float>(6).eval();
  cupp::put(p, ivec{0, 2}, 9.0f);
  expect_values(p, {9, 1, 9, 3, 4, 5}, "put scalar");
  cupp::put(p, ivec{1, 3, 5}, cupp::array<float>({7, 8}));
  expect_values(p, {9, 7, 9, 8, 4, 7}, "put array (cycled)");
  cupp::put(p, ivec{7}, p * 0 - 1, cupp::take_mode::wrap);
  expect_near(p.item(1), -1, "put mode wrap (expression values)");
  const cupp::ndarray<float> q = x.copy();
  cupp::put_along_axis(q, along, 0.0f, 1);
  expect_values(q.ravel()(ivec{5, 6, 13, 20, 4}), {0, 0, 0, 0, 4}, "put_along_axis");
  cupp::put_along_axis(q, ivec{0, 23}, cupp::array<float>({-1, -2}), std::nullopt);
  expect_values(q.ravel()(ivec{0, 23}), {-1, -2}, "put_along_axis (flattened)");

  const cupp::ndarray<float> c0 = cupp::array<float>({1, 2, 3});
  const cupp::ndarray<float> c1 = cupp::array<float>({10, 20, 30});
  expect_values(cupp::choose(ivec{0, 1, 0}, {c0, c1}), {1, 20, 3}, "choose");
  expect_values(cupp::choose(cupp::asarray(ivec{2, 3, -1}), {c0, c1}, cupp::take_mode::wrap),
                {1, 20, 30}, "choose mode wrap");
  expect_values(cupp::choose(ivec{5, 1, -1}, std::vector{c0, c1}, cupp::take_mode::clip),
                {10, 20, 3}, "choose mode clip");
}

}  // namespace

void device_paths_indexing() {
  const cupp::ndarray<float> x = cupp::arange<float>(24).reshape({4, 6});
  basic(x);
  gathers(x);
  scatters();
  take_put(x);
}
