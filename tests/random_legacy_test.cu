// The legacy API (cupp/random/legacy.hpp): RandomState over cuRAND's
// XORWOW and over philox, the module's functions on the per-device state,
// seed() making them reproducible, the ranges and moments of the cuRAND
// draws, randint's bounds and NumPy's errors, odd counts of normals (one
// more drawn, dropped), cuRAND's statuses as curand_error, and, on the GPU,
// the device generator giving the host generator's numbers.
#include <cupp/random/legacy.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "random_checks.hpp"

using cupp::index_t;
using cupp::shape_t;

namespace {

namespace hr = cupp::host::random;

template <class T>
std::vector<T> values(const cupp::host::ndarray<T>& a) {
  return a.to_vector();
}
#if CUPP_TEST_DEVICE
template <class T>
std::vector<T> values(const cupp::ndarray<T>& a) {
  return a.get().to_vector();
}
#endif

using cupp_test::same_bits;
using cupp_test::throws_with;

// The host's module and RandomState, or the device's: the same tests run
// on both.
struct host_side {
  using state = hr::RandomState;
  static state& global() { return hr::get_random_state(); }
  static void seed(std::uint64_t s) { hr::seed(s); }
  template <class T = double>
  static auto rand(index_t n) {
    return values(hr::rand<T>(n));
  }
  template <class T = double>
  static auto randn(index_t a, index_t b) {
    return values(hr::randn<T>(a, b));
  }
  static auto gamma(double k, index_t n) { return values(hr::gamma(k, 1.0, shape_t{n})); }
};
#if CUPP_TEST_DEVICE
struct device_side {
  using state = cupp::random::RandomState;
  static state& global() { return cupp::random::get_random_state(); }
  static void seed(std::uint64_t s) { cupp::random::seed(s); }
  template <class T = double>
  static auto rand(index_t n) {
    return values(cupp::random::rand<T>(n));
  }
  template <class T = double>
  static auto randn(index_t a, index_t b) {
    return values(cupp::random::randn<T>(a, b));
  }
  static auto gamma(double k, index_t n) { return values(cupp::random::gamma(k, 1.0, shape_t{n})); }
};
using legacy_sides = std::tuple<host_side, device_side>;
#else
using legacy_sides = std::tuple<host_side>;
#endif

// Mean and variance of a sample within z standard errors of the exact
// ones (the variance's error from the fourth central moment m4).
template <class T>
void check_moments(const std::vector<T>& x, double mean, double var, double m4, const char* what) {
  const double n = static_cast<double>(x.size());
  long double s = 0, ss = 0;
  for (const T v : x) s += static_cast<long double>(v);
  const double m = static_cast<double>(s / n);
  for (const T v : x) ss += (static_cast<long double>(v) - m) * (static_cast<long double>(v) - m);
  const double v = static_cast<double>(ss / (n - 1));
  const double z = 5;
  BOOST_TEST(std::abs(m - mean) <= z * std::sqrt(var / n),
             what << ": mean " << m << " vs " << mean);
  BOOST_TEST(std::abs(v - var) <= z * std::sqrt((m4 - var * var) / n),
             what << ": variance " << v << " vs " << var);
}

template <class Side>
void ranges_and_moments() {
  typename Side::state rs(20261126);
  const index_t n = 200000;
  const shape_t s{n};
  {
    const auto u = values(rs.template random_sample<double>(s));
    for (const double v : u) BOOST_TEST_REQUIRE((v >= 0.0 && v < 1.0));
    check_moments(u, 0.5, 1.0 / 12, 1.0 / 80, "random_sample f64");
    const auto f = values(rs.template rand<float>(n));
    for (const float v : f) BOOST_TEST_REQUIRE((v >= 0.0f && v < 1.0f));
    check_moments(f, 0.5, 1.0 / 12, 1.0 / 80, "rand f32");
  }
  {
    const auto z = values(rs.template randn<double>(n));
    check_moments(z, 0.0, 1.0, 3.0, "randn f64");
    const auto zf = values(rs.template standard_normal<float>(s));
    check_moments(zf, 0.0, 1.0, 3.0, "standard_normal f32");
    const auto g = values(rs.normal(3.0, 2.0, s));
    check_moments(g, 3.0, 4.0, 48.0, "normal(3, 2)");
  }
  {
    // Lognormal(0, 0.25): moments from exp(k mu + k^2 sigma^2 / 2).
    const double s2 = 0.0625;
    auto raw = [&](int k) { return std::exp(k * k * s2 / 2); };
    const double m1 = raw(1), var = raw(2) - m1 * m1;
    const double m4 = raw(4) - 4 * raw(3) * m1 + 6 * raw(2) * m1 * m1 - 3 * std::pow(m1, 4);
    const auto l = values(rs.lognormal(0.0, 0.25, s));
    for (const double v : l) BOOST_TEST_REQUIRE(v > 0.0);
    check_moments(l, m1, var, m4, "lognormal(0, 0.25)");
  }
  {
    const auto e = values(rs.exponential(2.0, s));
    for (const double v : e) BOOST_TEST_REQUIRE(v >= 0.0);
    check_moments(e, 2.0, 4.0, 9 * 16.0, "exponential(2)");
    const auto ef = values(rs.template standard_exponential<float>(s));
    check_moments(ef, 1.0, 1.0, 9.0, "standard_exponential f32");
  }
  {
    const double lam = 7.5;
    const auto p = values(rs.poisson(lam, s));
    for (const std::int64_t v : p) BOOST_TEST_REQUIRE(v >= 0);
    check_moments(p, lam, lam, lam * (1 + 3 * lam), "poisson(7.5)");
    const auto p0 = values(rs.poisson(0.0, shape_t{5}));
    for (const std::int64_t v : p0) BOOST_TEST(v == 0);
  }
  {
    const auto u = values(rs.uniform(-2.0, 6.0, s));
    for (const double v : u) BOOST_TEST_REQUIRE((v >= -2.0 && v < 6.0));
    check_moments(u, 2.0, 64.0 / 12, 4096.0 / 80, "uniform(-2, 6)");
  }
  {
    // Closed forms of cuRAND's uniforms and normals.
    const auto r = values(rs.rayleigh(2.0, s));  // mean s sqrt(pi/2), E[X^2] = 2 s^2
    const double pi = 3.14159265358979323846, rm = 2 * std::sqrt(pi / 2), r2 = 8;
    const double r3 = 3 * std::sqrt(pi / 2) * 8, r4 = 8 * 16;
    check_moments(r, rm, r2 - rm * rm, r4 - 4 * r3 * rm + 6 * r2 * rm * rm - 3 * std::pow(rm, 4),
                  "rayleigh(2)");
    const auto l = values(rs.laplace(1.0, 2.0, s));  // variance 2 b^2, m4 24 b^4
    check_moments(l, 1.0, 8.0, 24 * 16.0, "laplace(1, 2)");
    // Pareto II (Lomax) with a = 9: E[X^k] = k! / ((a-1)...(a-k)).
    const double a = 9, p1 = 1 / (a - 1), p2 = 2 / ((a - 1) * (a - 2)),
                 p3 = 6 / ((a - 1) * (a - 2) * (a - 3)),
                 p4 = 24 / ((a - 1) * (a - 2) * (a - 3) * (a - 4));
    check_moments(values(rs.pareto(a, s)), p1, p2 - p1 * p1,
                  p4 - 4 * p3 * p1 + 6 * p2 * p1 * p1 - 3 * std::pow(p1, 4), "pareto(9)");
    // Weibull(2): E[X^k] = Gamma(1 + k/2).
    auto wk = [](int k) { return std::tgamma(1 + k / 2.0); };
    const double w1 = wk(1);
    check_moments(values(rs.weibull(2.0, s)), w1, wk(2) - w1 * w1,
                  wk(4) - 4 * wk(3) * w1 + 6 * wk(2) * w1 * w1 - 3 * std::pow(w1, 4), "weibull(2)");
    for (const double v : values(rs.weibull(0.0, shape_t{4}))) BOOST_TEST(v == 0.0);
    // Power(3) is Beta(3, 1): E[X^k] = 3 / (3 + k).
    auto pk = [](int k) { return 3.0 / (3 + k); };
    const double q1 = pk(1);
    const auto pw = values(rs.power(3.0, s));
    for (const double v : pw) BOOST_TEST_REQUIRE((v >= 0.0 && v <= 1.0));
    check_moments(pw, q1, pk(2) - q1 * q1,
                  pk(4) - 4 * pk(3) * q1 + 6 * pk(2) * q1 * q1 - 3 * std::pow(q1, 4), "power(3)");
    // Triangular(0, 1, 3): E[X^k] from the density, by exact integration
    // of the two linear pieces (left and right of the mode).
    auto tk = [](int k) {
      const double c = 2.0 / 3;  // the density at the mode
      return c * std::pow(1.0, k + 1) / (k + 2) + c / 2 *
                                                      ((3 * (std::pow(3.0, k + 1) - 1) / (k + 1)) -
                                                       (std::pow(3.0, k + 2) - 1) / (k + 2));
    };
    const double t1 = tk(1);
    const auto tr = values(rs.triangular(0.0, 1.0, 3.0, s));
    for (const double v : tr) BOOST_TEST_REQUIRE((v >= 0.0 && v <= 3.0));
    check_moments(tr, t1, tk(2) - t1 * t1,
                  tk(4) - 4 * tk(3) * t1 + 6 * tk(2) * t1 * t1 - 3 * std::pow(t1, 4),
                  "triangular(0, 1, 3)");
    // Wald(mean 2, scale 8): variance mean^3 / scale, m4 = 15 mu^7/l^3 + 3 var^2.
    const double mu = 2, lam = 8, wv = mu * mu * mu / lam;
    const auto wd = values(rs.wald(mu, lam, s));
    for (const double v : wd) BOOST_TEST_REQUIRE(v > 0.0);
    check_moments(wd, mu, wv, 15 * std::pow(mu, 7) / std::pow(lam, 3) + 3 * wv * wv, "wald(2, 8)");
    // Cauchy: half the values within the quartiles -1 and 1.
    const auto c = values(rs.standard_cauchy(s));
    double inside = 0;
    for (const double v : c) inside += std::abs(v) <= 1.0;
    BOOST_TEST(std::abs(inside / n - 0.5) <= 5 * std::sqrt(0.25 / n));
  }
  {
    // A distribution cuRAND lacks, from the philox generator beside it.
    const auto g = values(rs.gamma(2.5, 2.0, s));
    check_moments(g, 5.0, 10.0, 3 * 2.5 * (2.5 + 2) * 16, "gamma(2.5, 2)");
  }
}

template <class Side>
void randint_bounds_and_errors() {
  typename Side::state rs(3);
  const auto v = values(rs.randint(-3, 5, shape_t{10000}));
  std::set<std::int64_t> seen(v.begin(), v.end());
  BOOST_TEST(seen.size() == 8u);
  BOOST_TEST(*seen.begin() == -3);
  BOOST_TEST(*seen.rbegin() == 4);
  const auto one = values(rs.randint(4, shape_t{2000}));
  for (const auto x : one) BOOST_TEST_REQUIRE((x >= 0 && x < 4));
  const auto i8 = values(rs.template randint<std::int8_t>(-128, 128, shape_t{20000}));
  std::set<int> seen8(i8.begin(), i8.end());
  BOOST_TEST(seen8.size() == 256u);
  const auto u64 = values(
      rs.template randint<std::uint64_t>(std::numeric_limits<std::uint64_t>::max() - 1,
                                         std::numeric_limits<std::uint64_t>::max(), shape_t{4}));
  for (const auto x : u64) BOOST_TEST(x == std::numeric_limits<std::uint64_t>::max() - 1);
  const auto ri = values(rs.random_integers(1, 3, shape_t{3000}));
  std::set<std::int64_t> seen_ri(ri.begin(), ri.end());
  BOOST_TEST((seen_ri == std::set<std::int64_t>{1, 2, 3}));
  BOOST_TEST(values(rs.randint(5, 6, shape_t{3})) == (std::vector<std::int64_t>{5, 5, 5}));

  // Sizes as braced lists, for members and the module's functions.
  BOOST_TEST((rs.gamma(2.0, 1.0, {2, 3}).shape() == shape_t{2, 3}));
  BOOST_TEST((hr::randint(0, 10, {5}).shape() == shape_t{5}));
  BOOST_TEST((hr::hypergeometric(5, 5, 3, {4}).shape() == shape_t{4}));
  BOOST_TEST((hr::normal<float>(0.0, 1.0, {3}).shape() == shape_t{3}));

  throws_with([&] { rs.randint(0); }, "high <= 0");
  throws_with([&] { rs.randint(-4); }, "high <= 0");
  throws_with([&] { rs.randint(5, 3); }, "low >= high");
  throws_with([&] { rs.randint(5, 5); }, "low >= high");
  throws_with([&] { rs.template randint<std::int8_t>(-129, 0); }, "low is out of bounds for int8");
  throws_with([&] { rs.template randint<std::int8_t>(0, 129); }, "high is out of bounds for int8");
  throws_with([&] { rs.template randint<std::uint8_t>(-1, 3); }, "low is out of bounds for uint8");
  throws_with([&] { rs.normal(0.0, -1.0); }, "scale < 0");
  throws_with([&] { rs.lognormal(0.0, -1.0); }, "sigma < 0");
  throws_with([&] { rs.exponential(-1.0); }, "scale < 0");
  throws_with([&] { rs.poisson(-1.0); }, "lam < 0 or lam is NaN");
  throws_with([&] { rs.uniform(-1e308, 1e308); }, "Range exceeds valid bounds");
}

template <class Side>
void odd_counts_of_normals() {
  // cuRAND makes normals in pairs: an odd count draws one more and drops it,
  // so 7 values are the first 7 of 8, and the next draw starts after 8.
  typename Side::state a(99), b(99);
  const auto seven = values(a.randn(7));
  const auto eight = values(b.randn(8));
  BOOST_TEST(std::vector<double>(eight.begin(), eight.begin() + 7) == seven);
  BOOST_TEST(same_bits(values(a.template normal<float>(1.0, 2.0, shape_t{4})),
                       values(b.template normal<float>(1.0, 2.0, shape_t{4}))));
  const auto shaped = a.template lognormal<float>(0.0, 1.0, shape_t{3, 3});
  BOOST_TEST((shaped.shape() == shape_t{3, 3}));
  BOOST_TEST(values(a.randn(0)).empty());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(random_legacy)

BOOST_AUTO_TEST_CASE_TEMPLATE(seed_makes_the_module_reproducible, Side, legacy_sides) {
  Side::seed(42);
  const auto u = Side::template rand<float>(1001);
  const auto z = Side::randn(3, 5);
  const auto g = Side::gamma(2.5, 101);
  Side::seed(42);
  BOOST_TEST(same_bits(Side::template rand<float>(1001), u));
  BOOST_TEST(same_bits(Side::randn(3, 5), z));
  BOOST_TEST(same_bits(Side::gamma(2.5, 101), g));
  // Another seed, other numbers; drawing again, other numbers.
  BOOST_TEST(!same_bits(Side::template rand<float>(1001), u));
  Side::seed(43);
  BOOST_TEST(!same_bits(Side::template rand<float>(1001), u));
  // The module's state is RandomState(seed): the same numbers.
  typename Side::state rs(42);
  BOOST_TEST(same_bits(values(rs.template rand<float>(1001)), u));
  // set_random_state puts another state in its place.
  auto& global = Side::global();
  if constexpr (std::is_same_v<Side, host_side>)
    hr::set_random_state(typename Side::state(42));
  else
    cupp::random::set_random_state(typename Side::state(42));
  BOOST_TEST(&Side::global() == &global);
  BOOST_TEST(same_bits(Side::template rand<float>(1001), u));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(the_same_seed_gives_the_same_numbers, Side, legacy_sides) {
  // (Not MRG32k3a: cuRAND's host generator takes seconds to set it up.)
  for (const auto method :
       {cupp::random::rng_method::xorwow, cupp::random::rng_method::curand_philox,
        cupp::random::rng_method::philox}) {
    typename Side::state a(7, method), b(7, method);
    BOOST_TEST((a.method() == method));
    BOOST_TEST(
        same_bits(values(a.random_sample(shape_t{257})), values(b.random_sample(shape_t{257}))));
    BOOST_TEST(
        same_bits(values(a.template randn<float>(5, 3)), values(b.template randn<float>(5, 3))));
    BOOST_TEST(
        same_bits(values(a.poisson(12.0, shape_t{99})), values(b.poisson(12.0, shape_t{99}))));
    BOOST_TEST(
        same_bits(values(a.beta(0.5, 2.0, shape_t{33})), values(b.beta(0.5, 2.0, shape_t{33}))));
    BOOST_TEST(same_bits(values(a.randint(100, shape_t{50})), values(b.randint(100, shape_t{50}))));
    // seed() starts over.
    a.seed(7);
    typename Side::state c(7, method);
    BOOST_TEST(same_bits(values(a.rand(300)), values(c.rand(300))));
  }
  // Different seeds, different numbers.
  typename Side::state a(1), b(2);
  BOOST_TEST(!same_bits(values(a.rand(64)), values(b.rand(64))));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(philox_method_is_the_generators_stream, Side, legacy_sides) {
  // method philox draws default_rng(seed)'s numbers; a XORWOW state draws
  // the distributions cuRAND lacks from the same philox generator.
  typename Side::state p(11, cupp::random::rng_method::philox), x(11);
  auto fresh = hr::default_rng(11);
  BOOST_TEST(same_bits(values(p.random_sample(shape_t{100})),
                       values(cupp::host::ndarray<double>(fresh.random(shape_t{100})))));
  auto fresh2 = hr::default_rng(11);
  BOOST_TEST(same_bits(values(x.gamma(3.0, 1.0, shape_t{100})),
                       values(cupp::host::ndarray<double>(fresh2.gamma(3.0, 1.0, shape_t{100})))));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(ranges_and_moments_of_the_curand_draws, Side, legacy_sides) {
  ranges_and_moments<Side>();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(randint_bounds_and_numpys_errors, Side, legacy_sides) {
  randint_bounds_and_errors<Side>();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(odd_counts_of_normals_draw_one_more, Side, legacy_sides) {
  odd_counts_of_normals<Side>();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(curand_draws_stay_on_cupys_stream, Side, legacy_sides) {
  // Each draw takes what CuPy's takes from cuRAND (n uniforms, or n normals
  // rounded up to even), so the uniforms after it are CuPy's too; a
  // distribution cuRAND lacks takes nothing from cuRAND.
  const index_t n = 9;
  const shape_t s{n};
  // `draw` on one state and `replay` (the cuRAND draws it should make) on
  // another leave both at the same point of cuRAND's sequence.
  auto after = [&](auto&& draw, auto&& replay) {
    typename Side::state a(31), b(31);
    draw(a);
    replay(b);
    return same_bits(values(a.rand(16)), values(b.rand(16)));
  };
  auto uniforms = [&](auto& r) { (void)r.rand(n); };
  auto nothing = [](auto&) {};
  BOOST_TEST(after([&](auto& r) { r.rayleigh(1.0, s); }, uniforms));
  BOOST_TEST(after([&](auto& r) { r.laplace(0.0, 1.0, s); }, uniforms));
  BOOST_TEST(after([&](auto& r) { r.pareto(2.0, s); }, uniforms));
  BOOST_TEST(after([&](auto& r) { r.weibull(2.0, s); }, uniforms));
  BOOST_TEST(after([&](auto& r) { r.power(2.0, s); }, uniforms));
  BOOST_TEST(after([&](auto& r) { r.exponential(2.0, s); }, uniforms));
  BOOST_TEST(after([&](auto& r) { r.standard_cauchy(s); }, uniforms));
  BOOST_TEST(after([&](auto& r) { r.triangular(0.0, 1.0, 2.0, s); }, uniforms));
  BOOST_TEST(after([&](auto& r) { r.uniform(1.0, 2.0, s); }, uniforms));
  // n is odd: the n normals take n + 1 from cuRAND.
  BOOST_TEST(
      after([&](auto& r) { r.lognormal(0.0, 1.0, s); }, [&](auto& r) { (void)r.randn(n + 1); }));
  BOOST_TEST(after([&](auto& r) { r.wald(1.0, 2.0, s); },
                   [&](auto& r) {
                     (void)r.randn(n + 1);
                     (void)r.rand(n);
                   }));
  BOOST_TEST(after([&](auto& r) { r.gamma(2.0, 1.0, s); }, nothing));
  BOOST_TEST(after([&](auto& r) { r.randint(10, s); }, nothing));
  BOOST_TEST(!after([&](auto& r) { r.rand(n); }, nothing));
}

BOOST_AUTO_TEST_CASE(curand_statuses_become_curand_error) {
  cupp::detail::random::curand_generator g(CURAND_RNG_PSEUDO_XORWOW, true);
  g.seed(1);
  std::vector<float> out(3);
  try {
    g.normal(out.data(), 3, 0.0, 1.0);  // an odd count of normals
    BOOST_ERROR("no curand_error");
  } catch (const cupp::cuda::curand_error& e) {
    BOOST_TEST(e.status() == CURAND_STATUS_LENGTH_NOT_MULTIPLE);
    BOOST_TEST(std::string(e.what()).rfind("CURAND_STATUS_LENGTH_NOT_MULTIPLE: ", 0) == 0);
    BOOST_TEST(std::string(e.what()).find("curandGenerateNormal") != std::string::npos);
  }
  std::vector<unsigned int> counts(4);
  try {
    g.poisson(counts.data(), 4, -1.0);
    BOOST_ERROR("no curand_error");
  } catch (const cupp::cuda::curand_error& e) {
    BOOST_TEST(e.status() == CURAND_STATUS_OUT_OF_RANGE);
    BOOST_TEST(std::string(e.what()).rfind("CURAND_STATUS_OUT_OF_RANGE: ", 0) == 0);
  }
  // Statuses that no call here returns still have their names.
  BOOST_TEST(std::string(cupp::cuda::curand_error::name(CURAND_STATUS_INTERNAL_ERROR)) ==
             "CURAND_STATUS_INTERNAL_ERROR");
}

#if CUPP_TEST_DEVICE
BOOST_AUTO_TEST_CASE(device_xorwow_gives_the_host_generators_numbers) {
  // cuRAND's host generator computes the device generator's sequence.
  cupp::random::RandomState d(123);
  hr::RandomState h(123);
  BOOST_TEST(same_bits(values(d.template rand<float>(1001)), values(h.template rand<float>(1001))));
  BOOST_TEST(same_bits(values(d.rand(1001)), values(h.rand(1001))));
  BOOST_TEST(same_bits(values(d.poisson(5.0, shape_t{777})), values(h.poisson(5.0, shape_t{777}))));
  // Normals: the same pairs; allow the last bit of the transcendental
  // functions to differ between the device's and the host's libraries.
  const auto zd = values(d.randn(3, 333)), zh = values(h.randn(3, 333));
  BOOST_TEST_REQUIRE(zd.size() == zh.size());
  for (std::size_t i = 0; i < zd.size(); ++i)
    BOOST_TEST_REQUIRE(std::abs(zd[i] - zh[i]) <= 1e-12 * (1 + std::abs(zh[i])), "element " << i);
  const auto ld = values(d.template lognormal<float>(0, 1, shape_t{501}));
  const auto lh = values(h.template lognormal<float>(0, 1, shape_t{501}));
  for (std::size_t i = 0; i < ld.size(); ++i)
    BOOST_TEST_REQUIRE(std::abs(ld[i] - lh[i]) <= 1e-5f * (1 + std::abs(lh[i])), "element " << i);
  // The draws run on the current stream: a draw on another stream gives
  // the same numbers.
  cupp::random::RandomState on_default(5), on_stream(5);
  cupp::cuda::Stream s;
  std::vector<double> with_stream;
  {
    auto scope = s.scope();
    with_stream = values(on_stream.randn(1000));
  }
  BOOST_TEST(same_bits(values(on_default.randn(1000)), with_stream));
}
#endif

// Permutations, choices and vector draws come from the RandomState's
// Generator: a permutation is a permutation, a choice without replacement
// has no repeats, rows of a multinomial sum to n; the module functions use
// the global state.
BOOST_AUTO_TEST_CASE(permutations_choices_and_vector_draws) {
  hr::RandomState rs(21);
  const cupp::host::ndarray<std::int64_t> p = rs.permutation(50);
  std::vector<std::int64_t> v = p.to_vector();
  std::sort(v.begin(), v.end());
  for (std::int64_t i = 0; i < 50; ++i) BOOST_TEST(v[static_cast<std::size_t>(i)] == i);
  const cupp::host::ndarray<std::int64_t> c = rs.choice(1000, shape_t{100}, false);
  std::vector<std::int64_t> cv = c.to_vector();
  std::sort(cv.begin(), cv.end());
  BOOST_TEST((std::adjacent_find(cv.begin(), cv.end()) == cv.end()));
  BOOST_TEST(cv.front() >= 0);
  BOOST_TEST(cv.back() < 1000);
  const cupp::host::ndarray<std::int64_t> m = rs.multinomial(20, {0.2, 0.3, 0.5}, shape_t{8});
  BOOST_TEST((m.shape() == shape_t{8, 3}));
  for (index_t r = 0; r < 8; ++r)
    BOOST_TEST(m.data()[3 * r] + m.data()[3 * r + 1] + m.data()[3 * r + 2] == 20);
  const cupp::host::ndarray<double> d = rs.dirichlet({1.0, 2.0}, shape_t{4});
  for (index_t r = 0; r < 4; ++r)
    BOOST_TEST(std::abs(d.data()[2 * r] + d.data()[2 * r + 1] - 1.0) < 1e-12);
  hr::seed(5);
  const cupp::host::ndarray<std::int64_t> a = hr::permutation(30);
  hr::seed(5);
  const cupp::host::ndarray<std::int64_t> b = hr::permutation(30);
  BOOST_TEST((a.to_vector() == b.to_vector()));
  cupp::host::ndarray<std::int64_t> x = cupp::host::arange<std::int64_t>(10);
  hr::shuffle(x);
  std::vector<std::int64_t> xv = x.to_vector();
  std::sort(xv.begin(), xv.end());
  for (std::int64_t i = 0; i < 10; ++i) BOOST_TEST(xv[static_cast<std::size_t>(i)] == i);
}

BOOST_AUTO_TEST_SUITE_END()
