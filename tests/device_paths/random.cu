// Device paths of random numbers (<cupp/random.hpp>), float64: the bit
// generator (philox: seeds, state, jumped, advance, spawn, entropy),
// default_rng and Generator.spawn, bytes, integers (int64, and int32 with
// endpoint), RandomState's randint and random_integers, its cuRAND
// methods, seed and the module's state (seed, get_random_state,
// set_random_state), and the uniform numbers, normals and their closed
// forms through the Generator, a RandomState and the module
// (random_draws.hpp: dtype, shape, range and mean of each draw).
// random_float32.cu draws the same on float32; the rejection samplers are
// in random_gamma*.cu, the discrete ones in random_discrete.cu,
// permutations, choices and vectors in random_shuffle.cu.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/random.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "checks.hpp"
#include "random_draws.hpp"

using device_paths::draw_size;
using device_paths::expect;
using device_paths::expect_draw;
using device_paths::expect_draws;
namespace rm = cupp::random;

namespace {

template <class A>
std::vector<double> host_values(const A& a) {
  std::vector<double> v;
  for (const auto x : cupp::ndarray<typename A::value_type>(a).to_vector())
    v.push_back(static_cast<double>(x));
  return v;
}

void bit_generator() {
  // A saved state gives the same numbers again; jumped, advanced and
  // spawned generators give others.
  rm::philox bg(42);
  const rm::philox_state saved = bg.state();
  rm::Generator g(bg);
  const auto first = host_values(g.random(cupp::shape_t{4}));
  g.bit_generator().set_state(saved);
  expect(host_values(g.random(cupp::shape_t{4})) == first, "set_state replays the draw");
  expect(bg.jumped().state().stream == saved.stream + 1, "jumped");
  expect(rm::philox(bg).advance(5).state().counter == saved.counter + 5, "advance");
  expect(bg.spawn(2).size() == 2 && !(bg.spawn(1)[0].state() == saved), "philox spawn");
  expect(!(rm::philox::from_entropy().state() == saved), "from_entropy");
  expect(g.spawn(3).size() == 3, "Generator spawn");
  expect(g.bytes(10).size() == 10, "bytes");
  auto any = rm::default_rng();
  expect_draw<double>(any.random(draw_size), draw_size, 0, 1, 0.5, std::sqrt(1 / 12.0),
                      "default_rng()");
}

void integers(rm::Generator& g, rm::RandomState& rs) {
  const double sd10 = std::sqrt((100 - 1) / 12.0);
  expect_draws<std::int64_t>("integers [-3, 7)", -3, 6, 1.5, sd10, g.integers(-3, 7, draw_size),
                             rs.randint(-3, 7, draw_size), rm::randint(-3, 7, draw_size),
                             rs.random_integers(-3, 6, draw_size),
                             rm::random_integers(-3, 6, draw_size));
  expect_draws<std::int64_t>("integers [0, 10)", 0, 9, 4.5, sd10, g.integers(10, draw_size),
                             rs.randint(10, draw_size), rm::randint(10, draw_size));
  expect_draws<std::int64_t>("integers [1, 10]", 1, 10, 5.5, sd10,
                             rs.random_integers(10, draw_size), rm::random_integers(10, draw_size));
  expect_draw<std::int32_t>(g.integers<std::int32_t>(5, draw_size, true), draw_size, 0, 5, 2.5,
                            std::sqrt((36 - 1) / 12.0), "integers int32 [0, 5]");
}

// The module's state: seeded, replaced, and cuRAND's other generators.
void states() {
  rm::seed(7);
  const auto a = host_values(rm::rand(4));
  rm::seed(7);
  expect(host_values(rm::get_random_state().random_sample(cupp::shape_t{4})) == a, "seed");
  rm::set_random_state(rm::RandomState(7));
  expect(host_values(rm::rand(4)) == a, "set_random_state");
  rm::seed();
  for (const rm::rng_method m : {rm::rng_method::mrg32k3a, rm::rng_method::mtgp32,
                                 rm::rng_method::mt19937, rm::rng_method::curand_philox}) {
    rm::RandomState other(3, m);
    expect(other.method() == m, "RandomState method");
    expect_draw<double>(other.random_sample(draw_size), draw_size, 0, 1, 0.5, std::sqrt(1 / 12.0),
                        "random_sample of another cuRAND generator");
    other.seed(4);
  }
  rm::RandomState entropy;
  expect(entropy.generator().bit_generator().state().counter == 0, "RandomState()");
}

}  // namespace

void device_paths_random() {
  bit_generator();
  auto g = rm::default_rng(12345);
  rm::RandomState rs(12345), ph(12345, rm::rng_method::philox);
  integers(g, rs);
  states();
  device_paths::continuous_draws<double>(g, rs, ph);
}
