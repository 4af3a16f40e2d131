// Goodness of fit of every distribution of the Generator API: for each
// record of tests/fixtures/random/gof.txt (tests/generate_random_fixtures.py:
// distribution, parameters, dtype, seed, sample size, bins with SciPy's
// exact probabilities), draw the sample with the record's seed and check
// the chi-square statistic, the mean and variance, and the bounds
// (tests/support/random_stats.hpp). The thresholds make a correct
// generator fail a run less than once in 10^4; the seeds are fixed, so a
// run is reproducible.
//
// Built twice: for host arrays (cupp::host::random), and with
// CUPP_TEST_DEVICE=1 for device arrays (cupp::random), whose draws come
// back through asnumpy. The host and the device give the same numbers for
// the same seed, so both builds judge the same samples.
#include <cupp/creation.hpp>
#include <cupp/random.hpp>

#include <cstdint>
#include <random>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "random_stats.hpp"

#if CUPP_TEST_DEVICE
namespace rnd = cupp::random;
#else
namespace rnd = cupp::host::random;
#endif

using random_stats::record;

namespace {

// A draw (a lazy expression or an array) as a host array.
template <class E>
auto on_host(E&& draw) {
  using T = typename std::decay_t<E>::value_type;
#if CUPP_TEST_DEVICE
  cupp::ndarray<T> d = std::forward<E>(draw);
  return cupp::asnumpy(d);
#else
  cupp::host::ndarray<T> h = std::forward<E>(draw);
  return h;
#endif
}

// Checks every record of `method` whose dtype is T's: draw(rng, record,
// shape) makes the sample with a generator seeded with the record's seed.
template <class T, class Draw>
void check_records(std::string_view method, Draw draw) {
  const auto name = std::string(cupp::dtype_of<T>().name);
  const auto records = random_stats::records_of(method, name);
  BOOST_TEST_REQUIRE(!records.empty(), "no fixture records for " << method << " " << name);
  for (const record* r : records) {
    BOOST_TEST_CONTEXT(r->describe()) {
      auto rng = rnd::default_rng(r->seed);
      const auto sample = on_host(draw(rng, *r, cupp::shape_t{r->n}));
      static_assert(std::is_same_v<typename decltype(sample)::value_type, T>);
      random_stats::check_sample(*r, sample.data(), static_cast<std::size_t>(sample.size()));
    }
  }
}

// Distributions of one or more double parameters, in NumPy's order.
template <class T = double, class Method>
void check_double_args(std::string_view method, Method call) {
  check_records<T>(
      method, [&](auto& rng, const record& r, cupp::shape_t shape) { return call(rng, r, shape); });
}

template <class T>
void check_integers() {
  check_records<T>("integers", [](auto& rng, const record& r, cupp::shape_t shape) {
    return rng.template integers<T>(r.int_arg<T>(0), r.int_arg<T>(1), shape, r.bool_arg(2));
  });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gof)

BOOST_AUTO_TEST_CASE(random) {
  check_records<float>("random", [](auto& rng, const record&, cupp::shape_t s) {
    return rng.template random<float>(s);
  });
  check_records<double>("random", [](auto& rng, const record&, cupp::shape_t s) {
    return rng.template random<double>(s);
  });
}

BOOST_AUTO_TEST_CASE(uniform) {
  check_double_args("uniform", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.uniform(r.arg(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(standard_normal) {
  check_records<float>("standard_normal", [](auto& rng, const record&, cupp::shape_t s) {
    return rng.template standard_normal<float>(s);
  });
  check_records<double>("standard_normal", [](auto& rng, const record&, cupp::shape_t s) {
    return rng.template standard_normal<double>(s);
  });
}

BOOST_AUTO_TEST_CASE(normal) {
  check_double_args("normal", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.normal(r.arg(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(integers) {
  check_integers<std::int8_t>();
  check_integers<std::int16_t>();
  check_integers<std::int32_t>();
  check_integers<std::int64_t>();
  check_integers<std::uint8_t>();
  check_integers<std::uint16_t>();
  check_integers<std::uint32_t>();
  check_integers<std::uint64_t>();
}

BOOST_AUTO_TEST_CASE(standard_exponential) {
  check_records<float>("standard_exponential", [](auto& rng, const record&, cupp::shape_t s) {
    return rng.template standard_exponential<float>(s);
  });
  check_records<double>("standard_exponential", [](auto& rng, const record&, cupp::shape_t s) {
    return rng.template standard_exponential<double>(s);
  });
}

BOOST_AUTO_TEST_CASE(exponential) {
  check_double_args("exponential", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.exponential(r.arg(0), s);
  });
}

BOOST_AUTO_TEST_CASE(standard_gamma) {
  check_records<float>("standard_gamma", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.template standard_gamma<float>(r.arg(0), s);
  });
  check_records<double>("standard_gamma", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.template standard_gamma<double>(r.arg(0), s);
  });
}

BOOST_AUTO_TEST_CASE(gamma) {
  check_double_args("gamma", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.gamma(r.arg(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(beta) {
  check_double_args("beta", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.beta(r.arg(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(binomial) {
  check_records<std::int64_t>("binomial", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.binomial(r.int_arg<std::int64_t>(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(chisquare) {
  check_double_args("chisquare", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.chisquare(r.arg(0), s);
  });
}

BOOST_AUTO_TEST_CASE(f) {
  check_double_args("f", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.f(r.arg(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(geometric) {
  check_records<std::int64_t>("geometric", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.geometric(r.arg(0), s);
  });
}

BOOST_AUTO_TEST_CASE(gumbel) {
  check_double_args("gumbel", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.gumbel(r.arg(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(hypergeometric) {
  check_records<std::int64_t>("hypergeometric", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.hypergeometric(r.int_arg<std::int64_t>(0), r.int_arg<std::int64_t>(1),
                              r.int_arg<std::int64_t>(2), s);
  });
}

BOOST_AUTO_TEST_CASE(laplace) {
  check_double_args("laplace", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.laplace(r.arg(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(logistic) {
  check_double_args("logistic", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.logistic(r.arg(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(lognormal) {
  check_double_args("lognormal", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.lognormal(r.arg(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(logseries) {
  check_records<std::int64_t>("logseries", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.logseries(r.arg(0), s);
  });
}

BOOST_AUTO_TEST_CASE(negative_binomial) {
  check_records<std::int64_t>("negative_binomial", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.negative_binomial(r.arg(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(noncentral_chisquare) {
  check_double_args("noncentral_chisquare", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.noncentral_chisquare(r.arg(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(noncentral_f) {
  check_double_args("noncentral_f", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.noncentral_f(r.arg(0), r.arg(1), r.arg(2), s);
  });
}

BOOST_AUTO_TEST_CASE(pareto) {
  check_double_args("pareto", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.pareto(r.arg(0), s);
  });
}

BOOST_AUTO_TEST_CASE(poisson) {
  check_records<std::int64_t>("poisson", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.poisson(r.arg(0), s);
  });
}

BOOST_AUTO_TEST_CASE(power) {
  check_double_args(
      "power", [](auto& rng, const record& r, cupp::shape_t s) { return rng.power(r.arg(0), s); });
}

BOOST_AUTO_TEST_CASE(rayleigh) {
  check_double_args("rayleigh", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.rayleigh(r.arg(0), s);
  });
}

BOOST_AUTO_TEST_CASE(standard_cauchy) {
  check_double_args("standard_cauchy", [](auto& rng, const record&, cupp::shape_t s) {
    return rng.standard_cauchy(s);
  });
}

BOOST_AUTO_TEST_CASE(standard_t) {
  check_double_args("standard_t", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.standard_t(r.arg(0), s);
  });
}

BOOST_AUTO_TEST_CASE(triangular) {
  check_double_args("triangular", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.triangular(r.arg(0), r.arg(1), r.arg(2), s);
  });
}

BOOST_AUTO_TEST_CASE(vonmises) {
  check_double_args("vonmises", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.vonmises(r.arg(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(wald) {
  check_double_args("wald", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.wald(r.arg(0), r.arg(1), s);
  });
}

BOOST_AUTO_TEST_CASE(weibull) {
  check_double_args("weibull", [](auto& rng, const record& r, cupp::shape_t s) {
    return rng.weibull(r.arg(0), s);
  });
}

BOOST_AUTO_TEST_CASE(zipf) {
  check_records<std::int64_t>(
      "zipf", [](auto& rng, const record& r, cupp::shape_t s) { return rng.zipf(r.arg(0), s); });
}

// The checks themselves can fail: the standard library's generators pass
// the records they match and fail ones a little off (a 2% scale or shape, a 2%
// rate, a biased modulo), so a pass above means something.
BOOST_AUTO_TEST_CASE(harness_detects_wrong_distributions) {
  const auto one = [](std::string_view method, std::string_view dtype,
                      std::string_view args) -> const record& {
    for (const record* r : random_stats::records_of(method, dtype)) {
      std::string joined;
      for (const auto& a : r->args) joined += (joined.empty() ? "" : " ") + a;
      if (joined == args) return *r;
    }
    BOOST_FAIL("no record " << method << " " << args);
    throw;
  };
  std::mt19937_64 engine(20261126);
  const auto passes = [](const record& r, const auto& x) {
    const auto chi = random_stats::chi_square(r, x.data(), x.size());
    return chi.passed();
  };

  const record& normal = one("normal", "float64", "3.0 0.5");
  const auto normal_sample = [&](double scale) {
    std::normal_distribution<double> d(3.0, scale);
    std::vector<double> x(static_cast<std::size_t>(normal.n));
    for (auto& v : x) v = d(engine);
    return x;
  };
  BOOST_TEST(passes(normal, normal_sample(0.5)));
  BOOST_TEST(!passes(normal, normal_sample(0.51)));

  const record& poisson = one("poisson", "int64", "25.0");
  const auto poisson_sample = [&](double lam) {
    std::poisson_distribution<std::int64_t> d(lam);
    std::vector<std::int64_t> x(static_cast<std::size_t>(poisson.n));
    for (auto& v : x) v = d(engine);
    return x;
  };
  BOOST_TEST(passes(poisson, poisson_sample(25.0)));
  BOOST_TEST(!passes(poisson, poisson_sample(25.5)));

  const record& gamma = one("standard_gamma", "float64", "0.5");
  const auto gamma_sample = [&](double shape) {
    std::gamma_distribution<double> d(shape);
    std::vector<double> x(static_cast<std::size_t>(gamma.n));
    for (auto& v : x) v = d(engine);
    return x;
  };
  BOOST_TEST(passes(gamma, gamma_sample(0.5)));
  BOOST_TEST(!passes(gamma, gamma_sample(0.51)));

  // integers(0, 3 * 2^62) by a plain modulo of 64 random bits: the lowest
  // 2^62 values come twice as often.
  const record& wide = one("integers", "uint64", "0 13835058055282163712 false");
  std::vector<std::uint64_t> biased(static_cast<std::size_t>(wide.n)), fair(biased.size());
  std::uniform_int_distribution<std::uint64_t> fair_dist(0, 3 * (std::uint64_t{1} << 62) - 1);
  for (auto& v : biased) v = engine() % (3 * (std::uint64_t{1} << 62));
  for (auto& v : fair) v = fair_dist(engine);
  BOOST_TEST(passes(wide, fair));
  BOOST_TEST(!passes(wide, biased));

  // Moments and bounds on a sample off by a little.
  const auto s = random_stats::summarize(normal, normal_sample(0.5).data(),
                                         static_cast<std::size_t>(normal.n));
  BOOST_TEST(random_stats::mean_deviation(normal, s, normal.n) <= normal.z);
  BOOST_TEST(random_stats::var_deviation(normal, s, normal.n) <= normal.z);
  auto shifted = normal_sample(0.5);
  for (auto& v : shifted) v += 0.005;
  const auto t = random_stats::summarize(normal, shifted.data(), shifted.size());
  BOOST_TEST(random_stats::mean_deviation(normal, t, normal.n) > normal.z);
  const record& beta = one("beta", "float64", "2.0 5.0");
  std::vector<double> outside(static_cast<std::size_t>(beta.n), 0.5);
  outside[7] = 1.0000000000000002;
  BOOST_TEST(random_stats::summarize(beta, outside.data(), outside.size()).out_of_bounds == 1);
}

BOOST_AUTO_TEST_SUITE_END()
