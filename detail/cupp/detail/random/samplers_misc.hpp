// The remaining rejection samplers: hypergeometric, noncentral_chisquare,
// noncentral_f, vonmises and wald. Like the others, each reads the words
// of its own element and computes through xm:: only.
#pragma once

#include <cstdint>

#include <cupp/config.hpp>
#include <cupp/detail/random/draw.hpp>
#include <cupp/detail/random/exact_math.hpp>
#include <cupp/detail/random/samplers_discrete.hpp>
#include <cupp/detail/random/samplers_gamma.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail::random {

// A uniform integer in [0, max] by masked rejection: the smallest all-ones
// mask over max, one 32-bit word a try while max fits in 32 bits.
CUPP_HD inline std::uint64_t uniform_interval_from(element_words& w, std::uint64_t max) {
  if (max == 0) return 0;
  std::uint64_t mask = max;
  for (int shift = 1; shift < 64; shift *= 2) mask |= mask >> shift;
  for (;;) {
    const std::uint64_t value = max <= 0xFFFFFFFFull ? (w.next32() & mask) : (w.next64() & mask);
    if (value <= max) return value;
  }
}

// Hypergeometric by drawing the sample one item at a time without
// replacement (at most 10 draws here: NumPy's method for samples within 10
// of either end); a sample larger than half the population is drawn as its
// complement.
CUPP_HD inline std::int64_t hypergeometric_direct_from(element_words& w, std::int64_t good,
                                                       std::int64_t bad, std::int64_t sample) {
  const std::int64_t total = good + bad;
  const bool complement = sample > total / 2;
  std::int64_t left = complement ? total - sample : sample;
  std::int64_t remaining_total = total, remaining_good = good;
  while (left > 0 && remaining_good > 0 && remaining_total > remaining_good) {
    --remaining_total;
    if (static_cast<std::int64_t>(uniform_interval_from(w, remaining_total)) < remaining_good)
      --remaining_good;
    --left;
  }
  // Only good items remain: the rest of the sample is good.
  if (remaining_total == remaining_good) remaining_good -= left;
  return complement ? remaining_good : good - remaining_good;
}

// log(k!) for the HRUA tests.
CUPP_HD inline double log_factorial(double k) {
  return xm::loggam(xm::add(k, 1.0));
}

// HRUA, Stadlober's ratio of uniforms with a table-mountain hat (Stadlober,
// "The ratio of uniforms approach for generating discrete random
// variates", J. Comput. Appl. Math. 31, 1990; algorithm HRUA of his 1989
// thesis), with the hat's range cut at 16 standard deviations as NumPy
// does. It samples min(sample, total - sample) from the smaller colour and
// maps the count back.
CUPP_HD inline std::int64_t hypergeometric_hrua_from(element_words& w, std::int64_t good,
                                                     std::int64_t bad, std::int64_t sample) {
  constexpr double d1 = 1.7155277699214135;  // 2 sqrt(2 / e)
  constexpr double d2 = 0.8989161620588988;  // 3 - 2 sqrt(3 / e)
  const std::int64_t total = good + bad;
  const std::int64_t n = sample < total - sample ? sample : total - sample;
  const std::int64_t small = good < bad ? good : bad, large = good < bad ? bad : good;
  const double dn = static_cast<double>(n), dtotal = static_cast<double>(total);
  const double dsmall = static_cast<double>(small), dlarge = static_cast<double>(large);
  const double p = xm::div(dsmall, dtotal), q = xm::div(dlarge, dtotal);
  const double a = xm::add(xm::mul(dn, p), 0.5);
  const double variance =
      xm::div(xm::mul(xm::mul(xm::mul(xm::sub(dtotal, dn), dn), p), q), xm::sub(dtotal, 1.0));
  const double c = xm::sqrt(xm::add(variance, 0.5));
  const double h = xm::add(xm::mul(d1, c), d2);
  const double mode =
      xm::floor(xm::div(xm::mul(xm::add(dn, 1.0), xm::add(dsmall, 1.0)), xm::add(dtotal, 2.0)));
  const auto log_weight = [&](double k) {
    return xm::add(
        xm::add(log_factorial(k), log_factorial(xm::sub(dsmall, k))),
        xm::add(log_factorial(xm::sub(dn, k)), log_factorial(xm::add(xm::sub(dlarge, dn), k))));
  };
  const double g = log_weight(mode);
  const double support_end = xm::add(dn < dsmall ? dn : dsmall, 1.0);
  const double tail_end = xm::floor(xm::add(a, xm::mul(16.0, c)));
  const double end = support_end < tail_end ? support_end : tail_end;
  double k;
  for (;;) {
    const double u = w.next_double();
    const double v = w.next_double();
    const double x = xm::add(a, xm::div(xm::mul(h, xm::sub(v, 0.5)), u));
    if (!(x >= 0.0 && x < end)) continue;  // also u = 0 (x infinite or NaN)
    k = xm::floor(x);
    const double t = xm::sub(g, log_weight(k));
    // Squeezes from 2 log u between u(4 - u) - 3 (above) and u - 1/u
    // (below) before the exact test 2 log u <= t.
    if (xm::sub(xm::mul(u, xm::sub(4.0, u)), 3.0) <= t) break;
    if (xm::mul(u, xm::sub(u, t)) >= 1.0) continue;
    if (xm::mul(2.0, xm::log(u)) <= t) break;
  }
  auto count = static_cast<std::int64_t>(k);
  if (good > bad) count = n - count;
  if (n < sample) count = good - count;
  return count;
}

// Hypergeometric(good, bad, sample) with NumPy's choice of method.
CUPP_HD inline std::int64_t hypergeometric_from(element_words& w, std::int64_t good,
                                                std::int64_t bad, std::int64_t sample) {
  if (sample >= 10 && sample <= good + bad - 10)
    return hypergeometric_hrua_from(w, good, bad, sample);
  return hypergeometric_direct_from(w, good, bad, sample);
}

// Noncentral chi-square(df, nonc) as NumPy builds it: for df > 1,
// chi2(df - 1) + (Z + sqrt(nonc))^2; otherwise the Poisson mixture
// chi2(df + 2 N) with N ~ Poisson(nonc / 2). nonc = 0 is chi2(df).
template <class T>
CUPP_HD T noncentral_chisquare_from(element_words& w, T df, T nonc) {
  if (!(nonc == nonc)) return nonc;
  if (nonc == T(0)) return chisquare_from<T>(w, df);
  if (df > T(1)) {
    const T chi2 = chisquare_from<T>(w, xm::sub(df, T(1)));
    const T shifted = xm::add(normal_from<T>(w), xm::sqrt(nonc));
    return xm::add(chi2, xm::mul(shifted, shifted));
  }
  const double mixing = poisson_from(w, xm::mul(0.5, static_cast<double>(nonc)));
  return chisquare_from<T>(w, xm::add(df, static_cast<T>(xm::mul(2.0, mixing))));
}

// Noncentral F: (ncchi2(dfnum, nonc) / dfnum) / (chi2(dfden) / dfden).
template <class T>
CUPP_HD T noncentral_f_from(element_words& w, T dfnum, T dfden, T nonc) {
  const T num = xm::mul(noncentral_chisquare_from<T>(w, dfnum, nonc), dfden);
  return xm::div(num, xm::mul(chisquare_from<T>(w, dfden), dfnum));
}

// x wrapped into [-pi, pi] keeping its sign, as NumPy's fmod-based
// wrapping: |x| + pi reduced modulo 2 pi (one fused step, so the
// reduction loses no more than an ulp of |x|), minus pi.
template <class T>
CUPP_HD T wrap_to_pi(T x) {
  constexpr T pi = T(3.14159265358979323846), two_pi = T(6.28318530717958647692);
  const bool negative = x < T(0);
  const T shifted = xm::add(negative ? -x : x, pi);
  const T turns = xm::trunc(xm::div(shifted, two_pi));
  T r = xm::fma(-two_pi, turns, shifted);
  if (r < T(0)) r = xm::add(r, two_pi);  // turns one too many after rounding
  if (r >= two_pi) r = xm::sub(r, two_pi);
  r = xm::sub(r, pi);
  return negative ? -r : r;
}

// Von Mises(mu, kappa): Best and Fisher, "Efficient simulation of the von
// Mises distribution", Applied Statistics 28(2), 1979, a wrapped-Cauchy
// envelope. kappa < 1e-8 is the uniform angle; kappa > 1e6 the wrapped
// normal N(mu, 1 / kappa), which it equals to double precision (NumPy does
// both); the envelope parameter s takes its Taylor form for kappa < 1e-5,
// where the closed form cancels.
template <class T>
CUPP_HD T vonmises_from(element_words& w, T mu, T kappa) {
  constexpr T pi = T(3.14159265358979323846);
  if (!(kappa == kappa)) return kappa;
  if (kappa < T(1e-8)) return xm::mul(pi, xm::sub(xm::mul(T(2), w.next_unit<T>()), T(1)));
  if (kappa > T(1e6)) return wrap_to_pi(xm::add(mu, xm::div(normal_from<T>(w), xm::sqrt(kappa))));
  T s;
  if (kappa < T(1e-5)) {
    s = xm::add(xm::div(T(1), kappa), kappa);
  } else {
    const T r = xm::add(T(1), xm::sqrt(xm::add(T(1), xm::mul(T(4), xm::mul(kappa, kappa)))));
    const T rho = xm::div(xm::sub(r, xm::sqrt(xm::mul(T(2), r))), xm::mul(T(2), kappa));
    s = xm::div(xm::add(T(1), xm::mul(rho, rho)), xm::mul(T(2), rho));
  }
  T cos_angle;
  for (;;) {
    const T z = xm::cospi(w.next_unit<T>());
    cos_angle = xm::div(xm::add(T(1), xm::mul(s, z)), xm::add(s, z));
    const T y = xm::mul(kappa, xm::sub(s, cos_angle));
    const T v = w.next_unit<T>();
    // v = 0: y >= 0 accepts by the first test and y < 0 fails both.
    if (xm::sub(xm::mul(y, xm::sub(T(2), y)), v) >= T(0)) break;
    if (xm::add(xm::sub(xm::log(xm::div(y, v)), y), T(1)) >= T(0)) break;
  }
  T angle = xm::acos(cos_angle);
  if (w.next_unit<T>() < T(0.5)) angle = -angle;
  return wrap_to_pi(xm::add(angle, mu));
}

// Wald (inverse Gaussian)(mean, scale): Michael, Schucany and Haas,
// "Generating random variates using transformations with multiple roots",
// The American Statistician 30(2), 1976. The smaller root
// mean (R - Y) / (R + Y), R = sqrt(Y^2 + 4 scale Y), Y = mean Z^2, is
// computed without cancellation: with h = sqrt(1 + 4 scale / Y) it is
// g / (h + 1)^2 for g = 4 scale / Y <= 1 and 1 - 2 / (h + 1) above.
template <class T>
CUPP_HD T wald_from(element_words& w, T mean, T scale) {
  const T z = normal_from<T>(w);
  const T y = xm::mul(mean, xm::mul(z, z));
  const T g = xm::div(xm::mul(T(4), scale), y);
  const T h1 = xm::add(xm::sqrt(xm::add(T(1), g)), T(1));
  const T ratio = g <= T(1) ? xm::div(g, xm::mul(h1, h1)) : xm::sub(T(1), xm::div(T(2), h1));
  const T x = xm::mul(mean, ratio);
  if (w.next_unit<T>() <= xm::div(mean, xm::add(mean, x))) return x;
  return xm::div(xm::mul(mean, mean), x);
}

template <class I = std::int64_t>
struct hypergeometric_sampler {
  using value_type = I;
  static constexpr int per_block = 0;
  std::int64_t ngood, nbad, nsample;
  CUPP_HD I sample(element_words& w) const {
    return static_cast<I>(hypergeometric_from(w, ngood, nbad, nsample));
  }
};

template <class T = double>
struct noncentral_chisquare_sampler {
  using value_type = T;
  static constexpr int per_block = 0;
  T df, nonc;
  CUPP_HD T sample(element_words& w) const { return noncentral_chisquare_from<T>(w, df, nonc); }
};

template <class T = double>
struct noncentral_f_sampler {
  using value_type = T;
  static constexpr int per_block = 0;
  T dfnum, dfden, nonc;
  CUPP_HD T sample(element_words& w) const { return noncentral_f_from<T>(w, dfnum, dfden, nonc); }
};

template <class T = double>
struct vonmises_sampler {
  using value_type = T;
  static constexpr int per_block = 0;
  T mu, kappa;
  CUPP_HD T sample(element_words& w) const { return vonmises_from<T>(w, mu, kappa); }
};

template <class T = double>
struct wald_sampler {
  using value_type = T;
  static constexpr int per_block = 0;
  T mean, scale;
  CUPP_HD T sample(element_words& w) const { return wald_from<T>(w, mean, scale); }
};

// Host-side checks with NumPy's messages, in NumPy's order.
inline void check_hypergeometric(std::int64_t ngood, std::int64_t nbad, std::int64_t nsample) {
  constexpr std::int64_t limit = 1000000000;
  if (ngood >= limit || nbad >= limit)
    throw value_error("both ngood and nbad must be less than 1000000000");
  if (ngood + nbad < nsample) throw value_error("ngood + nbad < nsample");
  if (ngood < 0) throw value_error("ngood < 0");
  if (nbad < 0) throw value_error("nbad < 0");
  if (nsample < 0) throw value_error("nsample < 0");
}
inline void check_noncentral_chisquare(double df, double nonc) {
  if (df <= 0) throw value_error("df <= 0");
  if (nonc < 0) throw value_error("nonc < 0");
}
inline void check_noncentral_f(double dfnum, double dfden, double nonc) {
  if (dfnum <= 0) throw value_error("dfnum <= 0");
  if (dfden <= 0) throw value_error("dfden <= 0");
  if (nonc < 0) throw value_error("nonc < 0");
}
inline void check_vonmises(double kappa) {
  if (kappa < 0) throw value_error("kappa < 0");
}
inline void check_wald(double mean, double scale) {
  if (mean <= 0) throw value_error("mean <= 0");
  if (scale <= 0) throw value_error("scale <= 0");
}

}  // namespace cupp::detail::random
