// The Generator's vector draws (cupp/random/vector_draws.hpp and
// cupp/random/multivariate.hpp): dirichlet, multinomial,
// multivariate_hypergeometric and multivariate_normal. Shapes size + (k,),
// rows that sum to n (or to 1), component means and covariances within 5
// standard errors of the exact ones, multivariate_normal's sample
// covariance for each method and for a singular covariance, NumPy's
// errors, rows that do not depend on how many were drawn, and (with
// CUPP_TEST_DEVICE) the device's rows bit for bit equal to the host's.
#include <cupp/random.hpp>
#include <cupp/random/multivariate.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "random_checks.hpp"

namespace rr = cupp::random::detail;
using cupp::index_t;
using cupp::shape_t;

namespace {

// The space whose draws are judged: the device's in the GPU test.
#if CUPP_TEST_DEVICE
using space = cupp::any_space;
#else
using space = cupp::host_space;
#endif
using generator = cupp::random::basic_generator<space>;
using host_generator = cupp::random::basic_generator<cupp::host_space>;

template <class T, class S>
std::vector<T> values(const cupp::ndarray<T, S>& a) {
  return a.to_vector();
}

using cupp_test::same_bits;
using cupp_test::throws_with;

// Sample means and covariances of n rows of k values, with the standard
// errors of each estimate taken from the sample itself (the spread of x_i
// for a mean, of (x_i - m_i)(x_j - m_j) for a covariance).
struct moments {
  index_t k = 0;
  std::vector<double> mean, mean_se, cov, cov_se;
};

template <class T>
moments moments_of(const std::vector<T>& x, index_t k) {
  const index_t n = static_cast<index_t>(x.size()) / k;
  moments m;
  m.k = k;
  m.mean.assign(k, 0.0);
  m.mean_se.assign(k, 0.0);
  m.cov.assign(k * k, 0.0);
  m.cov_se.assign(k * k, 0.0);
  std::vector<long double> sum(k, 0.0L);
  for (index_t r = 0; r < n; ++r)
    for (index_t j = 0; j < k; ++j) sum[j] += static_cast<long double>(x[r * k + j]);
  for (index_t j = 0; j < k; ++j) m.mean[j] = static_cast<double>(sum[j] / n);
  std::vector<long double> s1(k * k, 0.0L), s2(k * k, 0.0L);
  for (index_t r = 0; r < n; ++r)
    for (index_t i = 0; i < k; ++i)
      for (index_t j = 0; j < k; ++j) {
        const long double p = (static_cast<long double>(x[r * k + i]) - m.mean[i]) *
                              (static_cast<long double>(x[r * k + j]) - m.mean[j]);
        s1[i * k + j] += p;
        s2[i * k + j] += p * p;
      }
  for (index_t i = 0; i < k * k; ++i) {
    const long double c = s1[i] / n;
    m.cov[i] = static_cast<double>(s1[i] / (n - 1));
    m.cov_se[i] = static_cast<double>(std::sqrt(std::fabs(s2[i] / n - c * c) / n));
  }
  for (index_t j = 0; j < k; ++j) m.mean_se[j] = std::sqrt(m.cov[j * k + j] / n);
  return m;
}

// Every mean and covariance within 5 standard errors of the exact ones
// (plus a hair for estimates whose standard error is 0: constant
// components).
void check_moments(const moments& m, const std::vector<double>& mean,
                   const std::vector<double>& cov, const std::string& what) {
  for (index_t j = 0; j < m.k; ++j)
    BOOST_TEST(std::fabs(m.mean[j] - mean[j]) <= 5 * m.mean_se[j] + 1e-12,
               what << ": mean " << j << " = " << m.mean[j] << ", exact " << mean[j] << " (se "
                    << m.mean_se[j] << ")");
  for (index_t i = 0; i < m.k * m.k; ++i)
    BOOST_TEST(std::fabs(m.cov[i] - cov[i]) <= 5 * m.cov_se[i] + 1e-12,
               what << ": cov " << i / m.k << "," << i % m.k << " = " << m.cov[i] << ", exact "
                    << cov[i] << " (se " << m.cov_se[i] << ")");
}

template <class T>
void check_row_sums(const std::vector<T>& x, index_t k, double want, double tol,
                    const std::string& what) {
  const index_t n = static_cast<index_t>(x.size()) / k;
  index_t bad = 0;
  for (index_t r = 0; r < n; ++r) {
    long double s = 0;
    for (index_t j = 0; j < k; ++j) s += x[r * k + j];
    if (std::fabs(static_cast<double>(s) - want) > tol) ++bad;
  }
  BOOST_TEST(bad == 0, what << ": " << bad << " rows do not sum to " << want);
}

std::vector<double> dirichlet_mean(const std::vector<double>& a) {
  double a0 = 0;
  for (double v : a) a0 += v;
  std::vector<double> m;
  for (double v : a) m.push_back(v / a0);
  return m;
}
std::vector<double> dirichlet_cov(const std::vector<double>& a) {
  double a0 = 0;
  for (double v : a) a0 += v;
  const std::size_t k = a.size();
  std::vector<double> c(k * k);
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j)
      c[i * k + j] = ((i == j ? a[i] * a0 : 0.0) - a[i] * a[j]) / (a0 * a0 * (a0 + 1));
  return c;
}

std::vector<double> multinomial_mean(std::int64_t n, const std::vector<double>& p) {
  std::vector<double> m;
  for (double v : p) m.push_back(n * v);
  return m;
}
std::vector<double> multinomial_cov(std::int64_t n, const std::vector<double>& p) {
  const std::size_t k = p.size();
  std::vector<double> c(k * k);
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) c[i * k + j] = n * ((i == j ? p[i] : 0.0) - p[i] * p[j]);
  return c;
}

// Sampling nsample of N items without replacement: the multinomial
// moments with p = colors / N, the covariance shrunk by (N - n) / (N - 1).
std::vector<double> mvhg_mean(const std::vector<std::int64_t>& colors, std::int64_t n) {
  double total = 0;
  for (auto c : colors) total += c;
  std::vector<double> m;
  for (auto c : colors) m.push_back(n * (c / total));
  return m;
}
std::vector<double> mvhg_cov(const std::vector<std::int64_t>& colors, std::int64_t n) {
  double total = 0;
  for (auto c : colors) total += c;
  const std::size_t k = colors.size();
  std::vector<double> c(k * k);
  const double shrink = (total - n) / (total - 1);
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      const double pi = colors[i] / total, pj = colors[j] / total;
      c[i * k + j] = n * shrink * ((i == j ? pi : 0.0) - pi * pj);
    }
  return c;
}

cupp::host::ndarray<double> host_matrix(const std::vector<double>& v, index_t rows, index_t cols) {
  return cupp::host::asarray(v, shape_t{rows, cols});
}
cupp::host::ndarray<double> host_vector(const std::vector<double>& v) {
  return cupp::host::asarray(v);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(random_multivariate)

BOOST_AUTO_TEST_CASE(shapes) {
  generator rng(cupp::random::philox(1));
  auto& bg = rng.bit_generator();
  BOOST_TEST((rr::dirichlet<double, space>(bg, {1, 2, 3}, {}).shape() == shape_t{3}));
  BOOST_TEST((rr::dirichlet<double, space>(bg, {1, 2, 3}, {2, 5}).shape() == shape_t{2, 5, 3}));
  BOOST_TEST((rr::dirichlet<float, space>(bg, {0.01, 0.02}, {0}).shape() == shape_t{0, 2}));
  BOOST_TEST((rr::dirichlet<double, space>(bg, {}, {4}).shape() == shape_t{4, 0}));
  BOOST_TEST((rr::multinomial<std::int64_t, space>(bg, 5, {0.5, 0.5}, {}).shape() == shape_t{2}));
  BOOST_TEST((rr::multinomial<std::int64_t, space>(bg, 5, {0.2, 0.3, 0.5}, {4, 1}).shape() ==
              shape_t{4, 1, 3}));
  BOOST_TEST((rr::multivariate_hypergeometric<std::int64_t, space>(bg, {3, 4}, 2, {}, "marginals")
                  .shape() == shape_t{2}));
  BOOST_TEST(
      (rr::multivariate_hypergeometric<std::int64_t, space>(bg, {3, 4, 5}, 6, {2, 3}, "count")
           .shape() == shape_t{2, 3, 3}));
  const auto mean = host_vector({0, 1});
  const auto cov = host_matrix({1, 0, 0, 1}, 2, 2);
  BOOST_TEST(
      (rr::multivariate_normal_impl<double>::draw<space>(bg, mean, cov, {}).shape() == shape_t{2}));
  BOOST_TEST((rr::multivariate_normal_impl<double>::draw<space>(bg, mean, cov, {3, 4}).shape() ==
              shape_t{3, 4, 2}));
  BOOST_TEST((rr::multivariate_normal_impl<float>::draw<space>(bg, mean, cov, {0}).shape() ==
              shape_t{0, 2}));
}

BOOST_AUTO_TEST_CASE(dirichlet_moments) {
  generator rng(cupp::random::philox(11));
  const index_t n = 40000;
  // The gamma method, and the stick-breaking of betas (every alpha < 0.1).
  for (const std::vector<double>& alpha :
       {std::vector<double>{2.0, 3.5, 0.7}, std::vector<double>{0.05, 0.02, 0.08, 0.09}}) {
    const auto k = static_cast<index_t>(alpha.size());
    const auto x = values(rr::dirichlet<double, space>(rng.bit_generator(), alpha, {n}));
    check_row_sums(x, k, 1.0, 1e-12, "dirichlet");
    bool in_range = true;
    for (double v : x) in_range = in_range && v >= 0 && v <= 1;
    BOOST_TEST(in_range);
    check_moments(moments_of(x, k), dirichlet_mean(alpha), dirichlet_cov(alpha), "dirichlet");
    const auto xf = values(rr::dirichlet<float, space>(rng.bit_generator(), alpha, {n}));
    check_row_sums(xf, k, 1.0, 1e-5, "dirichlet float32");
    check_moments(moments_of(xf, k), dirichlet_mean(alpha), dirichlet_cov(alpha),
                  "dirichlet float32");
  }
}

BOOST_AUTO_TEST_CASE(dirichlet_zero_alphas) {
  // NumPy's values: zero alphas give zeros; all zeros give a zero row.
  generator rng(cupp::random::philox(12));
  auto& bg = rng.bit_generator();
  BOOST_TEST(
      (values(rr::dirichlet<double, space>(bg, {0, 0, 0}, {})) == std::vector<double>{0, 0, 0}));
  BOOST_TEST(
      (values(rr::dirichlet<double, space>(bg, {0, 0.05, 0}, {})) == std::vector<double>{0, 1, 0}));
  BOOST_TEST(
      (values(rr::dirichlet<double, space>(bg, {0.05, 0, 0}, {})) == std::vector<double>{1, 0, 0}));
  const auto x = values(rr::dirichlet<double, space>(bg, {2, 0, 3}, {100}));
  bool zero = true;
  for (index_t r = 0; r < 100; ++r) zero = zero && x[r * 3 + 1] == 0.0;
  BOOST_TEST(zero);
  check_row_sums(x, 3, 1.0, 1e-12, "dirichlet with a zero alpha");
  const auto nan = values(rr::dirichlet<double, space>(bg, {1, NAN}, {}));
  BOOST_TEST((std::isnan(nan[0]) && std::isnan(nan[1])));
}

BOOST_AUTO_TEST_CASE(multinomial_moments) {
  generator rng(cupp::random::philox(21));
  const index_t n = 40000;
  struct c {
    std::int64_t trials;
    std::vector<double> p;
  };
  // Inversion (small n p) and BTPE (large n p) in the binomials; a last p
  // that does not matter (it takes the remainder).
  for (const c& cs : {c{10, {0.2, 0.3, 0.5}}, c{1000, {0.1, 0.45, 0.05, 0.4}},
                      c{7, {0.25, 0.25, 0.25, 0.25}}, c{50, {0.6, 0.4}}}) {
    const auto k = static_cast<index_t>(cs.p.size());
    const auto x =
        values(rr::multinomial<std::int64_t, space>(rng.bit_generator(), cs.trials, cs.p, {n}));
    check_row_sums(x, k, static_cast<double>(cs.trials), 0, "multinomial");
    bool non_negative = true;
    for (auto v : x) non_negative = non_negative && v >= 0;
    BOOST_TEST(non_negative);
    check_moments(moments_of(x, k), multinomial_mean(cs.trials, cs.p),
                  multinomial_cov(cs.trials, cs.p), "multinomial n=" + std::to_string(cs.trials));
  }
  // The remainder goes to the last category whatever its p says.
  const auto rest =
      values(rr::multinomial<std::int64_t, space>(rng.bit_generator(), 10, {0.0, 0.9}, {50}));
  bool all_last = true;
  for (index_t r = 0; r < 50; ++r) all_last = all_last && rest[r * 2] == 0 && rest[r * 2 + 1] == 10;
  BOOST_TEST(all_last);
  BOOST_TEST((values(rr::multinomial<std::int64_t, space>(rng.bit_generator(), 0, {0.3, 0.7},
                                                          {})) == std::vector<std::int64_t>{0, 0}));
}

BOOST_AUTO_TEST_CASE(multivariate_hypergeometric_moments) {
  generator rng(cupp::random::philox(31));
  const index_t n = 40000;
  struct c {
    std::vector<std::int64_t> colors;
    std::int64_t nsample;
  };
  // Small and large samples (the complement past half), HRUA's and the
  // direct hypergeometric, a colour with no items.
  for (const c& cs : {c{{5, 10, 15}, 8}, c{{5, 10, 15}, 25}, c{{200, 0, 300, 500}, 120},
                      c{{40, 60}, 70}, c{{3, 1, 2}, 6}}) {
    for (std::string_view method : {"marginals", "count"}) {
      const auto k = static_cast<index_t>(cs.colors.size());
      const auto x = values(rr::multivariate_hypergeometric<std::int64_t, space>(
          rng.bit_generator(), cs.colors, cs.nsample, {n}, method));
      check_row_sums(x, k, static_cast<double>(cs.nsample), 0, "multivariate_hypergeometric");
      bool bounded = true;
      for (index_t r = 0; r < n; ++r)
        for (index_t j = 0; j < k; ++j)
          bounded = bounded && x[r * k + j] >= 0 && x[r * k + j] <= cs.colors[j];
      BOOST_TEST(bounded);
      check_moments(moments_of(x, k), mvhg_mean(cs.colors, cs.nsample),
                    mvhg_cov(cs.colors, cs.nsample),
                    "multivariate_hypergeometric " + std::string(method) +
                        " nsample=" + std::to_string(cs.nsample));
    }
  }
}

BOOST_AUTO_TEST_CASE(multivariate_normal_moments) {
  generator rng(cupp::random::philox(41));
  const index_t n = 40000;
  const std::vector<double> mean{1.0, -2.0, 0.5};
  const std::vector<double> cov{4.0, 1.2, -0.6, 1.2, 2.0, 0.3, -0.6, 0.3, 1.0};
  for (std::string_view method : {"svd", "eigh", "cholesky"}) {
    const auto x = values(rr::multivariate_normal_impl<double>::draw<space>(
        rng.bit_generator(), host_vector(mean), host_matrix(cov, 3, 3), {n}, "raise", 1e-8,
        method));
    check_moments(moments_of(x, 3), mean, cov, "multivariate_normal " + std::string(method));
  }
  // A singular positive-semidefinite covariance (x0 = x1): svd and eigh
  // draw from it, cholesky cannot factor it.
  const std::vector<double> singular{1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 2.0};
  for (std::string_view method : {"svd", "eigh"}) {
    const auto x = values(rr::multivariate_normal_impl<double>::draw<space>(
        rng.bit_generator(), host_vector(mean), host_matrix(singular, 3, 3), {n}, "raise", 1e-8,
        method));
    check_moments(moments_of(x, 3), mean, singular,
                  "multivariate_normal singular " + std::string(method));
    // The zero eigenvalue comes out as about 1e-16, whose square root
    // moves rows off the line by about 1e-8.
    double off = 0;
    for (index_t r = 0; r < n; ++r)
      off = std::fmax(off, std::fabs((x[r * 3] - mean[0]) - (x[r * 3 + 1] - mean[1])));
    BOOST_TEST(off < 1e-6, method << ": rows as far as " << off << " off the line x0 - 1 = x1 + 2");
  }
  throws_with(
      [&] {
        rr::multivariate_normal_impl<double>::draw<space>(rng.bit_generator(), host_vector(mean),
                                                          host_matrix(singular, 3, 3), {4}, "raise",
                                                          1e-8, "cholesky");
      },
      "Matrix is not positive definite");
  // float32 values are the float64 ones rounded.
  generator a(cupp::random::philox(5)), b(cupp::random::philox(5));
  const auto d = values(rr::multivariate_normal_impl<double>::draw<space>(
      a.bit_generator(), host_vector(mean), host_matrix(cov, 3, 3), {10}));
  const auto f = values(rr::multivariate_normal_impl<float>::draw<space>(
      b.bit_generator(), host_vector(mean), host_matrix(cov, 3, 3), {10}));
  bool rounded = true;
  for (std::size_t i = 0; i < d.size(); ++i) rounded = rounded && f[i] == static_cast<float>(d[i]);
  BOOST_TEST(rounded);
}

BOOST_AUTO_TEST_CASE(multivariate_normal_check_valid) {
  generator rng(cupp::random::philox(43));
  auto& bg = rng.bit_generator();
  const auto mean = host_vector({0, 0});
  const auto indefinite = host_matrix({1, 2, 2, 1}, 2, 2);
  const auto asymmetric = host_matrix({1, 0.5, 0.4, 1}, 2, 2);
  const std::string not_psd = "covariance is not symmetric positive-semidefinite.";
  for (std::string_view method : {"svd", "eigh"})
    throws_with(
        [&] {
          rr::multivariate_normal_impl<double>::draw<space>(bg, mean, indefinite, {}, "raise", 1e-8,
                                                            method);
        },
        not_psd);
  // Only svd sees an asymmetric cov (eigh reads one triangle), as NumPy.
  throws_with(
      [&] {
        rr::multivariate_normal_impl<double>::draw<space>(bg, mean, asymmetric, {}, "raise", 1e-8,
                                                          "svd");
      },
      not_psd);
  BOOST_CHECK_NO_THROW(rr::multivariate_normal_impl<double>::draw<space>(bg, mean, asymmetric, {},
                                                                         "raise", 1e-8, "eigh"));
  // warn writes to stderr and draws; ignore just draws; a bad check_valid
  // is an error, except for cholesky (which never looks at it).
  BOOST_CHECK_NO_THROW(
      rr::multivariate_normal_impl<double>::draw<space>(bg, mean, indefinite, {3}, "warn"));
  const auto ignored = values(rr::multivariate_normal_impl<double>::draw<space>(
      bg, mean, indefinite, {3}, "ignore", 1e-8, "eigh"));
  bool finite = true;
  for (double v : ignored) finite = finite && std::isfinite(v);
  BOOST_TEST(finite);
  throws_with(
      [&] { rr::multivariate_normal_impl<double>::draw<space>(bg, mean, indefinite, {}, "bogus"); },
      "check_valid must equal 'warn', 'raise', or 'ignore'");
  BOOST_CHECK_NO_THROW(rr::multivariate_normal_impl<double>::draw<space>(
      bg, mean, host_matrix({1, 0, 0, 1}, 2, 2), {}, "bogus", 1e-8, "cholesky"));
  throws_with(
      [&] {
        rr::multivariate_normal_impl<double>::draw<space>(bg, mean, indefinite, {}, "ignore", 1e-8,
                                                          "cholesky");
      },
      "Matrix is not positive definite");
  // A loose tolerance lets a slightly indefinite cov through.
  const auto barely = host_matrix({1, 1.000001, 1.000001, 1}, 2, 2);
  BOOST_CHECK_NO_THROW(rr::multivariate_normal_impl<double>::draw<space>(bg, mean, barely, {},
                                                                         "raise", 1e-5, "eigh"));
  throws_with(
      [&] {
        rr::multivariate_normal_impl<double>::draw<space>(bg, mean, barely, {}, "raise", 1e-8,
                                                          "eigh");
      },
      not_psd);
}

BOOST_AUTO_TEST_CASE(errors) {
  generator rng(cupp::random::philox(51));
  auto& bg = rng.bit_generator();
  const cupp::random::philox_state before = bg.state();
  throws_with([&] { rr::dirichlet<double, space>(bg, {1, -1}, {}); }, "alpha < 0");
  throws_with([&] { rr::dirichlet<double, space>(bg, {-1, NAN}, {}); }, "alpha < 0");

  throws_with([&] { rr::multinomial<std::int64_t, space>(bg, 10, {}, {}); },
              "pvals must have at least 1 dimension and the last dimension of pvals must be "
              "greater than 0.");
  const std::string bad_p = "pvals < 0, pvals > 1 or pvals contains NaNs";
  throws_with([&] { rr::multinomial<std::int64_t, space>(bg, 10, {0.5, -0.1, 0.6}, {}); }, bad_p);
  throws_with([&] { rr::multinomial<std::int64_t, space>(bg, 10, {0.5, NAN}, {}); }, bad_p);
  throws_with([&] { rr::multinomial<std::int64_t, space>(bg, 10, {1.2}, {}); }, bad_p);
  throws_with([&] { rr::multinomial<std::int64_t, space>(bg, 10, {0.6, 0.6, -0.2}, {}); }, bad_p);
  throws_with([&] { rr::multinomial<std::int64_t, space>(bg, -1, {0.5, NAN}, {}); }, bad_p);
  throws_with(
      [&] {
        rr::multinomial<std::int64_t, space>(bg, 10, {0.6, 0.6, 0.1}, {});
      },
      "sum(pvals[:-1]) > 1.0");
  throws_with(
      [&] {
        rr::multinomial<std::int64_t, space>(bg, 10, {0.6, 0.4 + 1e-11, 0.1}, {});
      },
      "sum(pvals[:-1]) > 1.0");
  generator other(cupp::random::philox(52));
  BOOST_CHECK_NO_THROW((rr::multinomial<std::int64_t, space>(other.bit_generator(), 10,
                                                             {0.6, 0.4 + 1e-13, 0.1}, {})));
  throws_with([&] { rr::multinomial<std::int64_t, space>(bg, -1, {0.5, 0.5}, {}); }, "n < 0");

  const std::string bad_colors =
      "colors must be a one-dimensional sequence of nonnegative integers not exceeding "
      "9223372036854775807.";
  throws_with(
      [&] {
        rr::multivariate_hypergeometric<std::int64_t, space>(bg, {3, -1}, -2, {}, "x");
      },
      "method must be \"count\" or \"marginals\".");
  throws_with(
      [&] {
        rr::multivariate_hypergeometric<std::int64_t, space>(bg, {3, -1}, 7, {}, "count");
      },
      bad_colors);
  throws_with(
      [&] {
        rr::multivariate_hypergeometric<std::int64_t, space>(bg, {3, 1}, -7, {}, "marginals");
      },
      "nsample must be nonnegative.");
  const std::int64_t half = std::int64_t(1) << 62;
  throws_with(
      [&] {
        rr::multivariate_hypergeometric<std::int64_t, space>(bg, {half, half}, 2, {}, "marginals");
      },
      "sum(colors) must not exceed the maximum value of a 64 bit signed integer "
      "(9223372036854775807)");
  throws_with(
      [&] {
        rr::multivariate_hypergeometric<std::int64_t, space>(bg, {3, 1}, 5, {}, "count");
      },
      "nsample > sum(colors)");

  const auto mean2 = host_vector({0, 0});
  const auto eye2 = host_matrix({1, 0, 0, 1}, 2, 2);
  throws_with(
      [&] {
        rr::multivariate_normal_impl<double>::draw<space>(bg, host_matrix({0, 0}, 1, 2), eye2, {},
                                                          "warn", 1e-8, "bogus");
      },
      "method must be one of {'eigh', 'svd', 'cholesky'}");
  throws_with(
      [&] {
        rr::multivariate_normal_impl<double>::draw<space>(bg, host_matrix({0, 0}, 1, 2), eye2, {});
      },
      "mean must be 1 dimensional");
  throws_with(
      [&] {
        rr::multivariate_normal_impl<double>::draw<space>(
            bg, mean2, host_matrix({1, 0, 0, 1, 0, 0}, 3, 2), {});
      },
      "cov must be 2 dimensional and square");
  throws_with([&] { rr::multivariate_normal_impl<double>::draw<space>(bg, mean2, mean2, {}); },
              "cov must be 2 dimensional and square");
  throws_with(
      [&] {
        rr::multivariate_normal_impl<double>::draw<space>(bg, host_vector({0, 0, 0}), eye2, {});
      },
      "mean and cov must have same length");
  // Bad arguments draw nothing: the counter has not moved.
  BOOST_TEST((bg.state() == before));
}

BOOST_AUTO_TEST_CASE(rows_are_counter_based) {
  // Row r is the same whether 5 or 50 rows are drawn, the draw advances
  // the counter by one block per row, and the next draw differs.
  const auto check = [](auto&& draw, const std::string& what) {
    generator a(cupp::random::philox(61)), b(cupp::random::philox(61));
    const auto few = draw(a.bit_generator(), shape_t{5});
    const auto many = draw(b.bit_generator(), shape_t{10, 5});
    BOOST_TEST(std::memcmp(few.data(), many.data(), few.size() * sizeof(few[0])) == 0, what);
    BOOST_TEST(a.bit_generator().state().counter == 5u, what);
    const auto next = draw(a.bit_generator(), shape_t{5});
    BOOST_TEST(std::memcmp(few.data(), next.data(), few.size() * sizeof(few[0])) != 0, what);
  };
  check(
      [](cupp::random::philox& bg, const shape_t& s) {
        return values(rr::dirichlet<double, space>(bg, {1.5, 0.5, 2}, s));
      },
      "dirichlet");
  check(
      [](cupp::random::philox& bg, const shape_t& s) {
        return values(rr::dirichlet<double, space>(bg, {0.05, 0.01, 0.02}, s));
      },
      "dirichlet, small alphas");
  check(
      [](cupp::random::philox& bg, const shape_t& s) {
        return values(rr::multinomial<std::int64_t, space>(bg, 100, {0.2, 0.3, 0.5}, s));
      },
      "multinomial");
  check(
      [](cupp::random::philox& bg, const shape_t& s) {
        return values(rr::multivariate_hypergeometric<std::int64_t, space>(bg, {30, 20, 50}, 40, s,
                                                                           "marginals"));
      },
      "multivariate_hypergeometric");
  check(
      [](cupp::random::philox& bg, const shape_t& s) {
        return values(
            rr::multivariate_hypergeometric<std::int64_t, space>(bg, {30, 20, 50}, 40, s, "count"));
      },
      "multivariate_hypergeometric count");
}

#if CUPP_TEST_DEVICE
// The device's rows are the host's, bit for bit.
BOOST_AUTO_TEST_CASE(host_and_device_agree) {
  const shape_t size{3000};
  const auto same = [&](auto&& draw, const std::string& what) {
    generator d(cupp::random::philox(71));
    host_generator h(cupp::random::philox(71));
    const auto on_device = values(draw.template operator()<cupp::any_space>(d.bit_generator()));
    const auto on_host = values(draw.template operator()<cupp::host_space>(h.bit_generator()));
    BOOST_TEST(on_device.size() == on_host.size(), what);
    BOOST_TEST(
        std::memcmp(on_device.data(), on_host.data(), on_host.size() * sizeof(on_host[0])) == 0,
        what);
  };
  same(
      [&]<class S>(cupp::random::philox& bg) {
        return rr::dirichlet<double, S>(bg, {2.0, 3.5, 0.7, 0.2}, size);
      },
      "dirichlet");
  same(
      [&]<class S>(cupp::random::philox& bg) {
        return rr::dirichlet<float, S>(bg, {2.0, 3.5, 0.7, 0.2}, size);
      },
      "dirichlet float32");
  same(
      [&]<class S>(cupp::random::philox& bg) {
        return rr::dirichlet<double, S>(bg, {0.05, 0.02, 0.08}, size);
      },
      "dirichlet small alphas");
  same(
      [&]<class S>(cupp::random::philox& bg) {
        return rr::multinomial<std::int64_t, S>(bg, 1000, {0.1, 0.45, 0.05, 0.4}, size);
      },
      "multinomial");
  same(
      [&]<class S>(cupp::random::philox& bg) {
        return rr::multivariate_hypergeometric<std::int64_t, S>(bg, {200, 0, 300, 500}, 120, size,
                                                                "marginals");
      },
      "multivariate_hypergeometric");
  same(
      [&]<class S>(cupp::random::philox& bg) {
        return rr::multivariate_hypergeometric<std::int64_t, S>(bg, {20, 30, 50}, 70, size,
                                                                "count");
      },
      "multivariate_hypergeometric count");
}

// multivariate_normal factors cov with cuSOLVER on the device and LAPACK
// on the host, and multiplies with cuBLAS and OpenBLAS: the same normals,
// and for the unique Cholesky factor the same values to rounding.
BOOST_AUTO_TEST_CASE(multivariate_normal_host_and_device) {
  const auto mean = host_vector({1.0, -2.0, 0.5});
  const auto cov = host_matrix({4.0, 1.2, -0.6, 1.2, 2.0, 0.3, -0.6, 0.3, 1.0}, 3, 3);
  generator d(cupp::random::philox(73));
  host_generator h(cupp::random::philox(73));
  const auto on_device = values(rr::multivariate_normal_impl<double>::draw<cupp::any_space>(
      d.bit_generator(), mean, cov, {500}, "raise", 1e-8, "cholesky"));
  const auto on_host = values(rr::multivariate_normal_impl<double>::draw<cupp::host_space>(
      h.bit_generator(), mean, cov, {500}, "raise", 1e-8, "cholesky"));
  double worst = 0;
  for (std::size_t i = 0; i < on_host.size(); ++i)
    worst = std::fmax(worst, std::fabs(on_device[i] - on_host[i]));
  BOOST_TEST(worst < 1e-12);
  BOOST_TEST((d.bit_generator().state() == h.bit_generator().state()));
}
#endif

BOOST_AUTO_TEST_SUITE_END()
