// The Generator API (cupp/random.hpp): Philox4x32-10 against the published
// known-answer vectors (and, on the GPU, against cuRAND's own Philox), the
// same numbers however a draw is evaluated (whole, sliced, transposed,
// fused into an expression, split at block boundaries), on the host and
// the device bit for bit, bounds of integers for every integer dtype,
// saved and restored state, jumped and spawned streams that do not
// correlate, and NumPy's errors for bad arguments.
#include <cupp/random.hpp>
#include <cupp/reductions.hpp>
#include <cupp/scans.hpp>
#include <cupp/ufunc.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "random_checks.hpp"

#if CUPP_TEST_DEVICE
#include <curand_kernel.h>
#endif

namespace rd = cupp::detail::random;
using cupp::index_t;
using cupp::shape_t;

namespace {

template <class T>
std::vector<T> values(const cupp::host::ndarray<T>& a) {
  return a.to_vector();
}

using cupp_test::same_bits;
using cupp_test::throws_with;

#if CUPP_TEST_DEVICE
__global__ void curand_philox_kernel(const uint4* counters, uint2 key, uint4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = curand_Philox4x32_10(counters[i], key);
}
__global__ void our_philox_kernel(const uint4* counters, uint2 key, uint4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const rd::words4 w = rd::philox4x32_10(
      {{counters[i].x, counters[i].y, counters[i].z, counters[i].w}}, {key.x, key.y});
  out[i] = make_uint4(w.w[0], w.w[1], w.w[2], w.w[3]);
}
#endif

}  // namespace

BOOST_AUTO_TEST_SUITE(random_generator)

BOOST_AUTO_TEST_CASE(philox_known_answers) {
  // Salmon et al.'s known-answer vectors for Philox4x32-10 (counter, key).
  const rd::words4 zero = rd::philox4x32_10({{0, 0, 0, 0}}, {0, 0});
  const rd::words4 ones = rd::philox4x32_10({{~0u, ~0u, ~0u, ~0u}}, {~0u, ~0u});
  const rd::words4 pi = rd::philox4x32_10({{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
                                          {0xa4093822u, 0x299f31d0u});
  const std::uint32_t want[3][4] = {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
                                    {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
                                    {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
  const rd::words4 got[3] = {zero, ones, pi};
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 4; ++j)
      BOOST_TEST(got[k].w[j] == want[k][j], "vector " << k << " word " << j);
#if CUPP_TEST_DEVICE
  // On the GPU, against cuRAND's Philox over many counters.
  const int n = 4096;
  std::vector<uint4> counters(n);
  for (int i = 0; i < n; ++i)
    counters[i] = make_uint4(static_cast<unsigned>(i * 2654435761u), static_cast<unsigned>(i >> 3),
                             static_cast<unsigned>(i % 7), 0xdeadbeefu ^ static_cast<unsigned>(i));
  uint4 *c = nullptr, *a = nullptr, *b = nullptr;
  BOOST_REQUIRE(cudaMalloc(&c, n * sizeof(uint4)) == cudaSuccess);
  BOOST_REQUIRE(cudaMalloc(&a, n * sizeof(uint4)) == cudaSuccess);
  BOOST_REQUIRE(cudaMalloc(&b, n * sizeof(uint4)) == cudaSuccess);
  cudaMemcpy(c, counters.data(), n * sizeof(uint4), cudaMemcpyHostToDevice);
  const uint2 key = make_uint2(0x12345678u, 0x9abcdef0u);
  curand_philox_kernel<<<n / 256, 256>>>(c, key, a, n);
  our_philox_kernel<<<n / 256, 256>>>(c, key, b, n);
  std::vector<uint4> ha(n), hb(n);
  cudaMemcpy(ha.data(), a, n * sizeof(uint4), cudaMemcpyDeviceToHost);
  cudaMemcpy(hb.data(), b, n * sizeof(uint4), cudaMemcpyDeviceToHost);
  cudaFree(c);
  cudaFree(a);
  cudaFree(b);
  BOOST_TEST(std::memcmp(ha.data(), hb.data(), n * sizeof(uint4)) == 0);
#endif
}

BOOST_AUTO_TEST_CASE(a_draw_does_not_depend_on_how_it_is_evaluated) {
  auto rng = cupp::host::random::default_rng(7);
  const auto draw = rng.standard_normal<float>(shape_t{6, 10});
  const cupp::host::ndarray<float> whole = draw;
  const auto w = values(whole);
  // Transposed, sliced and fused: the same element always has the same value.
  // (An evaluated transpose keeps the draw's layout, as NumPy's order='K';
  // its C-order copy is what is compared.)
  const cupp::host::ndarray<float> t = cupp::host::ndarray<float>(draw.T()).copy();
  const cupp::host::ndarray<float> f = draw * 2.0f - 1.0f;
  for (index_t i = 0; i < 6; ++i)
    for (index_t j = 0; j < 10; ++j) {
      BOOST_TEST(t.data()[j * 6 + i] == w[i * 10 + j]);
      BOOST_TEST(f.data()[i * 10 + j] == w[i * 10 + j] * 2.0f - 1.0f);
    }
  // The same seed gives the same numbers; a draw advances the generator.
  auto again = cupp::host::random::default_rng(7);
  const cupp::host::ndarray<float> first = again.standard_normal<float>(shape_t{6, 10});
  BOOST_TEST(same_bits(values(first), w));
  const cupp::host::ndarray<float> second = again.standard_normal<float>(shape_t{6, 10});
  BOOST_TEST(!same_bits(values(second), w));
  // Split at block boundaries (4 float32 or 2 float64 values per block),
  // two draws are one draw.
  auto one = cupp::host::random::default_rng(11), two = cupp::host::random::default_rng(11);
  const cupp::host::ndarray<double> all = one.random(shape_t{10});
  const cupp::host::ndarray<double> part1 = two.random(shape_t{4});
  const cupp::host::ndarray<double> part2 = two.random(shape_t{6});
  for (index_t i = 0; i < 4; ++i) BOOST_TEST(all.data()[i] == part1.data()[i]);
  for (index_t i = 0; i < 6; ++i) BOOST_TEST(all.data()[4 + i] == part2.data()[i]);
  // advance() skips what a draw would have taken.
  auto skip = cupp::host::random::default_rng(11);
  skip.bit_generator().advance(2);
  const cupp::host::ndarray<double> after = skip.random(shape_t{6});
  BOOST_TEST(same_bits(values(after), values(part2)));
}

// poisson and binomial read their inversion tables where an evaluation
// says where it runs (a stored draw, a fused expression, a reduction) and
// walk the same sums where it does not (a cumulative sum): the same counts.
template <class Draw>
void same_counts_everywhere(const std::string& what, Draw draw) {
  auto a = cupp::host::random::default_rng(5), b = cupp::host::random::default_rng(5),
       c = cupp::host::random::default_rng(5), d = cupp::host::random::default_rng(5);
  const cupp::host::ndarray<std::int64_t> stored = draw(a);
  const auto v = values(stored);
  const cupp::host::ndarray<std::int64_t> fused = draw(b) * 2 + 1;
  const cupp::host::ndarray<std::int64_t> scanned = cupp::cumsum(draw(c));
  const std::int64_t total = cupp::sum(draw(d)).item();
  std::int64_t run = 0;
  int bad = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    run += v[i];
    bad += fused.data()[i] != 2 * v[i] + 1 || scanned.data()[i] != run;
  }
  BOOST_TEST(bad == 0, what << ": " << bad << " values differ");
  BOOST_TEST(total == run, what);
}
BOOST_AUTO_TEST_CASE(count_tables_give_the_same_counts_everywhere) {
  const shape_t s{3000};
  same_counts_everywhere("poisson(10)", [&](auto& rng) { return rng.poisson(10.0, s); });
  same_counts_everywhere("binomial(100, 0.3)",
                         [&](auto& rng) { return rng.binomial(100, 0.3, s); });
}

BOOST_AUTO_TEST_CASE(state_jumped_and_spawned_streams) {
  auto rng = cupp::host::random::default_rng(3);
  (void)rng.random(shape_t{5});
  const cupp::random::philox_state saved = rng.bit_generator().state();
  const cupp::host::ndarray<double> a = rng.random(shape_t{100});
  rng.bit_generator().set_state(saved);
  const cupp::host::ndarray<double> b = rng.random(shape_t{100});
  BOOST_TEST(same_bits(values(a), values(b)));
  // Streams apart: jumped() and spawn() give numbers unrelated to the
  // parent's (sample correlation of 10^5 uniforms within 5 / sqrt(n)).
  const index_t n = 100000;
  auto parent = cupp::host::random::default_rng(5);
  cupp::host::random::Generator jumped(parent.bit_generator().jumped());
  auto children = parent.spawn(3);
  BOOST_TEST(children.size() == 3u);
  std::vector<std::vector<double>> streams;
  streams.push_back(values(cupp::host::ndarray<double>(parent.random(shape_t{n}))));
  streams.push_back(values(cupp::host::ndarray<double>(jumped.random(shape_t{n}))));
  for (auto& c : children)
    streams.push_back(values(cupp::host::ndarray<double>(c.random(shape_t{n}))));
  for (std::size_t i = 0; i < streams.size(); ++i)
    for (std::size_t j = i + 1; j < streams.size(); ++j) {
      double sa = 0, sb = 0, sab = 0, saa = 0, sbb = 0;
      for (index_t k = 0; k < n; ++k) {
        const double x = streams[i][k], y = streams[j][k];
        sa += x, sb += y, sab += x * y, saa += x * x, sbb += y * y;
      }
      const double cov = sab / n - sa / n * sb / n;
      const double r = cov / std::sqrt((saa / n - sa / n * sa / n) * (sbb / n - sb / n * sb / n));
      BOOST_TEST(std::abs(r) < 5.0 / std::sqrt(double(n)), "streams " << i << " and " << j);
    }
  // Spawning again gives new children.
  auto more = parent.spawn(1);
  const cupp::host::ndarray<double> c3 = more[0].random(shape_t{8});
  auto first_children = cupp::host::random::default_rng(5).spawn(1);
  const cupp::host::ndarray<double> c0 = first_children[0].random(shape_t{8});
  BOOST_TEST(!same_bits(values(c3), values(c0)));
}

using integer_dtypes = std::tuple<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
                                  std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>;
BOOST_AUTO_TEST_CASE_TEMPLATE(integers_stay_in_bounds, T, integer_dtypes) {
  auto rng = cupp::host::random::default_rng(17);
  const long long lo = static_cast<long long>(std::numeric_limits<T>::lowest());
  const unsigned long long hi = static_cast<unsigned long long>(std::numeric_limits<T>::max());
  // The whole range of the type with endpoint, and a small range.
  const cupp::host::ndarray<T> full = rng.template integers<T>(lo, hi, shape_t{20000}, true);
  bool saw_low_half = false, saw_high_half = false;
  for (const T v : values(full)) {
    saw_low_half =
        saw_low_half || static_cast<long double>(v) < (lo + static_cast<long double>(hi)) / 2;
    saw_high_half =
        saw_high_half || static_cast<long double>(v) > (lo + static_cast<long double>(hi)) / 2;
  }
  BOOST_TEST(saw_low_half);
  BOOST_TEST(saw_high_half);
  if constexpr (!std::is_same_v<T, bool>) {
    const cupp::host::ndarray<T> small = rng.template integers<T>(1, 5, shape_t{20000});
    int counts[6] = {};
    for (const T v : values(small)) {
      BOOST_REQUIRE(v >= T(1));
      BOOST_REQUIRE(v < T(5));
      ++counts[static_cast<int>(v)];
    }
    for (int v = 1; v < 5; ++v) BOOST_TEST(std::abs(counts[v] - 5000) < 5 * 61, "value " << v);
    const cupp::host::ndarray<T> closed = rng.template integers<T>(1, 4, shape_t{4000}, true);
    bool saw4 = false;
    for (const T v : values(closed)) saw4 = saw4 || v == T(4);
    BOOST_TEST(saw4);
  }
}

BOOST_AUTO_TEST_CASE(errors_as_numpy) {
  auto rng = cupp::host::random::default_rng(1);
  const shape_t s{3};
  throws_with([&] { (void)rng.normal(0, -1, s); }, "scale < 0");
  throws_with([&] { (void)rng.uniform(0, INFINITY, s); }, "high - low range exceeds valid bounds");
  throws_with([&] { (void)rng.uniform(5, 1, s); }, "high - low < 0");
  throws_with([&] { (void)rng.exponential(-1, s); }, "scale < 0");
  throws_with([&] { (void)rng.integers(5, 3, s); }, "low >= high");
  throws_with([&] { (void)rng.integers(5, 5, s); }, "low >= high");
  throws_with([&] { (void)rng.integers(5, 4, s, true); }, "low > high");
  throws_with([&] { (void)rng.integers<std::uint8_t>(-1, 300, s); },
              "low is out of bounds for uint8");
  throws_with([&] { (void)rng.integers<std::uint8_t>(0, 300, s); },
              "high is out of bounds for uint8");
  throws_with([&] { (void)rng.integers(0, s); }, "high <= 0");
  throws_with([&] { (void)rng.gumbel(0, -1, s); }, "scale < 0");
  throws_with([&] { (void)rng.laplace(0, -1, s); }, "scale < 0");
  throws_with([&] { (void)rng.logistic(0, -1, s); }, "scale < 0");
  throws_with([&] { (void)rng.rayleigh(-1, s); }, "scale < 0");
  throws_with([&] { (void)rng.weibull(-1, s); }, "a < 0");
  throws_with([&] { (void)rng.pareto(0, s); }, "a <= 0");
  throws_with([&] { (void)rng.power(-1, s); }, "a <= 0");
  throws_with([&] { (void)rng.triangular(1, 0, 2, s); }, "left > mode");
  throws_with([&] { (void)rng.triangular(0, 3, 2, s); }, "mode > right");
  throws_with([&] { (void)rng.triangular(1, 1, 1, s); }, "left == right");
  throws_with([&] { (void)rng.lognormal(0, -1, s); }, "sigma < 0");
  cupp::host::ndarray<double> out(shape_t{4});
  throws_with([&] { rng.random(shape_t{3}, out); }, "size must match out.shape when used together");
  // A failed call takes no numbers: the next draw is what it would have been.
  auto clean = cupp::host::random::default_rng(1);
  const cupp::host::ndarray<double> a = rng.random(shape_t{4});
  const cupp::host::ndarray<double> b = clean.random(shape_t{4});
  BOOST_TEST(same_bits(values(a), values(b)));
  // NaN scales pass, as NumPy lets them (the draw is NaN).
  const cupp::host::ndarray<double> nan_scale = rng.normal(0, NAN, s);
  BOOST_TEST(std::isnan(nan_scale.data()[0]));
  // out= fills the array given.
  rng.random(out);
  for (const double v : values(out)) BOOST_TEST((v >= 0.0 && v < 1.0));
  BOOST_TEST(rng.bytes(37).size() == 37u);
  // out= of the other methods NumPy gives it.
  cupp::host::ndarray<float> fout(shape_t{5});
  rng.standard_normal(fout);
  rng.standard_exponential(fout);
  for (const float v : values(fout)) BOOST_TEST(v >= 0.0f);
  rng.standard_gamma(2.0, fout);
  for (const float v : values(fout)) BOOST_TEST(v > 0.0f);
}

#if CUPP_TEST_DEVICE
// Every distribution drawn on the device and on the host from the same seed:
// the same bits.
template <class T, class F>
void host_equals_device(const char* name, F&& draw) {
  auto d = cupp::random::default_rng(2024);
  auto h = cupp::host::random::default_rng(2024);
  const cupp::ndarray<T> on_device = draw(d);
  const cupp::host::ndarray<T> on_host = draw(h);
  BOOST_TEST(same_bits(values(cupp::asnumpy(on_device)), values(on_host)), name);
}

BOOST_AUTO_TEST_CASE(host_and_device_give_the_same_bits) {
  const shape_t s{3, 1001};  // odd sizes: partial blocks and partial vectors
  host_equals_device<float>("random f32", [&](auto& g) { return g.template random<float>(s); });
  host_equals_device<double>("random f64", [&](auto& g) { return g.random(s); });
  host_equals_device<float>("normal f32",
                            [&](auto& g) { return g.template normal<float>(1, 2, s); });
  host_equals_device<double>("normal f64", [&](auto& g) { return g.normal(1, 2, s); });
  host_equals_device<std::int64_t>("integers", [&](auto& g) { return g.integers(-7, 1000, s); });
  host_equals_device<std::int8_t>(
      "integers i8", [&](auto& g) { return g.template integers<std::int8_t>(-128, 127, s, true); });
  host_equals_device<double>("exponential", [&](auto& g) { return g.exponential(3, s); });
  host_equals_device<double>("gumbel", [&](auto& g) { return g.gumbel(1, 2, s); });
  host_equals_device<double>("laplace", [&](auto& g) { return g.laplace(1, 2, s); });
  host_equals_device<double>("logistic", [&](auto& g) { return g.logistic(1, 2, s); });
  host_equals_device<double>("lognormal", [&](auto& g) { return g.lognormal(0, 0.5, s); });
  host_equals_device<double>("rayleigh", [&](auto& g) { return g.rayleigh(2, s); });
  host_equals_device<double>("weibull", [&](auto& g) { return g.weibull(1.5, s); });
  host_equals_device<double>("pareto", [&](auto& g) { return g.pareto(3, s); });
  host_equals_device<double>("power", [&](auto& g) { return g.power(3, s); });
  host_equals_device<double>("triangular", [&](auto& g) { return g.triangular(0, 1, 3, s); });
  host_equals_device<double>("standard_cauchy", [&](auto& g) { return g.standard_cauchy(s); });
  host_equals_device<float>("standard_gamma f32",
                            [&](auto& g) { return g.template standard_gamma<float>(0.7, s); });
  host_equals_device<double>("gamma", [&](auto& g) { return g.gamma(2.5, 2, s); });
  host_equals_device<double>("beta", [&](auto& g) { return g.beta(0.5, 3, s); });
  host_equals_device<double>("chisquare", [&](auto& g) { return g.chisquare(3, s); });
  host_equals_device<double>("f", [&](auto& g) { return g.f(3, 7, s); });
  host_equals_device<double>("standard_t", [&](auto& g) { return g.standard_t(5, s); });
  host_equals_device<double>("vonmises", [&](auto& g) { return g.vonmises(0.5, 4, s); });
  host_equals_device<double>("wald", [&](auto& g) { return g.wald(1, 2, s); });
  host_equals_device<double>("noncentral_chisquare",
                             [&](auto& g) { return g.noncentral_chisquare(3, 2, s); });
  host_equals_device<double>("noncentral_f", [&](auto& g) { return g.noncentral_f(3, 7, 2, s); });
  host_equals_device<std::int64_t>("poisson", [&](auto& g) { return g.poisson(25.0, s); });
  host_equals_device<std::int64_t>("binomial", [&](auto& g) { return g.binomial(100, 0.3, s); });
  host_equals_device<std::int64_t>("negative_binomial",
                                   [&](auto& g) { return g.negative_binomial(5, 0.4, s); });
  host_equals_device<std::int64_t>("geometric", [&](auto& g) { return g.geometric(0.2, s); });
  host_equals_device<std::int64_t>("logseries", [&](auto& g) { return g.logseries(0.9, s); });
  host_equals_device<std::int64_t>("zipf", [&](auto& g) { return g.zipf(2.5, s); });
  host_equals_device<std::int64_t>("hypergeometric",
                                   [&](auto& g) { return g.hypergeometric(50, 40, 30, s); });
}

BOOST_AUTO_TEST_CASE(fused_draws_match_stored_ones) {
  auto a = cupp::random::default_rng(9), b = cupp::random::default_rng(9);
  const cupp::ndarray<float> x = cupp::arange<float>(4099);
  const cupp::ndarray<float> fused = x + a.normal<float>(0, 1, x.shape());
  const cupp::ndarray<float> noise = b.normal<float>(0, 1, x.shape());
  const cupp::ndarray<float> stored = x + noise;
  BOOST_TEST(same_bits(values(cupp::asnumpy(fused)), values(cupp::asnumpy(stored))));
}
#endif

BOOST_AUTO_TEST_SUITE_END()
