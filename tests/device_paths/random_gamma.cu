// Device paths of the random rejection samplers, float32 and float64:
// standard_gamma (two shapes, on both sides of 1, and out=), gamma, beta,
// chisquare, f, standard_t, noncentral_chisquare, noncentral_f and
// vonmises, through the Generator, a RandomState (whose draws of these are
// the Generator's) and the module (random_draws.hpp: dtype, shape, range
// and mean of each draw). wald is drawn in random.cu, beside the cuRAND
// form of the legacy API.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/random.hpp>

#include <cmath>
#include <string>

#include "random_draws.hpp"

using device_paths::draw_size;
using device_paths::expect_draw;
using device_paths::expect_draws;
using device_paths::inf;
using device_paths::pi;
namespace rm = cupp::random;

namespace {

template <class T>
void rejection_draws(rm::Generator& g, rm::RandomState& rs) {
  const cupp::shape_t& s = draw_size;
  const std::string t = device_paths::dtype_suffix<T>();
  rm::seed(99);
  expect_draws<T>("standard_gamma(0.5)" + t, 0, inf, 0.5, std::sqrt(0.5),
                  g.standard_gamma<T>(0.5, s), rs.standard_gamma<T>(0.5, s),
                  rm::standard_gamma<T>(0.5, s));
  const cupp::ndarray<T> out = cupp::empty<T>(s);
  g.standard_gamma(2.5, out);
  expect_draw<T>(out, s, 0, inf, 2.5, std::sqrt(2.5), "standard_gamma(2.5) out=" + t);
  expect_draws<T>("gamma(2, 3)" + t, 0, inf, 6, 3 * std::sqrt(2.0), g.gamma<T>(2, 3, s),
                  rs.gamma<T>(2, 3, s), rm::gamma<T>(2, 3, s));
  // beta(2, 5): variance 10 / (49 * 8).
  expect_draws<T>("beta(2, 5)" + t, 0, 1, 2 / 7.0, std::sqrt(10 / 392.0), g.beta<T>(2, 5, s),
                  rs.beta<T>(2, 5, s), rm::beta<T>(2, 5, s));
  expect_draws<T>("chisquare(4)" + t, 0, inf, 4, std::sqrt(8.0), g.chisquare<T>(4, s),
                  rs.chisquare<T>(4, s), rm::chisquare<T>(4, s));
  // f(5, 10): variance 2 * 10^2 * 13 / (5 * 8^2 * 6).
  expect_draws<T>("f(5, 10)" + t, 0, inf, 1.25, std::sqrt(2600 / 1920.0), g.f<T>(5, 10, s),
                  rs.f<T>(5, 10, s), rm::f<T>(5, 10, s));
  expect_draws<T>("standard_t(10)" + t, -inf, inf, 0, std::sqrt(1.25), g.standard_t<T>(10, s),
                  rs.standard_t<T>(10, s), rm::standard_t<T>(10, s));
  // noncentral_chisquare(3, 2): mean k + lambda, variance 2 (k + 2 lambda).
  expect_draws<T>("noncentral_chisquare(3, 2)" + t, 0, inf, 5, std::sqrt(14.0),
                  g.noncentral_chisquare<T>(3, 2, s), rs.noncentral_chisquare<T>(3, 2, s),
                  rm::noncentral_chisquare<T>(3, 2, s));
  // noncentral_f(5, 10, 2): mean 10 * 7 / (5 * 8), variance
  // 2 (10/5)^2 ((5 + 2)^2 + (5 + 4) 8) / (8^2 6).
  expect_draws<T>("noncentral_f(5, 10, 2)" + t, 0, inf, 1.75, std::sqrt(968 / 384.0),
                  g.noncentral_f<T>(5, 10, 2, s), rs.noncentral_f<T>(5, 10, 2, s),
                  rm::noncentral_f<T>(5, 10, 2, s));
  // vonmises(1, 4) on [-pi, pi]: mean and deviation by quadrature.
  const double edge = pi * (1 + 1e-6);
  expect_draws<T>("vonmises(1, 4)" + t, -edge, edge, 0.9963942, 0.5504497, g.vonmises<T>(1, 4, s),
                  rs.vonmises<T>(1, 4, s), rm::vonmises<T>(1, 4, s));
}

}  // namespace

void device_paths_random_gamma() {
  auto g = rm::default_rng(777);
  rm::RandomState rs(777);
  rejection_draws<float>(g, rs);
  rejection_draws<double>(g, rs);
}
