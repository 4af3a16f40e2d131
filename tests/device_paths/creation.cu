// Device paths of array creation: empty, the lazy generators (zeros, ones,
// full and their _like forms, arange, linspace, logspace, geomspace, eye,
// identity, tri, indices, meshgrid) with their views (reshape, ravel, T,
// transpose) and their fusion into expressions, arrays from host data
// (array, asarray, from_pointer), and cupp::get_array_module's device module,
// on float32 device arrays (and the dtypes the generators derive).
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/module.hpp>
#include <cupp/ufunc/arithmetic.hpp>

#include <type_traits>
#include <vector>

#include "checks.hpp"

using device_paths::expect;
using device_paths::expect_at;
using device_paths::expect_near;
using device_paths::expect_values;

namespace {

template <class G>
using value_t = typename G::value_type;

void filled() {
  const cupp::ndarray<float> e = cupp::empty<float>({2, 3});
  expect(e.shape() == cupp::shape_t{2, 3} && e.is_c_contiguous(), "empty");
  const cupp::ndarray<float> ef = cupp::empty<float>({2, 3}, cupp::order::F);
  expect(ef.is_f_contiguous() && !ef.is_c_contiguous(), "empty order F");
  expect(cupp::empty_like(ef).is_f_contiguous(), "empty_like keeps F order");

  expect_values(cupp::zeros<float>({2, 2}), {0, 0, 0, 0}, "zeros");
  expect_values(cupp::ones<float>({3}), {1, 1, 1}, "ones");
  const cupp::ndarray<float> zf = cupp::zeros<float>({2, 3}, cupp::order::F);
  expect(zf.is_f_contiguous() && !zf.is_c_contiguous(), "zeros order F");
  static_assert(std::is_same_v<value_t<decltype(cupp::zeros({2}))>, double>);
  const auto f = cupp::full({2, 2}, 7);
  static_assert(std::is_same_v<value_t<decltype(f)>, std::int64_t>);
  expect_values(f, {7, 7, 7, 7}, "full (int64)");
  expect_values(cupp::full<float>({2}, 2.5), {2.5, 2.5}, "full<float>");
  expect_values(cupp::full({2}, true), {1, 1}, "full (bool)");

  const cupp::ndarray<float> a = cupp::arange<float>(6).reshape({2, 3});
  expect_values(cupp::full_like(a, 3), {3, 3, 3, 3, 3, 3}, "full_like");
  const auto zl = cupp::zeros_like<double>(a);
  static_assert(std::is_same_v<value_t<decltype(zl)>, double>);
  expect_values(zl, {0, 0, 0, 0, 0, 0}, "zeros_like<double>");
  expect_values(cupp::ones_like(a * 2), {1, 1, 1, 1, 1, 1}, "ones_like (expression)");
  // A generator inside an expression: one kernel.
  expect_values(a + cupp::ones_like(a), {1, 2, 3, 4, 5, 6}, "a + ones_like(a)");
}

void ranges() {
  const auto r = cupp::arange(5);
  static_assert(std::is_same_v<value_t<decltype(r)>, std::int64_t>);
  expect_values(r, {0, 1, 2, 3, 4}, "arange(stop)");
  const auto rf = cupp::arange(1.0, 2.0, 0.25);
  static_assert(std::is_same_v<value_t<decltype(rf)>, double>);
  expect_values(rf, {1, 1.25, 1.5, 1.75}, "arange(start, stop, step)");
  expect_values(cupp::arange<float>(2, 8, 2), {2, 4, 6}, "arange<float>");
  expect_values(cupp::arange<float>(3, 6), {3, 4, 5}, "arange<float>(start, stop)");

  expect_values(cupp::linspace<float>(0, 1, 5), {0, 0.25, 0.5, 0.75, 1}, "linspace<float>");
  expect_values(cupp::linspace(0.0, 1.0, 4, false), {0, 0.25, 0.5, 0.75},
                "linspace endpoint=false");
  auto [x, step] = cupp::linspace_retstep<float>(0, 1, 5);
  expect_near(static_cast<double>(step), 0.25, "linspace_retstep step");
  expect_values(x, {0, 0.25, 0.5, 0.75, 1}, "linspace_retstep samples");
  expect_values(cupp::logspace<float>(0, 2, 3), {1, 10, 100}, "logspace");
  expect_values(cupp::logspace(0.0, 3.0, 4, true, 2.0), {1, 2, 4, 8}, "logspace base 2");
  expect_values(cupp::geomspace<float>(1, 1000, 4), {1, 10, 100, 1000}, "geomspace");
}

void matrices() {
  expect_values(cupp::eye<float>(3), {1, 0, 0, 0, 1, 0, 0, 0, 1}, "eye");
  expect_values(cupp::eye<float>(3, 4, 1), {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, "eye(3, 4, 1)");
  const cupp::ndarray<float> ef = cupp::eye<float>(2, std::nullopt, 0, cupp::order::F);
  expect(ef.is_f_contiguous(), "eye order F");
  expect_values(cupp::identity<float>(2), {1, 0, 0, 1}, "identity");
  expect_values(cupp::tri<float>(3), {1, 0, 0, 1, 1, 0, 1, 1, 1}, "tri");
  expect_values(cupp::tri<float>(2, 3, 1), {1, 1, 0, 1, 1, 1}, "tri(2, 3, 1)");
  const auto ix = cupp::indices({2, 3});
  expect(ix.shape() == cupp::shape_t{2, 2, 3}, "indices shape");
  expect_values(ix, {0, 0, 0, 1, 1, 1, 0, 1, 2, 0, 1, 2}, "indices");
  const auto sp = cupp::sparse_indices<std::int32_t>({2, 3});
  expect(sp.size() == 2 && sp[0].shape() == cupp::shape_t{2, 1} &&
             sp[1].shape() == cupp::shape_t{1, 3},
         "sparse_indices shapes");
  expect_values(sp[0] * 10 + sp[1], {0, 1, 2, 10, 11, 12}, "sparse_indices broadcast");
}

void generator_views() {
  const auto g = cupp::arange<float>(6).reshape({2, 3});
  expect_values(g, {0, 1, 2, 3, 4, 5}, "generator reshape");
  expect_values(g.T(), {0, 3, 1, 4, 2, 5}, "generator T");
  expect_values(g.transpose(), {0, 3, 1, 4, 2, 5}, "generator transpose()");
  expect_values(g.transpose({1, 0}), {0, 3, 1, 4, 2, 5}, "generator transpose(axes)");
  expect_values(g.ravel(cupp::order::F), {0, 3, 1, 4, 2, 5}, "generator ravel F");
  expect_values(g.T().ravel(), {0, 3, 1, 4, 2, 5}, "generator T ravel");
  expect_values(cupp::arange<float>(6).reshape({3, 2}, cupp::order::F), {0, 3, 1, 4, 2, 5},
                "generator reshape order F");
  expect_values(cupp::arange<float>(4).reshape(2, 2) * 2, {0, 2, 4, 6}, "generator fused");
  const cupp::ndarray<float> e = g.eval();
  expect_at(e, 5, 5.0, "generator eval");
}

void meshgrids() {
  const cupp::ndarray<float> x = cupp::arange<float>(1, 4);  // 1 2 3
  const cupp::ndarray<float> y = cupp::arange<float>(4, 6);  // 4 5
  auto [X, Y] = cupp::meshgrid(x, y);
  expect(X.shape() == cupp::shape_t{2, 3}, "meshgrid xy shape");
  expect_values(X, {1, 2, 3, 1, 2, 3}, "meshgrid X");
  expect_values(Y, {4, 4, 4, 5, 5, 5}, "meshgrid Y");
  auto [I, J] = cupp::meshgrid(x, y, cupp::indexing::ij);
  expect(I.shape() == cupp::shape_t{3, 2}, "meshgrid ij shape");
  expect_values(J.copy(), {4, 5, 4, 5, 4, 5}, "meshgrid ij J");
  auto [A, B] = cupp::meshgrid(x, y, cupp::meshgrid_options{.sparse = true});
  expect(A.shape() == cupp::shape_t{1, 3} && B.shape() == cupp::shape_t{2, 1}, "meshgrid sparse");
  expect_values(A + B, {5, 6, 7, 6, 7, 8}, "meshgrid sparse sum");
  auto [GX, GY] = cupp::meshgrid(cupp::arange<float>(3), cupp::arange<float>(2));
  expect_values(GX * 10 + GY, {0, 10, 20, 1, 11, 21}, "meshgrid of generators");
}

void from_host() {
  expect_values(cupp::array<float>({1, 2, 3}), {1, 2, 3}, "array 1-d");
  const cupp::ndarray<float> m = cupp::array<float>({{1, 2}, {3, 4}});
  expect(m.shape() == cupp::shape_t{2, 2}, "array 2-d shape");
  expect_values(m, {1, 2, 3, 4}, "array 2-d");
  const cupp::ndarray<float> c = cupp::array<float>({{{1, 2}, {3, 4}}});
  expect(c.shape() == cupp::shape_t{1, 2, 2}, "array 3-d shape");
  const cupp::ndarray<float> copied = cupp::array(m);
  expect(copied.data() != m.data(), "array(x) copies");
  expect(cupp::array(m, false).data() == m.data(), "array(x, copy=false) does not");
  const cupp::host::ndarray<float> h = cupp::host::array<float>({5, 6});
  expect_values(cupp::array(h), {5, 6}, "array(host array)");

  const std::vector<float> v{0, 1, 2, 3, 4, 5};
  expect_values(cupp::asarray(v), {0, 1, 2, 3, 4, 5}, "asarray(vector)");
  const cupp::ndarray<float> v23 = cupp::asarray(v, {2, 3});
  expect(v23.shape() == cupp::shape_t{2, 3}, "asarray(vector, shape)");
  expect_at(v23, 4, 4.0, "asarray(vector, shape) values");
  expect_values(cupp::asarray(h), {5, 6}, "asarray(host array)");
  expect(cupp::asarray(m).data() == m.data(), "asarray(device array) is the array");
  // Every other element of v (byte strides).
  expect_values(cupp::asarray(v.data(), {3}, {8}), {0, 2, 4}, "asarray(ptr, shape, strides)");
  const auto view = cupp::ndarray<float>::from_pointer(m.data() + 2, {2}, {}, m.memory());
  expect_values(view, {3, 4}, "from_pointer");
  // Host arrays with the host generators, then moved to the device.
  expect_values(cupp::asarray(cupp::host::arange<float>(3).eval()), {0, 1, 2},
                "host::arange to device");
}

void modules() {
  const cupp::ndarray<float> a = cupp::arange<float>(4).reshape({2, 2});
  auto xp = cupp::get_array_module(a, 2.0);
  static_assert(std::is_same_v<decltype(xp), cupp::device_module>);
  static_assert(std::is_same_v<decltype(cupp::get_array_module(a * 2)), cupp::device_module>);
  expect(xp.empty<float>({3}).shape() == cupp::shape_t{3}, "xp.empty");
  expect_values(xp.zeros<float>({2}), {0, 0}, "xp.zeros");
  expect_values(xp.ones<float>({2}), {1, 1}, "xp.ones");
  expect_values(xp.full<float>({2}, 4), {4, 4}, "xp.full<float>");
  expect_values(xp.full({2}, 4), {4, 4}, "xp.full (int64)");
  expect(xp.empty_like(a).shape() == a.shape(), "xp.empty_like");
  expect_values(xp.zeros_like(a), {0, 0, 0, 0}, "xp.zeros_like");
  expect_values(xp.array<float>({1, 2}), {1, 2}, "xp.array 1-d");
  expect_values(xp.array<float>({{1, 2}, {3, 4}}), {1, 2, 3, 4}, "xp.array 2-d");
  expect(xp.asarray(a).data() == a.data(), "xp.asarray(device array)");
  expect_values(xp.asarray(a * 2), {0, 2, 4, 6}, "xp.asarray(expression)");
  expect_values(xp.asarray(cupp::asnumpy(a)), {0, 1, 2, 3}, "xp.asarray(host array)");
  const std::vector<float> v{1, 2, 3, 4};
  expect_values(xp.asarray(v), {1, 2, 3, 4}, "xp.asarray(vector)");
  expect(xp.asarray(v, {2, 2}).shape() == cupp::shape_t{2, 2}, "xp.asarray(vector, shape)");
}

}  // namespace

void device_paths_creation() {
  filled();
  ranges();
  matrices();
  generator_views();
  meshgrids();
  from_host();
  modules();
}
