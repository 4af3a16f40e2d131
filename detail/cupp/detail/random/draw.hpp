// How a draw turns Philox blocks into values. A draw of n values reads the
// blocks base, base + 1, ... of its generator's stream: a sampler that
// makes several values from one block (uniforms, float normals) gives
// value p from block p / per_block; a sampler that needs an unknown number
// of words (rejection) gives value p from the words of its own index p,
// block after block (the 32-bit `sub` word of the counter counts them).
// Either way value p is a pure function of (key, stream, base, p): the same
// on every grid, device, number of devices, and on the host.
#pragma once

#include <cstdint>

#include <cupp/config.hpp>
#include <cupp/detail/random/philox.hpp>
#include <cupp/index_types.hpp>

namespace cupp::detail::random {

// Where a draw reads its words.
struct draw_site {
  philox_key key;
  std::uint64_t base = 0;
  std::uint32_t stream = 0;
};

// Block `index` of the draw; sub > 0 are extra blocks of the same index
// (a sampler that needs more words for a rare case).
CUPP_HD inline words4 block_at(const draw_site& s, std::uint64_t index, std::uint32_t sub = 0) {
  return philox4x32_10(philox_counter(s.base + index, sub, s.stream), s.key);
}

// The words of one element of a rejection sampler, a block at a time,
// starting at block `sub` of its index.
class element_words {
 public:
  CUPP_HD element_words(const draw_site& s, std::uint64_t index, std::uint32_t sub = 0)
      : site_(s), index_(index), sub_(sub) {}

  CUPP_HD std::uint32_t next32() {
    if (used_ == 4) {
      buf_ = block_at(site_, index_, sub_++);
      used_ = 0;
    }
    // Selects, not buf_.w[used_]: an array indexed by a variable would
    // live in local memory, and every word would be a load from it.
    const int u = used_++;
    return u == 0 ? buf_.w[0] : u == 1 ? buf_.w[1] : u == 2 ? buf_.w[2] : buf_.w[3];
  }
  CUPP_HD std::uint64_t next64() {
    const std::uint64_t hi = next32();
    return (hi << 32) | next32();
  }
  // [0, 1) and (0, 1], as the block samplers make them.
  CUPP_HD float next_float() { return unit_float(next32()); }
  CUPP_HD double next_double() {
    const std::uint32_t hi = next32();
    return unit_double(hi, next32());
  }
  CUPP_HD float next_open_float() { return open_unit_float(next32()); }
  CUPP_HD double next_open_double() {
    const std::uint32_t hi = next32();
    return open_unit_double(hi, next32());
  }
  template <class T>
  CUPP_HD T next_unit() {
    if constexpr (sizeof(T) == 4)
      return static_cast<T>(next_float());
    else
      return static_cast<T>(next_double());
  }
  template <class T>
  CUPP_HD T next_open_unit() {
    if constexpr (sizeof(T) == 4)
      return static_cast<T>(next_open_float());
    else
      return static_cast<T>(next_open_double());
  }

 private:
  draw_site site_;
  std::uint64_t index_;
  std::uint32_t sub_;
  words4 buf_{};
  int used_ = 4;
};

// The generator functor of a draw (the leaf of cupp::generator): D is a
// sampler with value_type and either
//   per_block > 0:  CUPP_HD void from_block(const draw_site&, std::uint64_t block,
//                                           const words4&, value_type* out) const
//                   (per_block values of one block), or
//   per_block == 0: CUPP_HD value_type sample(element_words&) const.
template <class D>
struct draw_fn {
  using value_type = typename D::value_type;
  static constexpr int coords = 1;
  static constexpr int block = D::per_block > 0 ? D::per_block : 1;
  // Registers for the element-wise kernel (its min_blocks, 256 threads a
  // block): a rejection sampler's loops and elementary functions spill to
  // local memory under the default budget of 40 registers, so it asks for
  // 128; a block sampler keeps the default unless it says otherwise.
  static constexpr int min_blocks = [] {
    if constexpr (requires { D::min_blocks; })
      return D::min_blocks;
    else
      return D::per_block > 0 ? 6 : 2;
  }();
  // A sampler bound by arithmetic may ask for chunks of 32 bytes instead
  // of 16 (D::chunk_scale = 2): the loop's own instructions per chunk were a
  // quarter of a float normal's. A bare draw only; in a larger expression
  // the chunk stays the expression's.
  static constexpr int chunk_scale = [] {
    if constexpr (requires { D::chunk_scale; })
      return D::chunk_scale;
    else
      return 1;
  }();
  D dist;
  draw_site site;

  // A sampler with tables (count_tables.hpp) binds them for the memory of
  // `device` (lower_ctx::device); others have nothing to bind.
  draw_fn bind(int device) const requires requires(const D& d) { d.bind(device); }
  {
    draw_fn r = *this;
    r.dist = dist.bind(device);
    return r;
  }

  CUPP_HD value_type operator()(const index_t* pos) const {
    const auto p = static_cast<std::uint64_t>(pos[0]);
    if constexpr (D::per_block > 0) {
      value_type v[block];
      const std::uint64_t b = p / block;
      dist.from_block(site, b, block_at(site, b), v);
      // A select, not v[p % block]: a computed index would put v in local
      // memory.
      const auto j = static_cast<int>(p % block);
      value_type out = v[0];
      CUPP_UNROLL
      for (int i = 1; i < block; ++i)
        if (i == j) out = v[i];
      return out;
    } else {
      element_words w(site, p);
      return dist.sample(w);
    }
  }
  // Values first ... first + block - 1 (first a multiple of block).
  CUPP_HD void block_values(index_t first, value_type* out) const {
    const auto b = static_cast<std::uint64_t>(first) / block;
    dist.from_block(site, b, block_at(site, b), out);
  }
  // The counter indices a draw of n values uses.
  static constexpr std::uint64_t blocks_for(std::uint64_t n) {
    return D::per_block > 0 ? (n + block - 1) / block : n;
  }
};

}  // namespace cupp::detail::random
