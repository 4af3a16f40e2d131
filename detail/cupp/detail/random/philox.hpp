// Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers:
// as easy as 1, 2, 3", SC'11): a keyed bijection of a 128-bit counter, ten
// rounds of two 32x32->64 multiplications. The same function on the host
// and the device, so both give the same words for the same key and
// counter; element i of a draw is a pure function of (key, counter), which
// is what makes every draw independent of the grid, the device and the
// number of devices.
#pragma once

#include <cstdint>

#include <cupp/config.hpp>

namespace cupp::detail::random {

struct philox_key {
  std::uint32_t k0 = 0, k1 = 0;
};

// Four 32-bit words: a counter going in, random words coming out.
struct words4 {
  std::uint32_t w[4];
};

CUPP_HD inline std::uint32_t mul_hi32(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
#endif
}

// The ten rounds of Philox4x32 on counter c under key k.
CUPP_HD inline words4 philox4x32_10(words4 c, philox_key k) {
  constexpr std::uint32_t m0 = 0xD2511F53u, m1 = 0xCD9E8D57u;
  constexpr std::uint32_t w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;  // the key schedule's Weyl steps
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int round = 0; round < 10; ++round) {
    const std::uint32_t hi0 = mul_hi32(m0, c.w[0]), lo0 = m0 * c.w[0];
    const std::uint32_t hi1 = mul_hi32(m1, c.w[2]), lo1 = m1 * c.w[2];
    c = words4{{hi1 ^ c.w[1] ^ k.k0, lo1, hi0 ^ c.w[3] ^ k.k1, lo0}};
    k.k0 += w0;
    k.k1 += w1;
  }
  return c;
}

// The counter of block `index` (64 bits) of substream `sub` (32 bits: the
// attempt of a rejection sampler) in stream `stream` (32 bits: what
// jumped() advances).
CUPP_HD inline words4 philox_counter(std::uint64_t index, std::uint32_t sub, std::uint32_t stream) {
  return words4{
      {static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32), sub, stream}};
}

// SplitMix64 (Steele, Lea and Flood, 2014): spreads a user's seed, and a
// parent key with a child's number, into well-mixed 64-bit keys.
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Uniform numbers from words, as NumPy's Generator makes them: float32 in
// [0, 1) from the top 24 bits of a word, float64 from the top 53 of two.
CUPP_HD inline float unit_float(std::uint32_t w) {
  return static_cast<float>(w >> 8) * (1.0f / 16777216.0f);
}
CUPP_HD inline double unit_double(std::uint32_t hi, std::uint32_t lo) {
  const std::uint64_t u = (static_cast<std::uint64_t>(hi) << 32) | lo;
  return static_cast<double>(u >> 11) * (1.0 / 9007199254740992.0);
}
// (0, 1]: for logarithms.
CUPP_HD inline float open_unit_float(std::uint32_t w) {
  return static_cast<float>((w >> 8) + 1) * (1.0f / 16777216.0f);
}
CUPP_HD inline double open_unit_double(std::uint32_t hi, std::uint32_t lo) {
  const std::uint64_t u = (static_cast<std::uint64_t>(hi) << 32) | lo;
  return static_cast<double>((u >> 11) + 1) * (1.0 / 9007199254740992.0);
}

}  // namespace cupp::detail::random
