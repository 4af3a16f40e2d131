// A keyed pseudo-random bijection of [0, n), the heart of permutation,
// shuffle, permuted and choice without replacement: element i of a
// permutation is bijection(i), a pure function of the key and i, so a
// permutation is one pass that writes each element once, with no sort and
// nothing shared between threads, and the host computes the same bits.
//
// The construction is that of Mitchell, Stokes, Frank and Holmes,
// "Bandwidth-optimal random shuffling for GPUs" (ACM TOPC 2022): a Feistel
// network on b bits, 2^(b-1) < n <= 2^b, made a bijection of [0, n) by
// cycle walking (apply it again while the value is n or more: the walk
// stays on the cycle of the start, which holds an element below n, so it
// ends, after fewer than two steps on average since 2^b < 2n).
//
// The rounds are unbalanced (the halves of an odd b differ by a bit) and
// alternate which part they change; each round's function hashes the
// unchanged part with a round key (a key-alternating Feistel network). A
// round that changes a part wider than one bit XORs it with a constant per
// value of the other part, an even permutation; the first round changes
// a single bit, so that both parities of permutation are reached
// (a Feistel network with wider parts only reaches half of the
// permutations of a power-of-two domain). Up to 16 elements, where a
// Feistel network mixes too slowly, the permutation is a Fisher-Yates
// shuffle of the key's words instead.
#pragma once

#include <cstdint>

#include <cupp/config.hpp>
#include <cupp/detail/random/draw.hpp>
#include <cupp/detail/random/philox.hpp>

namespace cupp::detail::random {

// A 32-bit integer hash with full avalanche (two multiply-xorshift steps,
// constants from Wellons' hash-prospector search).
CUPP_HD inline std::uint32_t mix32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x21F0AAADu;
  x ^= x >> 15;
  x *= 0x735A2D97u;
  x ^= x >> 15;
  return x;
}

// The number of Feistel rounds after the parity round. A narrow domain
// mixes slowly, each round changing only b/2 bits: with four rounds the
// spread of the number of inversions of permutations of 17 and 100
// elements was measurably wrong over 20,000 keys, and on 3 bits even twenty
// rounds left permutations of 5 and 6 elements visibly non-uniform (so
// n <= small_permutation_max does not use the network at all). Wider
// domains mix within a few rounds (four make Luby and Rackoff's
// pseudo-random permutation), and there a round costs as much as a narrow
// one, so the count falls with b.
CUPP_HD constexpr int feistel_rounds(int bits) {
  return bits <= 10 ? 20 : 12;
}
static_assert(feistel_rounds(10) % 4 == 0 && feistel_rounds(11) % 4 == 0,
              "encrypt32 takes the rounds four at a time");

// Up to this many elements a permutation is drawn by Fisher and Yates'
// shuffle instead, exactly uniform (but for the 2^-32 bias of turning a
// word into an index), packed in one 64-bit word of 4-bit entries.
inline constexpr std::uint64_t small_permutation_max = 16;

class feistel_bijection {
 public:
  feistel_bijection() = default;
  // A bijection of [0, n) keyed by block `index` of a draw site (a
  // permutation takes one block; permuted gives each slice its own): its
  // four words key the network; a small permutation reads the words of
  // substreams 0 to 3 of the block.
  CUPP_HD feistel_bijection(std::uint64_t n, const draw_site& site, std::uint64_t index)
      : n_(n), key_(block_at(site, index)) {
    bits_ = 0;
    while (bits_ < 63 && (std::uint64_t{1} << bits_) < n) ++bits_;
    if (n <= small_permutation_max) shuffle_small(site, index);
  }

  CUPP_HD std::uint64_t size() const { return n_; }

  // The image of i (0 <= i < n).
  CUPP_HD std::uint64_t operator()(std::uint64_t i) const {
    if (n_ <= small_permutation_max) return (small_ >> (4 * i)) & 0xFu;
    if (bits_ <= 32) {
      auto x = static_cast<std::uint32_t>(i);
      do x = encrypt32(x);
      while (x >= n_);
      return x;
    }
    std::uint64_t x = i;
    do x = encrypt64(x);
    while (x >= n_);
    return x;
  }

 private:
  // One pass of the network over [0, 2^bits): whitening, the parity round,
  // then the alternating rounds. The part a round changes is `hi` (the top
  // bits); it moves to the bottom, so the next round changes the other part.
  CUPP_HD std::uint32_t encrypt32(std::uint32_t x) const {
    const int b = bits_;
    const std::uint32_t all = b == 32 ? ~0u : (1u << b) - 1;
    x ^= key_.w[3] & all;
    x = round32(x, b - 1, round_key(0));
    // The alternating rounds four at a time (feistel_rounds is a multiple of
    // four): round r changes the top b - low bits with low = b / 2 for odd
    // r and b - b / 2 for even r, keyed by round_key(r). The same values as
    // round32 round by round, with the masks and keys out of the loop.
    const int la = b / 2, lb = b - la;
    const std::uint32_t mask_a = (1u << la) - 1, mask_b = (1u << lb) - 1;
    const int groups = feistel_rounds(b) / 4;
    for (int q = 0; q < groups; ++q) {
      const std::uint32_t step = static_cast<std::uint32_t>(q) * 0x9E3779B9u;
      x = round_a(x, la, lb, mask_a, mask_b, key_.w[1] + step);
      x = round_a(x, lb, la, mask_b, mask_a, key_.w[2] + step);
      x = round_a(x, la, lb, mask_a, mask_b, key_.w[3] + step);
      x = round_a(x, lb, la, mask_b, mask_a, key_.w[0] + step + 0x9E3779B9u);
    }
    return x;
  }
  // round32 where both parts are narrower than 32 bits: (hi, lo) with `low`
  // bits of lo and `high` of hi -> (lo, hi ^ F(lo)).
  CUPP_HD static std::uint32_t round_a(std::uint32_t x, int low, int high, std::uint32_t lo_mask,
                                       std::uint32_t hi_mask, std::uint32_t k) {
    const std::uint32_t lo = x & lo_mask;
    return (lo << high) | (((x >> low) ^ mix32(lo ^ k)) & hi_mask);
  }
  // Fisher-Yates from the last position down, on 4-bit entries: entry j
  // swaps with a uniform entry among 0..j.
  CUPP_HD void shuffle_small(const draw_site& site, std::uint64_t index) {
    small_ = 0;
    for (std::uint64_t j = 0; j < n_; ++j) small_ |= j << (4 * j);
    words4 w = key_;
    for (std::uint64_t top = n_ - 1, step = 0; n_ > 1 && top > 0; --top, ++step) {
      if (step % 4 == 0 && step > 0)
        w = block_at(site, index, static_cast<std::uint32_t>(step / 4));
      const std::uint64_t pick = mul_hi32(w.w[step % 4], static_cast<std::uint32_t>(top + 1));
      const std::uint64_t a = (small_ >> (4 * top)) & 0xFu, b = (small_ >> (4 * pick)) & 0xFu;
      small_ &= ~((std::uint64_t{0xF} << (4 * top)) | (std::uint64_t{0xF} << (4 * pick)));
      small_ |= (b << (4 * top)) | (a << (4 * pick));
    }
  }
  // Round r's key: a word of the key plus a Weyl step per pass over the
  // four (Philox's own key schedule), so no two rounds share a function.
  CUPP_HD std::uint32_t round_key(int r) const {
    return key_.w[r & 3] + static_cast<std::uint32_t>(r >> 2) * 0x9E3779B9u;
  }
  // (hi, lo) with `low` bits of lo -> (lo, hi ^ F(lo)).
  CUPP_HD std::uint32_t round32(std::uint32_t x, int low, std::uint32_t k) const {
    const int high = bits_ - low;
    const std::uint32_t lo = low == 0 ? 0u : x & (~0u >> (32 - low));
    const std::uint32_t hi = low == 32 ? 0u : x >> low;
    const std::uint32_t hi_mask = high == 0 ? 0u : ~0u >> (32 - high);
    const std::uint32_t f = mix32(lo ^ k);
    const std::uint32_t moved = high == 32 ? 0u : lo << high;
    return moved | ((hi ^ f) & hi_mask);
  }

  CUPP_HD std::uint64_t encrypt64(std::uint64_t x) const {
    const int b = bits_;
    x ^=
        ((static_cast<std::uint64_t>(key_.w[3]) << 32) | key_.w[2]) & ((std::uint64_t{1} << b) - 1);
    x = round64(x, b - 1, round_key(0));
    const int rounds = feistel_rounds(b);
    int low = b / 2;
    for (int r = 1; r <= rounds; ++r) {
      x = round64(x, low, round_key(r));
      low = b - low;
    }
    return x;
  }
  // As round32; the unchanged part may be wider than 32 bits (the parity
  // round), so both of its words enter the hash. The changed part is 32
  // bits at most (b <= 63).
  CUPP_HD std::uint64_t round64(std::uint64_t x, int low, std::uint32_t k) const {
    const int high = bits_ - low;
    const std::uint64_t lo = x & ((std::uint64_t{1} << low) - 1);
    const std::uint64_t hi = x >> low;
    const auto lo_low = static_cast<std::uint32_t>(lo),
               lo_high = static_cast<std::uint32_t>(lo >> 32);
    const std::uint32_t f = mix32(lo_low ^ k ^ (lo_high == 0 ? 0u : mix32(lo_high + k)));
    const std::uint64_t hi_mask = (std::uint64_t{1} << high) - 1;
    return (lo << high) | ((hi ^ f) & hi_mask);
  }

  std::uint64_t n_ = 0;
  std::uint64_t small_ = 0;  // entry i (4 bits each) is the image of i, n <= 16
  int bits_ = 0;
  words4 key_{};
};

}  // namespace cupp::detail::random
