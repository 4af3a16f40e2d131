// cupp::random::philox, the bit generator behind every Generator (NumPy's
// numpy.random.Philox): Philox4x32-10 under a 64-bit key, with a 64-bit
// block counter and a 32-bit stream number. A draw takes a range of
// counter blocks and advances the counter past it; jumped() moves to
// another stream (2^64 blocks apart), advance() skips blocks, spawn() makes
// children with keys of their own (NumPy's SeedSequence.spawn). The state
// is four integers that can be saved and restored.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <cupp/detail/random/draw.hpp>
#include <cupp/detail/random/philox.hpp>
#include <cupp/errors.hpp>

namespace cupp::random {

// Everything a philox bit generator is: restoring it continues the same
// numbers.
struct philox_state {
  std::uint64_t key = 0;
  std::uint64_t counter = 0;   // the next block a draw takes
  std::uint32_t stream = 0;    // what jumped() advances
  std::uint64_t children = 0;  // how many children spawn() has made
  friend bool operator==(const philox_state&, const philox_state&) = default;
};

class philox {
 public:
  // The key from the seed, through SplitMix64 (nearby seeds give unrelated
  // keys).
  explicit philox(std::uint64_t seed) {
    std::uint64_t s = seed;
    state_.key = ::cupp::detail::random::splitmix64(s);
  }
  explicit philox(const philox_state& state) : state_(state) {}
  // A seed from the operating system's entropy (numpy.random.default_rng()).
  static philox from_entropy() {
    std::random_device device;
    const std::uint64_t seed = (static_cast<std::uint64_t>(device()) << 32) | device();
    return philox(seed);
  }

  const philox_state& state() const { return state_; }
  void set_state(const philox_state& s) { state_ = s; }

  // A copy `jumps` streams further on: as many numbers apart as 2^64
  // blocks (numpy's Philox.jumped).
  philox jumped(std::uint32_t jumps = 1) const {
    philox next = *this;
    next.state_.stream += jumps;
    next.state_.counter = 0;
    return next;
  }
  // Skips `blocks` counter blocks (numpy's Philox.advance).
  philox& advance(std::uint64_t blocks) {
    state_.counter += blocks;
    return *this;
  }
  // n independent children, each with a key of its own derived from this
  // key and the child's number; spawning again makes new ones.
  std::vector<philox> spawn(int n) {
    if (n < 0) throw value_error("n_children must be non-negative");
    std::vector<philox> children;
    children.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      std::uint64_t s = state_.key ^ 0x5851F42D4C957F2Dull;
      const std::uint64_t mixed = ::cupp::detail::random::splitmix64(s);
      std::uint64_t t = mixed + state_.children++ * 0x9E3779B97F4A7C15ull;
      philox_state child;
      child.key = ::cupp::detail::random::splitmix64(t);
      children.emplace_back(child);
    }
    return children;
  }

  // The words of the next `blocks` counter blocks, for a draw.
  ::cupp::detail::random::draw_site take(std::uint64_t blocks) {
    ::cupp::detail::random::draw_site site;
    site.key = {static_cast<std::uint32_t>(state_.key),
                static_cast<std::uint32_t>(state_.key >> 32)};
    site.base = state_.counter;
    site.stream = state_.stream;
    state_.counter += blocks;
    return site;
  }

 private:
  philox_state state_;
};

}  // namespace cupp::random
