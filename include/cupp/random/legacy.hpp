// CuPy's legacy random API (cupy.random.RandomState and the module's
// functions) for device arrays (cupp::random) and host arrays
// (cupp::host::random). A RandomState draws from cuRAND's XORWOW by
// default, seeded as CuPy seeds it: the uniforms, the normals and the
// closed forms of them that CuPy computes from cuRAND (exponential,
// rayleigh, laplace, ...) are CuPy's numbers for the same seed and calls.
// The distributions cuRAND lacks, and randint, come from a counter-based
// philox Generator that the state keeps beside, seeded with the same seed;
// like CuPy's kernels for them, they take nothing from cuRAND. Every draw
// is eager (an array), as CuPy's: a lazy draw that fuses is what
// cupp::random::Generator gives. The module's functions draw from one
// RandomState per device (get_random_state()), seeded from entropy, from
// CUPP_SEED, or by seed().
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/cuda/device.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/random/legacy_curand.hpp>
#include <cupp/detail/random/legacy_module.hpp>
#include <cupp/detail/random/legacy_state.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/expression.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/random/bit_generator.hpp>
#include <cupp/random/generator.hpp>
#include <cupp/shape.hpp>
#include <cupp/ufunc.hpp>

namespace cupp::random {

// RandomState's bit source (CuPy's method=): one of cuRAND's generators,
// or cupp's counter-based philox (then every draw is the Generator's).
enum class rng_method {
  xorwow,         // curand.CURAND_RNG_PSEUDO_XORWOW, CuPy's default
  mrg32k3a,       // CURAND_RNG_PSEUDO_MRG32K3A
  mtgp32,         // CURAND_RNG_PSEUDO_MTGP32
  mt19937,        // CURAND_RNG_PSEUDO_MT19937
  curand_philox,  // CURAND_RNG_PSEUDO_PHILOX4_32_10 (cuRAND's own stream)
  philox,         // cupp::random::philox: no cuRAND at all
};

namespace detail {

inline curandRngType_t curand_type(rng_method m) {
  switch (m) {
    case rng_method::mrg32k3a:
      return CURAND_RNG_PSEUDO_MRG32K3A;
    case rng_method::mtgp32:
      return CURAND_RNG_PSEUDO_MTGP32;
    case rng_method::mt19937:
      return CURAND_RNG_PSEUDO_MT19937;
    case rng_method::curand_philox:
      return CURAND_RNG_PSEUDO_PHILOX4_32_10;
    default:
      return CURAND_RNG_PSEUDO_XORWOW;
  }
}

}  // namespace detail

template <class Space>
class basic_random_state {
  static constexpr bool on_host = std::is_same_v<Space, host_space>;
  using generator_type = basic_generator<std::conditional_t<on_host, host_space, any_space>>;
  template <class T>
  using array = ndarray<T, Space>;

 public:
  // cupy.random.RandomState(seed=None, method=XORWOW).
  explicit basic_random_state(rng_method method = rng_method::xorwow)
      : basic_random_state(detail::entropy_seed(), method) {}
  explicit basic_random_state(std::uint64_t seed, rng_method method = rng_method::xorwow)
      : method_(method), seed_(seed), generator_(philox(seed)) {}

  basic_random_state(basic_random_state&&) noexcept = default;
  basic_random_state& operator=(basic_random_state&&) noexcept = default;

  rng_method method() const { return method_; }
  // The philox Generator behind the distributions cuRAND lacks (all of
  // them with method philox): default_rng(seed)'s numbers.
  generator_type& generator() { return generator_; }

  // seed(seed=None): back to the start of seed's sequence, cuRAND's and
  // philox's.
  void seed() { seed(detail::entropy_seed()); }
  void seed(std::uint64_t s) {
    seed_ = s;
    generator_ = generator_type(philox(s));
    if (curand_) {
      if constexpr (on_host) {
        reseed_curand();
      } else {
        cuda::device_scope scope(device_);
        reseed_curand();
      }
    }
  }

  // --- uniform numbers --------------------------------------------------------

  // random_sample(size, dtype) and its names random, ranf, sample: [0, 1).
  // cuRAND's uniforms are in (0, 1]; 1 becomes 0, as CuPy does.
  template <class T = double>
  array<T> random_sample(const shape_t& size = {}) {
    static_assert(detail::is_real_v<T>, "random_sample: the dtype must be float32 or float64");
    if (method_ == rng_method::philox) return generator_.template random<T>(size);
    array<T> u = raw_uniform<T>(size);
    copyto(u, where(u == T(1), T(0), u));
    return u;
  }
  template <class T = double>
  array<T> random(const shape_t& size = {}) {
    return random_sample<T>(size);
  }
  template <class T = double>
  array<T> ranf(const shape_t& size = {}) {
    return random_sample<T>(size);
  }
  template <class T = double>
  array<T> sample(const shape_t& size = {}) {
    return random_sample<T>(size);
  }
  // rand(d0, d1, ...): random_sample((d0, d1, ...)).
  template <class T = double, std::integral... D>
  array<T> rand(D... dims) {
    return random_sample<T>(shape_t{static_cast<index_t>(dims)...});
  }

  // uniform(low, high, size): low + (high - low) * random_sample(), in T;
  // high < low is allowed (NumPy's legacy uniform: the results are then in
  // (high, low]).
  template <class T = double>
  array<T> uniform(double low = 0.0, double high = 1.0, const shape_t& size = {}) {
    if (!std::isfinite(high - low)) throw overflow_error("Range exceeds valid bounds");
    array<T> u = random_sample<T>(size);
    copyto(u, static_cast<T>(low) + u * static_cast<T>(high - low));
    return u;
  }

  // randint(low, high=None, size, dtype='l'): [low, high), or [0, low)
  // without high. Drawn by philox (Lemire's method), not CuPy's stream.
  template <class T = std::int64_t, std::integral L, std::integral H>
  array<T> randint(L low, H high, const shape_t& size = {}) {
    return bounded<T>(static_cast<__int128>(low), static_cast<__int128>(high), size);
  }
  template <class T = std::int64_t, std::integral H>
  array<T> randint(H high, const shape_t& size = {}) {
    return bounded<T>(0, static_cast<__int128>(high), size);
  }
  // random_integers(low, high=None, size): [low, high], or [1, low]
  // (deprecated in NumPy: randint(low, high + 1)).
  template <class T = std::int64_t, std::integral L, std::integral H>
  array<T> random_integers(L low, H high, const shape_t& size = {}) {
    return bounded<T>(static_cast<__int128>(low), static_cast<__int128>(high) + 1, size);
  }
  template <class T = std::int64_t, std::integral H>
  array<T> random_integers(H high, const shape_t& size = {}) {
    return bounded<T>(1, static_cast<__int128>(high) + 1, size);
  }

  // --- normal numbers -----------------------------------------------------------

  // normal(loc, scale, size, dtype): cuRAND's Box-Muller pairs; an odd
  // count draws one more and drops it, as CuPy does.
  template <class T = double>
  array<T> normal(double loc = 0.0, double scale = 1.0, const shape_t& size = {}) {
    static_assert(detail::is_real_v<T>, "normal: the dtype must be float32 or float64");
    detail::check_non_negative(scale, "scale");
    if (method_ == rng_method::philox) return generator_.template normal<T>(loc, scale, size);
    return curand_fill<T>(size, true,
                          [&](auto& g, T* p, std::size_t n) { g.normal(p, n, loc, scale); });
  }
  template <class T = double>
  array<T> standard_normal(const shape_t& size = {}) {
    return normal<T>(0.0, 1.0, size);
  }
  // randn(d0, d1, ...): standard_normal((d0, d1, ...)).
  template <class T = double, std::integral... D>
  array<T> randn(D... dims) {
    return standard_normal<T>(shape_t{static_cast<index_t>(dims)...});
  }
  template <class T = double>
  array<T> lognormal(double mean = 0.0, double sigma = 1.0, const shape_t& size = {}) {
    static_assert(detail::is_real_v<T>, "lognormal: the dtype must be float32 or float64");
    detail::check_non_negative(sigma, "sigma");
    if (method_ == rng_method::philox) return generator_.template lognormal<T>(mean, sigma, size);
    return curand_fill<T>(size, true,
                          [&](auto& g, T* p, std::size_t n) { g.lognormal(p, n, mean, sigma); });
  }

  // --- exponential and Poisson ---------------------------------------------------

  // -log(u) of cuRAND's uniforms in (0, 1] (CuPy's).
  template <class T = double>
  array<T> standard_exponential(const shape_t& size = {}) {
    static_assert(detail::is_real_v<T>,
                  "standard_exponential: the dtype must be float32 or float64");
    if (method_ == rng_method::philox) return generator_.template standard_exponential<T>(size);
    array<T> u = raw_uniform<T>(size);
    copyto(u, -log(u));
    return u;
  }
  template <class T = double>
  array<T> exponential(double scale = 1.0, const shape_t& size = {}) {
    detail::check_non_negative(scale, "scale");
    array<T> e = standard_exponential<T>(size);
    copyto(e, e * static_cast<T>(scale));
    return e;
  }
  // poisson(lam, size, dtype): cuRAND's Poisson counts (32-bit) in I.
  template <class I = std::int64_t>
  array<I> poisson(double lam = 1.0, const shape_t& size = {}) {
    detail::check_poisson(lam);
    if (method_ == rng_method::philox || lam >= detail::curand_poisson_lam_max)
      return generator_.template poisson<I>(lam, size);
    if (lam == 0) {
      // cuRAND refuses lambda 0 (CURAND_STATUS_OUT_OF_RANGE); every count is 0.
      array<I> zeros(size);
      copyto(zeros, I(0));
      return zeros;
    }
    const array<unsigned int> counts = curand_fill<unsigned int>(
        size, false, [&](auto& g, unsigned int* p, std::size_t n) { g.poisson(p, n, lam); });
    return astype<I>(counts);
  }

  // --- closed forms of cuRAND's uniforms and normals (CuPy's formulas) -------
  // They take cuRAND's numbers as CuPy's do, so a program that mixes them
  // with rand and randn stays on CuPy's stream.

  template <class T = double>
  array<T> rayleigh(double scale = 1.0, const shape_t& size = {}) {
    detail::check_non_negative(scale, "scale");
    if (method_ == rng_method::philox) return generator_.template rayleigh<T>(scale, size);
    array<T> x = raw_uniform<T>(size);
    copyto(x, sqrt(T(-2) * log(x)) * static_cast<T>(scale));
    return x;
  }
  template <class T = double>
  array<T> pareto(double a, const shape_t& size = {}) {
    detail::check_positive(a, "a");
    if (method_ == rng_method::philox) return generator_.template pareto<T>(a, size);
    array<T> x = raw_uniform<T>(size);
    copyto(x, exp(-log(x) / static_cast<T>(a)) - T(1));
    return x;
  }
  template <class T = double>
  array<T> laplace(double loc = 0.0, double scale = 1.0, const shape_t& size = {}) {
    detail::check_non_negative(scale, "scale");
    if (method_ == rng_method::philox) return generator_.template laplace<T>(loc, scale, size);
    array<T> x = raw_uniform<T>(size);
    copyto(x, static_cast<T>(loc) +
                  static_cast<T>(scale) * where(x <= T(0.5), log(x + x), -log(x + x - T(1))));
    return x;
  }
  template <class T = double>
  array<T> weibull(double a, const shape_t& size = {}) {
    detail::check_non_negative(a, "a");
    if (method_ == rng_method::philox) return generator_.template weibull<T>(a, size);
    array<T> e = standard_exponential<T>(size);
    if (a == 0)
      copyto(e, T(0));  // NumPy's value; E^(1/0) would be 0 or inf
    else
      copyto(e, ::cupp::power(e, static_cast<T>(1 / a)));
    return e;
  }
  template <class T = double>
  array<T> power(double a, const shape_t& size = {}) {
    detail::check_positive(a, "a");
    if (method_ == rng_method::philox) return generator_.template power<T>(a, size);
    array<T> e = standard_exponential<T>(size);
    copyto(e, ::cupp::power(T(1) - exp(-e), static_cast<T>(1 / a)));
    return e;
  }
  template <class T = double>
  array<T> standard_cauchy(const shape_t& size = {}) {
    if (method_ == rng_method::philox) return generator_.template standard_cauchy<T>(size);
    array<T> u = random_sample<T>(size);
    copyto(u, tan(static_cast<T>(3.14159265358979323846) * (u - T(0.5))));
    return u;
  }
  template <class T = double>
  array<T> triangular(double left, double mode, double right, const shape_t& size = {}) {
    if (method_ == rng_method::philox)
      return generator_.template triangular<T>(left, mode, right, size);
    if (left > mode) throw value_error("left > mode");
    if (mode > right) throw value_error("mode > right");
    if (left == right) throw value_error("left == right");
    const double base = right - left, left_base = mode - left;
    const auto ratio = static_cast<T>(left_base / base);
    const auto left_prod = static_cast<T>(left_base * base);
    const auto right_prod = static_cast<T>((right - mode) * base);
    array<T> u = random_sample<T>(size);
    copyto(u, where(u <= ratio, static_cast<T>(left) + sqrt(u * left_prod),
                    static_cast<T>(right) - sqrt((T(1) - u) * right_prod)));
    return u;
  }
  // NumPy's legacy transformation of a normal, with a uniform to choose
  // between the two roots (Michael, Schucany and Haas, 1976).
  template <class T = double>
  array<T> wald(double mean, double scale, const shape_t& size = {}) {
    detail::check_wald(mean, scale);
    if (method_ == rng_method::philox) return generator_.template wald<T>(mean, scale, size);
    array<T> x = normal<T>(0.0, 1.0, size);
    const array<T> u = random_sample<T>(size);
    const auto m = static_cast<T>(mean);
    copyto(x, m * x * x);
    copyto(x, m + static_cast<T>(mean / (2 * scale)) *
                      (x - sqrt(static_cast<T>(4 * scale) * x + x * x)));
    copyto(x, where(u > m / (m + x), static_cast<T>(mean * mean) / x, x));
    return x;
  }

  // --- the distributions cuRAND lacks: philox's ---------------------------------

// The Generator's draw of the same name and arguments, as an array.
#define CUPP_LEGACY_PHILOX_DRAW(default_type, name, params, args) \
  template <class T = default_type>                               \
  array<T> name params {                                          \
    return generator_.template name<T> args;                      \
  }
  CUPP_LEGACY_PHILOX_DRAW(double, beta, (double a, double b, const shape_t& size = {}),
                          (a, b, size))
  CUPP_LEGACY_PHILOX_DRAW(double, chisquare, (double df, const shape_t& size = {}), (df, size))
  CUPP_LEGACY_PHILOX_DRAW(double, f, (double dfnum, double dfden, const shape_t& size = {}),
                          (dfnum, dfden, size))
  CUPP_LEGACY_PHILOX_DRAW(double, gamma,
                          (double shape, double scale = 1.0, const shape_t& size = {}),
                          (shape, scale, size))
  CUPP_LEGACY_PHILOX_DRAW(double, gumbel,
                          (double loc = 0.0, double scale = 1.0, const shape_t& size = {}),
                          (loc, scale, size))
  CUPP_LEGACY_PHILOX_DRAW(double, logistic,
                          (double loc = 0.0, double scale = 1.0, const shape_t& size = {}),
                          (loc, scale, size))
  CUPP_LEGACY_PHILOX_DRAW(double, noncentral_chisquare,
                          (double df, double nonc, const shape_t& size = {}), (df, nonc, size))
  CUPP_LEGACY_PHILOX_DRAW(double, noncentral_f,
                          (double dfnum, double dfden, double nonc, const shape_t& size = {}),
                          (dfnum, dfden, nonc, size))
  CUPP_LEGACY_PHILOX_DRAW(double, standard_gamma, (double shape, const shape_t& size = {}),
                          (shape, size))
  CUPP_LEGACY_PHILOX_DRAW(double, standard_t, (double df, const shape_t& size = {}), (df, size))
  CUPP_LEGACY_PHILOX_DRAW(double, vonmises, (double mu, double kappa, const shape_t& size = {}),
                          (mu, kappa, size))
  CUPP_LEGACY_PHILOX_DRAW(std::int64_t, binomial,
                          (std::int64_t n, double p, const shape_t& size = {}), (n, p, size))
  CUPP_LEGACY_PHILOX_DRAW(std::int64_t, geometric, (double p, const shape_t& size = {}), (p, size))
  CUPP_LEGACY_PHILOX_DRAW(std::int64_t, hypergeometric,
                          (std::int64_t ngood, std::int64_t nbad, std::int64_t nsample,
                           const shape_t& size = {}),
                          (ngood, nbad, nsample, size))
  CUPP_LEGACY_PHILOX_DRAW(std::int64_t, logseries, (double p, const shape_t& size = {}), (p, size))
  CUPP_LEGACY_PHILOX_DRAW(std::int64_t, negative_binomial,
                          (double n, double p, const shape_t& size = {}), (n, p, size))
  CUPP_LEGACY_PHILOX_DRAW(std::int64_t, zipf, (double a, const shape_t& size = {}), (a, size))
#undef CUPP_LEGACY_PHILOX_DRAW

  // --- permutations, choices and draws of vectors: the Generator's ------------

  array<std::int64_t> permutation(index_t n) {
    return generator_.permutation(n);
  }
  template <class T, class AS>
  ndarray<T, AS> permutation(const ndarray<T, AS>& x) {
    return generator_.permutation(x);
  }
  template <class T, class AS>
  void shuffle(const ndarray<T, AS>& x) {
    generator_.shuffle(x);
  }
  template <std::integral I>
  array<std::int64_t> choice(I a, const shape_t& size = {}, bool replace = true) {
    return generator_.choice(a, size, replace);
  }
  template <std::integral I, class P>
  requires(!std::is_arithmetic_v<P>) array<std::int64_t> choice(I a, const shape_t& size,
                                                                bool replace, const P& p) {
    return generator_.choice(a, size, replace, p);
  }
  template <class T, class AS>
  ndarray<T, AS> choice(const ndarray<T, AS>& a, const shape_t& size = {}, bool replace = true) {
    return generator_.choice(a, size, replace);
  }
  template <class T, class AS, class P>
  requires(!std::is_arithmetic_v<P>) ndarray<T, AS> choice(const ndarray<T, AS>& a,
                                                           const shape_t& size, bool replace,
                                                           const P& p) {
    return generator_.choice(a, size, replace, p);
  }
  template <class T = double>
  array<T> dirichlet(const std::vector<double>& alpha, const shape_t& size = {}) {
    return generator_.template dirichlet<T>(alpha, size);
  }
  template <class I = std::int64_t>
  array<I> multinomial(std::int64_t n, const std::vector<double>& pvals, const shape_t& size = {}) {
    return generator_.template multinomial<I>(n, pvals, size);
  }
  // Needs <cupp/random/multivariate.hpp> (and cupp::linalg), as the Generator's.
  template <class T = double, class M, class C>
  array<T> multivariate_normal(const M& mean, const C& cov, const shape_t& size = {},
                               std::string_view check_valid = "warn", double tol = 1e-8) {
    return generator_.template multivariate_normal<T>(mean, cov, size, check_valid, tol, "svd");
  }

 private:
  // [low, high) in T, after NumPy's checks; `last` fits int64 or uint64.
  template <class T>
  array<T> bounded(__int128 low, __int128 high, const shape_t& size) {
    static_assert(std::is_integral_v<T>, "randint: the dtype must be an integer type");
    detail::check_randint<T>(low, high);
    const __int128 last = high - 1;
    constexpr auto int64_max = static_cast<__int128>(std::numeric_limits<std::int64_t>::max());
    auto draw = [&](auto first) -> array<T> {
      if (last > int64_max)
        return generator_.template integers<T>(first, static_cast<std::uint64_t>(last), size, true);
      return generator_.template integers<T>(first, static_cast<std::int64_t>(last), size, true);
    };
    if (low > int64_max) return draw(static_cast<std::uint64_t>(low));
    return draw(static_cast<std::int64_t>(low));
  }

  // cuRAND's uniforms as they come, in (0, 1].
  template <class T>
  array<T> raw_uniform(const shape_t& size) {
    static_assert(detail::is_real_v<T>, "the dtype must be float32 or float64");
    return curand_fill<T>(size, false, [](auto& g, T* p, std::size_t n) { g.uniform(p, n); });
  }

  // The cuRAND generator, made on first use (on the current device, for
  // device arrays) and seeded then.
  ::cupp::detail::random::curand_generator& curand() {
    if (!curand_) {
      if constexpr (!on_host) device_ = cuda::runtime::getDevice();
      curand_ = ::cupp::detail::random::curand_generator(detail::curand_type(method_), on_host);
      reseed_curand();
    }
    return curand_;
  }
  void reseed_curand() {
    // MT19937 and MTGP32 have no offset to reset (CuPy skips it too).
    const bool has_offset = method_ != rng_method::mt19937 && method_ != rng_method::mtgp32;
    curand_.seed(seed_, has_offset);
  }

  // An array of `size` filled by fill(generator, pointer, count): on the
  // generator's device and its current stream. `pairs`: cuRAND fills an
  // even count only (normals), so an odd size draws one more, dropped.
  template <class T, class F>
  array<T> curand_fill(const shape_t& size, bool pairs, F&& fill) {
    const index_t n = ::cupp::detail::checked_size(size, static_cast<index_t>(sizeof(T)));
    const index_t drawn = pairs ? n + (n & 1) : n;
    auto draw = [&] {
      auto& g = curand();
      if constexpr (!on_host) g.bind(cuda::detail::current_stream_impl(device_)->handle);
      array<T> flat(drawn == n ? size : shape_t{drawn});
      if (drawn > 0) fill(g, flat.data(), static_cast<std::size_t>(drawn));
      if (drawn == n) return flat;
      return array<T>(flat.data(), size,
                      ::cupp::detail::contiguous_strides(size, static_cast<index_t>(sizeof(T))),
                      flat.memory(), flat.device_id(), false);
    };
    if constexpr (on_host) {
      return draw();
    } else {
      if (!curand_) return draw();  // made on the current device
      cuda::device_scope scope(device_);
      return draw();
    }
  }

  rng_method method_;
  std::uint64_t seed_;
  generator_type generator_;
  ::cupp::detail::random::curand_generator curand_;
  int device_ = -1;
};

using RandomState = basic_random_state<device_space>;

namespace detail {

// Never destroyed: a device generator destroyed at exit may outlive the
// CUDA context it was made in.
inline std::array<RandomState*, cuda::max_devices>& module_states() {
  static auto* states = new std::array<RandomState*, cuda::max_devices>{};
  return *states;
}

}  // namespace detail

// cupy.random.get_random_state(): the current device's RandomState, made
// on first use.
inline RandomState& get_random_state() {
  const int device = cuda::runtime::getDevice();
  std::lock_guard lock(detail::module_states_mutex());
  auto& slot = detail::module_states()[static_cast<std::size_t>(device)];
  if (!slot) slot = detail::new_module_state<RandomState>().release();
  return *slot;
}
// cupy.random.set_random_state(rs): rs becomes the current device's state
// (references from get_random_state() now see rs).
inline void set_random_state(RandomState&& rs) {
  get_random_state() = std::move(rs);
}
// cupy.random.seed(seed=None): reseeds the current device's state.
inline void seed() {
  get_random_state().seed();
}
inline void seed(std::uint64_t s) {
  get_random_state().seed(s);
}

}  // namespace cupp::random

namespace cupp::host::random {

using ::cupp::random::rng_method;
using RandomState = ::cupp::random::basic_random_state<host_space>;

// The host's one RandomState (host arrays have no device).
inline RandomState& get_random_state() {
  static std::mutex m;
  static std::unique_ptr<RandomState> state;
  std::lock_guard lock(m);
  if (!state) state = ::cupp::random::detail::new_module_state<RandomState>();
  return *state;
}
inline void set_random_state(RandomState&& rs) {
  get_random_state() = std::move(rs);
}
inline void seed() {
  get_random_state().seed();
}
inline void seed(std::uint64_t s) {
  get_random_state().seed(s);
}

}  // namespace cupp::host::random

namespace cupp::random {
CUPP_LEGACY_MODULE_FUNCTIONS
}  // namespace cupp::random
namespace cupp::host::random {
CUPP_LEGACY_MODULE_FUNCTIONS
}  // namespace cupp::host::random

#undef CUPP_LEGACY_MODULE_FUNCTIONS
#undef CUPP_LEGACY_MODULE_FUNCTION
