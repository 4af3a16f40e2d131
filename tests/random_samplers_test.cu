// The rejection samplers (gamma family, counts, hypergeometric, von Mises,
// Wald) driven directly over a fixed key: 200,000 draws per parameter set
// against the exact mean and variance (5 standard errors; the variance's
// from the sample's 4th central moment), bounds of the support, and the
// host-side checks' messages against NumPy's. With CUPP_TEST_DEVICE=1 a
// kernel draws the same elements on the GPU and must match the host bit for
// bit. Goodness of fit against SciPy's CDFs lives elsewhere.
#include <cupp/detail/random/count_tables.hpp>
#include <cupp/detail/random/draw.hpp>
#include <cupp/detail/random/samplers_discrete.hpp>
#include <cupp/detail/random/samplers_gamma.hpp>
#include <cupp/detail/random/samplers_misc.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "cupp_test.hpp"

#if CUPP_TEST_DEVICE
#include <cuda_runtime_api.h>
#endif

namespace rnd = cupp::detail::random;
using ld = long double;

namespace {

constexpr int draws = 200000;
// pi rounded to double: the bound of von Mises angles.
constexpr double pi_d = 3.14159265358979323846;

rnd::draw_site test_site(std::uint32_t stream = 0) {
  return rnd::draw_site{rnd::philox_key{0x243F6A88u, 0x85A308D3u}, 1000, stream};
}

// Values 0 .. n - 1 of sampler d, element p from its own words.
template <class D>
std::vector<typename D::value_type> draw_all(const D& d, int n = draws, std::uint32_t stream = 0) {
  const rnd::draw_site site = test_site(stream);
  std::vector<typename D::value_type> out(n);
  for (int p = 0; p < n; ++p) {
    rnd::element_words w(site, static_cast<std::uint64_t>(p));
    out[p] = d.sample(w);
  }
  return out;
}

struct sample_moments {
  ld mean = 0, variance = 0, m4 = 0;
};

template <class V>
sample_moments moments_of(const std::vector<V>& xs) {
  sample_moments m;
  const ld n = static_cast<ld>(xs.size());
  for (const V x : xs) m.mean += static_cast<ld>(x);
  m.mean /= n;
  ld s2 = 0, s4 = 0;
  for (const V x : xs) {
    const ld d = static_cast<ld>(x) - m.mean;
    s2 += d * d;
    s4 += d * d * d * d;
  }
  m.variance = s2 / (n - 1);
  m.m4 = s4 / n;
  return m;
}

// Mean (and variance, unless it is not asked for: NaN) within 5 standard
// errors of the exact values.
template <class V>
void check_moments(const std::string& what, const std::vector<V>& xs, ld mean, ld variance,
                   bool check_variance = true) {
  const sample_moments m = moments_of(xs);
  const ld n = static_cast<ld>(xs.size());
  const ld se_mean = std::sqrt(variance / n);
  BOOST_TEST(std::fabs(m.mean - mean) <= 5 * se_mean + 1e-12L * std::fabs(mean),
             what << ": mean " << static_cast<double>(m.mean) << ", exact "
                  << static_cast<double>(mean) << " (se " << static_cast<double>(se_mean) << ")");
  if (!check_variance) return;
  const ld se_var = std::sqrt(std::fabs(m.m4 - m.variance * m.variance) / n);
  BOOST_TEST(std::fabs(m.variance - variance) <= 5 * se_var + 1e-12L * variance,
             what << ": variance " << static_cast<double>(m.variance) << ", exact "
                  << static_cast<double>(variance) << " (se " << static_cast<double>(se_var)
                  << ")");
}

template <class V, class Pred>
void check_all(const std::string& what, const std::vector<V>& xs, Pred in_support) {
  std::size_t bad = 0;
  V first{};
  for (const V x : xs)
    if (!in_support(x)) {
      if (bad++ == 0) first = x;
    }
  BOOST_TEST(bad == 0u, what << ": " << bad << " values outside the support, e.g. "
                             << static_cast<double>(first));
}

std::string params(std::initializer_list<ld> ps) {
  std::string s = "(";
  for (ld p : ps) s += (s.size() > 1 ? ", " : "") + std::to_string(static_cast<double>(p));
  return s + ")";
}

// Riemann zeta for s > 1: the partial sum to N - 1 and Euler-Maclaurin's
// tail with three Bernoulli terms (error far below 1e-15 for N = 1000).
ld zeta(ld s) {
  constexpr int big_n = 1000;
  ld sum = 0;
  for (int k = big_n - 1; k >= 1; --k) sum += std::pow(static_cast<ld>(k), -s);
  const ld n = big_n;
  sum += std::pow(n, 1 - s) / (s - 1) + std::pow(n, -s) / 2 + s * std::pow(n, -s - 1) / 12 -
         s * (s + 1) * (s + 2) * std::pow(n, -s - 3) / 720;
  return sum;
}

// Hankel's asymptotic series of I_nu(x) sqrt(2 pi x) e^-x, three terms
// (error O(x^-4)).
ld bessel_i_asymptotic(int nu, ld x) {
  const ld mu = 4.0L * nu * nu;
  return 1 - (mu - 1) / (8 * x) + (mu - 1) * (mu - 9) / (2 * 64 * x * x) -
         (mu - 1) * (mu - 9) * (mu - 25) / (6 * 512 * x * x * x);
}

// I_nu(x) by its power series.
ld bessel_i_series(int nu, ld x) {
  ld term = std::pow(x / 2, static_cast<ld>(nu)) / std::tgamma(static_cast<ld>(nu + 1));
  ld sum = 0;
  for (int k = 0; k < 1000 && term > 1e-30L * sum; ++k) {
    sum += term;
    term *= (x / 2) * (x / 2) / ((k + 1) * static_cast<ld>(k + 1 + nu));
  }
  return sum;
}

// I_nu(x) / I_0(x): the series below x = 100, the asymptotic form above.
ld bessel_ratio(int nu, ld x) {
  if (x >= 100) return bessel_i_asymptotic(nu, x) / bessel_i_asymptotic(0, x);
  return bessel_i_series(nu, x) / bessel_i_series(0, x);
}

bool message_is(const cupp::value_error& e, const char* expected) {
  return std::string(e.what()) == expected;
}

#define CHECK_MESSAGE(call, text)                \
  BOOST_CHECK_EXCEPTION(call, cupp::value_error, \
                        [](const cupp::value_error& e) { return message_is(e, text); })

}  // namespace

BOOST_AUTO_TEST_SUITE(random_samplers)

BOOST_AUTO_TEST_CASE(standard_gamma_moments) {
  for (double shape : {0.05, 0.5, 0.999, 1.0, 1.5, 2.5, 10.0, 1000.0}) {
    const auto xs = draw_all(rnd::standard_gamma_sampler<double>{shape});
    check_moments("standard_gamma" + params({shape}), xs, shape, shape);
    check_all("standard_gamma", xs, [](double x) { return x >= 0 && std::isfinite(x); });
  }
  for (float shape : {0.3f, 1.0f, 4.0f}) {
    const auto xs = draw_all(rnd::standard_gamma_sampler<float>{shape});
    check_moments("standard_gamma<float>" + params({shape}), xs, shape, shape);
    check_all("standard_gamma<float>", xs, [](float x) { return x >= 0 && std::isfinite(x); });
  }
  const auto zeros = draw_all(rnd::standard_gamma_sampler<double>{0.0}, 1000);
  check_all("standard_gamma(0)", zeros, [](double x) { return x == 0; });
  const auto nans = draw_all(rnd::standard_gamma_sampler<double>{NAN}, 100);
  check_all("standard_gamma(nan)", nans, [](double x) { return std::isnan(x); });
}

BOOST_AUTO_TEST_CASE(gamma_chisquare_f_t_moments) {
  check_moments("gamma(2, 3)", draw_all(rnd::gamma_sampler<double>{2.0, 3.0}), 6, 18);
  check_moments("gamma(0.25, 0.5)", draw_all(rnd::gamma_sampler<double>{0.25, 0.5}), 0.125, 0.0625);
  for (double df : {0.5, 1.0, 3.0, 50.0})
    check_moments("chisquare" + params({df}), draw_all(rnd::chisquare_sampler<double>{df}), df,
                  2 * df);
  {
    const ld d1 = 5, d2 = 20;
    const ld var = 2 * d2 * d2 * (d1 + d2 - 2) / (d1 * (d2 - 2) * (d2 - 2) * (d2 - 4));
    const auto xs = draw_all(rnd::f_sampler<double>{5, 20});
    check_moments("f(5, 20)", xs, d2 / (d2 - 2), var);
    check_all("f", xs, [](double x) { return x >= 0; });
  }
  check_moments("f(0.5, 6)", draw_all(rnd::f_sampler<double>{0.5, 6}), 1.5L,
                2 * 36 * 4.5L / (0.5L * 16 * 2), false);
  check_moments("standard_t(10)", draw_all(rnd::standard_t_sampler<double>{10}), 0, 1.25L);
  check_moments("standard_t(3)", draw_all(rnd::standard_t_sampler<double>{3}), 0, 3, false);
  check_moments(
      "standard_t(0.8) median sign",
      [] {
        std::vector<double> signs;
        for (double x : draw_all(rnd::standard_t_sampler<double>{0.8}))
          signs.push_back(x > 0 ? 1.0 : -1.0);
        return signs;
      }(),
      0, 1, false);
}

BOOST_AUTO_TEST_CASE(beta_moments) {
  for (auto [a, b] : {std::pair{0.5, 0.5},
                      {0.2, 0.9},
                      {1.0, 1.0},
                      {2.0, 5.0},
                      {0.5, 3.0},
                      {40.0, 0.7},
                      {0.01, 0.02}}) {
    const ld s = a + b;
    const auto xs = draw_all(rnd::beta_sampler<double>{a, b});
    check_moments("beta" + params({a, b}), xs, a / s, a * b / (s * s * (s + 1)));
    check_all("beta", xs, [](double x) { return x >= 0 && x <= 1; });
  }
}

BOOST_AUTO_TEST_CASE(noncentral_moments) {
  for (auto [k, nonc] :
       {std::pair{3.0, 2.0}, {0.5, 4.0}, {1.0, 1.0}, {2.0, 0.0}, {1.5, 30.0}, {0.2, 0.01}}) {
    const auto xs = draw_all(rnd::noncentral_chisquare_sampler<double>{k, nonc});
    check_moments("noncentral_chisquare" + params({k, nonc}), xs, k + nonc, 2 * (k + 2 * nonc));
    check_all("noncentral_chisquare", xs, [](double x) { return x >= 0; });
  }
  const ld d1 = 3, d2 = 20, l = 2;
  const ld mean = d2 * (d1 + l) / (d1 * (d2 - 2));
  const ld var = 2 * (d2 / d1) * (d2 / d1) * ((d1 + l) * (d1 + l) + (d1 + 2 * l) * (d2 - 2)) /
                 ((d2 - 2) * (d2 - 2) * (d2 - 4));
  check_moments("noncentral_f(3, 20, 2)", draw_all(rnd::noncentral_f_sampler<double>{3, 20, 2}),
                mean, var);
}

BOOST_AUTO_TEST_CASE(poisson_moments) {
  for (double lam : {0.01, 0.5, 3.0, 9.99, 10.0, 10.01, 33.3, 100.0, 1e6, 1e12}) {
    const auto xs = draw_all(rnd::poisson_sampler<>{lam});
    check_moments("poisson" + params({lam}), xs, lam, lam);
    check_all("poisson", xs, [](std::int64_t k) { return k >= 0; });
  }
  check_all("poisson(0)", draw_all(rnd::poisson_sampler<>{0.0}, 1000),
            [](std::int64_t k) { return k == 0; });
  static_assert(std::is_same_v<rnd::poisson_sampler<>::value_type, std::int64_t>);
  static_assert(std::is_trivially_copyable_v<rnd::poisson_sampler<>>);
}

BOOST_AUTO_TEST_CASE(binomial_moments) {
  struct set {
    std::int64_t n;
    double p;
  };
  for (const set s : {set{10, 0.3},
                      {100, 0.3},
                      {61, 0.5},
                      {1000, 0.5},
                      {1000, 0.95},
                      {1000, 0.97},
                      {20, 0.999},
                      {1000000000, 1e-9},
                      {1000000000000, 0.5},
                      {1000000000000, 1e-7},
                      {5000, 0.01},
                      {50, 0.0},
                      {50, 1.0},
                      {0, 0.5}}) {
    const ld n = static_cast<ld>(s.n);
    const auto xs = draw_all(rnd::binomial_sampler<>{s.n, s.p});
    check_moments("binomial" + params({n, s.p}), xs, n * s.p, n * s.p * (1 - s.p),
                  s.p > 0 && s.p < 1 && s.n > 0);
    check_all("binomial" + params({n, s.p}), xs,
              [n = s.n](std::int64_t k) { return k >= 0 && k <= n; });
  }
}

// The inversion tables of poisson and binomial (count_tables.hpp): the
// table's values are those of the walk without it (a sampler not bound, as
// where an evaluation does not say where it runs) bit for bit, and their
// moments are right; parameters outside the tables keep the rejection
// methods (kmax < 0).
BOOST_AUTO_TEST_CASE(count_tables) {
  for (double lam : {1e-300, 0.01, 0.5, 3.0, 10.0, 33.3, 100.0, 700.0}) {
    const auto walk = rnd::make_poisson_sampler<>(lam);
    BOOST_TEST_REQUIRE(walk.table.kmax >= 0, "poisson" << params({lam}));
    BOOST_TEST(walk.table.cdf == nullptr);
    const auto table = walk.bind(-1);
    BOOST_TEST_REQUIRE(table.table.cdf != nullptr);
    // The table ends where the tail is below 2^-64, with F(kmax) = 1.
    BOOST_TEST(table.table.cdf[table.table.kmax] == 1.0);
    BOOST_TEST((lam < 1e-100 || table.table.kmax > lam));  // 1e-300: only 0 is drawn
    const auto xs = draw_all(table);
    BOOST_TEST(xs == draw_all(walk), "poisson" << params({lam}) << ": table and walk differ");
    check_moments("poisson table" + params({lam}), xs, lam, lam, lam > 1e-100);
    check_all("poisson table", xs, [](std::int64_t k) { return k >= 0; });
  }
  for (double lam : {0.0, 701.0, 1e6}) BOOST_TEST(rnd::make_poisson_sampler<>(lam).table.kmax < 0);
  struct set {
    std::int64_t n;
    double p;
  };
  for (const set s : {set{1, 0.5},
                      {10, 0.3},
                      {100, 0.3},
                      {100, 0.7},
                      {1000, 0.999},
                      {5000, 0.01},
                      {1000000, 1e-6}}) {
    const ld n = static_cast<ld>(s.n);
    const auto walk = rnd::make_binomial_sampler<>(s.n, s.p);
    BOOST_TEST_REQUIRE(walk.table.kmax >= 0, "binomial" << params({n, s.p}));
    const auto table = walk.bind(-1);
    const auto xs = draw_all(table);
    BOOST_TEST(xs == draw_all(walk), "binomial" << params({n, s.p}) << ": table and walk differ");
    check_moments("binomial table" + params({n, s.p}), xs, n * s.p, n * s.p * (1 - s.p));
    check_all("binomial table" + params({n, s.p}), xs,
              [n = s.n](std::int64_t k) { return k >= 0 && k <= n; });
  }
  // Beyond the table's reach: (1 - p)^n underflows, or p is 0 or 1.
  for (const set s : {set{1000000, 0.5}, {50, 0.0}, {50, 1.0}, {0, 0.5}})
    BOOST_TEST(rnd::make_binomial_sampler<>(s.n, s.p).table.kmax < 0);
  static_assert(std::is_trivially_copyable_v<rnd::binomial_sampler<>>);
}

BOOST_AUTO_TEST_CASE(negative_binomial_moments) {
  for (auto [n, p] : {std::pair{5.0, 0.3}, {0.5, 0.9}, {100.0, 0.01}, {1.0, 1.0}, {0.05, 0.5}}) {
    const auto xs = draw_all(rnd::negative_binomial_sampler<>{n, p});
    check_moments("negative_binomial" + params({n, p}), xs, n * (1 - p) / p, n * (1 - p) / (p * p),
                  p < 1);
    check_all("negative_binomial", xs, [](std::int64_t k) { return k >= 0; });
  }
}

BOOST_AUTO_TEST_CASE(hypergeometric_moments) {
  struct set {
    std::int64_t good, bad, sample;
  };
  for (const set s : {set{10, 5, 3},
                      {100, 200, 50},
                      {1000, 10, 995},
                      {500, 600, 700},
                      {5, 1000000, 100},
                      {999999, 999999, 1000000},
                      {7, 3, 10},
                      {20, 20, 0},
                      {30, 0, 12},
                      {12, 18, 10},
                      {30, 0, 5},
                      {8, 2, 5},
                      {2, 8, 7}}) {
    const ld g = static_cast<ld>(s.good), b = static_cast<ld>(s.bad), k = static_cast<ld>(s.sample),
             total = g + b;
    const ld mean = k * g / total;
    const ld var = total > 1 ? k * (g / total) * (b / total) * (total - k) / (total - 1) : 0;
    const auto xs = draw_all(rnd::hypergeometric_sampler<>{s.good, s.bad, s.sample});
    check_moments("hypergeometric" + params({g, b, k}), xs, mean, var, var > 0);
    const std::int64_t lo = s.sample - s.bad > 0 ? s.sample - s.bad : 0;
    const std::int64_t hi = s.sample < s.good ? s.sample : s.good;
    check_all("hypergeometric" + params({g, b, k}), xs,
              [lo, hi](std::int64_t x) { return x >= lo && x <= hi; });
  }
}

BOOST_AUTO_TEST_CASE(logseries_geometric_zipf_moments) {
  for (double p : {0.3, 0.9, 0.99, 0.01}) {
    const ld l = std::log1p(-static_cast<ld>(p));
    const ld mean = -p / ((1 - p) * l);
    const ld var = -p * (p + l) / ((1 - p) * (1 - p) * l * l);
    const auto xs = draw_all(rnd::logseries_sampler<>{p});
    check_moments("logseries" + params({p}), xs, mean, var);
    check_all("logseries", xs, [](std::int64_t k) { return k >= 1; });
  }
  check_all("logseries(0)", draw_all(rnd::logseries_sampler<>{0.0}, 1000),
            [](std::int64_t k) { return k == 1; });
  check_all("logseries(1 - 1e-12)", draw_all(rnd::logseries_sampler<>{1 - 1e-12}, 20000),
            [](std::int64_t k) { return k >= 1; });
  for (double p : {1.0, 0.9, 0.5, 1.0 / 3.0, 0.3, 0.1, 1e-6}) {
    const auto xs = draw_all(rnd::geometric_sampler<>{p});
    check_moments("geometric" + params({p}), xs, 1 / static_cast<ld>(p),
                  (1 - static_cast<ld>(p)) / (static_cast<ld>(p) * p), p < 1);
    check_all("geometric", xs, [](std::int64_t k) { return k >= 1; });
  }
  for (double a : {7.0, 4.5, 3.5}) {
    const ld z = zeta(a);
    const ld mean = zeta(a - 1) / z;
    const ld var = a > 3 ? (z * zeta(a - 2) - zeta(a - 1) * zeta(a - 1)) / (z * z) : 0;
    const auto xs = draw_all(rnd::zipf_sampler<>{a});
    check_moments("zipf" + params({a}), xs, mean, var, a > 5);
    check_all("zipf", xs, [](std::int64_t k) { return k >= 1; });
  }
  for (double a : {1.5, 1.0000001, 2000.0})
    check_all("zipf" + params({a}), draw_all(rnd::zipf_sampler<>{a}, 20000),
              [a](std::int64_t k) { return k >= 1 && (a < 1000 || k == 1); });
}

BOOST_AUTO_TEST_CASE(vonmises_moments) {
  for (auto [mu, kappa] : {std::pair{0.0, 0.0},
                           {1.0, 1e-9},
                           {0.0, 3e-6},
                           {0.5, 0.5},
                           {3.0, 4.0},
                           {-2.0, 40.0},
                           {3.1, 1e7}}) {
    const auto xs = draw_all(rnd::vonmises_sampler<double>{mu, kappa});
    check_all("vonmises", xs, [](double x) { return x >= -pi_d && x <= pi_d; });
    std::vector<ld> c, s;
    for (double x : xs) {
      c.push_back(std::cos(static_cast<ld>(x) - mu));
      s.push_back(std::sin(static_cast<ld>(x) - mu));
    }
    // E cos(X - mu) = I1 / I0, E cos^2 = (1 + I2 / I0) / 2, E sin = 0 and
    // E sin^2 = (1 - I2 / I0) / 2.
    const ld a = bessel_ratio(1, kappa), a2 = bessel_ratio(2, kappa);
    check_moments("vonmises cos" + params({mu, kappa}), c, a, (1 + a2) / 2 - a * a, kappa < 1e6);
    check_moments("vonmises sin" + params({mu, kappa}), s, 0, (1 - a2) / 2, kappa < 1e6);
  }
}

BOOST_AUTO_TEST_CASE(wald_moments) {
  for (auto [mean, scale] : {std::pair{1.0, 1.0}, {3.0, 0.5}, {0.5, 20.0}, {2.0, 1e6}}) {
    const auto xs = draw_all(rnd::wald_sampler<double>{mean, scale});
    check_moments("wald" + params({mean, scale}), xs, mean, mean * mean * mean / scale);
    check_all("wald", xs, [](double x) { return x > 0 && std::isfinite(x); });
  }
}

// The draws depend on the key, the stream and the element only.
BOOST_AUTO_TEST_CASE(draws_are_pure_functions_of_the_element) {
  const rnd::binomial_sampler<> d{1000, 0.4};
  const auto a = draw_all(d, 1000), b = draw_all(d, 1000), other = draw_all(d, 1000, 1);
  BOOST_TEST(a == b);
  BOOST_TEST(a != other);
  const rnd::draw_site site = test_site();
  rnd::element_words w(site, 500);
  BOOST_TEST(d.sample(w) == a[500]);
}

BOOST_AUTO_TEST_CASE(numpy_messages) {
  CHECK_MESSAGE(rnd::check_standard_gamma(-1), "shape < 0");
  BOOST_CHECK_NO_THROW(rnd::check_standard_gamma(NAN));
  CHECK_MESSAGE(rnd::check_gamma(-1, 1), "shape < 0");
  CHECK_MESSAGE(rnd::check_gamma(1, -1), "scale < 0");
  BOOST_CHECK_NO_THROW(rnd::check_gamma(0, 0));
  CHECK_MESSAGE(rnd::check_beta(0, 1), "a <= 0");
  CHECK_MESSAGE(rnd::check_beta(1, 0), "b <= 0");
  CHECK_MESSAGE(rnd::check_chisquare(0), "df <= 0");
  CHECK_MESSAGE(rnd::check_f(0, 1), "dfnum <= 0");
  CHECK_MESSAGE(rnd::check_f(1, 0), "dfden <= 0");
  CHECK_MESSAGE(rnd::check_standard_t(-1), "df <= 0");
  CHECK_MESSAGE(rnd::check_noncentral_chisquare(0, 1), "df <= 0");
  CHECK_MESSAGE(rnd::check_noncentral_chisquare(1, -1), "nonc < 0");
  CHECK_MESSAGE(rnd::check_noncentral_f(0, 1, 1), "dfnum <= 0");
  CHECK_MESSAGE(rnd::check_noncentral_f(1, 0, 1), "dfden <= 0");
  CHECK_MESSAGE(rnd::check_noncentral_f(1, 1, -1), "nonc < 0");
  CHECK_MESSAGE(rnd::check_poisson(-1), "lam < 0 or lam is NaN");
  CHECK_MESSAGE(rnd::check_poisson(NAN), "lam < 0 or lam is NaN");
  CHECK_MESSAGE(rnd::check_poisson(1e20), "lam value too large");
  CHECK_MESSAGE(rnd::check_poisson(INFINITY), "lam value too large");
  BOOST_CHECK_NO_THROW(rnd::check_poisson(9.223372006484771e18));
  CHECK_MESSAGE(rnd::check_binomial(-1, 0.5), "n < 0");
  CHECK_MESSAGE(rnd::check_binomial(-1, 1.5), "p < 0, p > 1 or p is NaN");
  CHECK_MESSAGE(rnd::check_binomial(1, NAN), "p < 0, p > 1 or p is NaN");
  CHECK_MESSAGE(rnd::check_negative_binomial(NAN, 0.5), "n must not be NaN");
  CHECK_MESSAGE(rnd::check_negative_binomial(0, NAN), "n <= 0");
  CHECK_MESSAGE(rnd::check_negative_binomial(1, 0), "p <= 0, p > 1 or p contains NaNs");
  CHECK_MESSAGE(rnd::check_negative_binomial(1, NAN), "p <= 0, p > 1 or p contains NaNs");
  CHECK_MESSAGE(rnd::check_negative_binomial(1e300, 1e-300),
                "n too large or p too small, see Generator.negative_binomial Notes");
  CHECK_MESSAGE(rnd::check_negative_binomial(INFINITY, 0.5),
                "n too large or p too small, see Generator.negative_binomial Notes");
  BOOST_CHECK_NO_THROW(rnd::check_negative_binomial(1, 1));
  CHECK_MESSAGE(rnd::check_hypergeometric(1000000000, 1000000000, 1),
                "both ngood and nbad must be less than 1000000000");
  CHECK_MESSAGE(rnd::check_hypergeometric(1, 1000000000, 1),
                "both ngood and nbad must be less than 1000000000");
  CHECK_MESSAGE(rnd::check_hypergeometric(-1, 1, 1), "ngood + nbad < nsample");
  CHECK_MESSAGE(rnd::check_hypergeometric(1, 1, 3), "ngood + nbad < nsample");
  CHECK_MESSAGE(rnd::check_hypergeometric(-1, 5, 1), "ngood < 0");
  CHECK_MESSAGE(rnd::check_hypergeometric(5, -1, 1), "nbad < 0");
  CHECK_MESSAGE(rnd::check_hypergeometric(1, 1, -1), "nsample < 0");
  BOOST_CHECK_NO_THROW(rnd::check_hypergeometric(999999999, 1, 1));
  CHECK_MESSAGE(rnd::check_logseries(1), "p < 0, p >= 1 or p is NaN");
  CHECK_MESSAGE(rnd::check_logseries(-0.1), "p < 0, p >= 1 or p is NaN");
  CHECK_MESSAGE(rnd::check_logseries(NAN), "p < 0, p >= 1 or p is NaN");
  BOOST_CHECK_NO_THROW(rnd::check_logseries(0));
  CHECK_MESSAGE(rnd::check_zipf(1), "a <= 1 or a is NaN");
  CHECK_MESSAGE(rnd::check_zipf(NAN), "a <= 1 or a is NaN");
  CHECK_MESSAGE(rnd::check_vonmises(-1), "kappa < 0");
  BOOST_CHECK_NO_THROW(rnd::check_vonmises(NAN));
  CHECK_MESSAGE(rnd::check_geometric(0), "p <= 0, p > 1 or p contains NaNs");
  CHECK_MESSAGE(rnd::check_geometric(1.1), "p <= 0, p > 1 or p contains NaNs");
  CHECK_MESSAGE(rnd::check_geometric(NAN), "p <= 0, p > 1 or p contains NaNs");
  CHECK_MESSAGE(rnd::check_wald(0, 1), "mean <= 0");
  CHECK_MESSAGE(rnd::check_wald(1, 0), "scale <= 0");
}

#if CUPP_TEST_DEVICE

namespace {

template <class D>
__global__ void sample_kernel(D d, rnd::draw_site site, typename D::value_type* out, int n) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  rnd::element_words w(site, static_cast<std::uint64_t>(p));
  out[p] = d.sample(w);
}

// The first n values of d on the device, bit for bit those of the host.
template <class D, class H = D>
void check_device_matches_host(const std::string& what, const D& d, const H& on_host,
                               int n = 1 << 16) {
  using V = typename D::value_type;
  const auto host = draw_all(on_host, n);
  V* device = nullptr;
  BOOST_TEST_REQUIRE(cudaMalloc(&device, n * sizeof(V)) == cudaSuccess);
  sample_kernel<<<(n + 255) / 256, 256>>>(d, test_site(), device, n);
  std::vector<V> back(n);
  const cudaError_t e = cudaMemcpy(back.data(), device, n * sizeof(V), cudaMemcpyDeviceToHost);
  cudaFree(device);
  BOOST_TEST_REQUIRE(e == cudaSuccess, what << ": " << cudaGetErrorString(e));
  int differ = 0, first = -1;
  for (int p = 0; p < n; ++p)
    if (std::memcmp(&host[p], &back[p], sizeof(V)) != 0 && differ++ == 0) first = p;
  BOOST_TEST(differ == 0, what << ": " << differ << " of " << n
                               << " values differ from the host's, first at " << first << " ("
                               << static_cast<double>(host[first < 0 ? 0 : first]) << " vs "
                               << static_cast<double>(back[first < 0 ? 0 : first]) << ")");
}
template <class D>
void check_device_matches_host(const std::string& what, const D& d) {
  check_device_matches_host(what, d, d);
}

}  // namespace

BOOST_AUTO_TEST_CASE(device_matches_host_bitwise) {
  check_device_matches_host("standard_gamma<float>(0.5)", rnd::standard_gamma_sampler<float>{0.5f});
  check_device_matches_host("standard_gamma<float>(3)", rnd::standard_gamma_sampler<float>{3.0f});
  check_device_matches_host("standard_gamma(2.5)", rnd::standard_gamma_sampler<double>{2.5});
  check_device_matches_host("gamma(0.3, 2)", rnd::gamma_sampler<double>{0.3, 2.0});
  check_device_matches_host("beta(0.5, 0.5)", rnd::beta_sampler<double>{0.5, 0.5});
  check_device_matches_host("beta(2, 3)", rnd::beta_sampler<double>{2.0, 3.0});
  check_device_matches_host("chisquare(3)", rnd::chisquare_sampler<double>{3.0});
  check_device_matches_host("f(5, 20)", rnd::f_sampler<double>{5.0, 20.0});
  check_device_matches_host("standard_t(5)", rnd::standard_t_sampler<double>{5.0});
  check_device_matches_host("noncentral_chisquare(0.5, 4)",
                            rnd::noncentral_chisquare_sampler<double>{0.5, 4.0});
  check_device_matches_host("noncentral_f(3, 20, 2)",
                            rnd::noncentral_f_sampler<double>{3.0, 20.0, 2.0});
  // The tables as the device reads them, against the host's walk.
  int device = 0;
  BOOST_TEST_REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  check_device_matches_host("poisson(10), table", rnd::make_poisson_sampler<>(10.0).bind(device),
                            rnd::make_poisson_sampler<>(10.0));
  check_device_matches_host("poisson(0.5), walk", rnd::make_poisson_sampler<>(0.5));
  check_device_matches_host("binomial(100, 0.7), table",
                            rnd::make_binomial_sampler<>(100, 0.7).bind(device),
                            rnd::make_binomial_sampler<>(100, 0.7));
  check_device_matches_host("poisson(3)", rnd::poisson_sampler<>{3.0});
  check_device_matches_host("poisson(50)", rnd::poisson_sampler<>{50.0});
  check_device_matches_host("binomial(100, 0.3)", rnd::binomial_sampler<>{100, 0.3});
  check_device_matches_host("binomial(1000, 0.6)", rnd::binomial_sampler<>{1000, 0.6});
  check_device_matches_host("negative_binomial(5, 0.3)", rnd::negative_binomial_sampler<>{5, 0.3});
  check_device_matches_host("hypergeometric(100, 200, 50)",
                            rnd::hypergeometric_sampler<>{100, 200, 50});
  check_device_matches_host("hypergeometric(10, 5, 3)", rnd::hypergeometric_sampler<>{10, 5, 3});
  check_device_matches_host("logseries(0.9)", rnd::logseries_sampler<>{0.9});
  check_device_matches_host("geometric(0.1)", rnd::geometric_sampler<>{0.1});
  check_device_matches_host("geometric(0.5)", rnd::geometric_sampler<>{0.5});
  check_device_matches_host("zipf(2.5)", rnd::zipf_sampler<>{2.5});
  check_device_matches_host("vonmises(1, 4)", rnd::vonmises_sampler<double>{1.0, 4.0});
  check_device_matches_host("wald(1, 2)", rnd::wald_sampler<double>{1.0, 2.0});
}

#endif  // CUPP_TEST_DEVICE

BOOST_AUTO_TEST_SUITE_END()
