// Device paths of array manipulation: reshape, ravel, flatten and the
// transpose family, squeeze/expand_dims, broadcast_to/broadcast_arrays,
// atleast_Nd, flips, as_strided, sliding_window_view, ascontiguousarray /
// asfortranarray (views, and the copies some of them make), then joining and
// splitting (concatenate, stack and its forms, split and its forms, append,
// insert, delete_, trim_zeros), on float32 device arrays. (Tiling, padding
// and diagonals are in rearranging.cu.)
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/joining.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/ufunc/arithmetic.hpp>

#include <span>
#include <tuple>
#include <type_traits>
#include <vector>

#include "checks.hpp"

using cupp::_;
using cupp::slice;
using device_paths::expect;
using device_paths::expect_at;
using device_paths::expect_near;
using device_paths::expect_values;

namespace {

using shape = cupp::shape_t;

// x = 0 .. 23 in C order, shape (4, 6): x[i, j] = 6i + j; y = 0 .. 23 with
// shape (2, 3, 4). Expected values from NumPy.
void views(const cupp::ndarray<float>& x, const cupp::ndarray<float>& y) {
  const cupp::ndarray<float> r = cupp::reshape(x, {6, 4});
  expect(r.data() == x.data(), "reshape is a view");
  expect_values(r(1), {4, 5, 6, 7}, "reshape");
  expect_values(cupp::reshape(x, {6, 4}, cupp::order::F)(0), {0, 13, 3, 16}, "reshape order F");
  expect_values(cupp::reshape(x.T(), {24})(slice(0, 5)), {0, 6, 12, 18, 1}, "reshape (copy)");
  expect(x.reshape({-1, 3}).shape() == shape{8, 3}, "x.reshape({-1, 3})");
  expect(x.reshape(2, 12).shape() == shape{2, 12}, "x.reshape(2, 12)");
  expect(cupp::ravel(x).data() == x.data(), "ravel is a view");
  expect_values(cupp::ravel(x.T())(slice(0, 5)), {0, 6, 12, 18, 1}, "ravel (copy)");
  expect_values(x.ravel(cupp::order::F)(slice(0, 5)), {0, 6, 12, 18, 1}, "x.ravel(F)");
  const cupp::ndarray<float> fl = x.flatten();
  expect(fl.data() != x.data() && fl.shape() == shape{24}, "x.flatten()");
  expect_values(x.flatten(cupp::order::F)(slice(0, 3)), {0, 6, 12}, "x.flatten(F)");

  expect(cupp::transpose(x).shape() == shape{6, 4}, "transpose");
  expect_near(cupp::transpose(x).item(1, 0), 1, "transpose values");
  expect(cupp::transpose(y, {1, 0, 2}).shape() == shape{3, 2, 4}, "transpose(axes)");
  expect(y.transpose(2, 0, 1).shape() == shape{4, 2, 3}, "y.transpose(2, 0, 1)");
  expect(cupp::swapaxes(y, 0, 2).shape() == shape{4, 3, 2}, "swapaxes");
  expect_near(y.swapaxes(0, 2).item(3, 0, 1), 15, "y.swapaxes values");
  expect(cupp::moveaxis(y, 0, -1).shape() == shape{3, 4, 2}, "moveaxis");
  expect(cupp::moveaxis(y, {0, 1}, {-1, -2}).shape() == shape{4, 3, 2}, "moveaxis lists");
  expect(cupp::rollaxis(y, 2).shape() == shape{4, 2, 3}, "rollaxis");
  expect(cupp::expand_dims(x, 0).shape() == shape{1, 4, 6}, "expand_dims");
  const cupp::ndarray<float> e = cupp::expand_dims(x, {0, 3});
  expect(e.shape() == shape{1, 4, 6, 1}, "expand_dims list");
  expect(cupp::squeeze(e).shape() == shape{4, 6}, "squeeze");
  expect(cupp::squeeze(e, 0).shape() == shape{4, 6, 1}, "squeeze axis");
  expect(e.squeeze({0, 3}).shape() == shape{4, 6}, "e.squeeze(axes)");

  const cupp::ndarray<float> b = cupp::broadcast_to(x(0), {3, 6});
  expect(!b.flags().writeable, "broadcast_to is read-only");
  expect_values(b(2), {0, 1, 2, 3, 4, 5}, "broadcast_to");
  const cupp::ndarray<std::int32_t> col = cupp::arange<std::int32_t>(4).reshape({4, 1});
  auto [bx, bc] = cupp::broadcast_arrays(x, col);
  expect(bc.shape() == shape{4, 6}, "broadcast_arrays");
  expect_values(bc(2), {2, 2, 2, 2, 2, 2}, "broadcast_arrays values");
  expect(cupp::atleast_1d(x(1, 1)).shape() == shape{1}, "atleast_1d");
  expect(cupp::atleast_2d(x(0)).shape() == shape{1, 6}, "atleast_2d");
  expect(cupp::atleast_3d(x).shape() == shape{4, 6, 1}, "atleast_3d");
  auto [t1, t2] = cupp::atleast_2d(x(0), col(_, 0));
  expect(t1.shape() == shape{1, 6} && t2.shape() == shape{1, 4}, "atleast_2d(a, b)");
  auto [u1, u2] = cupp::atleast_1d(x(0, 0), col);
  expect(u1.shape() == shape{1} && u2.shape() == shape{4, 1}, "atleast_1d(a, b)");
  auto [w1, w2] = cupp::atleast_3d(x, col);
  expect(w1.shape() == shape{4, 6, 1} && w2.shape() == shape{4, 1, 1}, "atleast_3d(a, b)");
  const cupp::ndarray<float> c = cupp::ascontiguousarray(x.T());
  expect(c.is_c_contiguous() && c.data() != x.data(), "ascontiguousarray (copy)");
  expect_values(c(0), {0, 6, 12, 18}, "ascontiguousarray values");
  expect(cupp::ascontiguousarray(x).data() == x.data(), "ascontiguousarray (view)");
  const cupp::ndarray<float> f = cupp::asfortranarray(x);
  expect(f.is_f_contiguous() && !f.is_c_contiguous(), "asfortranarray");
  expect_values(f(1), {6, 7, 8, 9, 10, 11}, "asfortranarray values");

  expect_near(cupp::flip(x).item(0), 23, "flip");
  expect_values(cupp::flip(x, 0)(0), {18, 19, 20, 21, 22, 23}, "flip axis 0");
  expect_near(cupp::flip(x, {0, 1}).item(0), 23, "flip axes");
  expect_values(cupp::fliplr(x)(0), {5, 4, 3, 2, 1, 0}, "fliplr");
  expect_values(cupp::flipud(x)(_, 0), {18, 12, 6, 0}, "flipud");
  expect_values(cupp::as_strided(x, shape{4}, cupp::strides_t{28}), {0, 7, 14, 21}, "as_strided");
  cupp::ndarray<float> ro = x.view();
  ro.setflags(false);
  expect(!ro.flags().writeable && x.flags().writeable, "setflags");
  bool refused = false;
  try {
    ro(cupp::ellipsis) = 1;
  } catch (const cupp::value_error&) {
    refused = true;
  }
  expect(refused, "a read-only view refuses writes");
  const cupp::ndarray<float> sw = cupp::sliding_window_view(cupp::arange<float>(6).eval(), {3});
  expect(sw.shape() == shape{4, 3} && !sw.flags().writeable, "sliding_window_view");
  expect_values(sw, {0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5}, "sliding_window_view values");
}

void joins() {
  const cupp::ndarray<float> a = cupp::array<float>({{1, 2}, {3, 4}});
  const cupp::ndarray<float> b = cupp::array<float>({{5, 6}});
  const cupp::ndarray<float> v = cupp::array<float>({1, 2});
  const cupp::ndarray<float> w = cupp::array<float>({3, 4});
  expect_values(cupp::concatenate({a, b}), {1, 2, 3, 4, 5, 6}, "concatenate");
  expect_values(cupp::concatenate({a, a}, 1), {1, 2, 1, 2, 3, 4, 3, 4}, "concatenate axis 1");
  expect_values(cupp::concatenate({a, b}, cupp::none), {1, 2, 3, 4, 5, 6}, "concatenate none");
  const std::vector<cupp::ndarray<float>> vw{v, w};
  expect_values(cupp::concatenate(vw), {1, 2, 3, 4}, "concatenate(vector)");
  expect_values(cupp::concatenate(std::span<const cupp::ndarray<float>>(vw)), {1, 2, 3, 4},
                "concatenate(span)");
  const cupp::ndarray<std::int32_t> n = cupp::arange<std::int32_t>(2).eval();
  const auto mixed = cupp::concatenate(std::tuple{v, n});
  static_assert(std::is_same_v<typename decltype(mixed)::value_type, double>);
  expect_values(mixed, {1, 2, 0, 1}, "concatenate(tuple)");
  const cupp::ndarray<double> out(shape{4});
  cupp::concatenate(vw, 0, cupp::out(out));
  expect_values(out, {1, 2, 3, 4}, "concatenate out=");

  expect_values(cupp::stack({v, w}), {1, 2, 3, 4}, "stack");
  expect_values(cupp::stack(vw, 1), {1, 3, 2, 4}, "stack axis 1");
  expect(cupp::vstack({v, w}).shape() == shape{2, 2}, "vstack");
  expect_values(cupp::hstack({v, w}), {1, 2, 3, 4}, "hstack");
  expect(cupp::dstack(vw).shape() == shape{1, 2, 2}, "dstack");
  expect_values(cupp::dstack({v, w}), {1, 3, 2, 4}, "dstack values");
  expect_values(cupp::column_stack({v, w}), {1, 3, 2, 4}, "column_stack");

  const cupp::ndarray<float> r = cupp::arange<float>(6).eval();
  const auto parts = cupp::split(r, 3);
  expect(parts.size() == 3, "split count");
  expect_values(parts[1], {2, 3}, "split");
  const cupp::ndarray<float> x = cupp::arange<float>(24).reshape({4, 6});
  const auto cols = cupp::split(x, {2, 5}, 1);
  expect(cols.size() == 3 && cols[1].shape() == shape{4, 3}, "split indices axis 1");
  const auto uneven = cupp::array_split(cupp::arange<float>(7).eval(), 3);
  expect(uneven[0].size() == 3 && uneven[2].size() == 2, "array_split");
  expect(cupp::array_split(x, {1}, 0)[1].shape() == shape{3, 6}, "array_split indices");
  expect(cupp::hsplit(x, 3)[2].shape() == shape{4, 2}, "hsplit");
  expect(cupp::vsplit(x, {1})[0].shape() == shape{1, 6}, "vsplit");
  expect(cupp::dsplit(x.reshape({2, 3, 4}), 2)[1].shape() == shape{2, 3, 2}, "dsplit");
  expect(cupp::hsplit(x, {1, 2}).size() == 3, "hsplit indices");

  expect_values(cupp::append(v, w), {1, 2, 3, 4}, "append");
  expect(cupp::append(a, b, 0).shape() == shape{3, 2}, "append axis 0");
  const auto an = cupp::append(v, n);
  static_assert(std::is_same_v<typename decltype(an)::value_type, double>);
  expect_values(an, {1, 2, 0, 1}, "append (result_type)");
  const cupp::ndarray<float> f5 = cupp::arange<float>(5).eval();
  expect_values(cupp::insert(f5, 2, 9.0), {0, 1, 9, 2, 3, 4}, "insert scalar");
  expect_values(cupp::insert(f5, {1, 3}, cupp::array<float>({7, 8})), {0, 7, 1, 2, 8, 3, 4},
                "insert list");
  expect_values(cupp::insert(f5, slice(1, 5, 2), 0.5), {0, 0.5, 1, 2, 0.5, 3, 4}, "insert slice");
  expect_values(cupp::insert(a, 1, cupp::array<float>({7, 8}), 0), {1, 2, 7, 8, 3, 4},
                "insert axis 0");
  expect_values(cupp::delete_(f5, 1), {0, 2, 3, 4}, "delete_");
  expect_values(cupp::delete_(f5, slice(0, 5, 2)), {1, 3}, "delete_ slice");
  expect_values(cupp::delete_(f5, {0, 4}), {1, 2, 3}, "delete_ list");
  expect(cupp::delete_(x, 0, 0).shape() == shape{3, 6}, "delete_ axis 0");

  const cupp::ndarray<float> t = cupp::array<float>({0, 0, 1, 2, 0});
  expect_values(cupp::trim_zeros(t), {1, 2}, "trim_zeros");
  expect_values(cupp::trim_zeros(t, "f"), {1, 2, 0}, "trim_zeros front");
  const cupp::ndarray<float> z = cupp::zeros<float>({3, 4});
  z(1, slice(1, 3)) = 1;
  expect(cupp::trim_zeros(z).shape() == shape{1, 2}, "trim_zeros 2-d");
  expect(cupp::trim_zeros(z, "fb", 0).shape() == shape{1, 4}, "trim_zeros axis 0");
}

}  // namespace

void device_paths_manipulation() {
  const cupp::ndarray<float> x = cupp::arange<float>(24).reshape({4, 6});
  const cupp::ndarray<float> y = cupp::arange<float>(24).reshape({2, 3, 4});
  views(x, y);
  joins();
}
