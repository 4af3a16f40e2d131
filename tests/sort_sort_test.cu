// numpy.sort, argsort, ndarray.sort (sort_inplace), lexsort and
// sort_complex on host arrays and, with CUPP_TEST_DEVICE=1, device arrays:
// NumPy's results (tests/generate_sort_sort_fixtures.py, kind='stable') for
// every dtype along every axis and flattened, in C, F, strided, reversed
// and broadcast layouts and as a lazy expression, with ties, NaNs of both
// signs, infinities, -0.0 (sign bits compared), all-equal, sorted and
// reversed inputs, empty and 0-d arrays; sortedness, permutation and
// stability on longer rows; NumPy's errors, with nothing written.
#include <cupp/creation.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/npy.hpp>
#include <cupp/sort.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "cupp_test.hpp"
#include "sort_harness.hpp"
#include "test_space.hpp"

using cupp::index_t;
using cupp::shape_t;
using cupp::strides_t;
using cupp_test::array;
using cupp_test::on_space;
using cupp_test::to_host;
namespace hana = boost::hana;
namespace srt = cupp::detail::sorting;

namespace {

using sort_harness::in_layout;
using sort_harness::same_value;

// NumPy has no bfloat16: its fixtures are float32 values that bfloat16
// holds exactly.
template <class T>
cupp::host::ndarray<T> load(const std::string& name) {
  return sort_harness::load<T>("sort/sort/", name);
}

template <class T>
void expect_values(const cupp::host::ndarray<T>& got, const cupp::host::ndarray<T>& want,
                   const std::string& what) {
  BOOST_TEST_REQUIRE(got.shape() == want.shape(), what << ": shape");
  BOOST_TEST(got.is_c_contiguous(), what << ": C-contiguous");
  const auto g = got.to_vector(), w = want.to_vector();
  for (std::size_t i = 0; i < g.size(); ++i)
    if (!same_value(g[i], w[i])) {
      BOOST_ERROR(what << ": element " << i << " differs");
      return;
    }
}

void expect_indices(const cupp::host::ndarray<std::int64_t>& got,
                    const cupp::host::ndarray<std::int64_t>& want, const std::string& what) {
  BOOST_TEST_REQUIRE(got.shape() == want.shape(), what << ": shape");
  BOOST_TEST(got.to_vector() == want.to_vector(), what);
}

template <class T>
void run_case(const std::string& dtype, const std::string& kase, const std::string& axes) {
  const std::string p = dtype + "_" + kase + "_";
  const auto hx = load<T>(p + "x");
  const int nd = hx.shape().size();
  std::vector<std::string> layouts = {"C", "F", "strided", "reversed", "expr"};
  if (kase == "bcast") layouts.push_back("broadcast");
  std::vector<std::string> axis_names;
  std::stringstream ss(axes);
  for (std::string a; std::getline(ss, a, ',');) axis_names.push_back(a);
  for (const auto& layout : layouts) {
    const auto x = in_layout(hx, layout == "expr" ? "C" : layout);
    auto check = [&](const auto& in, const std::string& a, int axis) {
      const std::string what = p + layout + " axis " + std::to_string(axis);
      const auto want = load<T>(p + "sort_" + a);
      const auto want_idx = cupp::host::load<std::int64_t>(
          cupp_test::fixture("sort/sort/" + p + "argsort_" + a + ".npy"));
      if (a == "none") {
        expect_values(to_host(cupp::sort(in, cupp::none)), want, what + " sort");
        expect_indices(to_host(cupp::argsort(in, cupp::none, "stable")), want_idx,
                       what + " argsort");
      } else {
        expect_values(to_host(cupp::sort(in, axis, "quicksort")), want, what + " sort");
        expect_indices(to_host(cupp::argsort(in, axis)), want_idx, what + " argsort");
      }
    };
    for (const auto& a : axis_names) {
      std::vector<int> as;
      if (a == "-1")
        as = {-1, nd - 1};
      else if (a != "none")
        as = {std::stoi(a), std::stoi(a) - nd};
      else
        as = {0};
      for (int axis : as) {
        if (layout == "expr")
          check(cupp::astype<T>(x), a, axis);  // a lazy node, not an array
        else
          check(x, a, axis);
      }
    }
    if (nd >= 1 && !std::is_same_v<T, __nv_bfloat16> && layout != "F") {
      using C = srt::sort_complex_t<T>;
      const auto sc = cupp::sort_complex(x);
      static_assert(std::is_same_v<typename decltype(sc)::value_type, C>);
      expect_values(to_host(sc),
                    cupp::host::load<C>(cupp_test::fixture("sort/sort/" + p + "sc.npy")),
                    p + layout + " sort_complex");
    }
    if (nd >= 1) {
      // In place, through a view: the written elements are NumPy's sort.
      const auto copy = in_layout(hx, layout == "broadcast" || layout == "expr" ? "C" : layout);
      cupp::sort_inplace(copy, 0);
      const std::string a = nd == 1 ? "-1" : "0";
      expect_values(to_host(copy).copy(), load<T>(p + "sort_" + a), p + layout + " sort_inplace");
      // The member, NumPy's a.sort(axis).
      const auto member = in_layout(hx, layout == "broadcast" || layout == "expr" ? "C" : layout);
      member.sort(0);
      expect_values(to_host(member).copy(), load<T>(p + "sort_" + a), p + layout + " a.sort(0)");
    }
  }
}

// Sorted by NumPy's order, a permutation, and stable, on rows long enough
// for the device's large-segment paths.
template <class T>
void check_properties(const cupp::host::ndarray<T>& hx, int axis) {
  const auto x = on_space(hx);
  const auto s = to_host(cupp::sort(x, axis));
  const auto i = to_host(cupp::argsort(x, axis));
  const shape_t& shape = hx.shape();
  const int nd = shape.size();
  const int ax = axis < 0 ? axis + nd : axis;
  const index_t n = shape[ax];
  index_t inner = 1;
  for (int d = ax + 1; d < nd; ++d) inner *= shape[d];
  const auto xv = hx.to_vector(), sv = s.to_vector();
  const auto iv = i.to_vector();
  const srt::np_less less;
  bool ok = true;
  for (index_t k = 0; k < hx.size() && ok; ++k) {
    const index_t outer = k / (n * inner), j = (k / inner) % n, in = k % inner;
    const index_t base = outer * n * inner + in;
    const index_t src = base + iv[k] * inner;
    // The argsort's element is the sort's element: a permutation once the
    // indices are distinct, which stability (below) makes them.
    ok = ok && iv[k] >= 0 && iv[k] < n && same_value(xv[src], sv[k]);
    if (j > 0) {
      const index_t prev = k - inner;
      ok = ok && !less(sv[k], sv[prev]);
      if (!less(sv[prev], sv[k])) ok = ok && iv[prev] < iv[k];  // ties keep input order
    }
  }
  BOOST_TEST(ok, "properties along axis " << axis << " of " << hx.size() << " elements");
}

template <class T>
cupp::host::ndarray<T> sample_array(const shape_t& shape) {
  cupp::host::ndarray<T> h(shape);
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = cupp_test::sample<T>(i * 7 % 101);
  return h;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sort_sort)

BOOST_AUTO_TEST_CASE(numpy_values) {
  for (const std::string& line : cupp_test::fixture_lines("sort/sort/cases.txt")) {
    std::stringstream ss(line);
    std::string dtype, kase, axes;
    ss >> dtype >> kase >> axes;
    BOOST_TEST_CONTEXT(line) {
      cupp_test::with_dtype(
          dtype, [&](auto t) { run_case<typename decltype(t)::type>(dtype, kase, axes); });
    }
  }
}

BOOST_AUTO_TEST_CASE(properties) {
  hana::for_each(cupp_test::all_dtypes, [](auto t) {
    using T = typename decltype(t)::type;
    check_properties(sample_array<T>({5000}), 0);
    check_properties(sample_array<T>({300, 7}), -1);
    check_properties(sample_array<T>({300, 7}), 0);
    check_properties(sample_array<T>({3, 2100}), 1);
    check_properties(sample_array<T>({2, 4500}), 1);  // rows past one block
  });
  // Many NaNs of both signs among many values, in rows that sort in
  // blocks (3000) and in rows that do not (5000).
  for (const index_t n : {index_t{3000}, index_t{5000}}) {
    cupp::host::ndarray<float> h({3, n});
    for (index_t i = 0; i < h.size(); ++i)
      h.data()[i] = i % 5 == 0   ? std::copysign(NAN, i % 2 ? -1.f : 1.f)
                    : i % 7 == 0 ? (i % 2 ? -0.f : 0.f)
                                 : static_cast<float>(i % 13) - 6;
    check_properties(h, -1);
    check_properties(h, 0);
  }
  cupp::host::ndarray<float> h({3, 3000});
  for (index_t i = 0; i < h.size(); ++i)
    h.data()[i] = i % 5 == 0   ? std::copysign(NAN, i % 2 ? -1.f : 1.f)
                  : i % 7 == 0 ? (i % 2 ? -0.f : 0.f)
                               : static_cast<float>(i % 13) - 6;
  const auto s = to_host(cupp::sort(on_space(h), cupp::none)).to_vector();
  BOOST_TEST(
      (!std::isnan(s[s.size() - h.size() / 5 - 1]) && std::isnan(s[s.size() - h.size() / 5])));
}

BOOST_AUTO_TEST_CASE(lexsort) {
  auto key = [](const std::string& name, auto t) {
    using T = typename decltype(t)::type;
    return on_space(cupp::host::load<T>(cupp_test::fixture("sort/sort/lexsort_" + name + ".npy")));
  };
  auto want = [](const std::string& name) {
    return cupp::host::load<std::int64_t>(cupp_test::fixture("sort/sort/lexsort_" + name + ".npy"));
  };
  const auto k0 = key("k0", hana::type_c<std::int8_t>);
  const auto k1 = key("k1", hana::type_c<float>);
  const auto k2 = key("k2", hana::type_c<cuda::std::complex<double>>);
  const auto k3 = key("k3", hana::type_c<bool>);
  expect_indices(to_host(cupp::lexsort(k0)), want("r1"), "lexsort 1 key");
  expect_indices(to_host(cupp::lexsort(k0, k1)), want("r2"), "lexsort 2 keys");
  expect_indices(to_host(cupp::lexsort(k0, cupp::astype<float>(k1), k2, k3)), want("r4"),
                 "lexsort 4 keys");
  expect_indices(to_host(cupp::lexsort(cupp::ravel(k0), cupp::ravel(k1), cupp::ravel(k2))),
                 want("flat"), "lexsort 1-d");
  // A 0-d key gives 0, an empty one nothing.
  BOOST_TEST(to_host(cupp::lexsort(on_space(cupp::host::ndarray<float>(shape_t{})))).to_vector() ==
             std::vector<std::int64_t>{0});
  BOOST_TEST(cupp::lexsort(on_space(cupp::host::ndarray<float>(shape_t{2, 0}))).shape() ==
             (shape_t{2, 0}));
}

BOOST_AUTO_TEST_CASE(shapes_and_dtypes) {
  const auto z = on_space(cupp::host::ndarray<double>(shape_t{}));
  BOOST_TEST(cupp::sort(z, cupp::none).shape() == (shape_t{1}));
  BOOST_TEST(cupp::argsort(z, cupp::none).shape() == (shape_t{1}));
  const auto e = on_space(cupp::host::ndarray<float>(shape_t{0, 3}));
  BOOST_TEST(cupp::sort(e, 0).shape() == (shape_t{0, 3}));
  BOOST_TEST(cupp::argsort(e, cupp::none).shape() == (shape_t{0}));
  static_assert(std::is_same_v<decltype(cupp::argsort(e))::value_type, std::int64_t>);
  // sort(x * 2) sorts the expression's values.
  auto h = sample_array<float>({4, 9});
  const auto x = on_space(h);
  const auto s2 = to_host(cupp::sort(x * 2.f, 0)).to_vector();
  const auto s1 = to_host(cupp::sort(x, 0)).to_vector();
  bool ok = true;
  for (std::size_t i = 0; i < s1.size(); ++i) ok = ok && s2[i] == 2 * s1[i];
  BOOST_TEST(ok);
}

BOOST_AUTO_TEST_CASE(errors) {
  using cupp_test::message_of;
  auto h = sample_array<float>({3, 4});
  const auto x = on_space(h);
  BOOST_TEST(message_of([&] { cupp::sort(x, 2); }) ==
             "axis 2 is out of bounds for array of dimension 2");
  BOOST_TEST(message_of([&] { cupp::argsort(x, -3); }) ==
             "axis -3 is out of bounds for array of dimension 2");
  BOOST_CHECK_THROW(cupp::sort(x, 2), cupp::axis_error);
  const auto z = on_space(cupp::host::ndarray<float>(shape_t{}));
  BOOST_TEST(message_of([&] { cupp::sort(z); }) ==
             "axis -1 is out of bounds for array of dimension 0");
  BOOST_TEST(message_of([&] { cupp::sort(x, -1, "introsort"); }) ==
             "sort kind must be one of 'quick', 'heap', or 'stable' (got 'introsort')");
  BOOST_TEST(message_of([&] { cupp::argsort(x, cupp::none, "x"); }) ==
             "sort kind must be one of 'quick', 'heap', or 'stable' (got 'x')");
  for (const char* kind : {"q", "Quick", "heap", "mergesort", "Stable", "s"})
    BOOST_TEST(message_of([&] { cupp::sort(x, -1, kind); }) == "(no value_error)");
  const auto y = on_space(sample_array<float>({4, 3}));
  BOOST_TEST(message_of([&] { cupp::lexsort(x, y); }) == "all keys need to be the same shape");
  // Nothing written: a bad axis, a read-only array.
  cupp::sort_inplace(x, 0);
  const auto before = to_host(x).to_vector();
  BOOST_CHECK_THROW(cupp::sort_inplace(x, 2), cupp::axis_error);
  auto ro = x;
  ro.setflags(false);
  BOOST_TEST(message_of([&] { cupp::sort_inplace(ro, -1); }) == "sort array is read-only");
  BOOST_TEST(message_of([&] { cupp::sort_inplace(ro, 5); }) ==
             "axis 5 is out of bounds for array of dimension 2");  // NumPy checks the axis first
  BOOST_TEST(message_of([&] { cupp::sort_inplace(x, 0, "foo"); }) ==
             "sort kind must be one of 'quick', 'heap', or 'stable' (got 'foo')");
  BOOST_TEST(to_host(x).to_vector() == before);
}

BOOST_AUTO_TEST_SUITE_END()
