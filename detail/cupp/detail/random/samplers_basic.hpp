// The samplers that make several values from one Philox block: uniforms,
// ziggurat normals, integers, and the distributions that are a closed
// formula of one uniform or normal. A float value takes one 32-bit word, a
// double two, so a block gives 4 floats or 2 doubles. All arithmetic goes
// through exact_math (host and device give the same bits).
#pragma once

#include <cstdint>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/detail/random/draw.hpp>
#include <cupp/detail/random/exact_math.hpp>
#include <cupp/detail/random/normal_quantile.hpp>
#include <cupp/detail/random/ziggurat.hpp>

namespace cupp::detail::random {

// Values per block for a value type whose values take one word (float,
// types of up to 32 bits) or two (double, 64-bit types).
template <class T>
inline constexpr int per_block_of = sizeof(T) <= 4 ? 4 : 2;

// Uniform values of a block: [0, 1) (open = false) or (0, 1] (open = true).
template <class T, bool open = false>
CUPP_HD inline void block_units(const words4& b, T* u) {
  if constexpr (sizeof(T) <= 4) {
    for (int j = 0; j < 4; ++j) u[j] = open ? open_unit_float(b.w[j]) : unit_float(b.w[j]);
  } else {
    u[0] = open ? open_unit_double(b.w[0], b.w[1]) : unit_double(b.w[0], b.w[1]);
    u[1] = open ? open_unit_double(b.w[2], b.w[3]) : unit_double(b.w[2], b.w[3]);
  }
}

// Standard normal values of a block: float by inversion, one word a value
// (normal_quantile.hpp, branch-free), double by the ziggurat
// (ziggurat.hpp, two words a value). The few doubles that fail the
// ziggurat's fast test continue, in order, on the words of the block's
// extra counter (sub 1), so each value still depends on its block alone.
template <class T>
CUPP_HD inline void block_normals(const draw_site& site, std::uint64_t block, const words4& b,
                                  T* z) {
  if constexpr (sizeof(T) <= 4) {
    for (int j = 0; j < 4; ++j) z[j] = static_cast<T>(normal_from_word(b.w[j]));
  } else {
    bool negative[2];
    unsigned strip[2], slow = 0;
    for (int j = 0; j < 2; ++j) {
      const std::uint64_t r = (static_cast<std::uint64_t>(b.w[2 * j]) << 32) | b.w[2 * j + 1];
      if (!ziggurat_fast<T>(r, z[j], strip[j], negative[j])) slow |= 1u << j;
    }
    if (slow == 0) return;
    element_words more(site, block, 1);
    // Unrolled, so that the per-value arrays stay in registers.
    CUPP_UNROLL
    for (int j = 0; j < 2; ++j)
      if (slow & (1u << j)) z[j] = ziggurat_finish<T>(more, strip[j], negative[j], z[j]);
  }
}

// A sampler that maps each uniform of a block through F (a closed form of
// one uniform): F(u) with u in (0, 1] when Open, [0, 1) otherwise.
template <class T, class F, bool Open>
struct uniform_map_sampler {
  using value_type = T;
  static constexpr int per_block = per_block_of<T>;
  // float64's elementary functions spill under the default 40 registers.
  static constexpr int min_blocks = sizeof(T) > 4 ? 4 : 6;
  // Wider chunks: float64 exponential 0.360 -> 0.332 ms on an H100; a float
  // uniform, bound by memory, lost (0.397 -> 0.490 ms).
  static constexpr int chunk_scale = sizeof(T) > 4 ? 2 : 1;
  F f;
  CUPP_HD void from_block(const draw_site&, std::uint64_t, const words4& b, T* out) const {
    T u[per_block];
    block_units<T, Open>(b, u);
    for (int j = 0; j < per_block; ++j) out[j] = f(u[j]);
  }
};

// A sampler that maps each standard normal of a block through F.
template <class T, class F>
struct normal_map_sampler {
  using value_type = T;
  static constexpr int per_block = per_block_of<T>;
  static constexpr int min_blocks = 4;  // 64 registers: four normals and their functions
  // Wider chunks for the float normal, bound by arithmetic: 0.532 -> 0.462
  // ms for 2^28 on an H100.
  static constexpr int chunk_scale = sizeof(T) > 4 ? 1 : 2;
  F f;
  CUPP_HD void from_block(const draw_site& site, std::uint64_t block, const words4& b,
                          T* out) const {
    T z[per_block];
    block_normals<T>(site, block, b, z);
    for (int j = 0; j < per_block; ++j) out[j] = f(z[j]);
  }
};

// --- the closed forms --------------------------------------------------------

// low + range * u (numpy.random.Generator.uniform; random is low 0, range 1).
template <class T>
struct affine_fn {
  T low, range;
  CUPP_HD T operator()(T u) const { return xm::add(low, xm::mul(range, u)); }
};

// -log(u) for u in (0, 1], times scale: the exponential distribution by
// inversion.
template <class T>
struct exponential_fn {
  T scale;
  CUPP_HD T operator()(T u) const { return xm::mul(scale, -xm::log(u)); }
};

// loc - scale * log(-log(u')) with u' = 1 - u in (0, 1] (Gumbel by inversion).
template <class T>
struct gumbel_fn {
  T loc, scale;
  CUPP_HD T operator()(T u) const {
    const T e = -xm::log(xm::sub(T(1), u));  // u in [0, 1): 1 - u in (0, 1]
    return xm::sub(loc, xm::mul(scale, xm::log(e)));
  }
};

// Laplace by inversion of its two halves (u in (0, 1]).
template <class T>
struct laplace_fn {
  T loc, scale;
  CUPP_HD T operator()(T u) const {
    if (u >= T(0.5)) return xm::sub(loc, xm::mul(scale, xm::log(xm::mul(T(2), xm::sub(T(1), u)))));
    return xm::add(loc, xm::mul(scale, xm::log(xm::mul(T(2), u))));
  }
};

// loc + scale * log(u / (1 - u)) for u in (0, 1) (logistic by inversion).
template <class T>
struct logistic_fn {
  T loc, scale;
  CUPP_HD T operator()(T u) const {
    return xm::add(loc, xm::mul(scale, xm::log(xm::div(u, xm::sub(T(1), u)))));
  }
};

// scale * sqrt(-2 log u) (Rayleigh by inversion).
template <class T>
struct rayleigh_fn {
  T scale;
  CUPP_HD T operator()(T u) const { return xm::mul(scale, xm::sqrt(xm::mul(T(-2), xm::log(u)))); }
};

// (-log u)^(1/a) (Weibull by inversion; a == 0 gives 0 as NumPy).
template <class T>
struct weibull_fn {
  T a;
  CUPP_HD T operator()(T u) const {
    if (a == T(0)) return T(0);
    return xm::pow(-xm::log(u), xm::div(T(1), a));
  }
};

// expm1(-log(u) / a): NumPy's pareto, the Lomax (Pareto II) distribution.
template <class T>
struct pareto_fn {
  T a;
  CUPP_HD T operator()(T u) const { return xm::expm1(xm::div(-xm::log(u), a)); }
};

// (1 - u')^(1/a) with u' = 1 - u: the power distribution by inversion.
template <class T>
struct power_fn {
  T a;
  CUPP_HD T operator()(T u) const { return xm::pow(u, xm::div(T(1), a)); }
};

// The triangular distribution by inversion of its two pieces (u in [0, 1)).
template <class T>
struct triangular_fn {
  T left, mode, right;
  CUPP_HD T operator()(T u) const {
    const T base = xm::sub(right, left), left_base = xm::sub(mode, left);
    const T ratio = xm::div(left_base, base);
    if (u <= ratio) return xm::add(left, xm::sqrt(xm::mul(u, xm::mul(left_base, base))));
    const T right_base = xm::sub(right, mode);
    return xm::sub(right, xm::sqrt(xm::mul(xm::sub(T(1), u), xm::mul(right_base, base))));
  }
};

// z itself (standard_normal: without normal_fn's two operations a value);
// loc + scale * z (normal); exp(mean + sigma * z) (lognormal).
template <class T>
struct standard_normal_fn {
  CUPP_HD T operator()(T z) const { return z; }
};
template <class T>
struct normal_fn {
  T loc, scale;
  CUPP_HD T operator()(T z) const { return xm::add(loc, xm::mul(scale, z)); }
};
template <class T>
struct lognormal_fn {
  T mean, sigma;
  CUPP_HD T operator()(T z) const { return xm::exp(xm::add(mean, xm::mul(sigma, z))); }
};

// The ratio of two standard normals (standard Cauchy): a block's normals
// pair up, so it gives half as many values.
template <class T>
struct cauchy_sampler {
  using value_type = T;
  static constexpr int per_block = per_block_of<T> / 2;
  static constexpr int min_blocks = 4;
  CUPP_HD void from_block(const draw_site& site, std::uint64_t block, const words4& b,
                          T* out) const {
    T z[per_block_of<T>];
    block_normals<T>(site, block, b, z);
    for (int j = 0; j < per_block; ++j) out[j] = xm::div(z[2 * j], z[2 * j + 1]);
  }
};

// --- integers ----------------------------------------------------------------

// 64 x 64 -> high and low 64 bits of the product.
CUPP_HD inline std::uint64_t mul_hi64(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

// Integers low + [0, span) (span 0 meaning 2^64, every value of a 64-bit
// type) by Lemire's multiply-and-reject method on 64-bit words: each value
// takes the two words of its half of a block, and in the rare case that it
// must reject (probability below span / 2^64), the words of extra blocks of
// the same index (sub 1 + 2 * attempt + lane), so the values stay exact and
// a pure function of their position. Types of up to 32 bits take the same
// path with span < 2^32 (rejection then below 2^-32).
template <class T>
struct integers_sampler {
  using value_type = T;
  static constexpr int per_block = 2;
  static constexpr int min_blocks = 4;  // the 64-bit products spill under 40 registers
  // Wider chunks: int64 0.273 -> 0.237 ms for 2^26 on an H100.
  static constexpr int chunk_scale = sizeof(T) > 4 ? 2 : 1;
  T low;
  std::uint64_t span;

  CUPP_HD T one(const draw_site& site, std::uint64_t block, int lane, std::uint64_t x) const {
    if (span == 0) return static_cast<T>(static_cast<std::uint64_t>(low) + x);
    std::uint64_t lo = x * span;
    if (lo < span) {
      const std::uint64_t threshold = (0 - span) % span;  // 2^64 mod span
      for (std::uint32_t attempt = 0; lo < threshold; ++attempt) {
        const words4 more =
            block_at(site, block, 1 + 2 * attempt + static_cast<std::uint32_t>(lane));
        x = (static_cast<std::uint64_t>(more.w[0]) << 32) | more.w[1];
        lo = x * span;
      }
    }
    return static_cast<T>(static_cast<std::uint64_t>(low) + mul_hi64(x, span));
  }
  CUPP_HD void from_block(const draw_site& site, std::uint64_t block, const words4& b,
                          T* out) const {
    out[0] = one(site, block, 0, (static_cast<std::uint64_t>(b.w[0]) << 32) | b.w[1]);
    out[1] = one(site, block, 1, (static_cast<std::uint64_t>(b.w[2]) << 32) | b.w[3]);
  }
};

}  // namespace cupp::detail::random
