// Device paths of the random discrete samplers, int64 (the default) and
// int32: poisson (cuRAND's for a RandomState, philox's for a Generator),
// binomial, negative_binomial, geometric, logseries, zipf and
// hypergeometric, through the Generator, a RandomState and the module
// (random_draws.hpp: dtype, shape, range and mean of each draw).
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/random.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#include "random_draws.hpp"

using device_paths::draw_size;
using device_paths::expect_draws;
using device_paths::inf;
namespace rm = cupp::random;

namespace {

// `ph` is a RandomState over philox.
template <class I>
void discrete_draws(rm::Generator& g, rm::RandomState& rs, rm::RandomState& ph) {
  const cupp::shape_t& s = draw_size;
  const std::string t = device_paths::dtype_suffix<I>();
  rm::seed(31);
  expect_draws<I>("poisson(3)" + t, 0, inf, 3, std::sqrt(3.0), g.poisson<I>(3, s),
                  rs.poisson<I>(3, s), ph.poisson<I>(3, s), rm::poisson<I>(3, s));
  expect_draws<I>("poisson(0)" + t, 0, 0, 0, 0, rs.poisson<I>(0, s));
  expect_draws<I>("binomial(10, 0.3)" + t, 0, 10, 3, std::sqrt(2.1), g.binomial<I>(10, 0.3, s),
                  rs.binomial<I>(10, 0.3, s), rm::binomial<I>(10, 0.3, s));
  // negative_binomial(5, 0.5): mean n (1 - p) / p, variance n (1 - p) / p^2.
  expect_draws<I>("negative_binomial(5, 0.5)" + t, 0, inf, 5, std::sqrt(10.0),
                  g.negative_binomial<I>(5, 0.5, s), rs.negative_binomial<I>(5, 0.5, s),
                  rm::negative_binomial<I>(5, 0.5, s));
  expect_draws<I>("geometric(0.25)" + t, 1, inf, 4, std::sqrt(12.0), g.geometric<I>(0.25, s),
                  rs.geometric<I>(0.25, s), rm::geometric<I>(0.25, s));
  // logseries(0.6) and zipf(4): mean and deviation from their series.
  expect_draws<I>("logseries(0.6)" + t, 1, inf, 1.6370350, 1.1885722, g.logseries<I>(0.6, s),
                  rs.logseries<I>(0.6, s), rm::logseries<I>(0.6, s));
  expect_draws<I>("zipf(4)" + t, 1, inf, 1.1106265, 0.5350944, g.zipf<I>(4, s), rs.zipf<I>(4, s),
                  rm::zipf<I>(4, s));
  // hypergeometric(10, 20, 6): mean 6 * 10 / 30.
  expect_draws<I>("hypergeometric(10, 20, 6)" + t, 0, 6, 2, 1.0504515,
                  g.hypergeometric<I>(10, 20, 6, s), rs.hypergeometric<I>(10, 20, 6, s),
                  rm::hypergeometric<I>(10, 20, 6, s));
}

}  // namespace

void device_paths_random_discrete() {
  auto g = rm::default_rng(2718);
  rm::RandomState rs(2718), ph(2718, rm::rng_method::philox);
  discrete_draws<std::int64_t>(g, rs, ph);
  discrete_draws<std::int32_t>(g, rs, ph);
}
