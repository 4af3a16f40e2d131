// Float standard normals by Box-Muller (Box and Muller, 1958) from two
// 32-bit words, with elementary functions cut to float's needs: a
// logarithm of a uniform in (0, 1] and the sine and cosine of an angle that
// the word gives as a quadrant and a fraction of it (no argument reduction).
// Branch-free, so a warp never splits; about a third of the instructions of
// the general xm:: functions, and within an ulp or two of float. The
// radius takes all 32 bits of its word: the tails reach 6.66 standard
// deviations (P(|Z| > 6.66) = 2.7e-11). Only IEEE operations with explicit
// rounding, so the host and the device give the same bits.
#pragma once

#include <cstdint>

#include <cupp/config.hpp>
#include <cupp/detail/random/exact_math.hpp>

namespace cupp::detail::random {

// -2 log(u) for u = (w + 1/2) 2^-32 (rounded to float): in [0, 45.4].
CUPP_HD inline float minus_two_log_unit(std::uint32_t w) {
  const float u = xm::fma(static_cast<float>(w), 0x1p-32f, 0x1p-33f);
  // u = 2^k m with m in [sqrt(1/2), sqrt(2)): log u = k ln2 + log1p(m - 1).
  const std::uint32_t bits = xm::impl::to_bits(u);
  const std::int32_t k = static_cast<std::int32_t>(bits - 0x3f3504f3u) >> 23;
  const float t = xm::sub(xm::impl::from_bits<float>(bits - (static_cast<std::uint32_t>(k) << 23)),
                          1.0f);
  // (log1p(t) - t) / t^2 on [sqrt(1/2) - 1, sqrt(2) - 1]: a Chebyshev fit
  // (relative error of log1p below 7e-8).
  const float q = xm::impl::horner(t, -0x1.fffffcp-2f, 0x1.55563p-2f, -0x1.000438p-2f,
                                   0x1.990c98p-3f, -0x1.5374fcp-3f, 0x1.2f3c7ep-3f,
                                   -0x1.23ffe8p-3f, 0x1.70cfe8p-4f);
  const float log1p_t = xm::fma(xm::mul(t, t), q, t);
  const float log_u = xm::fma(static_cast<float>(k), 0x1.62e430p-1f, log1p_t);
  return xm::mul(-2.0f, log_u);
}

// cos and sin of 2 pi w / 2^32: the top two bits are the quadrant, the
// next bit mirrors the rest into [0, pi/4], where Taylor polynomials of
// degree 9 (sine) and 10 (cosine) are within 2e-9.
CUPP_HD inline void cos_sin_turn(std::uint32_t w, float& c, float& s) {
  const std::uint32_t quadrant = w >> 30;
  const std::uint32_t rest = w & 0x3fffffffu;
  const bool mirror = (rest >> 29) != 0;
  const std::uint32_t steps = mirror ? 0x40000000u - rest : rest;  // in [0, 2^29]
  const float a = xm::mul(static_cast<float>(steps), 0x1.921fb6p-30f);  // (pi / 2) / 2^30
  const float a2 = xm::mul(a, a);
  const float sin_a = xm::mul(
      a, xm::impl::horner(a2, 1.0f, -0x1.555556p-3f, 0x1.111112p-7f, -0x1.a01a02p-13f,
                          0x1.71de3ap-19f));
  const float cos_a =
      xm::impl::horner(a2, 1.0f, -0.5f, 0x1.555556p-5f, -0x1.6c16c2p-10f, 0x1.a01a02p-16f,
                       -0x1.27e4fcp-22f);
  // The angle within the quadrant, then the quadrant's rotation.
  const float cq = mirror ? sin_a : cos_a;
  const float sq = mirror ? cos_a : sin_a;
  const float c1 = (quadrant & 1u) ? -sq : cq;
  const float s1 = (quadrant & 1u) ? cq : sq;
  c = (quadrant & 2u) ? -c1 : c1;
  s = (quadrant & 2u) ? -s1 : s1;
}

// Two independent standard normals from two words.
CUPP_HD inline void box_muller_pair(std::uint32_t w0, std::uint32_t w1, float& z0, float& z1) {
  const float r = xm::sqrt(minus_two_log_unit(w0));
  float c, s;
  cos_sin_turn(w1, c, s);
  z0 = xm::mul(r, c);
  z1 = xm::mul(r, s);
}

}  // namespace cupp::detail::random
