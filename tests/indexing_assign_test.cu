// Writing through views against NumPy (the setitem cases of
// tests/fixtures/indexing/cases.txt: scalars, arrays and fused expressions
// assigned to views that overlap their source), in-place operators on
// views, read-only views, and the indexing syntax itself: that
// x(1, slice(_, _, -1), newaxis, ellipsis) selects what the fixture's
// index items select.
#include "indexing_fixture.hpp"

using namespace idx_test;
using cupp::_;
using cupp::ellipsis;
using cupp::newaxis;
using cupp::slice;

namespace {

// x[items] = rhs for one case, then the whole storage against NumPy's.
template <class T>
void check_setitem(const fixture_case& c) {
  const array<T> storage = make_storage<T>(c.m);
  const array<T> base = make_base<T>(c, storage);
  const auto& a = c.args;
  std::size_t at = 1;
  const auto items = parse_items(a, at, std::stoul(a[0]));
  const std::string rhs_kind = a[at++];
  const auto rhs_items = parse_items(a, at, a.size() - at);
  const std::vector<T> before = storage.to_vector();
  try {
    auto target = base(items);
    if (rhs_kind == "scalar") {
      std::move(target) = value_of<T>(-1);
    } else {
      const array<T> rhs = base(rhs_items);
      if (rhs_kind == "view")
        std::move(target) = rhs;
      else  // a fused expression (an identity cast) reading the overlapping view
        std::move(target) = cupp::astype<T>(rhs);
    }
  } catch (const std::exception& e) {
    BOOST_TEST(python_name(e) == c.error_type);
    BOOST_TEST(std::string(e.what()) == c.error_message);
    const std::vector<T> after = storage.to_vector();
    for (std::size_t k = 0; k < after.size(); ++k)
      BOOST_TEST(cupp_test::same_bits(after[k], before[k]), "nothing is written: element " << k);
    return;
  }
  BOOST_TEST_REQUIRE(c.error_type.empty(),
                     "NumPy raises " << c.error_type << ": " << c.error_message);
  const std::vector<T> got = storage.to_vector();
  BOOST_TEST_REQUIRE(got.size() == c.ids.size());
  for (std::size_t k = 0; k < got.size(); ++k)
    BOOST_TEST(cupp_test::same_bits(got[k], value_of<T>(c.ids[k])),
               "storage element " << k << " should be " << c.ids[k]);
}

template <class T>
array<T> iota(cupp::index_t n) {
  return make_storage<T>(n);
}

// The host values of an array of any space.
template <class T, class S>
std::vector<T> values(const cupp::ndarray<T, S>& a) {
  return a.to_vector();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(numpy_setitem)

BOOST_AUTO_TEST_CASE(assignment_through_views) {
  int n = 0;
  for (const fixture_case& c : cases()) {
    if (c.op != "setitem") continue;
    ++n;
    boost::hana::for_each(dtypes, [&](auto t) {
      using T = typename decltype(t)::type;
      BOOST_TEST_CONTEXT(c.name << " [" << cupp::dtype_of<T>().name << "]: " << c.line) {
        check_setitem<T>(c);
      }
    });
  }
  BOOST_TEST(n > 0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(view_writes)

// NumPy: a = arange(5); a[1:] += a[:-1] gives [0, 1, 3, 5, 7] (the operand
// is read before it is written); the same with a fused expression.
BOOST_AUTO_TEST_CASE(in_place_operators_on_overlapping_views) {
  const auto a = make_storage<std::int32_t>(5);  // sample(i) = 7i - 50 for int32
  std::vector<std::int32_t> x = values(a);
  a(slice(1, _)) += a(slice(_, -1));
  std::vector<std::int32_t> want = x;
  for (int i = 1; i < 5; ++i) want[i] = x[i] + x[i - 1];
  BOOST_TEST(values(a) == want, boost::test_tools::per_element());

  const auto f = make_storage<double>(6);
  const std::vector<double> y = values(f);
  f(slice(_, _, -1)) *= f + 1.0;  // f[::-1] *= f + 1
  std::vector<double> wf(6);
  for (int i = 0; i < 6; ++i) wf[5 - i] = y[5 - i] * (y[i] + 1.0);
  BOOST_TEST(values(f) == wf, boost::test_tools::per_element());

  const auto g = make_storage<float>(12).reshape(3, 4);
  const std::vector<float> z = values(g);
  g(_, slice(1, 3)) -= 2;  // g[:, 1:3] -= 2
  std::vector<float> wg = z;
  for (int r = 0; r < 3; ++r)
    for (int col = 1; col < 3; ++col) wg[r * 4 + col] -= 2;
  BOOST_TEST(values(g) == wg, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(writes_reach_the_base) {
  const auto a = make_storage<std::int64_t>(24).reshape(2, 3, 4);
  a(1, ellipsis, slice(_, _, 2)) = 0;      // a[1, ..., ::2] = 0
  auto v = a.T()(0);                       // a.T[0]: a[..., 0].T, shape (3, 2)
  std::move(v) = a(0, _, newaxis, 0) * 3;  // a[0, :, None, 0] * 3: (3, 1) over (3, 2)
  const auto h = values(a);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) {
        const std::int64_t orig = cupp_test::sample<std::int64_t>(i * 12 + j * 4 + k);
        std::int64_t want = (i == 1 && k % 2 == 0) ? 0 : orig;
        if (k == 0) want = cupp_test::sample<std::int64_t>(j * 4) * 3;
        BOOST_TEST(h[i * 12 + j * 4 + k] == want);
      }
  // A 0-d view from an integer index on every axis is writable too.
  a(0, 0, 0) = 42;
  BOOST_TEST(a.item(0) == 42);
}

BOOST_AUTO_TEST_CASE(read_only_views_refuse_writes) {
  const auto a = make_storage<float>(4);
  const auto b = cupp::broadcast_to(a, {3, 4});
  BOOST_TEST(!b.flags().writeable);
  BOOST_TEST(!b(0).flags().writeable);  // views of a read-only array stay read-only
  const std::vector<float> before = values(a);
  BOOST_CHECK_EXCEPTION(b(0) = 1.f, cupp::value_error, [](const cupp::value_error& e) {
    return std::string(e.what()) == "assignment destination is read-only";
  });
  BOOST_CHECK_THROW(b(1, slice(1, 3)) += 1, cupp::value_error);
  BOOST_CHECK_THROW(cupp::copyto(b, 2.f), cupp::value_error);
  BOOST_CHECK_THROW(std::move(cupp::sliding_window_view(a, {2})) = 0, cupp::value_error);
  BOOST_TEST(values(a) == before, boost::test_tools::per_element());
  // as_strided and sliding_window_view take writeable= as NumPy does.
  auto w = cupp::sliding_window_view(a, {2}, {}, true);
  w(0, 1) = 5;
  BOOST_TEST(a.item(1) == 5.f);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(syntax)

// x(items...) is the same view as the run-time layout of the same items.
template <class A, class... I>
void same_as_layout(const A& x, const I&... idx) {
  const cupp::detail::index_item items[] = {cupp::detail::to_index_item(idx)..., {}};
  const auto want = cupp::detail::index_layout(x.shape(), x.strides(), {items, sizeof...(I)});
  const auto got = x(idx...);
  BOOST_TEST(got.shape() == want.shape);
  BOOST_TEST(got.strides() == want.strides);
  BOOST_TEST(reinterpret_cast<const char*>(got.data()) - reinterpret_cast<const char*>(x.data()) ==
             want.offset);
}

BOOST_AUTO_TEST_CASE(every_kind_of_index) {
  const auto x = make_storage<std::int16_t>(60).reshape(3, 4, 5);
  same_as_layout(x);
  same_as_layout(x, 1);
  same_as_layout(x, -1, 2u, std::int8_t{-3});
  same_as_layout(x, slice(1, _), _, slice(_, _, -2));
  same_as_layout(x, ellipsis, newaxis, 0);
  same_as_layout(x, newaxis, slice(2), ellipsis, slice(4, 0, -1));
  same_as_layout(x, slice(-100, 100, 3), 2, newaxis);
  BOOST_TEST(x(1, 2, 3).ndim() == 0);
  BOOST_TEST(x(1, 2, 3).item() == cupp_test::sample<std::int16_t>(1 * 20 + 2 * 5 + 3));
  BOOST_TEST(x().shape() == x.shape());
  // x[::-1][0] is x[-1].
  BOOST_TEST(x(slice(_, _, -1))(0).data() == x(-1).data());
}

BOOST_AUTO_TEST_CASE(errors) {
  const auto x = make_storage<float>(6);
  auto message = [](const char* m) {
    return [m](const std::exception& e) { return std::string(e.what()) == m; };
  };
  BOOST_CHECK_EXCEPTION(x(6), cupp::index_error,
                        message("index 6 is out of bounds for axis 0 with size 6"));
  BOOST_CHECK_EXCEPTION(
      x(0, 0), cupp::index_error,
      message("too many indices for array: array is 1-dimensional, but 2 were indexed"));
  BOOST_CHECK_EXCEPTION(x(ellipsis, ellipsis), cupp::index_error,
                        message("an index can only have a single ellipsis ('...')"));
  BOOST_CHECK_EXCEPTION(x(slice(_, _, 0)), cupp::value_error, message("slice step cannot be zero"));
  BOOST_CHECK_EXCEPTION(x.reshape(4), cupp::value_error,
                        message("cannot reshape array of size 6 into shape (4,)"));
  BOOST_CHECK_EXCEPTION(
      x.reshape(6, 1).squeeze(0), cupp::value_error,
      message("cannot select an axis to squeeze out which has size not equal to one"));
}

BOOST_AUTO_TEST_SUITE_END()
