// The representation of values: the unsigned integer of a value's width,
// bit casts to and from it, the IEEE layouts of float16, bfloat16, float32
// and float64, and what is read or made on the bits alone (NaN, infinity,
// sign, |x|, copysign, special values, one-ulp steps). All exact, so they
// give the same bits on the host and the device, hold for the 16-bit types,
// and do not depend on what the compiler assumes about NaN.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <cupp/config.hpp>

namespace cupp::detail::numerics {

template <std::size_t N>
struct unsigned_of;
template <>
struct unsigned_of<1> {
  using type = std::uint8_t;
};
template <>
struct unsigned_of<2> {
  using type = std::uint16_t;
};
template <>
struct unsigned_of<4> {
  using type = std::uint32_t;
};
template <>
struct unsigned_of<8> {
  using type = std::uint64_t;
};

// The unsigned integer as wide as T.
template <class T>
using bits_t = typename unsigned_of<sizeof(T)>::type;

// The IEEE layout of a real floating-point dtype: its unsigned and signed
// integer types, the mantissa's width and the exponent's bias, the sign,
// exponent and magnitude (exponent and mantissa) masks; the exponent mask is
// also the bits of +inf. `qnan` is the NaN NumPy (or ml_dtypes) produces
// when it makes one up rather than propagating one (np.nan: positive,
// quiet), `max` the largest finite value.
template <class T>
struct float_layout;
template <>
struct float_layout<__half> {
  using bits_t = std::uint16_t;
  using int_t = std::int16_t;
  static constexpr int mantissa = 10, bias = 15;
  static constexpr bits_t sign = 0x8000u, exp = 0x7c00u, magnitude = 0x7fffu, qnan = 0x7e00u,
                          max = 0x7bffu;
};
template <>
struct float_layout<__nv_bfloat16> {
  using bits_t = std::uint16_t;
  using int_t = std::int16_t;
  static constexpr int mantissa = 7, bias = 127;
  static constexpr bits_t sign = 0x8000u, exp = 0x7f80u, magnitude = 0x7fffu, qnan = 0x7fc0u,
                          max = 0x7f7fu;
};
template <>
struct float_layout<float> {
  using bits_t = std::uint32_t;
  using int_t = std::int32_t;
  static constexpr int mantissa = 23, bias = 127;
  static constexpr bits_t sign = 0x80000000u, exp = 0x7f800000u, magnitude = 0x7fffffffu,
                          qnan = 0x7fc00000u, max = 0x7f7fffffu;
};
template <>
struct float_layout<double> {
  using bits_t = std::uint64_t;
  using int_t = std::int64_t;
  static constexpr int mantissa = 52, bias = 1023;
  static constexpr bits_t sign = 0x8000000000000000ull, exp = 0x7ff0000000000000ull,
                          magnitude = 0x7fffffffffffffffull, qnan = 0x7ff8000000000000ull,
                          max = 0x7fefffffffffffffull;
};

// The bits of a value of 1, 2, 4 or 8 bytes, and back. By value, so that
// a static constexpr member (a constant of exact_math) is not odr-used from
// device code.
template <class T>
CUPP_HD inline bits_t<T> to_bits(T v) {
  bits_t<T> u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}
template <class T>
CUPP_HD inline T from_bits(bits_t<T> u) {
  T v;
  // Through void*: __half and __nv_bfloat16 are trivially copyable, but
  // g++ -Wclass-memaccess objects to their protected member.
  std::memcpy(static_cast<void*>(&v), &u, sizeof u);
  return v;
}

// Tests on the bits, so that they hold for the 16-bit types and whatever
// the compiler assumes about NaN.
template <class T>
CUPP_HD inline bool is_nan_bits(bits_t<T> b) {
  return (b & float_layout<T>::magnitude) > float_layout<T>::exp;
}
template <class T>
CUPP_HD inline bool isnan(T v) {
  return is_nan_bits<T>(to_bits(v));
}
template <class T>
CUPP_HD inline bool isinf(T v) {
  return (to_bits(v) & ~float_layout<T>::sign) == float_layout<T>::exp;
}
template <class T>
CUPP_HD inline bool isfinite(T v) {
  return (to_bits(v) & float_layout<T>::exp) != float_layout<T>::exp;
}
template <class T>
CUPP_HD inline bool signbit(T v) {
  return (to_bits(v) & float_layout<T>::sign) != 0;
}
template <class T>
CUPP_HD inline T abs(T v) {
  return from_bits<T>(to_bits(v) & static_cast<bits_t<T>>(~float_layout<T>::sign));
}
// |magnitude| with the sign of `sign`.
template <class T>
CUPP_HD inline T copysign(T magnitude, T sign) {
  using L = float_layout<T>;
  return from_bits<T>(
      static_cast<bits_t<T>>((to_bits(magnitude) & ~L::sign) | (to_bits(sign) & L::sign)));
}

// Special values from the bits (std::numeric_limits is host-only code
// without --expt-relaxed-constexpr, and has no 16-bit types): +inf, the
// quiet NaN of `qnan`, the largest finite value and its negative, the
// smallest normal number.
template <class T>
CUPP_HD inline T infinity() {
  return from_bits<T>(float_layout<T>::exp);
}
template <class T>
CUPP_HD inline T quiet_nan() {
  return from_bits<T>(float_layout<T>::qnan);
}
template <class T>
CUPP_HD inline T max_finite() {
  return from_bits<T>(float_layout<T>::max);
}
template <class T>
CUPP_HD inline T lowest() {
  return from_bits<T>(float_layout<T>::max | float_layout<T>::sign);
}
template <class T>
CUPP_HD inline T min_normal() {
  return from_bits<T>(bits_t<T>(1) << float_layout<T>::mantissa);
}

// The neighbour of a nonzero finite-or-infinite x one step larger (up) or
// smaller in magnitude.
template <class T>
CUPP_HD inline T step_magnitude(T x, bool up) {
  const bits_t<T> b = to_bits(x);
  return from_bits<T>(static_cast<bits_t<T>>(up ? b + 1 : b - 1));
}
// The smallest subnormal with the given sign.
template <class T>
CUPP_HD inline T min_subnormal(bool negative) {
  return from_bits<T>(static_cast<bits_t<T>>((negative ? float_layout<T>::sign : 0) | 1));
}

}  // namespace cupp::detail::numerics
