// numpy.isin, in1d, intersect1d, union1d, setdiff1d and setxor1d on host
// arrays and, with CUPP_TEST_DEVICE=1, on device arrays: NumPy's results
// (tests/generate_sort_sets_fixtures.py) for every dtype and some mixed
// pairs, with the inputs read in C, F, strided, reversed and lazy layouts
// and broadcast views; every kind and invert, return_indices,
// assume_unique; ties, NaN, inf and -0.0; empty and 0-d inputs; large isin
// against std::set on every kind; NumPy's messages.
#include <cupp/creation.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/npy.hpp>
#include <cupp/sort/sets.hpp>
#include <cupp/ufunc.hpp>

#include <cstdint>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cupp_test.hpp"
#include "test_space.hpp"

using cupp::index_t;
using cupp::shape_t;
using cupp::strides_t;
using cupp_test::array;
using cupp_test::on_space;
using cupp_test::to_host;

namespace {

// NumPy has no bfloat16: its fixtures are float32 values it holds exactly.
template <class T>
using stored_t = std::conditional_t<std::is_same_v<T, __nv_bfloat16>, float, T>;

template <class T>
cupp::host::ndarray<T> load(const std::string& name) {
  const auto s = cupp::host::load<stored_t<T>>(cupp_test::fixture("sort/sets/" + name + ".npy"));
  if constexpr (std::is_same_v<T, stored_t<T>>) {
    return s;
  } else {
    cupp::host::ndarray<T> r(s.shape());
    for (index_t i = 0; i < s.size(); ++i) r.data()[i] = __float2bfloat16(s.data()[i]);
    return r;
  }
}

// NumPy's == with every NaN-holding value one (np.unique's equal_nan; a
// complex NaN's representative is not specified) and -0.0 == 0.0.
template <class T>
bool same_value(const T& a, const T& b) {
  namespace sets = cupp::detail::sets;
  if (sets::has_nan(a) || sets::has_nan(b)) return sets::has_nan(a) && sets::has_nan(b);
  return sets::key_equal(cupp::detail::sorting::full_key(a), cupp::detail::sorting::full_key(b));
}

template <class T>
void check(const array<T>& got_a, const cupp::host::ndarray<T>& want, const std::string& what) {
  const cupp::host::ndarray<T> got = to_host(got_a);
  BOOST_TEST_REQUIRE((got.shape() == want.shape()), what << ": shape");
  for (index_t i = 0; i < got.size(); ++i)
    BOOST_TEST_REQUIRE(same_value(got.data()[i], want.data()[i]), what << " [" << i << "]");
}

template <class T>
cupp::host::ndarray<T> flat(const cupp::host::ndarray<T>& h) {
  return h.reshape(shape_t{h.size()});
}

// A C-contiguous host array as an array of the test's space in `layout`.
template <class T>
array<T> in_layout(const cupp::host::ndarray<T>& h, const std::string& layout) {
  const array<T> c = on_space(h);
  if (layout == "F") return cupp::asfortranarray(c);
  if (layout == "strided") {
    // Every other element of a wider array along the last axis.
    shape_t wide_shape = h.shape();
    if (wide_shape.empty()) return c;
    wide_shape.back() *= 2;
    cupp::host::ndarray<T> wide(wide_shape);
    const index_t n = h.shape().back();
    for (index_t i = 0; i < h.size(); ++i) wide.data()[(i / n) * 2 * n + 2 * (i % n)] = h.data()[i];
    const array<T> w = on_space(wide);
    strides_t st = w.strides();
    st.back() *= 2;
    return array<T>(w.data(), h.shape(), st, w.memory(), w.device_id(), false);
  }
  if (layout == "reversed") {
    cupp::host::ndarray<T> r(h.shape());
    for (index_t i = 0; i < h.size(); ++i) r.data()[i] = h.data()[h.size() - 1 - i];
    return cupp::flip(on_space(r));
  }
  return c;
}

template <class T>
auto lazy(const array<T>& x) {
  if constexpr (std::is_same_v<T, bool>)
    return x == true;
  else
    return cupp::positive(x);
}

const std::vector<std::string> layouts{"C", "F", "strided", "reversed", "lazy"};

// Calls f(x) with the array in `layout`, or with a lazy expression of it.
template <class T, class F>
void with_layout(const cupp::host::ndarray<T>& h, const std::string& layout, F&& f) {
  if (layout == "lazy")
    f(lazy(on_space(h)));
  else
    f(in_layout(h, layout));
}

template <class TA, class TB>
void run_case(const std::string& name) {
  using R = cupp::result_type_t<TA, TB>;
  const auto ha = load<TA>(name + "_a");
  const auto hb = load<TB>(name + "_b");
  const array<TB> b = on_space(hb);
  constexpr bool integers = std::is_integral_v<TA> && std::is_integral_v<TB>;
  for (const auto& layout : layouts) {
    const std::string at = name + " (" + layout + ")";
    with_layout(ha, layout, [&](const auto& a) {
      for (const std::string kind : {"none", "sort", "table"}) {
        if (kind == "table" && !integers) continue;
        for (int invert = 0; invert < 2; ++invert) {
          const auto want = load<bool>(name + "_isin_" + kind + "_" + std::to_string(invert));
          const std::string k = kind == "none" ? "" : kind;
          const std::string what = at + " isin " + kind + " " + std::to_string(invert);
          check<bool>(cupp::isin(a, b, false, invert == 1, k), want, what);
          check<bool>(cupp::in1d(a, b, false, invert == 1, k), flat(want), "in1d " + what);
          // The test elements in the layout instead.
          with_layout(hb, layout, [&](const auto& bl) {
            check<bool>(cupp::isin(on_space(ha), bl, false, invert == 1, k), want, what + " (b)");
          });
        }
      }
      check<R>(cupp::intersect1d(a, b), load<R>(name + "_inter"), at + " intersect1d");
      const auto [v, i1, i2] = cupp::intersect1d(a, b, false, cupp::return_indices);
      check<R>(v, load<R>(name + "_inter_v"), at + " intersect1d values");
      check<std::int64_t>(i1, load<std::int64_t>(name + "_inter_i1"), at + " indices1");
      check<std::int64_t>(i2, load<std::int64_t>(name + "_inter_i2"), at + " indices2");
      check<R>(cupp::union1d(a, b), load<R>(name + "_union"), at + " union1d");
      check<R>(cupp::union1d(b, a), load<R>(name + "_union"), at + " union1d (b, a)");
      check<TA>(cupp::setdiff1d(a, b), load<TA>(name + "_diff"), at + " setdiff1d");
      check<R>(cupp::setxor1d(a, b), load<R>(name + "_xor"), at + " setxor1d");
      check<R>(cupp::setxor1d(b, a), load<R>(name + "_xor"), at + " setxor1d (b, a)");
      with_layout(hb, layout, [&](const auto& bl) {
        check<R>(cupp::intersect1d(on_space(ha), bl), load<R>(name + "_inter"), at + " (b)");
        check<TA>(cupp::setdiff1d(on_space(ha), bl), load<TA>(name + "_diff"), at + " (b)");
      });
    });
  }
  // assume_unique on unique inputs (ua is in descending order: setdiff1d
  // keeps it).
  const auto ua = load<TA>(name + "_ua");
  const auto ub = load<TB>(name + "_ub");
  for (const auto& layout : {"C", "reversed", "lazy"}) {
    with_layout(ua, layout, [&](const auto& a) {
      const array<TB> bu = on_space(ub);
      const std::string at = name + " unique (" + layout + ")";
      check<TA>(cupp::setdiff1d(a, bu, true), load<TA>(name + "_uniq_diff"), at + " setdiff1d");
      check<R>(cupp::setxor1d(a, bu, true), load<R>(name + "_uniq_xor"), at + " setxor1d");
      check<R>(cupp::intersect1d(a, bu, true), load<R>(name + "_uniq_inter"), at + " intersect1d");
    });
  }
  // A broadcast view gives what its copy gives.
  const array<TA> a = on_space(ha);
  const auto row = a.reshape(shape_t{15}).reshape(shape_t{1, 15});
  const auto wide = cupp::broadcast_to(row, shape_t{4, 15});
  const array<TA> copy = wide.copy();
  check<bool>(cupp::isin(wide, b), to_host(cupp::isin(copy, b)), name + " broadcast isin");
  check<R>(cupp::setxor1d(wide, b), to_host(cupp::setxor1d(copy, b)), name + " broadcast xor");
  check<R>(cupp::union1d(wide, b), load<R>(name + "_union"), name + " broadcast union1d");
}

}  // namespace

BOOST_AUTO_TEST_CASE(sets_against_numpy) {
  for (const auto& line : cupp_test::fixture_lines("sort/sets/cases.txt")) {
    std::istringstream in(line);
    std::string name, da, db;
    in >> name >> da >> db;
    BOOST_TEST_CONTEXT(line) {
      cupp_test::with_dtype(da, [&](auto ta) {
        using TA = typename decltype(ta)::type;
        cupp_test::with_dtype(db, [&](auto tb) {
          using TB = typename decltype(tb)::type;
          if constexpr (std::is_same_v<TA, TB> ||
                        (std::is_same_v<TA, std::int8_t> && std::is_same_v<TB, double>) ||
                        (std::is_same_v<TA, std::uint8_t> && std::is_same_v<TB, std::int8_t>) ||
                        (std::is_same_v<TA, __half> && std::is_same_v<TB, float>) ||
                        (std::is_same_v<TA, std::int32_t> &&
                         std::is_same_v<TB, cuda::std::complex<float>>) ||
                        (std::is_same_v<TA, bool> && std::is_same_v<TB, std::int16_t>) ||
                        (std::is_same_v<TA, std::int64_t> && std::is_same_v<TB, float>))
            run_case<TA, TB>(name);
          else
            BOOST_FAIL("no instantiation for " << line);
        });
      });
    }
  }
}

// Empty inputs on either side and 0-d inputs, as NumPy gives them.
BOOST_AUTO_TEST_CASE(sets_empty_and_zero_d) {
  cupp::host::ndarray<std::int32_t> hb(shape_t{3});
  hb.data()[0] = 4, hb.data()[1] = -1, hb.data()[2] = 4;
  const array<std::int32_t> b = on_space(hb);
  const array<std::int32_t> empty(shape_t{0, 3});
  cupp::host::ndarray<std::int32_t> h0(shape_t{});
  h0.data()[0] = 4;
  const array<std::int32_t> zero_d = on_space(h0);
  for (const std::string kind : {"", "sort", "table"}) {
    const auto e = to_host(cupp::isin(empty, b, false, false, kind));
    BOOST_TEST((e.shape() == shape_t{0, 3}));
    const auto z = to_host(cupp::isin(zero_d, b, false, false, kind));
    BOOST_TEST_REQUIRE((z.shape() == shape_t{}));
    BOOST_TEST(z.data()[0]);
    const auto n = to_host(cupp::isin(b, empty, false, true, kind));
    BOOST_TEST_REQUIRE(n.size() == 3);
    BOOST_TEST((n.data()[0] && n.data()[1] && n.data()[2]));
    BOOST_TEST(to_host(cupp::in1d(zero_d, b, false, false, kind)).shape() == shape_t{1});
  }
  BOOST_TEST(cupp::intersect1d(empty, b).size() == 0);
  BOOST_TEST(cupp::intersect1d(b, empty, false, cupp::return_indices).indices2.size() == 0);
  const auto u = to_host(cupp::union1d(empty, b));
  BOOST_TEST_REQUIRE(u.size() == 2);
  BOOST_TEST((u.data()[0] == -1 && u.data()[1] == 4));
  BOOST_TEST(to_host(cupp::setdiff1d(b, empty)).size() == 2);
  BOOST_TEST(to_host(cupp::setdiff1d(empty, b)).size() == 0);
  BOOST_TEST(to_host(cupp::setxor1d(empty, b)).size() == 2);
  BOOST_TEST(to_host(cupp::setxor1d(empty, empty)).size() == 0);
  BOOST_TEST(to_host(cupp::setxor1d(zero_d, b)).size() == 1);
  BOOST_TEST(to_host(cupp::intersect1d(zero_d, b)).size() == 1);
}

// A large isin on every kind against std::set, past the shared-memory
// sample of the device search (2^14 test values).
BOOST_AUTO_TEST_CASE(sets_large_isin) {
  const index_t n = index_t(1) << 17, m = index_t(1) << 14;
  cupp::host::ndarray<std::int32_t> hx(shape_t{n}), ht(shape_t{m});
  cupp::host::ndarray<double> dx(shape_t{n}), dt(shape_t{m});
  std::uint64_t state = 12345;
  const auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::int32_t>((state >> 33) % 100000) - 50000;
  };
  std::set<std::int32_t> in_t;
  for (index_t i = 0; i < m; ++i) in_t.insert(ht.data()[i] = next()), dt.data()[i] = ht.data()[i];
  for (index_t i = 0; i < n; ++i) dx.data()[i] = hx.data()[i] = next();
  const array<std::int32_t> x = on_space(hx), t = on_space(ht);
  for (const std::string kind : {"", "sort", "table"}) {
    for (int invert = 0; invert < 2; ++invert) {
      const auto r = to_host(cupp::isin(x, t, false, invert == 1, kind));
      index_t wrong = 0;
      for (index_t i = 0; i < n; ++i)
        wrong += r.data()[i] != ((in_t.count(hx.data()[i]) > 0) != (invert == 1));
      BOOST_TEST(wrong == 0, "kind '" << kind << "' invert " << invert);
    }
  }
  const auto r = to_host(cupp::isin(on_space(dx), on_space(dt)));
  index_t wrong = 0;
  for (index_t i = 0; i < n; ++i) wrong += r.data()[i] != (in_t.count(hx.data()[i]) > 0);
  BOOST_TEST(wrong == 0);
  const auto s = to_host(cupp::intersect1d(x, t));
  BOOST_TEST(s.size() > 0);
  for (index_t i = 0; i < s.size(); ++i) BOOST_TEST_REQUIRE(in_t.count(s.data()[i]) == 1u);
}

// NumPy's errors and messages.
BOOST_AUTO_TEST_CASE(sets_errors) {
  cupp::host::ndarray<std::int8_t> hi(shape_t{2});
  hi.data()[0] = -128, hi.data()[1] = 127;
  const array<std::int8_t> i8 = on_space(hi);
  const array<float> f(shape_t{2});
  BOOST_TEST(cupp_test::message_of([&] { cupp::isin(i8, i8, false, false, "hash"); }) ==
             "Invalid kind: 'hash'. Please use None, 'sort' or 'table'.");
  BOOST_TEST(cupp_test::message_of([&] { cupp::in1d(f, i8, false, false, "table"); }) ==
             "The 'table' method is only supported for boolean or integer arrays. Please select "
             "'sort' or None for kind.");
  std::string what = "(no runtime_error)";
  try {
    cupp::isin(i8, i8, false, false, "table");
  } catch (const std::runtime_error& e) {
    what = e.what();
  }
  BOOST_TEST(what ==
             "You have specified kind='table', but the range of values in `ar2` or `ar1` exceed "
             "the maximum integer of the datatype. Please set `kind` to None or 'sort'.");
  // kind=None falls back to a search there.
  const auto r = to_host(cupp::isin(i8, i8));
  BOOST_TEST((r.data()[0] && r.data()[1]));
}
