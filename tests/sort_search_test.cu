// numpy.searchsorted, digitize and bincount on host arrays and, with
// CUPP_TEST_DEVICE=1, on device arrays: NumPy's results
// (tests/generate_sort_search_fixtures.py) for every dtype with `a`, `x`
// and `bins` read in C, strided, reversed and lazy-expression layouts;
// sorter; ties, NaN, inf and -0.0; empty and 0-d queries; a property test
// of bincount past shared memory; NumPy's messages.
#include <cupp/creation.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/npy.hpp>
#include <cupp/sort/search.hpp>
#include <cupp/ufunc.hpp>

#include <boost/hana/for_each.hpp>
#include <boost/hana/tuple.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
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

namespace hana = boost::hana;

template <class T>
cupp::host::ndarray<T> load(const std::string& name) {
  return cupp::host::load<T>(cupp_test::fixture("sort/search/" + name + ".npy"));
}

// Calls f(hana::type_c<T>) for the dtype NumPy calls `name` among `types`.
template <class Types, class F>
void dispatch(const Types& types, const std::string& name, F&& f) {
  bool found = false;
  hana::for_each(types, [&](auto t) {
    using T = typename decltype(t)::type;
    if (cupp::dtype_of<T>().name == name) {
      found = true;
      f(t);
    }
  });
  BOOST_TEST_REQUIRE(found, "no dtype " << name << " in this test's list");
}

constexpr auto search_dtypes =
    hana::tuple_t<bool, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                  std::uint32_t, std::int64_t, std::uint64_t, __half, float, double,
                  cuda::std::complex<float>, cuda::std::complex<double>>;
constexpr auto digitize_dtypes =
    hana::tuple_t<std::int8_t, std::int32_t, std::uint16_t, std::int64_t, __half, float, double>;
constexpr auto count_dtypes =
    hana::tuple_t<bool, std::int8_t, std::uint8_t, std::int16_t, std::int32_t, std::uint32_t,
                  std::int64_t, std::uint64_t>;

// The layouts a 1-d input is read in.
const std::vector<std::string> layouts{"C", "strided", "reversed", "lazy"};

// A 1-d host array as an array of the test's space in `layout` (not the
// lazy one, which the caller builds).
template <class T>
array<T> in_layout(const cupp::host::ndarray<T>& h, const std::string& layout) {
  const index_t n = h.size();
  if (layout == "strided") {
    cupp::host::ndarray<T> wide(shape_t{2 * n + 1});
    for (index_t i = 0; i < n; ++i) wide.data()[2 * i + 1] = h.data()[i];
    const array<T> w = on_space(wide);
    return array<T>(w.data() + 1, shape_t{n}, strides_t{2 * static_cast<index_t>(sizeof(T))},
                    w.memory(), w.device_id(), false);
  }
  if (layout == "reversed") {
    cupp::host::ndarray<T> r(shape_t{n});
    for (index_t i = 0; i < n; ++i) r.data()[i] = h.data()[n - 1 - i];
    return cupp::flip(on_space(r));
  }
  return on_space(h);
}

// The same values as a lazy expression (never stored before the call).
template <class T>
auto lazy(const array<T>& x) {
  if constexpr (std::is_same_v<T, bool>)
    return x == true;
  else
    return cupp::positive(x);
}

template <class T>
void check_equal(const cupp::host::ndarray<T>& got, const cupp::host::ndarray<T>& want,
                 const std::string& what) {
  BOOST_TEST_REQUIRE((got.shape() == want.shape()), what << ": shape");
  const auto g = got.to_vector(), w = want.to_vector();
  for (std::size_t i = 0; i < g.size(); ++i)
    BOOST_TEST_REQUIRE(g[i] == w[i], what << " [" << i << "]: " << g[i] << " != " << w[i]);
}

void check_close(const cupp::host::ndarray<double>& got, const cupp::host::ndarray<double>& want,
                 const std::string& what) {
  BOOST_TEST_REQUIRE((got.shape() == want.shape()), what << ": shape");
  const auto g = got.to_vector(), w = want.to_vector();
  for (std::size_t i = 0; i < g.size(); ++i)
    BOOST_TEST_REQUIRE(std::abs(g[i] - w[i]) <= 1e-12 * (1 + std::abs(w[i])),
                       what << " [" << i << "]: " << g[i] << " != " << w[i]);
}

template <class A, class V>
void searchsorted_case(const std::string& name, const std::string& side, bool with_sorter) {
  const auto ha = load<A>(name + "_a");
  const auto hv = load<V>(name + "_v");
  const auto want = load<std::int64_t>(name + "_out");
  const array<V> v = on_space(hv);
  for (const auto& layout : layouts) {
    const std::string what = name + " " + layout;
    const array<A> a = in_layout(ha, layout == "lazy" ? "C" : layout);
    const auto run = [&](const auto& a_operand) {
      if (with_sorter) {
        const array<std::int64_t> sorter = on_space(load<std::int64_t>(name + "_sorter"));
        return cupp::searchsorted(a_operand, v, side, sorter);
      }
      return cupp::searchsorted(a_operand, v, side);
    };
    const auto got = layout == "lazy" ? run(lazy(a)) : run(a);
    check_equal(to_host(got), want, what);
    if (layout == "C" && !with_sorter && hv.ndim() > 0) {
      // Lazy queries, and queries one by one as scalars.
      check_equal(to_host(cupp::searchsorted(a, lazy(v), side)), want, what + " lazy v");
      const auto flat_v = hv.to_vector();
      const auto flat_w = want.to_vector();
      for (std::size_t i = 0; i < std::min<std::size_t>(flat_v.size(), 5); ++i) {
        const auto r = to_host(cupp::searchsorted(a, flat_v[i], side));
        BOOST_TEST(r.ndim() == 0);
        BOOST_TEST(r.item() == flat_w[i], what << " scalar " << i);
      }
    }
  }
}

template <class X, class B>
void digitize_case(const std::string& name, bool right) {
  const auto hx = load<X>(name + "_x");
  const auto hb = load<B>(name + "_bins");
  const auto want = load<std::int64_t>(name + "_out");
  const array<X> x = on_space(hx);
  for (const auto& layout : layouts) {
    const array<B> bins = in_layout(hb, layout == "lazy" ? "C" : layout);
    const auto got = layout == "lazy" ? cupp::digitize(lazy(x), lazy(bins), right)
                                      : cupp::digitize(x, bins, right);
    check_equal(to_host(got), want, name + " " + layout);
  }
}

template <class X, class W>
void bincount_case(const std::string& name, index_t minlength) {
  const auto hx = load<X>(name + "_x");
  for (const auto& layout : layouts) {
    const std::string what = name + " " + layout;
    const array<X> x = in_layout(hx, layout == "lazy" ? "C" : layout);
    if constexpr (std::is_void_v<W>) {
      const auto want = load<std::int64_t>(name + "_out");
      const auto got =
          layout == "lazy" ? cupp::bincount(lazy(x), minlength) : cupp::bincount(x, minlength);
      check_equal(to_host(got), want, what);
    } else {
      const auto want = load<double>(name + "_out");
      const array<W> w = in_layout(load<W>(name + "_w"), layout == "lazy" ? "C" : layout);
      const auto got = layout == "lazy" ? cupp::bincount(lazy(x), lazy(w), minlength)
                                        : cupp::bincount(x, w, minlength);
      check_close(to_host(got), want, what);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sort_search)

BOOST_AUTO_TEST_CASE(fixtures) {
  int cases = 0;
  for (const auto& line : cupp_test::fixture_lines("sort/search/cases.txt")) {
    std::istringstream in(line);
    std::string kind, name, t1, t2, arg;
    in >> kind >> name >> t1 >> t2 >> arg;
    BOOST_TEST_CONTEXT(line) {
      if (kind == "searchsorted") {
        int sorter = 0;
        in >> sorter;
        if (t1 != t2) {
          BOOST_TEST_REQUIRE((t1 == "int32" && t2 == "float64"));
          searchsorted_case<std::int32_t, double>(name, arg, sorter);
        } else {
          dispatch(search_dtypes, t1, [&](auto t) {
            using T = typename decltype(t)::type;
            searchsorted_case<T, T>(name, arg, sorter);
          });
        }
      } else if (kind == "digitize") {
        if (t1 != t2) {
          BOOST_TEST_REQUIRE((t1 == "int32" && t2 == "float64"));
          digitize_case<std::int32_t, double>(name, arg == "1");
        } else {
          dispatch(digitize_dtypes, t1, [&](auto t) {
            using T = typename decltype(t)::type;
            digitize_case<T, T>(name, arg == "1");
          });
        }
      } else {
        BOOST_TEST_REQUIRE(kind == "bincount");
        const index_t minlength = std::stoll(arg);
        dispatch(count_dtypes, t1, [&](auto t) {
          using X = typename decltype(t)::type;
          if (t2 == "none")
            bincount_case<X, void>(name, minlength);
          else if (t2 == "float64")
            bincount_case<X, double>(name, minlength);
          else if (t2 == "float32")
            bincount_case<X, float>(name, minlength);
          else
            bincount_case<X, std::int32_t>(name, minlength);
        });
      }
      ++cases;
    }
  }
  BOOST_TEST(cases > 150);
}

// Sorted arrays long enough, and queries many enough, for the device's
// ordered search (queries ordered by their leading bits) and its merge
// (queries sorted, then merged with `a`), against std::lower_bound /
// upper_bound in NumPy's order: ties, NaNs, -0.0 against 0.0, a reversed
// view, a sorter, and digitize's decreasing bins.
template <class T>
void check_long_search(index_t n, index_t m) {
  const bool real = std::is_floating_point_v<T>;
  cupp::host::ndarray<T> ha(shape_t{n}), hq(shape_t{m});
  for (index_t i = 0; i < n; ++i) {
    const double v = static_cast<double>((i / 3) % 40000) * 0.25;
    ha.data()[i] = real && i >= n - 100    ? static_cast<T>(NAN)
                   : real && i % 1000 == 1 ? static_cast<T>(-0.0)
                                           : static_cast<T>(v);
  }
  const auto nan_last = [](T x, T y) { return x < y || (y != y && x == x); };
  std::sort(ha.data(), ha.data() + n, nan_last);
  for (index_t i = 0; i < m; ++i) {
    const double v = static_cast<double>((i * 7919) % 41000) * 0.125 - 5.0;
    hq.data()[i] = real && i % 97 == 0   ? static_cast<T>(NAN)
                   : real && i % 89 == 0 ? static_cast<T>(-0.0)
                                         : static_cast<T>(v);
  }
  const auto a = on_space(ha), q = on_space(hq);
  const auto left = to_host(cupp::searchsorted(a, q)).to_vector();
  const auto right = to_host(cupp::searchsorted(a, q, "right")).to_vector();
  bool ok = true;
  for (index_t i = 0; i < m && ok; ++i) {
    const T* b = ha.data();
    ok = left[i] == std::lower_bound(b, b + n, hq.data()[i], nan_last) - b &&
         right[i] == std::upper_bound(b, b + n, hq.data()[i], nan_last) - b;
  }
  BOOST_TEST(ok);
  // `a` strided, reversed (negative strides) and dense but one element off
  // an aligned start: the same bounds.
  for (const std::string layout : {"strided", "reversed", "offset"}) {
    array<T> view;
    if (layout == "offset") {
      cupp::host::ndarray<T> wide(shape_t{n + 1});
      std::copy(ha.data(), ha.data() + n, wide.data() + 1);
      const array<T> w = on_space(wide);
      view = array<T>(w.data() + 1, shape_t{n}, strides_t{static_cast<index_t>(sizeof(T))},
                      w.memory(), w.device_id(), false);
    } else {
      view = in_layout(ha, layout);
    }
    BOOST_TEST_CONTEXT(layout) {
      BOOST_TEST(to_host(cupp::searchsorted(view, q)).to_vector() == left);
      BOOST_TEST(to_host(cupp::searchsorted(view, q, "right")).to_vector() == right);
    }
  }
  // The same keys shuffled, found through their sorter.
  cupp::host::ndarray<T> hs(shape_t{n});
  cupp::host::ndarray<std::int64_t> hp(shape_t{n});
  for (index_t i = 0; i < n; ++i) {
    const index_t j = (i * 40503) % n;  // odd multiplier, n a power of two: a permutation
    hs.data()[j] = ha.data()[i];
    hp.data()[i] = j;
  }
  if ((n & (n - 1)) == 0) {
    const auto via = to_host(cupp::searchsorted(on_space(hs), q, "left", on_space(hp))).to_vector();
    BOOST_TEST(via == left);
  }
  // Decreasing bins (a reversed view of `a`, NaNs first) through digitize:
  // bins[i-1] > x >= bins[i] gives i, that is n - (a's upper bound of x).
  if constexpr (!std::is_floating_point_v<T>) {
    const auto down = to_host(cupp::digitize(q, cupp::flip(a))).to_vector();
    bool down_ok = true;
    for (index_t i = 0; i < m && down_ok; ++i) down_ok = down[i] == n - right[i];
    BOOST_TEST(down_ok);
  }
}

BOOST_AUTO_TEST_CASE(searchsorted_long) {
  check_long_search<float>(20000, 5000);  // one index level below shared memory's
  check_long_search<float>(index_t(1) << 17, (index_t(1) << 16) + 3);
  check_long_search<float>(index_t(1) << 20, (index_t(1) << 17) + 3);
  check_long_search<double>(index_t(1) << 20, (index_t(1) << 17) + 5);
  check_long_search<std::int64_t>((index_t(1) << 20) + 7, (index_t(1) << 18) + 1);
}

// Bins past one block's shared memory go straight to global atomics.
BOOST_AUTO_TEST_CASE(bincount_many_bins) {
  const index_t n = 5000, top = 40000;
  cupp::host::ndarray<std::int32_t> hx(shape_t{n});
  cupp::host::ndarray<double> hw(shape_t{n});
  std::vector<std::int64_t> want(top, 0);
  std::vector<double> want_w(top, 0);
  for (index_t i = 0; i < n; ++i) {
    hx.data()[i] = static_cast<std::int32_t>((i * 7919) % top);
    hw.data()[i] = 0.5 * static_cast<double>(i % 7);
    ++want[hx.data()[i]];
    want_w[hx.data()[i]] += hw.data()[i];
  }
  hx.data()[n - 1] = top - 1;
  --want[(n - 1) * 7919 % top];
  ++want[top - 1];
  want_w[(n - 1) * 7919 % top] -= hw.data()[n - 1];
  want_w[top - 1] += hw.data()[n - 1];
  const auto got = to_host(cupp::bincount(on_space(hx)));
  BOOST_TEST_REQUIRE(got.size() == top);
  for (index_t i = 0; i < top; ++i) BOOST_TEST_REQUIRE(got.data()[i] == want[i]);
  const auto got_w = to_host(cupp::bincount(on_space(hx), on_space(hw)));
  for (index_t i = 0; i < top; ++i)
    BOOST_TEST_REQUIRE(std::abs(got_w.data()[i] - want_w[i]) < 1e-9);
}

BOOST_AUTO_TEST_CASE(errors) {
  using cupp_test::message_of;
  cupp::host::ndarray<float> h(shape_t{4});
  for (int i = 0; i < 4; ++i) h.data()[i] = static_cast<float>(i);
  const array<float> a = on_space(h);
  BOOST_TEST(message_of([&] { cupp::searchsorted(a, a, "middle"); }) ==
             "search side must be 'left' or 'right' (got 'middle')");
  const array<float> a2 = on_space(cupp::host::ndarray<float>(shape_t{2, 2}));
  BOOST_TEST(message_of([&] { cupp::searchsorted(a2, a); }) == "object too deep for desired array");
  const array<float> a0 = on_space(cupp::host::ndarray<float>(shape_t{}));
  BOOST_TEST(message_of([&] { cupp::searchsorted(a0, a); }) ==
             "object of too small depth for desired array");
  const array<std::int64_t> short_sorter = on_space(cupp::host::ndarray<std::int64_t>(shape_t{3}));
  BOOST_TEST(message_of([&] { cupp::searchsorted(a, a, "left", short_sorter); }) ==
             "sorter.size must equal a.size");
  bool type_error = false;
  try {
    cupp::searchsorted(a, a, "left", on_space(cupp::host::ndarray<std::int64_t>(shape_t{4, 1})));
  } catch (const cupp::type_error& e) {
    type_error = std::string(e.what()) == "could not parse sorter argument";
  }
  BOOST_TEST(type_error);

  cupp::host::ndarray<float> bad(shape_t{3});
  bad.data()[0] = 1;
  bad.data()[1] = 3;
  bad.data()[2] = 2;
  BOOST_TEST(message_of([&] { cupp::digitize(a, on_space(bad)); }) ==
             "bins must be monotonically increasing or decreasing");
  BOOST_TEST(message_of([&] { cupp::digitize(a, a2); }) == "object too deep for desired array");
  BOOST_TEST(message_of([&] { cupp::digitize(a, a0); }) ==
             "object of too small depth for desired array");

  cupp::host::ndarray<std::int32_t> neg(shape_t{3});
  neg.data()[0] = 1;
  neg.data()[1] = -1;
  neg.data()[2] = 2;
  BOOST_TEST(message_of([&] { cupp::bincount(on_space(neg)); }) ==
             "'list' argument must have no negative elements");
  const array<std::int32_t> x = on_space(cupp::host::ndarray<std::int32_t>(shape_t{2, 2}));
  BOOST_TEST(message_of([&] { cupp::bincount(x); }) == "object too deep for desired array");
  const array<std::int32_t> x0 = on_space(cupp::host::ndarray<std::int32_t>(shape_t{}));
  BOOST_TEST(message_of([&] { cupp::bincount(x0); }) ==
             "object of too small depth for desired array");
  neg.data()[1] = 0;
  BOOST_TEST(message_of([&] { cupp::bincount(on_space(neg), -1); }) ==
             "'minlength' must not be negative");
  BOOST_TEST(message_of([&] { cupp::bincount(on_space(neg), a); }) ==
             "The weights and list don't have the same length.");
}

BOOST_AUTO_TEST_SUITE_END()
