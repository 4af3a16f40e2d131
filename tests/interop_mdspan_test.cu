// mdspan views in a user's kernel: a kernel writes each element's own
// coordinates through cupp::mdspan / x.mdspan<Rank>() of C, F, sliced,
// transposed and 3-d views, and the array, read back in C order, must hold
// exactly those coordinates where the view is and its old values elsewhere;
// the rank, negative-stride and broadcast refusals; 0-d and empty arrays;
// host arrays on the host.
#include <cupp/cupp.hpp>
#include <cupp/mdspan.hpp>

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <vector>

namespace {

// Coordinates as one number: 10000 * i + 100 * j (+ k), distinct for the
// shapes below, so that a swapped or shifted index shows as a wrong value.
__global__ void write_coordinates_2d(cupp::mdspan_t<std::int32_t, 2> a) {
  const auto i = static_cast<cupp::index_t>(blockIdx.x);
  for (auto j = static_cast<cupp::index_t>(threadIdx.x); j < a.extent(1); j += blockDim.x)
    a(i, j) = static_cast<std::int32_t>(10000 * i + 100 * j);
}

__global__ void write_coordinates_3d(cupp::mdspan_t<double, 3> a) {
  const auto i = static_cast<cupp::index_t>(blockIdx.x);
  for (cupp::index_t j = 0; j < a.extent(1); ++j)
    for (auto k = static_cast<cupp::index_t>(threadIdx.x); k < a.extent(2); k += blockDim.x)
      a(i, j, k) = static_cast<double>(10000 * i + 100 * j + k);
}

__global__ void add_one_0d(cupp::mdspan_t<float, 0> a) {
  a() += 1.0f;
}

void launch(cupp::mdspan_t<std::int32_t, 2> a) {
  if (a.extent(0) > 0) write_coordinates_2d<<<static_cast<unsigned>(a.extent(0)), 64>>>(a);
  cupp::cuda::Device().synchronize();
}

// What `base` must hold after the kernel wrote the view base(rows, cols)
// of a (R, C) array whose elements were -1: coordinates of the view where
// it is, -1 elsewhere, computed on the host from the slice parameters.
std::vector<std::int32_t> expected_after(int R, int C, int r0, int rstep, int c0, int cstep,
                                         bool transposed) {
  std::vector<std::int32_t> e(static_cast<std::size_t>(R) * C, -1);
  for (int r = r0, vi = 0; r >= 0 && r < R; r += rstep, ++vi)
    for (int c = c0, vj = 0; c >= 0 && c < C; c += cstep, ++vj)
      e[static_cast<std::size_t>(r) * C + c] =
          transposed ? 10000 * vj + 100 * vi : 10000 * vi + 100 * vj;
  return e;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mdspan_views)

BOOST_AUTO_TEST_CASE(c_and_f_order) {
  cupp::ndarray<std::int32_t> c = cupp::full<std::int32_t>({5, 7}, -1);
  launch(c.mdspan<2>());
  BOOST_TEST(c.to_vector() == expected_after(5, 7, 0, 1, 0, 1, false));

  // An F-ordered array: the mdspan's strides are (1, 5), and a(i, j) is
  // still element (i, j).
  cupp::ndarray<std::int32_t> f({5, 7}, cupp::order::F);
  f(cupp::ellipsis) = std::int32_t{-1};
  const auto m = cupp::mdspan<2>(f);
  BOOST_TEST(m.stride(0) == 1);
  BOOST_TEST(m.stride(1) == 5);
  launch(m);
  BOOST_TEST(f.to_vector() == expected_after(5, 7, 0, 1, 0, 1, false));
}

BOOST_AUTO_TEST_CASE(sliced_and_transposed_views) {
  cupp::ndarray<std::int32_t> base = cupp::full<std::int32_t>({9, 11}, -1);
  auto view = base(cupp::slice(1, 9, 3), cupp::slice(2, 11, 2));  // (3, 5), strides (3C, 2)
  launch(view.mdspan<2>());
  BOOST_TEST(base.to_vector() == expected_after(9, 11, 1, 3, 2, 2, false));

  cupp::ndarray<std::int32_t> t = cupp::full<std::int32_t>({6, 4}, -1);
  launch(t.T().mdspan<2>());  // view (4, 6): element (i, j) is t[j, i]
  BOOST_TEST(t.to_vector() == expected_after(6, 4, 0, 1, 0, 1, true));
}

BOOST_AUTO_TEST_CASE(three_dimensions_and_0d) {
  cupp::ndarray<double> x = cupp::zeros<double>({3, 4, 5});
  auto v = x(cupp::slice(), cupp::slice(), cupp::slice(0, 5, 2));  // (3, 4, 3)
  write_coordinates_3d<<<3, 32>>>(v.mdspan<3>());
  const auto got = x.to_vector();
  int bad = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k) {
        const double want = k % 2 == 0 ? 10000.0 * i + 100.0 * j + k / 2 : 0.0;
        bad += got[(i * 4 + j) * 5 + k] != want;
      }
  BOOST_TEST(bad == 0);

  cupp::ndarray<float> s = cupp::full<float>({}, 2.5f);
  add_one_0d<<<1, 1>>>(s.mdspan<0>());
  BOOST_TEST(s.to_vector() == std::vector<float>{3.5f});
}

BOOST_AUTO_TEST_CASE(empty_arrays) {
  cupp::ndarray<std::int32_t> e = cupp::zeros<std::int32_t>({0, 4});
  const auto m = e.mdspan<2>();
  BOOST_TEST(m.extent(0) == 0);
  BOOST_TEST(m.extent(1) == 4);
  BOOST_TEST(m.size() == 0u);
  launch(m);  // launches nothing
}

BOOST_AUTO_TEST_CASE(refusals) {
  cupp::ndarray<float> x = cupp::zeros<float>({4, 4});
  BOOST_CHECK_THROW(x.mdspan<1>(), cupp::value_error);
  BOOST_CHECK_THROW(cupp::mdspan<3>(x), cupp::value_error);
  // x[::-1] and a broadcast row have no layout_stride form.
  BOOST_CHECK_THROW(x(cupp::slice(cupp::_, cupp::_, -1)).mdspan<2>(), cupp::value_error);
  BOOST_CHECK_THROW(cupp::broadcast_to(x(0), {3, 4}).mdspan<2>(), cupp::value_error);
  // A length-1 axis may have any stride, since it is never stepped over.
  BOOST_CHECK_NO_THROW(x(cupp::slice(0, 1), cupp::slice()).mdspan<2>());
}

BOOST_AUTO_TEST_CASE(host_arrays) {
  cupp::host::ndarray<std::int32_t> h = cupp::host::arange<std::int32_t>(12);
  auto m = h.reshape({3, 4}).T().mdspan<2>();  // (4, 3), a view of h
  BOOST_TEST(m.extent(0) == 4);
  BOOST_TEST(m(1, 2) == 2 * 4 + 1);
  m(3, 0) = -7;
  BOOST_TEST(h.to_vector()[3] == -7);
}

BOOST_AUTO_TEST_SUITE_END()
