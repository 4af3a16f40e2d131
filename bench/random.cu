// Random numbers on the GPU: the workloads of bench/cupy_random.py. Each row
// times cupp's draw twice, evaluated into a preallocated array
// (`cupp::copyto(out, rng.x(...))`, figure "cupp.copyto") and into a new one
// (`z = rng.x(...)`, figure "cupp", the form the table compares with CuPy),
// and beside them the raw cuRAND host-API call doing the same work where one
// exists, all in the same run (CUDA events around loops of calls, medians
// after a warm-up). Every draw advances its generator, as a user's loop
// would. Each row's output is checked once (moments within a few standard
// errors, bounds, permutation-ness); a wrong one fails the run.
//
//   ceiling.2p28.f32               cudaMemsetAsync (written) and cudaMemcpyAsync
//                                  (read + written) of 2^28 float32: the bandwidth
//                                  the float32 rows' GB/s are read against
//   standard_normal.2p28.f32       rng.standard_normal<float>({2^28}) (curandGenerateNormal:
//                                  PHILOX4_32_10 default and dynamic ordering, XORWOW)
//   random.2p28.f32                rng.random<float>({2^28}) (curandGenerateUniform, same)
//   legacy_randn.2p28.f32          RandomState(seed).randn<float>, cuRAND's XORWOW stream
//   legacy_random_sample.2p28.f32  RandomState(seed).random_sample<float>; without
//                                  <cupp/random/legacy.hpp> the Generator's equivalent,
//                                  and the row's name ends in ".as_generator"
//   integers.2p26.i64              rng.integers<int64>(0, 10^6, {2^26}) (no raw call)
//   exponential.2p26.f64           rng.exponential<double>(1.0, {2^26}) (no raw call)
//   gamma.2p26.f64                 rng.gamma<double>(2.5, 1.0, {2^26}) (no raw call)
//   poisson.2p26.i64               rng.poisson(10.0, {2^26}) (curandGeneratePoisson into
//                                  uint32, PHILOX and XORWOW)
//   binomial.2p26.i64              rng.binomial(100, 0.3, {2^26}) (no raw call)
//   permutation.2p26.i64           rng.permutation(2^26), where it exists ("n/a" otherwise)
//   choice.1e8.1e6.noreplace       rng.choice(10^8, {10^6}, false), where it exists
//   fuse_normal.2p28.f32           y = x + rng.normal<float>(0, 1, x.shape()) beside
//                                  y = x + 1, in alternation; target: no slower
//
// GB/s counts the bytes written (4 B per float32 value); the fusion row
// counts x read and y written.
//
//   bench_random [--runs 7] [--loop-ms 20] [--only SUBSTRING] [--seed 1234] [--json FILE]
#include <cupp/cupp.hpp>
#include <cupp/random.hpp>
#include <cupp/sort.hpp>

#if __has_include(<cupp/random/shuffle.hpp>)
#include <cupp/random/shuffle.hpp>
#endif
#if __has_include(<cupp/random/legacy.hpp>)
#include <cupp/random/legacy.hpp>
#define BENCH_RANDOM_LEGACY_STATE cupp::random::RandomState
#else
#define BENCH_RANDOM_LEGACY_STATE void
#endif

#include <curand.h>

#include <cmath>
#include <concepts>
#include <cstdint>
#include <memory>
#include <string>

#include "bench_common.hpp"
#include "bench_rows.hpp"

namespace {

using cupp::index_t;
using namespace bench_rows;

constexpr index_t n28 = index_t{1} << 28;
constexpr index_t n26 = index_t{1} << 26;
constexpr std::int64_t integers_high = 1'000'000;

// The functions other headers bring in as they land: a row is timed when its
// call compiles and gives an array (or a lazy draw) of the dtype the row
// checks, and reports "n/a" otherwise.
template <class G>
concept has_permutation = requires(G& g) {
  { g.permutation(std::int64_t{8}) } -> std::convertible_to<cupp::ndarray<std::int64_t>>;
};
template <class G>
concept has_choice = requires(G& g) {
  {
    g.choice(std::int64_t{8}, cupp::shape_t{2}, false)
    } -> std::convertible_to<cupp::ndarray<std::int64_t>>;
};
template <class R>
concept has_legacy_randn = requires(R& r, const cupp::shape_t& s) {
  { r.template randn<float>(s[0]) } -> std::convertible_to<cupp::ndarray<float>>;
};
template <class R>
concept has_legacy_random_sample = requires(R& r, const cupp::shape_t& s) {
  { r.template random_sample<float>(s) } -> std::convertible_to<cupp::ndarray<float>>;
};

void expect(const std::string& name, bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(name + ": wrong result: " + what);
}

// The sample mean within 6 standard errors of the distribution's and the
// variance within rel_var of its: a sampler that is wrong by more than noise
// fails, a correct one practically never (6 sigma).
template <class T>
void expect_moments(const std::string& name, const cupp::ndarray<T>& z, double mean, double sd,
                    double rel_var = 0.01) {
  const double n = static_cast<double>(z.size());
  const double m = cupp::mean<double>(z).item();
  const double v = cupp::var<double>(z).item();
  expect(name, std::abs(m - mean) <= 6 * sd / std::sqrt(n) + 1e-6 * std::abs(mean),
         "mean " + std::to_string(m) + ", expected " + std::to_string(mean));
  expect(name, std::abs(v - sd * sd) <= rel_var * sd * sd,
         "variance " + std::to_string(v) + ", expected " + std::to_string(sd * sd));
}

template <class T>
void expect_within(const std::string& name, const cupp::ndarray<T>& z, double lo, double hi) {
  const double a = static_cast<double>(cupp::min(z).item());
  const double b = static_cast<double>(cupp::max(z).item());
  expect(name, a >= lo && b <= hi,
         "range [" + std::to_string(a) + ", " + std::to_string(b) + "] outside [" +
             std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

double gbs(double bytes, double ms) {
  return bytes / ms / 1e6;
}

// ---- cuRAND's host API ---------------------------------------------------------

void curand_check(curandStatus_t s, const char* call) {
  if (s != CURAND_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + ": curandStatus_t " + std::to_string(int(s)));
}
#define BENCH_CURAND(call) curand_check((call), #call)

// A generator bound to the bench's stream. An ordering the library refuses
// (a cuRAND without CURAND_ORDERING_PSEUDO_DYNAMIC) leaves it unusable
// rather than failing the run: the figure is then left out.
class curand_generator {
 public:
  curand_generator(curandRngType_t type, curandOrdering_t ordering, std::uint64_t seed) {
    BENCH_CURAND(curandCreateGenerator(&g_, type));
    BENCH_CURAND(curandSetPseudoRandomGeneratorSeed(g_, seed));
    BENCH_CURAND(curandSetStream(g_, stream()));
    usable_ = curandSetGeneratorOrdering(g_, ordering) == CURAND_STATUS_SUCCESS;
  }
  curand_generator(const curand_generator&) = delete;
  curand_generator& operator=(const curand_generator&) = delete;
  ~curand_generator() { curandDestroyGenerator(g_); }
  curandGenerator_t get() const { return g_; }
  bool usable() const { return usable_; }

 private:
  curandGenerator_t g_ = nullptr;
  bool usable_ = false;
};

struct curand_kind {
  const char* label;
  curandRngType_t type;
  curandOrdering_t ordering;
};

// PHILOX4_32_10 is the same algorithm as cupp's; XORWOW is CuPy's legacy
// stream. The dynamic ordering is cuRAND's fastest Philox.
constexpr curand_kind curand_kinds[] = {
    {"PHILOX4_32_10", CURAND_RNG_PSEUDO_PHILOX4_32_10, CURAND_ORDERING_PSEUDO_DEFAULT},
    {"PHILOX4_32_10.dynamic", CURAND_RNG_PSEUDO_PHILOX4_32_10, CURAND_ORDERING_PSEUDO_DYNAMIC},
    {"XORWOW", CURAND_RNG_PSEUDO_XORWOW, CURAND_ORDERING_PSEUDO_DEFAULT},
};

// ---- rows ------------------------------------------------------------------------

// cupp's two figures of a draw: into `out` and into a new array (left in z).
template <class T, class Draw>
std::pair<double, double> cupp_figures(bench_run& b, row& r, cupp::ndarray<T>& out,
                                       cupp::ndarray<T>& z, Draw&& draw) {
  const double copyto_ms = b.time(r, "cupp.copyto", [&] { cupp::copyto(out, draw()); });
  const double new_ms = b.time(r, "cupp", [&] { z = draw(); });
  return {copyto_ms, new_ms};
}

void ceiling_row(bench_run& b, cupp::ndarray<float>& out, const cupp::ndarray<float>& src) {
  if (!b.wanted("ceiling.2p28.f32")) return;
  row& r = b.start("ceiling.2p28.f32",
                   "cudaMemsetAsync of 2^28 float32 (GB/s written) and cudaMemcpyAsync "
                   "(GB/s read + written): the float32 rows' ceilings");
  const double bytes = 4.0 * n28;
  const double set_ms = b.time(r, "cudaMemsetAsync", [&] {
    BENCH_CHECK(cudaMemsetAsync(out.data(), 0x3f, static_cast<std::size_t>(bytes), stream()));
  });
  const double copy_ms = b.time(r, "cudaMemcpyAsync", [&] {
    BENCH_CHECK(cudaMemcpyAsync(out.data(), src.data(), static_cast<std::size_t>(bytes),
                                cudaMemcpyDeviceToDevice, stream()));
  });
  b.extra(r, "memset_gbs", gbs(bytes, set_ms));
  b.extra(r, "copy_gbs", gbs(2 * bytes, copy_ms));
}

// standard_normal / random of 2^28 float32: cupp beside cuRAND's generators.
template <class Draw, class Vendor>
void float_row(bench_run& b, const std::string& name, const std::string& note,
               cupp::ndarray<float>& out, cupp::ndarray<float>& vout, Draw&& draw, Vendor&& vendor,
               double mean, double sd, double lo, double hi, std::uint64_t seed) {
  if (!b.wanted(name)) return;
  row& r = b.start(name, note);
  const double bytes = 4.0 * n28;
  cupp::ndarray<float> z;
  const auto [copyto_ms, new_ms] = cupp_figures(b, r, out, z, draw);
  expect_moments(name + " (copyto)", out, mean, sd);
  expect_moments(name, z, mean, sd);
  expect_within(name, z, lo, hi);
  z = cupp::ndarray<float>();
  b.extra(r, "cupp.copyto_gbs", gbs(bytes, copyto_ms));
  b.extra(r, "cupp_gbs", gbs(bytes, new_ms));
  double best = 0;
  for (const curand_kind& k : curand_kinds) {
    curand_generator g(k.type, k.ordering, seed);
    if (!g.usable()) {
      std::printf("  %s: ordering not supported, left out\n", k.label);
      continue;
    }
    const std::string who = std::string("curand.") + k.label;
    const double ms = b.time(r, who, [&] { vendor(g.get(), vout.data(), n28); });
    expect_moments(who, vout, mean, sd);
    b.extra(r, who + "_gbs", gbs(bytes, ms));
    if (k.type == CURAND_RNG_PSEUDO_PHILOX4_32_10) best = best == 0 ? ms : std::min(best, ms);
  }
  if (best > 0) b.extra(r, "cupp_over_curand_philox", new_ms / best);
}

void normal_and_uniform_rows(bench_run& b, cupp::random::Generator& rng, cupp::ndarray<float>& out,
                             cupp::ndarray<float>& vout, std::uint64_t seed) {
  float_row(
      b, "standard_normal.2p28.f32", "rng.standard_normal<float>({2^28}); target >= 2700 GB/s", out,
      vout, [&] { return rng.standard_normal<float>({n28}); },
      [](curandGenerator_t g, float* p, index_t n) {
        BENCH_CURAND(curandGenerateNormal(g, p, static_cast<std::size_t>(n), 0.0f, 1.0f));
      },
      0.0, 1.0, -12.0, 12.0, seed);
  // Uniform on [0, 1): mean 1/2, variance 1/12.
  float_row(
      b, "random.2p28.f32", "rng.random<float>({2^28}); target >= 2700 GB/s", out, vout,
      [&] { return rng.random<float>({n28}); },
      [](curandGenerator_t g, float* p, index_t n) {
        BENCH_CURAND(curandGenerateUniform(g, p, static_cast<std::size_t>(n)));
      },
      0.5, std::sqrt(1.0 / 12), 0.0, 1.0, seed);
}

// CuPy's legacy functions run cuRAND's XORWOW: that call is the raw figure.
template <class Draw, class Vendor>
void legacy_row(bench_run& b, const std::string& name, const std::string& note,
                cupp::ndarray<float>& out, cupp::ndarray<float>& vout, Draw&& draw, Vendor&& vendor,
                double mean, double sd, std::uint64_t seed) {
  if (!b.wanted(name)) return;
  row& r = b.start(name, note);
  const double bytes = 4.0 * n28;
  cupp::ndarray<float> z;
  const auto [copyto_ms, new_ms] = cupp_figures(b, r, out, z, draw);
  expect_moments(name, z, mean, sd);
  z = cupp::ndarray<float>();
  b.extra(r, "cupp.copyto_gbs", gbs(bytes, copyto_ms));
  b.extra(r, "cupp_gbs", gbs(bytes, new_ms));
  curand_generator g(CURAND_RNG_PSEUDO_XORWOW, CURAND_ORDERING_PSEUDO_DEFAULT, seed);
  const double ms = b.time(r, "curand.XORWOW", [&] { vendor(g.get(), vout.data(), n28); });
  expect_moments(name + " (curand)", vout, mean, sd);
  b.extra(r, "curand.XORWOW_gbs", gbs(bytes, ms));
  b.extra(r, "cupp_over_curand_xorwow", new_ms / ms);
}

// State is cupp's RandomState, or void where <cupp/random/legacy.hpp> is
// missing; a template so that the calls of a missing member are never
// compiled.
template <class State, class G>
void legacy_rows(bench_run& b, G& rng, cupp::ndarray<float>& out, cupp::ndarray<float>& vout,
                 std::uint64_t seed) {
  const auto normal = [](curandGenerator_t g, float* p, index_t n) {
    BENCH_CURAND(curandGenerateNormal(g, p, static_cast<std::size_t>(n), 0.0f, 1.0f));
  };
  const auto uniform = [](curandGenerator_t g, float* p, index_t n) {
    BENCH_CURAND(curandGenerateUniform(g, p, static_cast<std::size_t>(n)));
  };
  const double usd = std::sqrt(1.0 / 12);
  bool randn_done = false, sample_done = false;
  if constexpr (std::constructible_from<State, std::uint64_t>) {
    State rs(seed);
    if constexpr (has_legacy_randn<State>) {
      legacy_row(
          b, "legacy_randn.2p28.f32", "RandomState(seed).randn<float>({2^28})", out, vout,
          [&] { return rs.template randn<float>(n28); }, normal, 0.0, 1.0, seed);
      randn_done = true;
    }
    if constexpr (has_legacy_random_sample<State>) {
      legacy_row(
          b, "legacy_random_sample.2p28.f32", "RandomState(seed).random_sample<float>({2^28})", out,
          vout, [&] { return rs.template random_sample<float>(cupp::shape_t{n28}); }, uniform, 0.5,
          usd, seed);
      sample_done = true;
    }
  }
  if (!randn_done)
    legacy_row(
        b, "legacy_randn.2p28.f32.as_generator",
        "no legacy randn in cupp yet: Generator.standard_normal<float>({2^28}) in its place", out,
        vout, [&] { return rng.template standard_normal<float>({n28}); }, normal, 0.0, 1.0, seed);
  if (!sample_done)
    legacy_row(
        b, "legacy_random_sample.2p28.f32.as_generator",
        "no legacy random_sample in cupp yet: Generator.random<float>({2^28}) in its place", out,
        vout, [&] { return rng.template random<float>({n28}); }, uniform, 0.5, usd, seed);
}

// A 2^26 draw without a raw cuRAND call.
template <class T, class Draw, class Check>
void plain_row(bench_run& b, const std::string& name, const std::string& note, Draw&& draw,
               Check&& check) {
  if (!b.wanted(name)) return;
  row& r = b.start(name, note);
  cupp::ndarray<T> out = cupp::empty<T>({n26}), z;
  const auto [copyto_ms, new_ms] = cupp_figures(b, r, out, z, draw);
  check(name + " (copyto)", out);
  check(name, z);
  b.extra(r, "cupp_gbs", gbs(static_cast<double>(sizeof(T)) * n26, new_ms));
}

void distribution_rows(bench_run& b, cupp::random::Generator& rng, std::uint64_t seed) {
  // Integers uniform on [0, m): mean (m - 1) / 2, variance (m^2 - 1) / 12.
  const double m = integers_high;
  plain_row<std::int64_t>(
      b, "integers.2p26.i64", "rng.integers<int64>(0, 10^6, {2^26})",
      [&] { return rng.integers<std::int64_t>(std::int64_t{0}, integers_high, {n26}); },
      [&](const std::string& name, const cupp::ndarray<std::int64_t>& z) {
        expect_moments(name, z, (m - 1) / 2, std::sqrt((m * m - 1) / 12));
        expect_within(name, z, 0, m - 1);
      });
  plain_row<double>(
      b, "exponential.2p26.f64", "rng.exponential<double>(1.0, {2^26})",
      [&] { return rng.exponential<double>(1.0, {n26}); },
      [](const std::string& name, const cupp::ndarray<double>& z) {
        expect_moments(name, z, 1.0, 1.0, 0.02);
        expect_within(name, z, 0, 1e3);
      });
  plain_row<double>(
      b, "gamma.2p26.f64", "rng.gamma<double>(2.5, 1.0, {2^26}); target: 2x CuPy",
      [&] { return rng.gamma<double>(2.5, 1.0, {n26}); },
      [](const std::string& name, const cupp::ndarray<double>& z) {
        expect_moments(name, z, 2.5, std::sqrt(2.5), 0.02);
        expect_within(name, z, 0, 1e3);
      });
  plain_row<std::int64_t>(
      b, "binomial.2p26.i64", "rng.binomial(100, 0.3, {2^26}); target: 2x CuPy",
      [&] { return rng.binomial(100, 0.3, {n26}); },
      [](const std::string& name, const cupp::ndarray<std::int64_t>& z) {
        expect_moments(name, z, 30.0, std::sqrt(21.0));
        expect_within(name, z, 0, 100);
      });

  // Poisson, beside curandGeneratePoisson (uint32 out: half the bytes of
  // cupp's int64, as NumPy's dtype asks).
  const std::string name = "poisson.2p26.i64";
  if (b.wanted(name)) {
    row& r = b.start(name,
                     "rng.poisson(10.0, {2^26}) (int64; curandGeneratePoisson writes uint32); "
                     "target: 2x CuPy");
    cupp::ndarray<std::int64_t> out = cupp::empty<std::int64_t>({n26}), z;
    const auto [copyto_ms, new_ms] =
        cupp_figures(b, r, out, z, [&] { return rng.poisson(10.0, {n26}); });
    expect_moments(name + " (copyto)", out, 10.0, std::sqrt(10.0));
    expect_moments(name, z, 10.0, std::sqrt(10.0));
    expect_within(name, z, 0, 200);
    z = cupp::ndarray<std::int64_t>();
    // The same draw into int32 (what a user who asks for it gets), for the
    // bytes to match cuRAND's.
    cupp::ndarray<std::int32_t> out32 = cupp::empty<std::int32_t>({n26});
    b.time(r, "cupp.copyto.int32",
           [&] { cupp::copyto(out32, rng.poisson<std::int32_t>(10.0, {n26})); });
    expect_moments(name + " (int32)", out32, 10.0, std::sqrt(10.0));
    cupp::ndarray<std::uint32_t> vout = cupp::empty<std::uint32_t>({n26});
    double best = 0;
    for (const curand_kind& k : curand_kinds) {
      curand_generator g(k.type, k.ordering, seed);
      if (!g.usable()) continue;
      const std::string who = std::string("curand.") + k.label;
      const double ms = b.time(r, who, [&] {
        BENCH_CURAND(
            curandGeneratePoisson(g.get(), vout.data(), static_cast<std::size_t>(n26), 10.0));
      });
      expect_moments(who, vout, 10.0, std::sqrt(10.0));
      best = best == 0 ? ms : std::min(best, ms);
    }
    if (best > 0) b.extra(r, "cupp_over_best_curand", new_ms / best);
  }
}

template <class G>
void permutation_row(bench_run& b, G& rng) {
  const std::string name = "permutation.2p26.i64";
  if (!b.wanted(name)) return;
  if constexpr (has_permutation<G>) {
    row& r = b.start(name, "rng.permutation(2^26); target: 2x CuPy");
    cupp::ndarray<std::int64_t> z;
    b.time(r, "cupp", [&] { z = rng.permutation(std::int64_t{n26}); });
    expect(name, z.size() == n26, "size " + std::to_string(z.size()));
    expect(name, cupp::all(cupp::sort(z) == cupp::arange(std::int64_t{n26})).item(),
           "not a permutation of 0 .. 2^26 - 1");
  } else {
    b.start(name, "n/a: cupp::random::Generator has no permutation yet");
  }
}

template <class G>
void choice_row(bench_run& b, G& rng) {
  const std::string name = "choice.1e8.1e6.noreplace";
  if (!b.wanted(name)) return;
  if constexpr (has_choice<G>) {
    row& r = b.start(name, "rng.choice(10^8, {10^6}, false)");
    const std::int64_t pool = 100'000'000, k = 1'000'000;
    cupp::ndarray<std::int64_t> z;
    b.time(r, "cupp", [&] { z = rng.choice(pool, cupp::shape_t{k}, false); });
    expect(name, z.size() == k, "size " + std::to_string(z.size()));
    expect_within(name, z, 0, pool - 1);
    expect(name, cupp::unique(z).size() == k, "repeated values");
  } else {
    b.start(name, "n/a: cupp::random::Generator has no choice yet");
  }
}

void fusion_row(bench_run& b, cupp::random::Generator& rng, cupp::ndarray<float>& out,
                const cupp::ndarray<float>& x) {
  const std::string name = "fuse_normal.2p28.f32";
  if (!b.wanted(name)) return;
  row& r = b.start(name,
                   "y = x + rng.normal<float>(0, 1, x.shape()) beside y = x + 1, 2^28 float32; "
                   "target: no slower");
  const double bytes = 8.0 * n28;  // x read, y written
  cupp::ndarray<float> y;
  const auto [noise_ms, plus_ms] = b.time_pair(
      r, "cupp", [&] { y = x + rng.normal<float>(0, 1, x.shape()); }, "cupp x + 1",
      [&] { y = x + 1.0f; });
  b.extra(r, "noise_over_plus1", noise_ms / plus_ms);
  b.extra(r, "cupp_gbs", gbs(bytes, noise_ms));
  b.extra(r, "plus1_gbs", gbs(bytes, plus_ms));
  y = x + rng.normal<float>(0, 1, x.shape());
  // x lies in [0, 1): y - x is the noise up to one float32 rounding.
  expect_moments(name, cupp::ndarray<float>(y - x), 0.0, 1.0);
  y = cupp::ndarray<float>();
  const auto [into_noise_ms, into_plus_ms] = b.time_pair(
      r, "cupp.copyto", [&] { cupp::copyto(out, x + rng.normal<float>(0, 1, x.shape())); },
      "cupp.copyto x + 1", [&] { cupp::copyto(out, x + 1.0f); });
  b.extra(r, "copyto_noise_over_plus1", into_noise_ms / into_plus_ms);
  // What fusion saves: the noise stored first, then added.
  cupp::ndarray<float> noise = cupp::empty<float>({n28});
  const double unfused_ms = b.time(r, "cupp unfused (noise stored, then x + noise)", [&] {
    cupp::copyto(noise, rng.normal<float>(0, 1, x.shape()));
    cupp::copyto(out, x + noise);
  });
  b.extra(r, "unfused_over_fused", unfused_ms / into_noise_ms);
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  std::uint64_t seed = 1234;
  bench::command_line(
      argc, argv,
      {bench::value("--runs", "N", o.runs), bench::value("--loop-ms", "MS", o.loop_ms),
       bench::value("--only", "SUBSTRING", o.only), bench::value("--seed", "SEED", seed),
       bench::value("--json", "FILE", o.json)});
  return bench::run_on_gpu("bench_random", [&] {
    const auto& props = cupp::cuda::runtime::getDeviceProperties(cupp::cuda::runtime::getDevice());
    bench_run b(o, "random", 44);
    cupp::random::Generator rng = cupp::random::default_rng(seed);
    {
      // The fusion row's x and the ceilings' source: uniform [0, 1), drawn
      // by a generator of its own so that the rows' streams do not move.
      const cupp::ndarray<float> x = cupp::random::default_rng(seed + 1).random<float>({n28});
      cupp::ndarray<float> out = cupp::empty<float>({n28}), vout = cupp::empty<float>({n28});
      ceiling_row(b, out, x);
      normal_and_uniform_rows(b, rng, out, vout, seed);
      legacy_rows<BENCH_RANDOM_LEGACY_STATE>(b, rng, out, vout, seed);
      vout = cupp::ndarray<float>();
      fusion_row(b, rng, out, x);
    }
    cupp::cuda::get_default_memory_pool().free_all_blocks();
    distribution_rows(b, rng, seed);
    cupp::cuda::get_default_memory_pool().free_all_blocks();
    permutation_row(b, rng);
    choice_row(b, rng);
    if (!o.json.empty()) b.write_json(o.json, props.name);
  });
}
