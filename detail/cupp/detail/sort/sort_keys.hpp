// NumPy's sort order as unsigned integer keys: every dtype maps to an
// unsigned key whose integer order is NumPy's order (NaN last, -0.0 equal to
// 0.0, complex numbers by real part, then imaginary part, with NumPy's NaN
// classes), so the device sorts of floats and complex numbers are radix
// sorts of plain integers and the host comparator is an integer compare.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/dtype.hpp>

namespace cupp::detail::sorting {

template <class T>
inline constexpr bool is_complex_v = std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;
template <class T>
inline constexpr bool is_floating_v = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16> ||
                                      std::is_same_v<T, float> || std::is_same_v<T, double>;

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

// The key of one part: a real type's own bits for a real dtype, the part's
// for a complex one.
template <class T>
struct part_of {
  using type = T;
};
template <class F>
struct part_of<::cuda::std::complex<F>> {
  using type = F;
};
template <class T>
using key_t = typename unsigned_of<sizeof(typename part_of<T>::type)>::type;

template <class T, class U = typename unsigned_of<sizeof(T)>::type>
CUPP_HD U bits_of(const T& v) {
  U u;
  std::memcpy(&u, &v, sizeof(U));
  return u;
}

// Exponent-and-mantissa mask and the infinity pattern of a floating dtype.
template <class T>
struct float_layout;
template <>
struct float_layout<float16> {
  static constexpr std::uint16_t magnitude = 0x7FFF, infinity = 0x7C00;
};
template <>
struct float_layout<bfloat16> {
  static constexpr std::uint16_t magnitude = 0x7FFF, infinity = 0x7F80;
};
template <>
struct float_layout<float> {
  static constexpr std::uint32_t magnitude = 0x7FFFFFFFu, infinity = 0x7F800000u;
};
template <>
struct float_layout<double> {
  static constexpr std::uint64_t magnitude = 0x7FFFFFFFFFFFFFFFull,
                                 infinity = 0x7FF0000000000000ull;
};

template <class T>
CUPP_HD bool is_nan_bits(typename unsigned_of<sizeof(T)>::type b) {
  return (b & float_layout<T>::magnitude) > float_layout<T>::infinity;
}

// A NaN with the sign bit set: CUB's radix sort of the raw bits puts these
// first, where NumPy puts every NaN last.
template <class T>
CUPP_HD bool is_negative_nan(const T& v) {
  if constexpr (is_floating_v<T>) {
    const auto b = bits_of(v);
    return is_nan_bits<T>(b) && (b & ~float_layout<T>::magnitude) != 0;
  } else {
    return false;
  }
}

// The quiet NaN that NumPy's np.nan has (positive), in T.
template <class T>
CUPP_HD T canonical_nan() {
  using U = typename unsigned_of<sizeof(T)>::type;
  const U b = static_cast<U>(float_layout<T>::infinity | (float_layout<T>::infinity >> 1)) &
              float_layout<T>::magnitude;
  T v;
  std::memcpy(static_cast<void*>(&v), &b, sizeof(T));
  return v;
}

// The order-preserving key of a real value: the sign bit flipped for
// signed integers; for floats, every NaN becomes the largest key and -0.0
// the key of 0.0, so that ties among NaNs and zeros keep their input order.
template <class T>
CUPP_HD key_t<T> real_key(const T& v) {
  using U = key_t<T>;
  if constexpr (std::is_same_v<T, bool>) {
    return v ? 1 : 0;
  } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
    return static_cast<U>(v);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<U>(static_cast<U>(v) ^ (U(1) << (sizeof(U) * 8 - 1)));
  } else {
    constexpr U sign = static_cast<U>(~float_layout<T>::magnitude);
    U b = bits_of(v);
    if (is_nan_bits<T>(b)) return static_cast<U>(~U(0));
    if (b == sign) b = 0;
    return (b & sign) ? static_cast<U>(~b) : static_cast<U>(b | sign);
  }
}

// The two keys of a complex value, most significant first. NumPy orders
// (R, R) < (R, nan) < (nan, R) < (nan, nan): finite classes by the part that
// is not NaN. The real key of a non-NaN value never exceeds that of +inf,
// so the patterns above it mark the NaN classes.
template <class C>
struct complex_key {
  key_t<C> hi, lo;
};
template <class C>
CUPP_HD complex_key<C> complex_keys(const C& v) {
  using F = typename part_of<C>::type;
  using U = key_t<C>;
  const F re = v.real(), im = v.imag();
  const bool nan_re = is_nan_bits<F>(bits_of(re)), nan_im = is_nan_bits<F>(bits_of(im));
  constexpr U top = static_cast<U>(~U(0));
  if (!nan_re && !nan_im) return {real_key(re), real_key(im)};
  if (!nan_re) return {static_cast<U>(top - 2), real_key(re)};
  if (!nan_im) return {static_cast<U>(top - 1), real_key(im)};
  return {top, top};
}

// The whole key of a dtype in one integer where it fits (complex64 as 64
// bits); complex128 needs two (hi, lo).
template <class T>
CUPP_HD auto full_key(const T& v) {
  if constexpr (std::is_same_v<T, complex64>) {
    const auto k = complex_keys(v);
    return (static_cast<std::uint64_t>(k.hi) << 32) | k.lo;
  } else if constexpr (std::is_same_v<T, complex128>) {
    return complex_keys(v);
  } else {
    return real_key(v);
  }
}

// NumPy's order as a strict weak ordering (the host sorts' comparator).
struct np_less {
  template <class T>
  CUPP_HD bool operator()(const T& a, const T& b) const {
    if constexpr (std::is_same_v<T, complex128>) {
      const auto x = complex_keys(a), y = complex_keys(b);
      return x.hi < y.hi || (x.hi == y.hi && x.lo < y.lo);
    } else {
      return full_key(a) < full_key(b);
    }
  }
};

}  // namespace cupp::detail::sorting
