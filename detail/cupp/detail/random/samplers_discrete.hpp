// Rejection samplers of counts: poisson, binomial, negative_binomial,
// geometric, logseries, zipf. They compute in double whatever integer type
// they return (int64 unless a caller asks otherwise) and read the words of
// their own element, as many as their loops need; all floating-point
// arithmetic goes through xm:: so that the host and the device give the
// same counts.
#pragma once

#include <cstdint>

#include <cupp/config.hpp>
#include <cupp/detail/random/count_tables.hpp>
#include <cupp/detail/random/draw.hpp>
#include <cupp/detail/random/exact_math.hpp>
#include <cupp/detail/random/samplers_gamma.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail::random {

// NumPy's POISSON_LAM_MAX, int64 max - 10 sqrt(int64 max) rounded to
// double: above it a Poisson count would not fit in int64 with 10 standard
// deviations to spare.
inline constexpr double poisson_lam_max = 9.223372006484771e18;
// 2^63 as a double: the first value a double-to-int64 conversion cannot take.
inline constexpr double int64_limit = 9223372036854775808.0;

// Knuth's multiplication method (TAOCP vol. 2, 3.4.1): the number of
// uniforms whose running product stays above exp(-lam). Used for lam < 10,
// where it needs lam + 1 uniforms on average.
CUPP_HD inline double poisson_multiplication_from(element_words& w, double lam) {
  const double limit = xm::exp(-lam);
  double product = 1.0, count = 0.0;
  for (;;) {
    product = xm::mul(product, w.next_double());
    if (!(product > limit)) return count;
    count = xm::add(count, 1.0);
  }
}

// PTRS, Hörmann, "The transformed rejection method for generating Poisson
// random variables", Insurance: Mathematics and Economics 12, 1993: a
// transformed-rejection hat over the Poisson pmf with the constants of the
// paper, for lam >= 10 (acceptance about 90%).
CUPP_HD inline double poisson_ptrs_from(element_words& w, double lam) {
  const double sqrt_lam = xm::sqrt(lam);
  const double log_lam = xm::log(lam);
  const double b = xm::add(0.931, xm::mul(2.53, sqrt_lam));
  const double a = xm::add(-0.059, xm::mul(0.02483, b));
  const double inv_alpha = xm::add(1.1239, xm::div(1.1328, xm::sub(b, 3.4)));
  const double v_r = xm::sub(0.9277, xm::div(3.6224, xm::sub(b, 2.0)));
  const double log_inv_alpha = xm::log(inv_alpha);
  for (;;) {
    const double u = xm::sub(w.next_double(), 0.5);
    const double v = w.next_double();
    const double us = xm::sub(0.5, u < 0 ? -u : u);
    const double k = xm::floor(
        xm::add(xm::add(xm::mul(xm::add(xm::div(xm::mul(2.0, a), us), b), u), lam), 0.43));
    if (us >= 0.07 && v <= v_r) return k;
    if (!(k >= 0) || (us < 0.013 && v > us)) continue;
    const double lhs = xm::sub(xm::add(xm::log(v), log_inv_alpha),
                               xm::log(xm::add(xm::div(a, xm::mul(us, us)), b)));
    const double rhs = xm::sub(xm::sub(xm::mul(k, log_lam), lam), xm::loggam(xm::add(k, 1.0)));
    if (lhs <= rhs) return k;
  }
}

// A Poisson count as a double (what the mixtures need). Beyond NumPy's
// limit, which only a gamma or noncentral mixture can reach, the count is
// the normal approximation lam + sqrt(lam) Z rounded: there PTRS's
// log-density differences would have no significant digits left.
CUPP_HD inline double poisson_from(element_words& w, double lam) {
  if (!(lam > 0)) return 0.0;
  if (lam < 10) return poisson_multiplication_from(w, lam);
  if (lam <= poisson_lam_max) return poisson_ptrs_from(w, lam);
  const double x = xm::add(lam, xm::mul(xm::sqrt(lam), normal_from<double>(w)));
  return xm::floor(xm::add(x, 0.5));
}

// A double count to an integer type; counts past its range saturate.
template <class I>
CUPP_HD I count_to(double k) {
  if (k >= int64_limit) return static_cast<I>(INT64_MAX);
  return static_cast<I>(static_cast<std::int64_t>(k));
}

// Binomial by inversion: walk the pmf up from 0 with the ratio
// pmf(x) / pmf(x - 1) = (n - x + 1) p / (x q). A walk past mean + 10 sd
// (rounding left U above the summed pmf) starts again with a new uniform,
// as NumPy does. q^n comes from log1p so that tiny p keeps its digits.
CUPP_HD inline double binomial_inversion_from(element_words& w, double n, double p) {
  const double q = xm::sub(1.0, p);
  const double q_to_n = xm::exp(xm::mul(n, xm::log1p(-p)));
  const double np = xm::mul(n, p);
  const double spread = xm::add(np, xm::mul(10.0, xm::sqrt(xm::add(xm::mul(np, q), 1.0))));
  const double bound = spread < n ? xm::floor(spread) : n;
  for (;;) {
    double x = 0.0, pmf = q_to_n, u = w.next_double();
    while (u > pmf) {
      x = xm::add(x, 1.0);
      if (x > bound) break;
      u = xm::sub(u, pmf);
      pmf = xm::div(xm::mul(xm::mul(xm::add(xm::sub(n, x), 1.0), p), pmf), xm::mul(x, q));
    }
    if (x <= bound) return x;
  }
}

// The Stirling-series correction of log(x!) used by BTPE's final test.
CUPP_HD inline double btpe_stirling(double x) {
  const double x2 = xm::mul(x, x);
  double s = xm::sub(99.0, xm::div(140.0, x2));
  s = xm::sub(132.0, xm::div(s, x2));
  s = xm::sub(462.0, xm::div(s, x2));
  s = xm::sub(13680.0, xm::div(s, x2));
  return xm::div(xm::div(s, x), 166320.0);
}

// BTPE, Kachitvichyanukul and Schmeiser, "Binomial random variate
// generation", CACM 31(2), 1988, for n p >= 30 with p <= 1/2: a hat of a
// triangle, two parallelograms and two exponential tails, with the
// paper's squeezes and its Stirling-based final test.
CUPP_HD inline double binomial_btpe_from(element_words& w, double n, double p) {
  const double q = xm::sub(1.0, p);
  const double npq = xm::mul(xm::mul(n, p), q);
  const double f_m = xm::mul(xm::add(n, 1.0), p);
  const double m = xm::floor(f_m);
  const double p1 =
      xm::add(xm::floor(xm::sub(xm::mul(2.195, xm::sqrt(npq)), xm::mul(4.6, q))), 0.5);
  const double x_m = xm::add(m, 0.5);
  const double x_l = xm::sub(x_m, p1), x_r = xm::add(x_m, p1);
  const double c = xm::add(0.134, xm::div(20.5, xm::add(15.3, m)));
  double a = xm::div(xm::sub(f_m, x_l), xm::sub(f_m, xm::mul(x_l, p)));
  const double lambda_l = xm::mul(a, xm::add(1.0, xm::mul(0.5, a)));
  a = xm::div(xm::sub(x_r, f_m), xm::mul(x_r, q));
  const double lambda_r = xm::mul(a, xm::add(1.0, xm::mul(0.5, a)));
  const double p2 = xm::mul(p1, xm::add(1.0, xm::mul(2.0, c)));
  const double p3 = xm::add(p2, xm::div(c, lambda_l));
  const double p4 = xm::add(p3, xm::div(c, lambda_r));
  for (;;) {
    const double u = xm::mul(w.next_double(), p4);
    double v = w.next_double();
    double y;
    if (u <= p1) return xm::floor(xm::add(xm::sub(x_m, xm::mul(p1, v)), u));  // the triangle
    if (u <= p2) {                                                            // the parallelograms
      const double x = xm::add(x_l, xm::div(xm::sub(u, p1), c));
      const double off = xm::add(xm::sub(m, x), 0.5);
      v = xm::sub(xm::add(xm::mul(v, c), 1.0), xm::div(off < 0 ? -off : off, p1));
      if (v > 1.0) continue;
      y = xm::floor(x);
    } else if (u <= p3) {  // the left tail
      if (v == 0.0) continue;
      y = xm::floor(xm::add(x_l, xm::div(xm::log(v), lambda_l)));
      if (y < 0) continue;
      v = xm::mul(xm::mul(v, xm::sub(u, p2)), lambda_l);
    } else {  // the right tail
      if (v == 0.0) continue;
      y = xm::floor(xm::sub(x_r, xm::div(xm::log(v), lambda_r)));
      if (y > n) continue;
      v = xm::mul(xm::mul(v, xm::sub(u, p3)), lambda_r);
    }
    const double k = y > m ? xm::sub(y, m) : xm::sub(m, y);
    if (k <= 20 || k >= xm::sub(xm::mul(0.5, npq), 1.0)) {
      // Close to the mode (or far in a tail): the pmf ratio to the mode,
      // by the recurrence.
      const double s = xm::div(p, q);
      const double as = xm::mul(s, xm::add(n, 1.0));
      double f = 1.0;
      if (m < y) {
        for (double i = xm::add(m, 1.0); i <= y; i = xm::add(i, 1.0))
          f = xm::mul(f, xm::sub(xm::div(as, i), s));
      } else {
        for (double i = xm::add(y, 1.0); i <= m; i = xm::add(i, 1.0))
          f = xm::div(f, xm::sub(xm::div(as, i), s));
      }
      if (v <= f) return y;
      continue;
    }
    // The squeeze on log(pmf(y) / pmf(m)) around its normal approximation.
    const double rho = xm::mul(
        xm::div(k, npq),
        xm::add(xm::div(xm::add(xm::mul(k, xm::add(xm::div(k, 3.0), 0.625)), 1.0 / 6.0), npq),
                0.5));
    const double t = xm::div(xm::mul(-k, k), xm::mul(2.0, npq));
    const double log_v = xm::log(v);
    if (log_v < xm::sub(t, rho)) return y;
    if (log_v > xm::add(t, rho)) continue;
    const double x1 = xm::add(y, 1.0), f1 = xm::add(m, 1.0);
    const double z = xm::sub(xm::add(n, 1.0), m), wy = xm::add(xm::sub(n, y), 1.0);
    double bound = xm::mul(x_m, xm::log(xm::div(f1, x1)));
    bound = xm::add(bound, xm::mul(xm::add(xm::sub(n, m), 0.5), xm::log(xm::div(z, wy))));
    bound =
        xm::add(bound, xm::mul(xm::sub(y, m), xm::log(xm::div(xm::mul(wy, p), xm::mul(x1, q)))));
    bound = xm::add(bound, xm::add(xm::add(btpe_stirling(f1), btpe_stirling(z)),
                                   xm::add(btpe_stirling(x1), btpe_stirling(wy))));
    if (log_v <= bound) return y;
  }
}

// Binomial(n, p): the method is chosen for min(p, 1 - p), whose count is
// reflected (n - y) when p > 1/2, as NumPy does.
CUPP_HD inline double binomial_from(element_words& w, std::int64_t n, double p) {
  if (n == 0 || p == 0.0) return 0.0;
  const double dn = static_cast<double>(n);
  const bool reflect = p > 0.5;
  const double r = reflect ? xm::sub(1.0, p) : p;
  if (r == 0.0) return dn;
  const double y =
      xm::mul(dn, r) <= 30.0 ? binomial_inversion_from(w, dn, r) : binomial_btpe_from(w, dn, r);
  return reflect ? xm::sub(dn, y) : y;
}

// Geometric(p), the number of trials up to the first success: for
// p >= 1/3 a sequential search of the cdf (at most a few steps); below, by
// inversion, ceil(log(U) / log(1 - p)) with U in (0, 1]. Both as NumPy.
CUPP_HD inline double geometric_from(element_words& w, double p) {
  if (p >= 1.0 / 3.0) {
    const double q = xm::sub(1.0, p);
    const double u = w.next_double();
    double x = 1.0, term = p, cdf = p;
    // term underflows to 0 before x reaches ~2000: a cdf that rounding
    // left below u stops there instead of looping.
    while (u > cdf && term > 0.0) {
      term = xm::mul(term, q);
      cdf = xm::add(cdf, term);
      x = xm::add(x, 1.0);
    }
    return x;
  }
  const double x = xm::ceil(xm::div(xm::log(w.next_open_double()), xm::log1p(-p)));
  return x < 1.0 ? 1.0 : x;
}

// Logarithmic series(p): Kemp's second accelerated generator LK (Kemp,
// "Efficient generation of logarithmically distributed pseudo-random
// variables", Applied Statistics 30(3), 1981).
CUPP_HD inline double logseries_from(element_words& w, double p) {
  const double log_q = xm::log1p(-p);
  for (;;) {
    const double v = w.next_open_double();
    if (v >= p) return 1.0;
    const double u = w.next_double();
    const double q = xm::sub(0.0, xm::expm1(xm::mul(log_q, u)));
    if (v <= xm::mul(q, q)) {
      const double x = xm::floor(xm::add(1.0, xm::div(xm::log(v), xm::log(q))));
      if (x < 1.0 || x >= int64_limit) continue;
      return x;
    }
    return v >= q ? 1.0 : 2.0;
  }
}

// Zipf(a): Devroye's rejection from the Pareto-like X = floor(U^(-1/(a-1)))
// (Devroye, Non-Uniform Random Variate Generation, 1986, X.6.1), with U
// restricted to [Umin, 1] so that X never passes int64's range (a
// distribution truncated there, as NumPy's). For a >= 1025, 2^(a-1)
// overflows and P(X = 1) rounds to 1.
CUPP_HD inline double zipf_from(element_words& w, double a) {
  if (a >= 1025.0) return 1.0;
  const double am1 = xm::sub(a, 1.0);
  const double b = xm::pow(2.0, am1);
  const double u_min = xm::pow(9223372036854775807.0, -am1);
  for (;;) {
    const double u01 = w.next_double();
    const double u = xm::sub(1.0, xm::mul(u01, xm::sub(1.0, u_min)));
    const double v = w.next_double();
    const double x = xm::floor(xm::pow(u, xm::div(-1.0, am1)));
    if (!(x >= 1.0) || x >= int64_limit) continue;
    const double t = xm::pow(xm::add(1.0, xm::div(1.0, x)), am1);
    if (xm::div(xm::mul(xm::mul(v, x), xm::sub(t, 1.0)), xm::sub(b, 1.0)) <= xm::div(t, b))
      return x;
  }
}

// Negative binomial(n, p): Poisson of a Gamma(n, (1 - p) / p), as NumPy.
CUPP_HD inline double negative_binomial_from(element_words& w, double n, double p) {
  const double scale = xm::div(xm::sub(1.0, p), p);
  return poisson_from(w, xm::mul(scale, standard_gamma_from<double>(w, n)));
}

// poisson(lam) and binomial(n, p) by inversion of a table (count_tables.hpp)
// where make_poisson_sampler / make_binomial_sampler found one for the
// parameters, by the rejection methods above otherwise (a sampler made
// from the parameters alone, {lam} or {n, p}).
template <class I = std::int64_t>
struct poisson_sampler {
  using value_type = I;
  static constexpr int per_block = 0;
  double lam;
  count_table table{};
  CUPP_HD I sample(element_words& w) const {
    if (table.kmax >= 0) return static_cast<I>(table.draw(w.next_double()));
    return count_to<I>(poisson_from(w, lam));
  }
  poisson_sampler bind(int device) const { return {lam, table.bound(device)}; }
};
template <class I = std::int64_t>
poisson_sampler<I> make_poisson_sampler(double lam) {
  return {lam, poisson_table(lam)};
}

template <class I = std::int64_t>
struct binomial_sampler {
  using value_type = I;
  static constexpr int per_block = 0;
  std::int64_t n;
  double p;
  count_table table{};  // of min(p, 1 - p): the count is reflected for p > 1/2
  CUPP_HD I sample(element_words& w) const {
    if (table.kmax >= 0) {
      const std::int64_t k = table.draw(w.next_double());
      return static_cast<I>(p > 0.5 ? n - k : k);
    }
    return count_to<I>(binomial_from(w, n, p));
  }
  binomial_sampler bind(int device) const { return {n, p, table.bound(device)}; }
};
template <class I = std::int64_t>
binomial_sampler<I> make_binomial_sampler(std::int64_t n, double p) {
  return {n, p, binomial_table(n, p > 0.5 ? 1.0 - p : p)};
}

template <class I = std::int64_t>
struct negative_binomial_sampler {
  using value_type = I;
  static constexpr int per_block = 0;
  double n, p;
  CUPP_HD I sample(element_words& w) const { return count_to<I>(negative_binomial_from(w, n, p)); }
};

template <class I = std::int64_t>
struct geometric_sampler {
  using value_type = I;
  static constexpr int per_block = 0;
  double p;
  CUPP_HD I sample(element_words& w) const { return count_to<I>(geometric_from(w, p)); }
};

template <class I = std::int64_t>
struct logseries_sampler {
  using value_type = I;
  static constexpr int per_block = 0;
  double p;
  CUPP_HD I sample(element_words& w) const { return count_to<I>(logseries_from(w, p)); }
};

template <class I = std::int64_t>
struct zipf_sampler {
  using value_type = I;
  static constexpr int per_block = 0;
  double a;
  CUPP_HD I sample(element_words& w) const { return count_to<I>(zipf_from(w, a)); }
};

// Host-side checks with NumPy's messages, in NumPy's order.
inline void check_poisson(double lam) {
  if (!(lam >= 0)) throw value_error("lam < 0 or lam is NaN");
  if (lam > poisson_lam_max) throw value_error("lam value too large");
}
inline void check_binomial(std::int64_t n, double p) {
  if (!(p >= 0 && p <= 1)) throw value_error("p < 0, p > 1 or p is NaN");
  if (n < 0) throw value_error("n < 0");
}
inline void check_negative_binomial(double n, double p) {
  if (n != n) throw value_error("n must not be NaN");
  if (!(n > 0)) throw value_error("n <= 0");
  if (!(p > 0 && p <= 1)) throw value_error("p <= 0, p > 1 or p contains NaNs");
  // NumPy's bound on the Poisson mean the gamma can reach: its mean plus
  // ten of its standard deviations, loosely.
  if ((1 - p) / p * (n + 10 * xm::sqrt(n)) > poisson_lam_max)
    throw value_error("n too large or p too small, see Generator.negative_binomial Notes");
}
inline void check_geometric(double p) {
  if (!(p > 0 && p <= 1)) throw value_error("p <= 0, p > 1 or p contains NaNs");
}
inline void check_logseries(double p) {
  if (!(p >= 0 && p < 1)) throw value_error("p < 0, p >= 1 or p is NaN");
}
inline void check_zipf(double a) {
  if (!(a > 1)) throw value_error("a <= 1 or a is NaN");
}

}  // namespace cupp::detail::random
