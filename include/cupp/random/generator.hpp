// numpy.random.Generator for device arrays (cupp::random::Generator) and
// host arrays (cupp::host::random::Generator): every draw is a lazy array,
// like cupp::arange, whose element i is a pure function of the generator's
// key, the draw's first counter block and i. It evaluates when assigned to
// an array and fuses into expressions (`x + rng.normal<float>(0, 1,
// x.shape())` is one kernel that never stores the noise). Drawing advances
// the generator at once, so the next draw gives new numbers whether or not
// the previous one was evaluated. The same seed gives the same numbers on
// the device and on the host, bit for bit.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <cupp/space_check.hpp>
#include <cupp/detail/random/draw.hpp>
#include <cupp/detail/random/samplers_basic.hpp>
#include <cupp/detail/random/samplers_discrete.hpp>
#include <cupp/detail/random/samplers_gamma.hpp>
#include <cupp/detail/random/samplers_misc.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/generators.hpp>
#include <cupp/random/bit_generator.hpp>
#include <cupp/random/shuffle.hpp>
#include <cupp/random/vector_draws.hpp>
#include <cupp/shape.hpp>

namespace cupp::random {

namespace detail {

using namespace ::cupp::detail::random;

template <class T>
inline constexpr bool is_real_v = std::is_same_v<T, float> || std::is_same_v<T, double>;

inline void check_non_negative(double v, const char* what) {
  if (v < 0) throw value_error(std::string(what) + " < 0");
}
inline void check_positive(double v, const char* what) {
  if (v <= 0) throw value_error(std::string(what) + " <= 0");
}

// numpy's bounds of integers(low, high, dtype, endpoint): the span of the
// draw (0 meaning all 2^64 values of a 64-bit type).
template <class T>
std::uint64_t integer_span(__int128 low, __int128 high, bool endpoint) {
  const std::string name(::cupp::dtype_of<T>().name);
  const __int128 lo = static_cast<__int128>(std::numeric_limits<T>::lowest());
  const __int128 hi = static_cast<__int128>(std::numeric_limits<T>::max());
  if (low < lo || low > hi) throw value_error("low is out of bounds for " + name);
  const __int128 last = endpoint ? high : high - 1;
  if ((endpoint ? high > hi : high > hi + 1) || high < lo)
    throw value_error("high is out of bounds for " + name);
  if (last < low) throw value_error(endpoint ? "low > high" : "low >= high");
  return static_cast<std::uint64_t>(last - low + 1);  // 2^64 wraps to 0
}

}  // namespace detail

template <class S>
class basic_generator {
 public:
  explicit basic_generator(const philox& bit_generator) : bg_(bit_generator) {}

  philox& bit_generator() { return bg_; }
  const philox& bit_generator() const { return bg_; }

  // numpy.random.Generator.spawn: n generators with independent streams.
  std::vector<basic_generator> spawn(int n_children) {
    std::vector<basic_generator> out;
    for (const philox& child : bg_.spawn(n_children)) out.emplace_back(child);
    return out;
  }

  // --- uniform numbers -------------------------------------------------------

  // random(size, dtype): [0, 1), float64 or float32.
  template <class T = double>
  auto random(const shape_t& size = {}) {
    static_assert(detail::is_real_v<T>,
                  "random: the dtype must be float32 or float64 (NumPy: "
                  "TypeError, Unsupported dtype for random)");
    return uniform_draw<T>(T(0), T(1), size);
  }
  // random(out=): fills out (a C-contiguous array of this generator's space).
  template <class T, class AS>
  void random(const ndarray<T, AS>& out) {
    copyto(out, random<T>(out.shape()));
  }
  template <class T, class AS>
  void random(const shape_t& size, const ndarray<T, AS>& out) {
    check_out(size, out.shape());
    random(out);
  }

  // uniform(low, high, size): low + (high - low) * random().
  template <class T = double>
  auto uniform(double low = 0.0, double high = 1.0, const shape_t& size = {}) {
    static_assert(detail::is_real_v<T>, "uniform: the dtype must be float32 or float64");
    const double range = high - low;
    if (!std::isfinite(range)) throw overflow_error("high - low range exceeds valid bounds");
    if (range < 0) throw value_error("high - low < 0");
    return uniform_draw<T>(static_cast<T>(low), static_cast<T>(range), size);
  }

  // integers(low, high, size, dtype, endpoint): [low, high), or [low, high]
  // with endpoint; integers(high) draws from [0, high).
  template <class T = std::int64_t, std::integral L, std::integral H>
  auto integers(L low, H high, const shape_t& size = {}, bool endpoint = false) {
    static_assert(std::is_integral_v<T>, "integers: the dtype must be an integer type or bool");
    const std::uint64_t span =
        detail::integer_span<T>(static_cast<__int128>(low), static_cast<__int128>(high), endpoint);
    return draw(detail::integers_sampler<T>{static_cast<T>(low), span}, size);
  }
  template <class T = std::int64_t, std::integral H>
  auto integers(H high, const shape_t& size = {}, bool endpoint = false) {
    if (!endpoint && high <= 0) throw value_error("high <= 0");
    return integers<T>(0, high, size, endpoint);
  }

  // bytes(length): length random bytes (a host std::string, as NumPy's
  // bytes object), four per word of the next counter blocks.
  std::string bytes(index_t length) {
    if (length < 0) throw value_error("negative dimensions are not allowed");
    const auto n = static_cast<std::uint64_t>(length);
    const detail::draw_site site = bg_.take((n + 15) / 16);
    std::string out(static_cast<std::size_t>(length), '\0');
    for (std::uint64_t i = 0; i < n; ++i) {
      const detail::words4 b = detail::block_at(site, i / 16);
      out[static_cast<std::size_t>(i)] =
          static_cast<char>((b.w[(i % 16) / 4] >> (8 * (i % 4))) & 0xFFu);
    }
    return out;
  }

  // --- normal and its relatives ------------------------------------------------

  template <class T = double>
  auto standard_normal(const shape_t& size = {}) {
    static_assert(detail::is_real_v<T>, "standard_normal: the dtype must be float32 or float64");
    return normal_draw<T>(detail::standard_normal_fn<T>{}, size);
  }
  template <class T, class AS>
  void standard_normal(const ndarray<T, AS>& out) {
    copyto(out, standard_normal<T>(out.shape()));
  }
  template <class T, class AS>
  void standard_normal(const shape_t& size, const ndarray<T, AS>& out) {
    check_out(size, out.shape());
    standard_normal(out);
  }
  template <class T = double>
  auto normal(double loc = 0.0, double scale = 1.0, const shape_t& size = {}) {
    static_assert(detail::is_real_v<T>, "normal: the dtype must be float32 or float64");
    detail::check_non_negative(scale, "scale");
    return normal_draw<T>(detail::normal_fn<T>{static_cast<T>(loc), static_cast<T>(scale)}, size);
  }
  template <class T = double>
  auto lognormal(double mean = 0.0, double sigma = 1.0, const shape_t& size = {}) {
    detail::check_non_negative(sigma, "sigma");
    return normal_draw<T>(detail::lognormal_fn<T>{static_cast<T>(mean), static_cast<T>(sigma)},
                          size);
  }
  template <class T = double>
  auto standard_cauchy(const shape_t& size = {}) {
    return draw(detail::cauchy_sampler<T>{}, size);
  }

  // --- closed forms of one uniform ---------------------------------------------

  template <class T = double>
  auto standard_exponential(const shape_t& size = {}) {
    static_assert(detail::is_real_v<T>,
                  "standard_exponential: the dtype must be float32 or float64");
    return open_draw<T>(detail::exponential_fn<T>{T(1)}, size);
  }
  template <class T, class AS>
  void standard_exponential(const ndarray<T, AS>& out) {
    copyto(out, standard_exponential<T>(out.shape()));
  }
  template <class T = double>
  auto exponential(double scale = 1.0, const shape_t& size = {}) {
    detail::check_non_negative(scale, "scale");
    return open_draw<T>(detail::exponential_fn<T>{static_cast<T>(scale)}, size);
  }
  template <class T = double>
  auto gumbel(double loc = 0.0, double scale = 1.0, const shape_t& size = {}) {
    detail::check_non_negative(scale, "scale");
    return closed_draw<T>(detail::gumbel_fn<T>{static_cast<T>(loc), static_cast<T>(scale)}, size);
  }
  template <class T = double>
  auto laplace(double loc = 0.0, double scale = 1.0, const shape_t& size = {}) {
    detail::check_non_negative(scale, "scale");
    return open_draw<T>(detail::laplace_fn<T>{static_cast<T>(loc), static_cast<T>(scale)}, size);
  }
  template <class T = double>
  auto logistic(double loc = 0.0, double scale = 1.0, const shape_t& size = {}) {
    detail::check_non_negative(scale, "scale");
    return open_draw<T>(detail::logistic_fn<T>{static_cast<T>(loc), static_cast<T>(scale)}, size);
  }
  template <class T = double>
  auto rayleigh(double scale = 1.0, const shape_t& size = {}) {
    detail::check_non_negative(scale, "scale");
    return open_draw<T>(detail::rayleigh_fn<T>{static_cast<T>(scale)}, size);
  }
  template <class T = double>
  auto weibull(double a, const shape_t& size = {}) {
    detail::check_non_negative(a, "a");
    return open_draw<T>(detail::weibull_fn<T>{static_cast<T>(a)}, size);
  }
  template <class T = double>
  auto pareto(double a, const shape_t& size = {}) {
    detail::check_positive(a, "a");
    return open_draw<T>(detail::pareto_fn<T>{static_cast<T>(a)}, size);
  }
  template <class T = double>
  auto power(double a, const shape_t& size = {}) {
    detail::check_positive(a, "a");
    return open_draw<T>(detail::power_fn<T>{static_cast<T>(a)}, size);
  }
  template <class T = double>
  auto triangular(double left, double mode, double right, const shape_t& size = {}) {
    if (left > mode) throw value_error("left > mode");
    if (mode > right) throw value_error("mode > right");
    if (left == right) throw value_error("left == right");
    return closed_draw<T>(
        detail::triangular_fn<T>{static_cast<T>(left), static_cast<T>(mode), static_cast<T>(right)},
        size);
  }

  // --- rejection samplers ------------------------------------------------------

  template <class T = double>
  auto standard_gamma(double shape, const shape_t& size = {}) {
    static_assert(detail::is_real_v<T>, "standard_gamma: the dtype must be float32 or float64");
    detail::check_standard_gamma(shape);
    return draw(detail::standard_gamma_sampler<T>{static_cast<T>(shape)}, size);
  }
  template <class T, class AS>
  void standard_gamma(double shape, const ndarray<T, AS>& out) {
    copyto(out, standard_gamma<T>(shape, out.shape()));
  }
  template <class T = double>
  auto gamma(double shape, double scale = 1.0, const shape_t& size = {}) {
    detail::check_gamma(shape, scale);
    return draw(detail::gamma_sampler<T>{static_cast<T>(shape), static_cast<T>(scale)}, size);
  }
  template <class T = double>
  auto beta(double a, double b, const shape_t& size = {}) {
    detail::check_beta(a, b);
    return draw(detail::beta_sampler<T>{static_cast<T>(a), static_cast<T>(b)}, size);
  }
  template <class T = double>
  auto chisquare(double df, const shape_t& size = {}) {
    detail::check_chisquare(df);
    return draw(detail::chisquare_sampler<T>{static_cast<T>(df)}, size);
  }
  template <class T = double>
  auto f(double dfnum, double dfden, const shape_t& size = {}) {
    detail::check_f(dfnum, dfden);
    return draw(detail::f_sampler<T>{static_cast<T>(dfnum), static_cast<T>(dfden)}, size);
  }
  template <class T = double>
  auto standard_t(double df, const shape_t& size = {}) {
    detail::check_standard_t(df);
    return draw(detail::standard_t_sampler<T>{static_cast<T>(df)}, size);
  }
  template <class T = double>
  auto noncentral_chisquare(double df, double nonc, const shape_t& size = {}) {
    detail::check_noncentral_chisquare(df, nonc);
    return draw(detail::noncentral_chisquare_sampler<T>{static_cast<T>(df), static_cast<T>(nonc)},
                size);
  }
  template <class T = double>
  auto noncentral_f(double dfnum, double dfden, double nonc, const shape_t& size = {}) {
    detail::check_noncentral_f(dfnum, dfden, nonc);
    return draw(detail::noncentral_f_sampler<T>{static_cast<T>(dfnum), static_cast<T>(dfden),
                                                static_cast<T>(nonc)},
                size);
  }
  template <class T = double>
  auto vonmises(double mu, double kappa, const shape_t& size = {}) {
    detail::check_vonmises(kappa);
    return draw(detail::vonmises_sampler<T>{static_cast<T>(mu), static_cast<T>(kappa)}, size);
  }
  template <class T = double>
  auto wald(double mean, double scale, const shape_t& size = {}) {
    detail::check_wald(mean, scale);
    return draw(detail::wald_sampler<T>{static_cast<T>(mean), static_cast<T>(scale)}, size);
  }
  template <class I = std::int64_t>
  auto poisson(double lam = 1.0, const shape_t& size = {}) {
    detail::check_poisson(lam);
    return draw(detail::make_poisson_sampler<I>(lam), size);
  }
  template <class I = std::int64_t>
  auto binomial(std::int64_t n, double p, const shape_t& size = {}) {
    detail::check_binomial(n, p);
    return draw(detail::make_binomial_sampler<I>(n, p), size);
  }
  template <class I = std::int64_t>
  auto negative_binomial(double n, double p, const shape_t& size = {}) {
    detail::check_negative_binomial(n, p);
    return draw(detail::negative_binomial_sampler<I>{n, p}, size);
  }
  template <class I = std::int64_t>
  auto geometric(double p, const shape_t& size = {}) {
    detail::check_geometric(p);
    return draw(detail::geometric_sampler<I>{p}, size);
  }
  template <class I = std::int64_t>
  auto logseries(double p, const shape_t& size = {}) {
    detail::check_logseries(p);
    return draw(detail::logseries_sampler<I>{p}, size);
  }
  template <class I = std::int64_t>
  auto zipf(double a, const shape_t& size = {}) {
    detail::check_zipf(a);
    return draw(detail::zipf_sampler<I>{a}, size);
  }
  template <class I = std::int64_t>
  auto hypergeometric(std::int64_t ngood, std::int64_t nbad, std::int64_t nsample,
                      const shape_t& size = {}) {
    detail::check_hypergeometric(ngood, nbad, nsample);
    return draw(detail::hypergeometric_sampler<I>{ngood, nbad, nsample}, size);
  }

  // --- permutations and choices ------------------------------------------------

  // permutation(n): 0 .. n-1 in random order (int64), lazy: element i is a
  // keyed bijection of i.
  auto permutation(index_t n) { return detail::permutation<S>(bg_, n); }
  // permutation(x, axis): a copy of x permuted along axis; shuffle: in place.
  template <class T, class AS>
  ndarray<T, AS> permutation(const ndarray<T, AS>& x, index_t axis = 0) {
    return detail::permutation(bg_, x, axis);
  }
  template <class T, class AS>
  void shuffle(const ndarray<T, AS>& x, index_t axis = 0) {
    detail::shuffle(bg_, x, axis);
  }
  // permuted(x, axis, out): every slice along axis shuffled on its own
  // (axis empty: the flattened array).
  template <class T, class AS>
  ndarray<T, AS> permuted(const ndarray<T, AS>& x, std::optional<index_t> axis = {}) {
    return detail::permuted(bg_, x, axis);
  }
  // (out's space is a parameter of its own so that a mix reaches the space
  // check rather than failing deduction.)
  template <class T, class AS, class OS>
  ndarray<T, AS> permuted(const ndarray<T, AS>& x, std::optional<index_t> axis,
                          const ndarray<T, OS>& out) {
    CUPP_SAME_SPACE(ndarray<T, AS>, ndarray<T, OS>);
    return detail::permuted(bg_, x, axis, &out);
  }
  // choice(a, size, replace, p, axis, shuffle): from arange(a) or from the
  // array a along axis; p a std::vector<double> or an array of
  // probabilities. The sample is always in random order (shuffle=False is
  // accepted and changes nothing).
  template <std::integral I>
  auto choice(I a, const shape_t& size = {}, bool replace = true, bool /*shuffle*/ = true) {
    return detail::choice<S>(bg_, static_cast<index_t>(a), size, replace);
  }
  template <std::integral I, class P>
  requires(!std::is_arithmetic_v<P>) auto choice(I a, const shape_t& size, bool replace, const P& p,
                                                 bool /*shuffle*/ = true) {
    CUPP_SAME_SPACE(detail::array_space_for<S>, P);
    const auto probs = detail::to_probabilities(p);
    return detail::choice<S>(bg_, static_cast<index_t>(a), size, replace, &probs);
  }
  template <class T, class AS>
  ndarray<T, AS> choice(const ndarray<T, AS>& a, const shape_t& size = {}, bool replace = true,
                        index_t axis = 0, bool /*shuffle*/ = true) {
    return detail::choice(bg_, a, size, replace, nullptr, axis);
  }
  template <class T, class AS, class P>
  requires(!std::is_arithmetic_v<P>) ndarray<T, AS> choice(const ndarray<T, AS>& a,
                                                           const shape_t& size, bool replace,
                                                           const P& p, index_t axis = 0,
                                                           bool /*shuffle*/ = true) {
    CUPP_SAME_SPACE(ndarray<T, AS>, P);
    const auto probs = detail::to_probabilities(p);
    return detail::choice(bg_, a, size, replace, &probs, axis);
  }

  // --- draws of vectors (rows of size + (k,)) ------------------------------

  template <class T = double>
  auto dirichlet(const std::vector<double>& alpha, const shape_t& size = {}) {
    return detail::dirichlet<T, S>(bg_, alpha, size);
  }
  template <class I = std::int64_t>
  auto multinomial(std::int64_t n, const std::vector<double>& pvals, const shape_t& size = {}) {
    return detail::multinomial<I, S>(bg_, n, pvals, size);
  }
  template <class I = std::int64_t>
  auto multivariate_hypergeometric(const std::vector<std::int64_t>& colors, std::int64_t nsample,
                                   const shape_t& size = {},
                                   std::string_view method = "marginals") {
    return detail::multivariate_hypergeometric<I, S>(bg_, colors, nsample, size, method);
  }
  // Needs <cupp/random/multivariate.hpp> (linear algebra: link cupp::linalg).
  template <class T = double, class M, class C>
  auto multivariate_normal(const M& mean, const C& cov, const shape_t& size = {},
                           std::string_view check_valid = "warn", double tol = 1e-8,
                           std::string_view method = "svd") {
    CUPP_SAME_SPACE(M, C);
    return detail::multivariate_normal_impl<T>::template draw<S>(bg_, mean, cov, size, check_valid,
                                                                 tol, method);
  }

 private:
  // A lazy draw of `size` values of sampler d, taking its counter blocks now.
  template <class D>
  auto draw(const D& d, const shape_t& size) {
    using fn = detail::draw_fn<D>;
    const index_t n = ::cupp::detail::checked_size(size, sizeof(typename D::value_type));
    const detail::draw_site site = bg_.take(fn::blocks_for(static_cast<std::uint64_t>(n)));
    return generator<fn, S>(fn{d, site}, size, {::cupp::detail::contiguous_strides(size, 1)});
  }
  template <class T>
  auto uniform_draw(T low, T range, const shape_t& size) {
    return draw(detail::uniform_map_sampler<T, detail::affine_fn<T>, false>{{low, range}}, size);
  }
  template <class T, class F>
  auto open_draw(const F& f, const shape_t& size) {
    return draw(detail::uniform_map_sampler<T, F, true>{f}, size);
  }
  template <class T, class F>
  auto closed_draw(const F& f, const shape_t& size) {
    return draw(detail::uniform_map_sampler<T, F, false>{f}, size);
  }
  template <class T, class F>
  auto normal_draw(const F& f, const shape_t& size) {
    return draw(detail::normal_map_sampler<T, F>{f}, size);
  }
  static void check_out(const shape_t& size, const shape_t& out) {
    if (!(size == out)) throw value_error("size must match out.shape when used together");
  }
  philox bg_;
};

using Generator = basic_generator<any_space>;

// numpy.random.default_rng(seed): a Generator over philox(seed); without a
// seed, over entropy from the operating system.
inline Generator default_rng(std::uint64_t seed) {
  return Generator(philox(seed));
}
inline Generator default_rng() {
  return Generator(philox::from_entropy());
}

}  // namespace cupp::random

namespace cupp::host::random {

using ::cupp::random::philox;
using ::cupp::random::philox_state;
using Generator = ::cupp::random::basic_generator<host_space>;

inline Generator default_rng(std::uint64_t seed) {
  return Generator(philox(seed));
}
inline Generator default_rng() {
  return Generator(philox::from_entropy());
}

}  // namespace cupp::host::random
