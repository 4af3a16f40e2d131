// cupp::begin/end over host arrays and host expressions, with the standard
// algorithms: the C-order walk of every layout (C, F, strided, reversed,
// broadcast, 0-d, empty, more axes than the walk merges), writes through
// std::sort/std::copy that leave the other elements alone, expressions
// read by std::accumulate and std::copy, iterator arithmetic and the
// iterator types Thrust and the standard library look at. Needs no GPU.
#include <cupp/cupp.hpp>
#include <cupp/iterator.hpp>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <functional>
#include <iterator>
#include <numeric>
#include <ranges>
#include <string>
#include <type_traits>
#include <vector>

#include "cupp_test.hpp"

using cupp::_;
using cupp::index_t;
using cupp::slice;

namespace {

// 0, 1, 2, ... as a host array of `shape`, C order.
template <class T>
cupp::host::ndarray<T> iota(const cupp::shape_t& shape) {
  std::vector<T> v(static_cast<std::size_t>(cupp::detail::size_of(shape)));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<T>(i);
  return cupp::host::asarray(v, shape);
}

template <class X>
auto walk(const X& x) {
  using V = typename std::iterator_traits<decltype(cupp::cbegin(x))>::value_type;
  return std::vector<V>(cupp::cbegin(x), cupp::cend(x));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(types)

using dev_it = cupp::iterator_t<cupp::ndarray<float>>;
using host_it = cupp::iterator_t<cupp::host::ndarray<float>>;
using host_cit = cupp::const_iterator_t<cupp::host::ndarray<float>>;

static_assert(std::is_same_v<std::iterator_traits<host_it>::reference, float&>);
static_assert(std::is_same_v<std::iterator_traits<host_cit>::reference, const float&>);
static_assert(std::is_same_v<std::iterator_traits<host_it>::value_type, float>);
static_assert(std::is_same_v<std::iterator_traits<host_it>::difference_type, std::ptrdiff_t>);
static_assert(std::is_same_v<std::iterator_traits<host_it>::pointer, float*>);
// The categories, and the system Thrust runs a policy-free algorithm on
// (its device tag alone would map to the host system).
static_assert(std::is_same_v<std::iterator_traits<host_it>::iterator_category,
                             std::random_access_iterator_tag>);
static_assert(std::is_same_v<std::iterator_traits<dev_it>::iterator_category,
                             thrust::random_access_device_iterator_tag>);
static_assert(std::is_same_v<thrust::iterator_system<dev_it>::type, thrust::device_system_tag>);
static_assert(std::is_same_v<thrust::iterator_system<cupp::iterator_t<
                                 decltype(std::declval<const cupp::ndarray<float>&>() * 2)>>::type,
                             thrust::device_system_tag>);
static_assert(std::is_same_v<thrust::iterator_system<host_it>::type, thrust::host_system_tag>);
static_assert(std::random_access_iterator<host_it>);
static_assert(std::random_access_iterator<host_cit>);
static_assert(std::output_iterator<host_it, float>);
static_assert(!std::output_iterator<host_cit, float>);
static_assert(std::is_trivially_copyable_v<host_it>);
static_assert(std::is_trivially_copyable_v<dev_it>);

BOOST_AUTO_TEST_CASE(expression_iterators_are_read_only_values) {
  const auto h = iota<float>({3});
  using It = decltype(cupp::begin(h * 2));
  static_assert(std::random_access_iterator<It>);
  static_assert(!std::output_iterator<It, float>);
  static_assert(std::is_same_v<std::iterator_traits<It>::value_type, float>);
  static_assert(std::is_same_v<std::iterator_traits<It>::reference, float>);
  static_assert(
      std::is_same_v<std::iterator_traits<It>::iterator_category, std::random_access_iterator_tag>);
  static_assert(std::is_trivially_copyable_v<It>);
  // NEP 50: the weak 2 keeps int16; a float64 operand promotes.
  const auto s = iota<std::int16_t>({3});
  static_assert(
      std::is_same_v<std::iterator_traits<decltype(cupp::begin(s * 2))>::value_type, std::int16_t>);
  static_assert(
      std::is_same_v<std::iterator_traits<decltype(cupp::begin(s * iota<double>({3})))>::value_type,
                     double>);
  // A device expression's iterator runs on the device under Thrust.
  static_assert(
      std::is_same_v<cupp::iterator_t<decltype(cupp::ndarray<float>() * 2)>::iterator_category,
                     thrust::random_access_device_iterator_tag>);
  // Only positions are compared.
  BOOST_TEST((cupp::begin(h * 2) + 3 == cupp::end(h * 2)));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(layouts)

BOOST_AUTO_TEST_CASE(c_order_of_every_layout) {
  const auto a = iota<std::int32_t>({3, 4});
  std::vector<std::int32_t> expect;
  // C order itself.
  BOOST_TEST(walk(a) == a.to_vector(), boost::test_tools::per_element());
  // Transposed (F-ordered data): element [i][j] is a[j][i].
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) expect.push_back(j * 4 + i);
  BOOST_TEST(walk(a.T()) == expect, boost::test_tools::per_element());
  // One column, a step of two, both axes reversed.
  BOOST_TEST(walk(a(_, 1)) == (std::vector<std::int32_t>{1, 5, 9}),
             boost::test_tools::per_element());
  BOOST_TEST(walk(a(_, slice(_, _, 2))) == (std::vector<std::int32_t>{0, 2, 4, 6, 8, 10}),
             boost::test_tools::per_element());
  expect.clear();
  for (int i = 2; i >= 0; --i)
    for (int j = 3; j >= 0; --j) expect.push_back(i * 4 + j);
  BOOST_TEST(walk(a(slice(_, _, -1), slice(_, _, -1))) == expect, boost::test_tools::per_element());
  // An F-ordered array of its own.
  auto f = cupp::host::empty<std::int32_t>({3, 4}, cupp::order::F);
  std::copy(cupp::cbegin(a), cupp::cend(a), cupp::begin(f));
  BOOST_TEST(walk(f) == a.to_vector(), boost::test_tools::per_element());
  BOOST_TEST(f.item(1, 2) == 6);
  // A broadcast view (stride 0 on a new axis and on an extent-1 axis).
  const auto b = cupp::broadcast_to(a(_, slice(1, 2)), {2, 3, 4});
  expect.clear();
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) expect.push_back(i * 4 + 1);
  BOOST_TEST(walk(b) == expect, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(three_axes_transposed_and_sliced) {
  const auto a = iota<double>({4, 3, 5});
  const auto v = a(slice(1, 4), _, slice(_, _, -2)).transpose({2, 0, 1});  // (3, 3, 3)
  std::vector<double> expect;
  for (int k : {4, 2, 0})
    for (int i = 1; i < 4; ++i)
      for (int j = 0; j < 3; ++j) expect.push_back(i * 15 + j * 5 + k);
  BOOST_TEST(walk(v) == expect, boost::test_tools::per_element());
  BOOST_TEST(walk(v) == v.to_vector(), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(zero_d_and_empty) {
  const auto z = cupp::host::asarray(std::vector<float>{2.5f}, cupp::shape_t{});
  BOOST_TEST((cupp::end(z) - cupp::begin(z)) == 1);
  BOOST_TEST(*cupp::begin(z) == 2.5f);
  *cupp::begin(z) = 4.0f;
  BOOST_TEST(z.item() == 4.0f);
  const auto e = cupp::host::empty<float>({3, 0, 2});
  BOOST_TEST((cupp::begin(e) == cupp::end(e)));
  BOOST_TEST((cupp::begin(e.T()) == cupp::end(e.T())));
  BOOST_TEST((cupp::begin(e * 2) == cupp::end(e * 2)));
  std::sort(cupp::begin(e), cupp::end(e));  // nothing to do, nothing read
}

BOOST_AUTO_TEST_CASE(many_axes) {
  // Seven C-contiguous axes merge into one run.
  const auto c = iota<std::int64_t>({2, 2, 2, 2, 2, 2, 2});
  BOOST_TEST(walk(c) == c.to_vector(), boost::test_tools::per_element());
  // Seven axes of which none merges with its neighbour: more than the walk
  // holds, refused with a message that says what to do.
  const auto big = iota<std::int64_t>({3, 3, 3, 3, 3, 3, 3});
  const auto s2 = slice(_, _, 2);
  const auto v = big(s2, s2, s2, s2, s2, s2, s2);
  const std::string m = cupp_test::message_of([&] { (void)cupp::begin(v); });
  BOOST_TEST(m.find("more than 6 axes") != std::string::npos, m);
  BOOST_TEST(m.find("x.copy()") != std::string::npos, m);
  BOOST_CHECK_THROW((void)cupp::begin(v * 2), cupp::value_error);
  // Six of them fit.
  const auto six = iota<std::int64_t>({3, 3, 3, 3, 3, 3})(s2, s2, s2, s2, s2, s2);
  BOOST_TEST(walk(six) == six.to_vector(), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(read_only_arrays_take_cbegin) {
  const auto a = iota<float>({4});
  const auto b = cupp::broadcast_to(a, {3, 4});
  BOOST_TEST(!b.flags().writeable);
  BOOST_TEST(cupp_test::message_of([&] { (void)cupp::begin(b); }) ==
             "cupp::begin: the array is read-only; iterate over it with cupp::cbegin");
  BOOST_CHECK_THROW((void)cupp::end(b), cupp::value_error);
  BOOST_TEST(std::accumulate(cupp::cbegin(b), cupp::cend(b), 0.0) == 18.0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(algorithms)

BOOST_AUTO_TEST_CASE(sort_a_column_and_nothing_else) {
  auto a =
      cupp::host::asarray(std::vector<std::int32_t>{5, 9, 1, 7, 3, 8, 0, 6, 4, 2, 11, 10}, {4, 3});
  const std::vector<std::int32_t> before = a.to_vector();
  const auto col = a(_, 1);  // 9, 3, 6, 11
  std::sort(cupp::begin(col), cupp::end(col));
  std::vector<std::int32_t> expect = before;
  expect[1] = 3;
  expect[4] = 6;
  expect[7] = 9;
  expect[10] = 11;
  BOOST_TEST(a.to_vector() == expect, boost::test_tools::per_element());
  // Descending, through a reversed transposed view: the rows of `a` in
  // reverse become columns.
  auto t = a(slice(_, _, -1), _).T();
  std::sort(cupp::begin(t), cupp::end(t), std::greater<>());
  // t in C order is sorted descending; t[i][j] = a[3 - j][i].
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) BOOST_TEST(a.item(3 - j, i) == 11 - (i * 4 + j));
  // std::ranges over the iterators of a strided view: the even columns,
  // ascending in C order.
  const auto even = a(_, slice(_, _, 2));
  std::ranges::sort(std::ranges::subrange(cupp::begin(even), cupp::end(even)));
  BOOST_TEST(std::ranges::is_sorted(std::ranges::subrange(cupp::cbegin(even), cupp::cend(even))));
  BOOST_TEST(a.item(0, 1) == 4);  // an odd column keeps what t gave it: 11 - 7
}

BOOST_AUTO_TEST_CASE(copy_into_strided_views) {
  cupp::host::ndarray<float> a = cupp::host::zeros<float>({3, 4});
  const auto even = a(_, slice(_, _, 2));
  const std::vector<float> src{1, 2, 3, 4, 5, 6};
  BOOST_TEST((std::copy(src.begin(), src.end(), cupp::begin(even)) == cupp::end(even)));
  BOOST_TEST(a.to_vector() == (std::vector<float>{1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0}),
             boost::test_tools::per_element());
  // std::fill / std::iota through a reversed view.
  auto r = a(1, slice(_, _, -1));
  std::iota(cupp::begin(r), cupp::end(r), 10.0f);
  BOOST_TEST(a.to_vector() == (std::vector<float>{1, 0, 2, 0, 13, 12, 11, 10, 5, 0, 6, 0}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(expressions_read_by_std_algorithms) {
  const auto x = iota<float>({3, 4});
  const cupp::host::ndarray<double> y = iota<double>({4}) * 0.5;
  const auto e = x * 2 + y(cupp::newaxis, _);  // float64, broadcast
  static_assert(std::is_same_v<std::iterator_traits<decltype(cupp::begin(e))>::value_type, double>);
  double ref = 0;
  std::vector<double> expect;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      expect.push_back(2.0 * (i * 4 + j) + 0.5 * j);
      ref += expect.back();
    }
  BOOST_TEST(std::accumulate(cupp::begin(e), cupp::end(e), 0.0) == ref);
  std::vector<double> out(12);
  std::copy(cupp::begin(e), cupp::end(e), out.begin());
  BOOST_TEST(out == expect, boost::test_tools::per_element());
  // A transposed operand and a generator leaf.
  const auto g = x.T() - cupp::host::arange<float>(3);
  std::vector<float> gx;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) gx.push_back(static_cast<float>(j * 4 + i - j));
  BOOST_TEST(walk(g) == gx, boost::test_tools::per_element());
  // A ufunc expression, and positions read out of order.
  const auto s = cupp::sqrt(x);
  const auto it = cupp::begin(s);
  BOOST_TEST(it[9] == std::sqrt(9.0f));
  BOOST_TEST(*(cupp::end(s) - 1) == std::sqrt(11.0f));
  BOOST_TEST(std::max_element(cupp::begin(s), cupp::end(s)).index() == 11);
}

BOOST_AUTO_TEST_CASE(dtypes) {
  // float16 and bfloat16 through float, bool, complex (read).
  const auto hx = iota<float>({2, 3}).astype<__half>();
  std::vector<float> got;
  for (auto it = cupp::cbegin(hx.T()); it != cupp::cend(hx.T()); ++it)
    got.push_back(static_cast<float>(*it));
  BOOST_TEST(got == (std::vector<float>{0, 3, 1, 4, 2, 5}), boost::test_tools::per_element());
  const auto half_expr = hx * 2;
  static_assert(
      std::is_same_v<std::iterator_traits<decltype(cupp::begin(half_expr))>::value_type, __half>);
  BOOST_TEST(static_cast<float>(cupp::begin(half_expr)[5]) == 10.0f);
  const auto b = iota<std::int32_t>({5}) > 2;
  BOOST_TEST(std::count(cupp::begin(b), cupp::end(b), true) == 2);
  using c64 = cuda::std::complex<float>;
  const auto c = iota<float>({3}) * c64(0, 1) + 1;
  static_assert(std::is_same_v<std::iterator_traits<decltype(cupp::begin(c))>::value_type, c64>);
  const c64 sum = std::accumulate(cupp::begin(c), cupp::end(c), c64(0, 0));
  BOOST_TEST(sum.real() == 3.0f);
  BOOST_TEST(sum.imag() == 3.0f);
  auto u = iota<std::uint8_t>({2, 2});
  std::reverse(cupp::begin(u.T()), cupp::end(u.T()));  // T: 0 2 1 3 -> 3 1 2 0
  BOOST_TEST(u.to_vector() == (std::vector<std::uint8_t>{3, 2, 1, 0}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(iterator_arithmetic) {
  const auto a = iota<std::int32_t>({3, 4}).T();  // (4, 3): 0 4 8 1 5 9 ...
  const auto b = cupp::begin(a);
  const auto e = cupp::end(a);
  BOOST_TEST((e - b) == 12);
  BOOST_TEST(b.index() == 0);
  BOOST_TEST(e.index() == 12);
  BOOST_TEST(*(b + 4) == 5);
  BOOST_TEST(*(4 + b) == 5);
  BOOST_TEST(b[10] == 7);
  BOOST_TEST(*(e - 1) == 11);
  BOOST_TEST(e[-2] == 7);
  auto it = b;
  BOOST_TEST(*it++ == 0);
  BOOST_TEST(*it == 4);
  BOOST_TEST(*++it == 8);
  it += 5;
  BOOST_TEST(*it == 6);
  it -= 2;
  BOOST_TEST(*it-- == 9);
  BOOST_TEST(*--it == 1);
  BOOST_TEST((it - b) == 3);
  BOOST_TEST((b - it) == -3);
  BOOST_TEST((b < it && it > b && b <= b && b >= b && it <= e && !(e < it) && b != it));
  BOOST_TEST(std::distance(b, e) == 12);
  BOOST_TEST(*std::next(b, 7) == 6);
  // Iterators as a range: std::ranges over a subrange of the walk.
  const auto r = std::ranges::subrange(cupp::cbegin(a), cupp::cend(a));
  BOOST_TEST(std::ranges::count_if(r, [](std::int32_t v) { return v % 2 == 0; }) == 6);
  // Writes through operator[].
  b[1] = -1;
  BOOST_TEST(a.item(0, 1) == -1);
}

BOOST_AUTO_TEST_SUITE_END()
