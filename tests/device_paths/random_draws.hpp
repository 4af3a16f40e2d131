// What the random units share (random*.cu): the check of a draw, and the
// families of draws they call on float32 in one unit and float64 in
// another, each through the three ways a program draws them: a
// Generator's lazy draw, a RandomState's array (cuRAND's XORWOW where the
// legacy API draws from cuRAND) and the module's function (the device's
// RandomState). Calling them in one unit for one dtype compiles each
// sampler's kernel once: the RandomState's philox draws and the module's
// functions are the Generator's kernels.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <cupp/creation.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/random.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/comparison.hpp>

#include "checks.hpp"

namespace device_paths {

inline constexpr double inf = std::numeric_limits<double>::infinity();
inline const double pi = std::acos(-1.0);
// Every draw has this shape: 4096 values.
inline const cupp::shape_t draw_size{64, 64};

// The array has shape `shape`, every value in [lo, hi], and a sample mean
// within six standard errors of `mean` (`sd` is the distribution's
// standard deviation): a correct sampler misses it about once in 10^9
// draws, and the seeds are fixed.
template <class T>
void expect_sample(const cupp::ndarray<T>& a, const cupp::shape_t& shape, double lo, double hi,
                   double mean, double sd, const std::string& what) {
  if (!(a.shape() == shape)) fail(what + ": shape " + cupp::detail::np_shape(a.shape()));
  const std::vector<T> v = a.to_vector();
  double sum = 0;
  for (const T x : v) {
    const double d = static_cast<double>(x);
    if (!(d >= lo && d <= hi)) {
      std::ostringstream os;
      os.precision(17);
      os << what << ": " << d << " is outside [" << lo << ", " << hi << "]";
      fail(os.str());
    }
    sum += d;
  }
  if (v.empty()) return;
  const double n = static_cast<double>(v.size());
  expect_near(sum / n, mean, what + " (mean)", 0.0, 6 * sd / std::sqrt(n));
}

// The same of a draw, lazy or an array, whose dtype must be T.
template <class T, class A>
void expect_draw(const A& draw, const cupp::shape_t& shape, double lo, double hi, double mean,
                 double sd, const std::string& what) {
  static_assert(std::is_same_v<typename A::value_type, T>, "the draw's dtype");
  expect_sample<T>(cupp::ndarray<T>(draw), shape, lo, hi, mean, sd, what);
}

// The same check of draws of one distribution through several APIs, each
// of shape draw_size.
template <class T, class... A>
void expect_draws(const std::string& what, double lo, double hi, double mean, double sd,
                  const A&... draws) {
  static_assert((std::is_same_v<typename A::value_type, T> && ...), "the draws' dtype");
  const cupp::ndarray<T> arrays[] = {cupp::ndarray<T>(draws)...};
  int k = 0;
  for (const auto& a : arrays)
    expect_sample<T>(a, draw_size, lo, hi, mean, sd, what + " #" + std::to_string(k++));
}

template <class T>
std::string dtype_suffix() {
  return " " + std::string(cupp::dtype_of<T>().name);
}

// Uniform numbers, normals and their closed forms. `rs` draws from cuRAND,
// `ph` is a RandomState over philox; the module's state is seeded here.
template <class T>
void continuous_draws(cupp::random::Generator& g, cupp::random::RandomState& rs,
                      cupp::random::RandomState& ph) {
  namespace rm = cupp::random;
  const cupp::shape_t& s = draw_size;
  const std::string t = dtype_suffix<T>();
  rm::seed(20261129);
  const double u_sd = std::sqrt(1 / 12.0);
  expect_draws<T>("random" + t, 0, 1, 0.5, u_sd, g.random<T>(s), rs.random_sample<T>(s),
                  rs.random<T>(s), rs.ranf<T>(s), rs.sample<T>(s), rs.rand<T>(64, 64),
                  ph.random_sample<T>(s), rm::random_sample<T>(s), rm::random<T>(s), rm::ranf<T>(s),
                  rm::sample<T>(s), rm::rand<T>(64, 64));
  const cupp::ndarray<T> out = cupp::empty<T>(s);
  g.random(out);
  expect_draw<T>(out, s, 0, 1, 0.5, u_sd, "random out=" + t);
  g.random(s, out);
  expect_draw<T>(out, s, 0, 1, 0.5, u_sd, "random size, out=" + t);
  expect_draws<T>("uniform" + t, -2, 3, 0.5, 5 * u_sd, g.uniform<T>(-2, 3, s),
                  rs.uniform<T>(-2, 3, s), rm::uniform<T>(-2, 3, s));

  expect_draws<T>("standard_normal" + t, -inf, inf, 0, 1, g.standard_normal<T>(s),
                  rs.standard_normal<T>(s), rs.randn<T>(64, 64), ph.standard_normal<T>(s),
                  rm::standard_normal<T>(s), rm::randn<T>(64, 64));
  g.standard_normal(out);
  expect_draw<T>(out, s, -inf, inf, 0, 1, "standard_normal out=" + t);
  g.standard_normal(s, out);
  expect_draw<T>(out, s, -inf, inf, 0, 1, "standard_normal size, out=" + t);
  expect_draws<T>("normal" + t, -inf, inf, 2, 3, g.normal<T>(2, 3, s), rs.normal<T>(2, 3, s),
                  rm::normal<T>(2, 3, s));
  // lognormal(0, 0.5)
  const double s2 = 0.25, ln_sd = std::sqrt((std::exp(s2) - 1) * std::exp(s2));
  expect_draws<T>("lognormal" + t, 0, inf, std::exp(s2 / 2), ln_sd, g.lognormal<T>(0, 0.5, s),
                  rs.lognormal<T>(0, 0.5, s), ph.lognormal<T>(0, 0.5, s),
                  rm::lognormal<T>(0, 0.5, s));
  // Cauchy has no mean: half of it is negative.
  expect_draws<bool>("standard_cauchy < 0" + t, 0, 1, 0.5, 0.5,
                     cupp::ndarray<T>(g.standard_cauchy<T>(s)) < T(0),
                     rs.standard_cauchy<T>(s) < T(0), rm::standard_cauchy<T>(s) < T(0));

  expect_draws<T>("standard_exponential" + t, 0, inf, 1, 1, g.standard_exponential<T>(s),
                  rs.standard_exponential<T>(s), ph.standard_exponential<T>(s),
                  rm::standard_exponential<T>(s));
  g.standard_exponential(out);
  expect_draw<T>(out, s, 0, inf, 1, 1, "standard_exponential out=" + t);
  expect_draws<T>("exponential" + t, 0, inf, 2, 2, g.exponential<T>(2, s), rs.exponential<T>(2, s),
                  rm::exponential<T>(2, s));
  const double euler = 0.5772156649015329;
  expect_draws<T>("gumbel" + t, -inf, inf, 1 + 2 * euler, 2 * pi / std::sqrt(6.0),
                  g.gumbel<T>(1, 2, s), rs.gumbel<T>(1, 2, s), rm::gumbel<T>(1, 2, s));
  expect_draws<T>("laplace" + t, -inf, inf, 1, 2 * std::sqrt(2.0), g.laplace<T>(1, 2, s),
                  rs.laplace<T>(1, 2, s), rm::laplace<T>(1, 2, s));
  expect_draws<T>("logistic" + t, -inf, inf, 1, 2 * pi / std::sqrt(3.0), g.logistic<T>(1, 2, s),
                  rs.logistic<T>(1, 2, s), rm::logistic<T>(1, 2, s));
  expect_draws<T>("rayleigh" + t, 0, inf, 2 * std::sqrt(pi / 2), 2 * std::sqrt(2 - pi / 2),
                  g.rayleigh<T>(2, s), rs.rayleigh<T>(2, s), rm::rayleigh<T>(2, s));
  // weibull(2): mean gamma(1.5), variance 1 - gamma(1.5)^2; weibull(0) is 0.
  const double g15 = std::tgamma(1.5);
  expect_draws<T>("weibull" + t, 0, inf, g15, std::sqrt(1 - g15 * g15), g.weibull<T>(2, s),
                  rs.weibull<T>(2, s), rm::weibull<T>(2, s));
  expect_draws<T>("weibull(0)" + t, 0, 0, 0, 0, rs.weibull<T>(0, s));
  // pareto(5) is NumPy's Lomax: mean 1/4, variance 5/48.
  expect_draws<T>("pareto" + t, 0, inf, 0.25, std::sqrt(5 / 48.0), g.pareto<T>(5, s),
                  rs.pareto<T>(5, s), rm::pareto<T>(5, s));
  expect_draws<T>("power" + t, 0, 1, 0.75, std::sqrt(3 / 80.0), g.power<T>(3, s), rs.power<T>(3, s),
                  rm::power<T>(3, s));
  // triangular(-1, 0, 3): mean 2/3, variance 13/18.
  expect_draws<T>("triangular" + t, -1, 3, 2 / 3.0, std::sqrt(13 / 18.0),
                  g.triangular<T>(-1, 0, 3, s), rs.triangular<T>(-1, 0, 3, s),
                  rm::triangular<T>(-1, 0, 3, s));
  // wald(2, 3): variance 2^3 / 3. Positive, but the legacy formula
  // subtracts nearly equal numbers where a draw is near 0, so a rounding
  // below it is allowed.
  expect_draws<T>("wald" + t, -1e-4, inf, 2, std::sqrt(8 / 3.0), g.wald<T>(2, 3, s),
                  rs.wald<T>(2, 3, s), rm::wald<T>(2, 3, s));

  // Fused into an expression: the noise is never stored.
  const cupp::ndarray<T> base = cupp::full<T>(s, T(10));
  expect_draw<T>(base + g.normal<T>(0, 1, s), s, -inf, inf, 10, 1, "x + normal" + t);
}

}  // namespace device_paths
