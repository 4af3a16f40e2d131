// Standard normals by the ziggurat method (Marsaglia and Tsang, JSS 5(8),
// 2000), with 256 strips (ziggurat_tables.hpp): one word (float) or two
// (double) give a strip, a sign and a magnitude, and 98.5% of values are
// accepted after one table read and one multiplication. The rest take the
// wedge test (one uniform and exp) or, in the base strip, Marsaglia's tail
// method (two uniforms and two logarithms), and draw those uniforms from a
// word source of their own, so that the common path reads one word per
// value. The tables are the same numbers on the host and the device, and
// all arithmetic goes through xm::, so both give the same bits.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/detail/random/exact_math.hpp>
#include <cupp/detail/random/ziggurat_tables.hpp>

namespace cupp::detail::random {

template <class T>
struct ziggurat_entry;
template <>
struct alignas(8) ziggurat_entry<float> {
  std::uint32_t k;
  float w;
};
template <>
struct alignas(16) ziggurat_entry<double> {
  std::uint64_t k;
  double w;
};

inline constexpr ziggurat_entry<float> ziggurat_kw_f32_host[256] = CUPP_ZIGGURAT_KW_F32;
inline constexpr ziggurat_entry<double> ziggurat_kw_f64_host[256] = CUPP_ZIGGURAT_KW_F64;
inline constexpr float ziggurat_f_f32_host[256] = CUPP_ZIGGURAT_F_F32;
inline constexpr double ziggurat_f_f64_host[256] = CUPP_ZIGGURAT_F_F64;
#if defined(__CUDACC__)
// Global memory, not __constant__: the strips of a warp's lanes differ,
// and the constant cache serialises different addresses.
static __device__ const ziggurat_entry<float> ziggurat_kw_f32_device[256] = CUPP_ZIGGURAT_KW_F32;
static __device__ const ziggurat_entry<double> ziggurat_kw_f64_device[256] = CUPP_ZIGGURAT_KW_F64;
static __device__ const float ziggurat_f_f32_device[256] = CUPP_ZIGGURAT_F_F32;
static __device__ const double ziggurat_f_f64_device[256] = CUPP_ZIGGURAT_F_F64;
#endif

template <class T>
CUPP_HD inline ziggurat_entry<T> ziggurat_kw(unsigned strip) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == 4) {
    const uint2 e = __ldg(reinterpret_cast<const uint2*>(ziggurat_kw_f32_device) + strip);
    return {e.x, __uint_as_float(e.y)};
  } else {
    const ulonglong2 e = __ldg(reinterpret_cast<const ulonglong2*>(ziggurat_kw_f64_device) + strip);
    return {e.x, __longlong_as_double(static_cast<long long>(e.y))};
  }
#else
  if constexpr (sizeof(T) == 4)
    return ziggurat_kw_f32_host[strip];
  else
    return ziggurat_kw_f64_host[strip];
#endif
}
template <class T>
CUPP_HD inline T ziggurat_f(unsigned strip) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == 4)
    return __ldg(ziggurat_f_f32_device + strip);
  else
    return __ldg(ziggurat_f_f64_device + strip);
#else
  if constexpr (sizeof(T) == 4)
    return ziggurat_f_f32_host[strip];
  else
    return ziggurat_f_f64_host[strip];
#endif
}

// The word of a float value (32 bits) or of a double (64).
template <class T>
using ziggurat_word = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

// The fast path: true and z set when the word's magnitude falls inside its
// strip's rectangle. Otherwise z is the candidate x, and strip and negative
// say where the slow path goes on.
template <class T>
CUPP_HD inline bool ziggurat_fast(ziggurat_word<T> r, T& z, unsigned& strip, bool& negative) {
  constexpr int bits = sizeof(T) == 4 ? 23 : 52;
  strip = static_cast<unsigned>(r & 0xffu);
  negative = ((r >> 8) & 1u) != 0;
  const ziggurat_word<T> magnitude = (r >> 9) & ((ziggurat_word<T>(1) << bits) - 1);
  const ziggurat_entry<T> e = ziggurat_kw<T>(strip);
  const T x = xm::mul(static_cast<T>(magnitude), e.w);  // the integer converts exactly
  z = negative ? -x : x;
  return magnitude < e.k;
}

// The slow path of a value that failed the fast test: the wedge or the
// tail, with uniforms from `more` (any word source with next_unit<T>()).
// Returns false when the candidate is rejected: the value then starts over
// from a new word (ziggurat_normal).
template <class T, class Words>
CUPP_HD inline bool ziggurat_slow(Words& more, unsigned strip, bool negative, T& z) {
  if (strip == 0) {
    // Beyond r: x = -log(1 - U1) / r accepted when -2 log(1 - U2) > x^2.
    constexpr T r = static_cast<T>(CUPP_ZIGGURAT_R);
    constexpr T inv_r = static_cast<T>(1.0 / CUPP_ZIGGURAT_R);
    for (;;) {
      const T x = xm::mul(-inv_r, xm::log1p(-more.template next_unit<T>()));
      const T y = -xm::log1p(-more.template next_unit<T>());
      if (xm::add(y, y) > xm::mul(x, x)) {
        const T v = xm::add(r, x);
        z = negative ? -v : v;
        return true;
      }
    }
  }
  const T f_out = ziggurat_f<T>(strip), f_in = ziggurat_f<T>(strip - 1);
  const T y = xm::fma(xm::sub(f_in, f_out), more.template next_unit<T>(), f_out);
  return y < xm::exp(xm::mul(T(-0.5), xm::mul(z, z)));
}

// The slow path to its end: the wedge or tail test, and on rejection new
// words from `more` until a value is accepted. Out of line: it is rare,
// and inlined into a block of values it would cost registers on the fast
// path.
#if defined(__CUDACC__)
#define CUPP_ZIGGURAT_NOINLINE __noinline__
#else
#define CUPP_ZIGGURAT_NOINLINE
#endif
template <class T, class Words>
CUPP_ZIGGURAT_NOINLINE CUPP_HD T ziggurat_finish(Words& more, unsigned strip, bool negative,
                                                 T z) {
  while (!ziggurat_slow<T>(more, strip, negative, z)) {
    ziggurat_word<T> r;
    if constexpr (sizeof(T) == 4)
      r = more.next32();
    else
      r = more.next64();
    if (ziggurat_fast<T>(r, z, strip, negative)) break;
  }
  return z;
}
#undef CUPP_ZIGGURAT_NOINLINE

// One standard normal from a word source (next32 / next64 and
// next_unit<T>): a rejection sampler's normal.
template <class T, class Words>
CUPP_HD inline T ziggurat_normal(Words& w) {
  for (;;) {
    ziggurat_word<T> r;
    if constexpr (sizeof(T) == 4)
      r = w.next32();
    else
      r = w.next64();
    T z;
    unsigned strip;
    bool negative;
    if (ziggurat_fast<T>(r, z, strip, negative)) return z;
    if (ziggurat_slow<T>(w, strip, negative, z)) return z;
  }
}

}  // namespace cupp::detail::random
