// The legacy RandomState's helpers that name none of its types: CuPy's
// seed(None) from the operating system's entropy, the module states'
// seeding from CUPP_SEED and their lock, NumPy's legacy randint bounds,
// and the largest Poisson mean whose counts fit cuRAND's 32-bit output.
// <cupp/random/legacy.hpp> calls them from cupp::random::detail.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <string>

#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>

namespace cupp::random::detail {

// Like CuPy's seed(None): 64 bits from the operating system.
inline std::uint64_t entropy_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) | device();
}

// NumPy's legacy randint bounds: [low, high) with the messages of
// RandomState.randint ("high <= 0" when low is 0, the one-argument case).
template <class T>
void check_randint(__int128 low, __int128 high) {
  const std::string name(::cupp::dtype_of<T>().name);
  if (low < static_cast<__int128>(std::numeric_limits<T>::lowest()))
    throw value_error("low is out of bounds for " + name);
  if (high - 1 > static_cast<__int128>(std::numeric_limits<T>::max()))
    throw value_error("high is out of bounds for " + name);
  if (high <= low) throw value_error(low == 0 ? "high <= 0" : "low >= high");
}

// Above this a Poisson count might not fit cuRAND's 32-bit output; the
// philox sampler takes the draw instead.
inline constexpr double curand_poisson_lam_max = 2147483648.0;

// A module state: seeded from CUPP_SEED when set (CuPy's CUPY_SEED), else
// from entropy.
template <class State>
std::unique_ptr<State> new_module_state() {
  if (const char* env = std::getenv("CUPP_SEED"))
    return std::make_unique<State>(static_cast<std::uint64_t>(std::stoull(env)));
  return std::make_unique<State>();
}

inline std::mutex& module_states_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace cupp::random::detail
