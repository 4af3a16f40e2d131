// The functions of cupy.random's module, as a macro expanded in
// cupp::random (device arrays) and cupp::host::random (host arrays), where
// each forwards to the same-named member of that namespace's
// get_random_state(). Written out with their parameters, rather than as
// forwarding templates, so that a size may be a braced list:
// randint(0, 10, {5}). Only <cupp/random/legacy.hpp> includes this header,
// and it undefines both macros.
#pragma once

#define CUPP_LEGACY_MODULE_FUNCTION(default_type, name, params, args) \
  template <class T = default_type>                                   \
  auto name params {                                                  \
    return get_random_state().template name<T> args;                  \
  }
#define CUPP_LEGACY_MODULE_FUNCTIONS                                                               \
  template <class T = double, std::integral... D>                                                  \
  auto rand(D... dims) {                                                                           \
    return get_random_state().template rand<T>(dims...);                                           \
  }                                                                                                \
  template <class T = double, std::integral... D>                                                  \
  auto randn(D... dims) {                                                                          \
    return get_random_state().template randn<T>(dims...);                                          \
  }                                                                                                \
  template <class T = std::int64_t, std::integral L, std::integral H>                              \
  auto randint(L low, H high, const shape_t& size = {}) {                                          \
    return get_random_state().template randint<T>(low, high, size);                                \
  }                                                                                                \
  template <class T = std::int64_t, std::integral H>                                               \
  auto randint(H high, const shape_t& size = {}) {                                                 \
    return get_random_state().template randint<T>(high, size);                                     \
  }                                                                                                \
  template <class T = std::int64_t, std::integral L, std::integral H>                              \
  auto random_integers(L low, H high, const shape_t& size = {}) {                                  \
    return get_random_state().template random_integers<T>(low, high, size);                        \
  }                                                                                                \
  template <class T = std::int64_t, std::integral H>                                               \
  auto random_integers(H high, const shape_t& size = {}) {                                         \
    return get_random_state().template random_integers<T>(high, size);                             \
  }                                                                                                \
  CUPP_LEGACY_MODULE_FUNCTION(double, random_sample, (const shape_t& size = {}), (size))           \
  CUPP_LEGACY_MODULE_FUNCTION(double, random, (const shape_t& size = {}), (size))                  \
  CUPP_LEGACY_MODULE_FUNCTION(double, ranf, (const shape_t& size = {}), (size))                    \
  CUPP_LEGACY_MODULE_FUNCTION(double, sample, (const shape_t& size = {}), (size))                  \
  CUPP_LEGACY_MODULE_FUNCTION(double, standard_normal, (const shape_t& size = {}), (size))         \
  CUPP_LEGACY_MODULE_FUNCTION(double, standard_exponential, (const shape_t& size = {}), (size))    \
  CUPP_LEGACY_MODULE_FUNCTION(double, standard_cauchy, (const shape_t& size = {}), (size))         \
  CUPP_LEGACY_MODULE_FUNCTION(double, uniform,                                                     \
                              (double low = 0.0, double high = 1.0, const shape_t& size = {}),     \
                              (low, high, size))                                                   \
  CUPP_LEGACY_MODULE_FUNCTION(double, normal,                                                      \
                              (double loc = 0.0, double scale = 1.0, const shape_t& size = {}),    \
                              (loc, scale, size))                                                  \
  CUPP_LEGACY_MODULE_FUNCTION(double, lognormal,                                                   \
                              (double mean = 0.0, double sigma = 1.0, const shape_t& size = {}),   \
                              (mean, sigma, size))                                                 \
  CUPP_LEGACY_MODULE_FUNCTION(double, exponential, (double scale = 1.0, const shape_t& size = {}), \
                              (scale, size))                                                       \
  CUPP_LEGACY_MODULE_FUNCTION(std::int64_t, poisson, (double lam = 1.0, const shape_t& size = {}), \
                              (lam, size))                                                         \
  CUPP_LEGACY_MODULE_FUNCTION(double, rayleigh, (double scale = 1.0, const shape_t& size = {}),    \
                              (scale, size))                                                       \
  CUPP_LEGACY_MODULE_FUNCTION(double, pareto, (double a, const shape_t& size = {}), (a, size))     \
  CUPP_LEGACY_MODULE_FUNCTION(double, laplace,                                                     \
                              (double loc = 0.0, double scale = 1.0, const shape_t& size = {}),    \
                              (loc, scale, size))                                                  \
  CUPP_LEGACY_MODULE_FUNCTION(double, weibull, (double a, const shape_t& size = {}), (a, size))    \
  CUPP_LEGACY_MODULE_FUNCTION(double, power, (double a, const shape_t& size = {}), (a, size))      \
  CUPP_LEGACY_MODULE_FUNCTION(double, triangular,                                                  \
                              (double left, double mode, double right, const shape_t& size = {}),  \
                              (left, mode, right, size))                                           \
  CUPP_LEGACY_MODULE_FUNCTION(double, wald, (double mean, double scale, const shape_t& size = {}), \
                              (mean, scale, size))                                                 \
  CUPP_LEGACY_MODULE_FUNCTION(double, beta, (double a, double b, const shape_t& size = {}),        \
                              (a, b, size))                                                        \
  CUPP_LEGACY_MODULE_FUNCTION(double, chisquare, (double df, const shape_t& size = {}),            \
                              (df, size))                                                          \
  CUPP_LEGACY_MODULE_FUNCTION(double, f, (double dfnum, double dfden, const shape_t& size = {}),   \
                              (dfnum, dfden, size))                                                \
  CUPP_LEGACY_MODULE_FUNCTION(double, gamma,                                                       \
                              (double shape, double scale = 1.0, const shape_t& size = {}),        \
                              (shape, scale, size))                                                \
  CUPP_LEGACY_MODULE_FUNCTION(double, gumbel,                                                      \
                              (double loc = 0.0, double scale = 1.0, const shape_t& size = {}),    \
                              (loc, scale, size))                                                  \
  CUPP_LEGACY_MODULE_FUNCTION(double, logistic,                                                    \
                              (double loc = 0.0, double scale = 1.0, const shape_t& size = {}),    \
                              (loc, scale, size))                                                  \
  CUPP_LEGACY_MODULE_FUNCTION(double, noncentral_chisquare,                                        \
                              (double df, double nonc, const shape_t& size = {}),                  \
                              (df, nonc, size))                                                    \
  CUPP_LEGACY_MODULE_FUNCTION(double, noncentral_f,                                                \
                              (double dfnum, double dfden, double nonc, const shape_t& size = {}), \
                              (dfnum, dfden, nonc, size))                                          \
  CUPP_LEGACY_MODULE_FUNCTION(double, standard_gamma, (double shape, const shape_t& size = {}),    \
                              (shape, size))                                                       \
  CUPP_LEGACY_MODULE_FUNCTION(double, standard_t, (double df, const shape_t& size = {}),           \
                              (df, size))                                                          \
  CUPP_LEGACY_MODULE_FUNCTION(                                                                     \
      double, vonmises, (double mu, double kappa, const shape_t& size = {}), (mu, kappa, size))    \
  CUPP_LEGACY_MODULE_FUNCTION(std::int64_t, binomial,                                              \
                              (std::int64_t n, double p, const shape_t& size = {}), (n, p, size))  \
  CUPP_LEGACY_MODULE_FUNCTION(std::int64_t, geometric, (double p, const shape_t& size = {}),       \
                              (p, size))                                                           \
  CUPP_LEGACY_MODULE_FUNCTION(                                                                     \
      std::int64_t, hypergeometric,                                                                \
      (std::int64_t ngood, std::int64_t nbad, std::int64_t nsample, const shape_t& size = {}),     \
      (ngood, nbad, nsample, size))                                                                \
  CUPP_LEGACY_MODULE_FUNCTION(std::int64_t, logseries, (double p, const shape_t& size = {}),       \
                              (p, size))                                                           \
  CUPP_LEGACY_MODULE_FUNCTION(std::int64_t, negative_binomial,                                     \
                              (double n, double p, const shape_t& size = {}), (n, p, size))        \
  CUPP_LEGACY_MODULE_FUNCTION(std::int64_t, zipf, (double a, const shape_t& size = {}), (a, size)) \
  template <std::integral N> /* a template: a .cpp may include this and not launch kernels */     \
  auto permutation(N n) {                                                                          \
    return get_random_state().permutation(static_cast<index_t>(n));                                \
  }                                                                                                \
  template <class T, class AS>                                                                     \
  auto permutation(const ::cupp::ndarray<T, AS>& x) {                                              \
    return get_random_state().permutation(x);                                                      \
  }                                                                                                \
  template <class T, class AS>                                                                     \
  void shuffle(const ::cupp::ndarray<T, AS>& x) {                                                  \
    get_random_state().shuffle(x);                                                                 \
  }                                                                                                \
  template <std::integral I>                                                                       \
  auto choice(I a, const shape_t& size = {}, bool replace = true) {                                \
    return get_random_state().choice(a, size, replace);                                            \
  }                                                                                                \
  template <std::integral I, class P>                                                              \
  requires(!std::is_arithmetic_v<P>) auto choice(I a, const shape_t& size, bool replace,           \
                                                 const P& p) {                                     \
    return get_random_state().choice(a, size, replace, p);                                         \
  }                                                                                                \
  template <class T, class AS>                                                                     \
  auto choice(const ::cupp::ndarray<T, AS>& a, const shape_t& size = {}, bool replace = true) {    \
    return get_random_state().choice(a, size, replace);                                            \
  }                                                                                                \
  template <class T = double>                                                                      \
  auto dirichlet(const std::vector<double>& alpha, const shape_t& size = {}) {                     \
    return get_random_state().template dirichlet<T>(alpha, size);                                  \
  }                                                                                                \
  template <class I = std::int64_t>                                                                \
  auto multinomial(std::int64_t n, const std::vector<double>& pvals, const shape_t& size = {}) {   \
    return get_random_state().template multinomial<I>(n, pvals, size);                             \
  }
