// Float standard normals by inversion: one 32-bit word, one table read and
// a cubic. The word's top bit is the sign; the other 31 give
// u = (2 m + 1) 2^-33 in (0, 1/2), whose octave (the leading zeros of
// 2 m + 1) and next four bits pick one of 512 cubic pieces of -Phi^-1
// (normal_quantile_tables.hpp, from scripts/generate_normal_quantile_tables.py),
// evaluated at the remaining bits. Branch-free and without elementary
// functions: about a quarter of the instructions of Box-Muller from
// correctly rounded operations, and within 1.7 float ulps of the exact
// quantile (of max(|z|, 1/16)). The smallest u, 2^-33, puts the tails at
// 6.34 standard deviations (P(|Z| > 6.34) = 2.3e-10). Only integer
// operations and fused multiply-adds, so the host and the device give the
// same bits.
#pragma once

#include <bit>
#include <cstdint>

#include <cupp/config.hpp>
#include <cupp/detail/random/exact_math.hpp>
#include <cupp/detail/random/normal_quantile_tables.hpp>

namespace cupp::detail::random {

struct alignas(16) normal_quantile_piece {
  float c0, c1, c2, c3;
};

inline constexpr normal_quantile_piece normal_quantile_host[512] = CUPP_NORMAL_QUANTILE_F32;
#if defined(__CUDACC__)
// Global memory through the read-only cache, not __constant__: a warp's
// lanes read different pieces, which the constant cache would serialise.
static __device__ const normal_quantile_piece normal_quantile_device[512] =
    CUPP_NORMAL_QUANTILE_F32;
#endif

CUPP_HD inline normal_quantile_piece normal_quantile_at(unsigned index) {
#if defined(__CUDA_ARCH__)
  const float4 p = __ldg(reinterpret_cast<const float4*>(normal_quantile_device) + index);
  return {p.x, p.y, p.z, p.w};
#else
  return normal_quantile_host[index];
#endif
}

// A standard normal from one word.
CUPP_HD inline float normal_from_word(std::uint32_t w) {
  const std::uint32_t v = (w << 1) | 1u;  // 2 m + 1: u = v 2^-33
#if defined(__CUDA_ARCH__)
  const unsigned k = static_cast<unsigned>(__clz(static_cast<int>(v)));
#else
  const unsigned k = static_cast<unsigned>(std::countl_zero(v));
#endif
  const std::uint32_t x = v << k;  // leading one at bit 31
  const normal_quantile_piece c = normal_quantile_at((k << 4) | ((x >> 27) & 15u));
  // s in [-1/2, 1/2): bits 26..4 of x as a mantissa, exactly.
  const float s = xm::sub(xm::impl::from_bits<float>(0x3f800000u | ((x >> 4) & 0x7fffffu)), 1.5f);
  const float a = xm::fma(xm::fma(xm::fma(c.c3, s, c.c2), s, c.c1), s, c.c0);  // -Phi^-1(u)
  return xm::impl::from_bits<float>(xm::impl::to_bits(a) ^ (w & 0x80000000u));
}

}  // namespace cupp::detail::random
