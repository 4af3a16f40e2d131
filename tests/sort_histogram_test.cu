// numpy.histogram, histogram_bin_edges, histogram2d and histogramdd on
// host arrays and, with CUPP_TEST_DEVICE=1, on device arrays: NumPy's
// counts and bit-exact edges (tests/generate_sort_histogram_fixtures.py)
// for integer and float dtypes with int bins, explicit edges and every
// string rule, range, density and weights, values on the edges and outside
// the range, NaN and inf, all-equal and empty inputs, inputs read in C,
// strided, reversed and lazy layouts; NumPy's messages.
#include <cupp/creation.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/npy.hpp>
#include <cupp/sort/histogram.hpp>
#include <cupp/ufunc.hpp>

#include <boost/hana/for_each.hpp>
#include <boost/hana/tuple.hpp>

#include <cmath>
#include <cstdint>
#include <sstream>
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

namespace hana = boost::hana;

template <class T>
cupp::host::ndarray<T> load(const std::string& name) {
  return cupp::host::load<T>(cupp_test::fixture("sort/histogram/" + name + ".npy"));
}

constexpr auto hist_dtypes =
    hana::tuple_t<std::int8_t, std::uint8_t, std::int32_t, std::int64_t, __half, float, double>;

template <class F>
void dispatch(const std::string& name, F&& f) {
  bool found = false;
  hana::for_each(hist_dtypes, [&](auto t) {
    using T = typename decltype(t)::type;
    if (cupp::dtype_of<T>().name == name) {
      found = true;
      f(t);
    }
  });
  BOOST_TEST_REQUIRE(found, "no dtype " << name << " in this test's list");
}

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

template <class T>
double as_double(const T& v) {
  return cupp::detail::convert<double>(v);
}

// Edges bit for bit; counts exactly; sums and densities to a tolerance
// (accumulation order differs, NumPy's density divides by a pairwise sum).
template <class T, class U>
void check_values(const cupp::host::ndarray<T>& got, const cupp::host::ndarray<U>& want,
                  const std::string& what, double rtol) {
  BOOST_TEST_REQUIRE((got.shape() == want.shape()),
                     what << ": shape " << got.size() << " vs " << want.size());
  const auto g = got.to_vector();
  const auto w = want.to_vector();
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double a = as_double(g[i]), b = as_double(w[i]);
    if (rtol == 0)
      BOOST_TEST_REQUIRE((a == b || (std::isnan(a) && std::isnan(b))),
                         what << " [" << i << "]: " << a << " != " << b);
    else
      BOOST_TEST_REQUIRE(std::abs(a - b) <= rtol * (1 + std::abs(b)),
                         what << " [" << i << "]: " << a << " != " << b);
  }
}

cupp::histogram_range parse_range(const std::string& r) {
  if (r == "none") return std::nullopt;
  const auto comma = r.find(',');
  return std::pair{std::stod(r.substr(0, comma)), std::stod(r.substr(comma + 1))};
}

template <class EdgeWant, class Result>
void check_result(const Result& got, const std::string& name, const std::string& what,
                  bool exact_counts, double rtol) {
  const auto& [hist, edges] = got;
  using H = typename std::remove_cvref_t<decltype(hist)>::value_type;
  check_values(to_host(hist), load<H>(name + "_hist"), what + " hist", exact_counts ? 0 : rtol);
  check_values(to_host(edges), load<EdgeWant>(name + "_edges_out"), what + " edges", 0);
}

template <class T>
void hist_case(const std::string& name, const std::string& bins, const std::string& range_text,
               bool density, const std::string& weights) {
  const auto ha = load<T>(name + "_a");
  const cupp::histogram_range range = parse_range(range_text);
  using E = std::conditional_t<std::is_integral_v<T>, double, T>;
  const bool is_count = !bins.empty() && std::isdigit(static_cast<unsigned char>(bins[0]));
  const bool is_edges = bins == "edges";
  const index_t count = is_count ? std::stoll(bins) : 0;
  const array<double> edges =
      is_edges ? on_space(load<double>(name + "_edges")) : array<double>(shape_t{0});
  for (const std::string layout : {"C", "strided", "reversed", "lazy"}) {
    const std::string what = name + " " + layout;
    const array<T> a = in_layout(ha, layout == "lazy" ? "C" : layout);
    if (weights == "none") {
      if (density) {
        if (is_edges)
          check_result<double>(cupp::histogram(a, edges, range, cupp::density), name, what, false,
                               1e-12);
        else if (is_count)
          check_result<E>(cupp::histogram(a, count, range, cupp::density), name, what, false,
                          1e-12);
        else
          BOOST_FAIL("no rule case with density");
      } else if (is_edges) {
        check_result<double>(cupp::histogram(a, edges, range), name, what, true, 0);
      } else if (is_count) {
        if (layout == "lazy")
          check_result<E>(cupp::histogram(cupp::positive(a), count, range), name, what, true, 0);
        else
          check_result<E>(cupp::histogram(a, count, range), name, what, true, 0);
        if (layout == "C")
          check_values(to_host(cupp::histogram_bin_edges(a, count, range)),
                       load<E>(name + "_edges_out"), what + " histogram_bin_edges", 0);
      } else {
        check_result<E>(cupp::histogram(a, std::string_view(bins), range), name, what, true, 0);
      }
      continue;
    }
    const auto run_weighted = [&](auto wtag) {
      using W = typename decltype(wtag)::type;
      const array<W> w = in_layout(load<W>(name + "_w"), layout == "lazy" ? "C" : layout);
      const double rtol = std::is_same_v<W, float> ? 1e-5 : 1e-12;
      const bool exact = std::is_integral_v<W>;
      if (is_edges && density)
        check_result<double>(cupp::histogram(a, edges, range, cupp::density, w), name, what, false,
                             rtol);
      else if (is_edges)
        check_result<double>(cupp::histogram(a, edges, range, w), name, what, exact, rtol);
      else if (density)
        check_result<E>(cupp::histogram(a, count, range, cupp::density, w), name, what, false,
                        rtol);
      else
        check_result<E>(cupp::histogram(a, count, range, w), name, what, exact, rtol);
    };
    if (weights == "float64")
      run_weighted(hana::type_c<double>);
    else if constexpr (std::is_same_v<T, double>) {
      if (weights == "float32")
        run_weighted(hana::type_c<float>);
      else
        run_weighted(hana::type_c<std::int32_t>);
    } else {
      BOOST_FAIL("weights " << weights << " only with float64 input");
    }
  }
}

std::vector<cupp::histogram_range> parse_ranges(const std::string& r) {
  if (r == "none") return {};
  std::vector<double> v;
  std::stringstream in(r);
  for (std::string item; std::getline(in, item, ',');) v.push_back(std::stod(item));
  std::vector<cupp::histogram_range> out;
  for (std::size_t i = 0; i + 1 < v.size(); i += 2) out.push_back(std::pair{v[i], v[i + 1]});
  return out;
}

template <class T>
void dd_case(const std::string& kind, const std::string& name, const std::string& bins,
             const std::string& range_text, bool density, const std::string& weights) {
  const auto ranges = parse_ranges(range_text);
  const bool weighted = weights != "none";
  const array<double> w = weighted ? on_space(load<double>(name + "_w")) : array<double>();
  std::vector<array<double>> hist_and_edges;
  const auto collect = [&](const auto& r) {
    hist_and_edges.clear();
    if constexpr (requires { r.xedges; }) {
      hist_and_edges = {r.hist, r.xedges, r.yedges};
    } else {
      hist_and_edges.push_back(r.hist);
      for (const auto& e : r.bin_edges) hist_and_edges.push_back(e);
    }
  };
  const auto run = [&](const auto& call) {
    if (bins == "list") {
      const auto hb = load<std::int64_t>(name + "_bins").to_vector();
      call(std::vector<index_t>(hb.begin(), hb.end()));
    } else if (bins == "edges") {
      std::vector<array<double>> e;
      for (int d = 0; d < 3; ++d) {
        const std::string f =
            cupp_test::fixture("sort/histogram/" + name + "_e" + std::to_string(d) + ".npy");
        if (std::ifstream(f).good())
          e.push_back(on_space(load<double>(name + "_e" + std::to_string(d))));
      }
      call(e);
    } else {
      call(static_cast<index_t>(std::stoll(bins)));
    }
  };
  if (kind == "dd") {
    const array<T> sample = on_space(load<T>(name + "_a"));
    run([&](const auto& b) {
      if (weighted)
        collect(cupp::histogramdd(sample, b, ranges, density, w));
      else
        collect(cupp::histogramdd(sample, b, ranges, density));
    });
  } else {
    const array<T> x = on_space(load<T>(name + "_x"));
    const array<T> y = on_space(load<T>(name + "_y"));
    run([&](const auto& b) {
      if (weighted)
        collect(cupp::histogram2d(x, y, b, ranges, density, w));
      else
        collect(cupp::histogram2d(cupp::positive(x), y, b, ranges, density));
    });
  }
  check_values(to_host(hist_and_edges[0]), load<double>(name + "_hist"), name + " hist",
               density || weighted ? 1e-12 : 0);
  for (std::size_t d = 1; d < hist_and_edges.size(); ++d)
    check_values(to_host(hist_and_edges[d]),
                 load<double>(name + "_edges_out" + std::to_string(d - 1)),
                 name + " edges " + std::to_string(d - 1), 0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sort_histogram)

BOOST_AUTO_TEST_CASE(fixtures) {
  int cases = 0;
  for (const auto& line : cupp_test::fixture_lines("sort/histogram/cases.txt")) {
    std::istringstream in(line);
    std::string kind, name, dtype, bins, range, weights;
    int density = 0;
    in >> kind >> name >> dtype >> bins >> range >> density >> weights;
    BOOST_TEST_CONTEXT(line) {
      if (kind == "hist") {
        dispatch(dtype, [&](auto t) {
          hist_case<typename decltype(t)::type>(name, bins, range, density, weights);
        });
      } else if (dtype == "float64") {
        dd_case<double>(kind, name, bins, range, density, weights);
      } else if (dtype == "float32") {
        dd_case<float>(kind, name, bins, range, density, weights);
      } else {
        BOOST_TEST_REQUIRE(dtype == "int32");
        dd_case<std::int32_t>(kind, name, bins, range, density, weights);
      }
      ++cases;
    }
  }
  BOOST_TEST(cases > 140);
}

BOOST_AUTO_TEST_CASE(errors) {
  using cupp_test::message_of;
  cupp::host::ndarray<double> h(shape_t{5});
  for (int i = 0; i < 5; ++i) h.data()[i] = i;
  const array<double> a = on_space(h);
  BOOST_TEST(message_of([&] { cupp::histogram(a, 0); }) ==
             "`bins` must be positive, when an integer");
  const array<double> e2 = on_space(cupp::host::ndarray<double>(shape_t{2, 2}));
  BOOST_TEST(message_of([&] { cupp::histogram(a, e2); }) == "`bins` must be 1d, when an array");
  cupp::host::ndarray<double> bad(shape_t{3});
  bad.data()[0] = 1;
  bad.data()[1] = 3;
  bad.data()[2] = 2;
  BOOST_TEST(message_of([&] { cupp::histogram(a, on_space(bad)); }) ==
             "`bins` must increase monotonically, when an array");
  BOOST_TEST(message_of([&] { cupp::histogram(a, "foo"); }) ==
             "'foo' is not a valid estimator for `bins`");
  bool type_error = false;
  try {
    cupp::histogram(a, "auto", std::nullopt, a);
  } catch (const cupp::type_error& e) {
    type_error = std::string(e.what()) ==
                 "Automated estimation of the number of bins is not supported for weighted data";
  }
  BOOST_TEST(type_error);
  BOOST_TEST(message_of([&] {
               cupp::histogram(a, 10, std::pair{2.0, 1.0});
             }) == "max must be larger than min in range parameter.");
  BOOST_TEST(message_of([&] {
               cupp::histogram(a, 10, std::pair{0.0, INFINITY});
             }) == "supplied range of [0.0, inf] is not finite");
  cupp::host::ndarray<float> nan(shape_t{2});
  nan.data()[0] = 0;
  nan.data()[1] = NAN;
  BOOST_TEST(message_of([&] { cupp::histogram(on_space(nan)); }) ==
             "autodetected range of [nan, nan] is not finite");
  nan.data()[1] = INFINITY;
  BOOST_TEST(message_of([&] { cupp::histogram(on_space(nan)); }) ==
             "autodetected range of [0.0, inf] is not finite");
  const array<double> short_w = on_space(cupp::host::ndarray<double>(shape_t{3}));
  BOOST_TEST(message_of([&] { cupp::histogram(a, 10, std::nullopt, short_w); }) ==
             "weights should have the same shape as a.");

  cupp::host::ndarray<double> hs(shape_t{4, 2});
  for (int i = 0; i < 8; ++i) hs.data()[i] = 0.25 * i;
  const array<double> s = on_space(hs);
  BOOST_TEST(message_of([&] {
               cupp::histogramdd(s, std::vector<index_t>{2, 2, 2});
             }) == "The dimension of bins must be equal to the dimension of the sample x.");
  BOOST_TEST(message_of([&] {
               cupp::histogramdd(s, 2, {std::pair{0.0, 1.0}});
             }) == "range argument must have one entry per dimension");
  BOOST_TEST(message_of([&] {
               cupp::histogramdd(s, std::vector<index_t>{0, 2});
             }) == "`bins[0]` must be positive, when an integer");
  cupp::host::ndarray<double> down(shape_t{2});
  down.data()[0] = 1;
  down.data()[1] = 0;
  BOOST_TEST(message_of([&] {
               cupp::histogramdd(s, std::vector<array<double>>{on_space(down), on_space(down)});
             }) == "`bins[0]` must be monotonically increasing, when an array");
  BOOST_TEST(message_of([&] { cupp::histogramdd(s, 2, {}, false, short_w); }) ==
             "The weights and list don't have the same length.");
  BOOST_TEST(message_of([&] { cupp::histogram2d(a, short_w); }) ==
             "x and y must have the same length.");
}

BOOST_AUTO_TEST_SUITE_END()
