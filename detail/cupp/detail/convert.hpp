// numpy's casts between dtypes (ndarray.astype with casting='unsafe'), the
// same on the host and on the device.
//
// Floating-point values become integers by truncation toward zero. Values
// out of range, NaN and infinities follow what NumPy does on x86-64, so that
// the host, the device and NumPy agree bit for bit: the conversion goes
// through a 32-bit (int8, int16, uint8, uint16, int32) or 64-bit (uint32,
// int64, uint64) truncating conversion whose out-of-range result is the
// "integer indefinite" value (INT32_MIN or INT64_MIN), then wraps to the
// target's width. Complex values become real ones by dropping the imaginary
// part (NumPy's ComplexWarning case).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include <cuda/std/complex>

#include <cupp/config.hpp>
#include <cupp/dtype.hpp>

namespace cupp::detail {

// The float type arithmetic on T runs in: float for the 16-bit types.
template <class T>
using math_t = std::conditional_t<is_low_float_v<T>, float, T>;

template <class T>
CUPP_HD inline float to_float(T v) {
  if constexpr (std::is_same_v<T, __half>)
    return __half2float(v);
  else
    return __bfloat162float(v);
}

CUPP_HD inline std::int64_t f2i64(double v) {
  // -2^63 <= v < 2^63; NaN fails both comparisons.
  if (v >= -9223372036854775808.0 && v < 9223372036854775808.0) return static_cast<std::int64_t>(v);
  return INT64_MIN;
}
CUPP_HD inline std::int32_t f2i32(double v) {
  if (v > -2147483649.0 && v < 2147483648.0) return static_cast<std::int32_t>(v);
  return INT32_MIN;
}
// Unsigned targets of 32 and 64 bits: values from 2^(bits-1) up go through
// the signed conversion of v - 2^(bits-1) with the top bit flipped back
// (so 2^bits and beyond, and +inf, give 0); lower values, NaN included, go
// through the signed conversion directly.
CUPP_HD inline std::uint64_t f2u64(double v) {
  if (v >= 9223372036854775808.0)
    return static_cast<std::uint64_t>(f2i64(v - 9223372036854775808.0)) ^ (std::uint64_t{1} << 63);
  return static_cast<std::uint64_t>(f2i64(v));
}
CUPP_HD inline std::uint32_t f2u32(double v) {
  if (v >= 2147483648.0)
    return static_cast<std::uint32_t>(f2i32(v - 2147483648.0)) ^ (std::uint32_t{1} << 31);
  return static_cast<std::uint32_t>(f2i32(v));
}

// A real floating value (float or double) to an integer type.
template <class To, class F>
CUPP_HD inline To float_to_int(F v) {
  if constexpr (std::is_same_v<To, std::uint64_t> || std::is_same_v<To, unsigned long long> ||
                std::is_same_v<To, unsigned long>)
    return static_cast<To>(f2u64(static_cast<double>(v)));
  else if constexpr (std::is_same_v<To, std::uint32_t> || std::is_same_v<To, unsigned int>)
    return static_cast<To>(f2u32(static_cast<double>(v)));
  else if constexpr (sizeof(To) == 8)
    return static_cast<To>(f2i64(static_cast<double>(v)));
  else if constexpr (std::is_same_v<F, float>)
    return static_cast<To>((v > -2147483904.0f && v < 2147483648.0f) ? static_cast<std::int32_t>(v)
                                                                     : INT32_MIN);
  else
    return static_cast<To>(f2i32(static_cast<double>(v)));
}

template <class To, class From>
CUPP_HD inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_complex_type_v<From>) {
    if constexpr (is_complex_type_v<To>)
      return To(static_cast<typename To::value_type>(v.real()),
                static_cast<typename To::value_type>(v.imag()));
    else if constexpr (std::is_same_v<To, bool>)
      return v.real() != 0 || v.imag() != 0;
    else
      return convert<To>(v.real());
  } else if constexpr (is_complex_type_v<To>) {
    return To(convert<typename To::value_type>(v), typename To::value_type(0));
  } else if constexpr (is_low_float_v<From>) {
    return convert<To>(to_float(v));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_same_v<To, __half>) {
    if constexpr (std::is_same_v<From, float>)
      return __float2half_rn(v);
    else
      return __double2half(static_cast<double>(v));
  } else if constexpr (std::is_same_v<To, __nv_bfloat16>) {
    // ml_dtypes rounds through float32.
    return __float2bfloat16_rn(static_cast<float>(v));
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    return float_to_int<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace cupp::detail
