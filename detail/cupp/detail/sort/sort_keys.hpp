// NumPy's sort order as unsigned integer keys: every dtype maps to an
// unsigned key whose integer order is NumPy's order (NaN last, -0.0 equal to
// 0.0, complex numbers by real part, then imaginary part, with NumPy's NaN
// classes), so the device sorts of floats and complex numbers are radix
// sorts of plain integers and the host comparator is an integer compare.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/detail/numerics/complex_parts.hpp>
#include <cupp/detail/numerics/float_bits.hpp>
#include <cupp/dtype.hpp>

namespace cupp::detail::sorting {

template <class T>
inline constexpr bool is_complex_v = std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;
template <class T>
inline constexpr bool is_floating_v = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16> ||
                                      std::is_same_v<T, float> || std::is_same_v<T, double>;

// The representation and the complex parts from the numerics floor, under
// the names the sort kernels use: unsigned_of<N> (the unsigned integer of N
// bytes), part_of<T> (a complex type's part, a real type itself),
// float_layout<T> (the masks of a floating dtype: magnitude is exponent and
// mantissa), is_nan_bits, and bits_of and canonical_nan below.
using numerics::float_layout;
using numerics::is_nan_bits;
using numerics::unsigned_of;
template <class T>
using part_of = numerics::real_of<T>;

// The key of one part: a real type's own bits for a real dtype, the part's
// for a complex one.
template <class T>
using key_t = typename unsigned_of<sizeof(typename part_of<T>::type)>::type;

// The bits of a value of 1, 2, 4 or 8 bytes (numerics::to_bits).
template <class T>
CUPP_HD typename unsigned_of<sizeof(T)>::type bits_of(const T& v) {
  return numerics::to_bits(v);
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

// The quiet NaN that NumPy's np.nan has (positive), in T
// (numerics::quiet_nan).
template <class T>
CUPP_HD T canonical_nan() {
  return numerics::quiet_nan<T>();
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
