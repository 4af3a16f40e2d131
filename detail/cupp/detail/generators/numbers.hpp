// The numbers behind the generators: how a C++ argument stands for a Python
// scalar (its dtype, its exact value), Python's arithmetic on those values
// (what numpy.arange computes before any array exists), the conversion of a
// Python scalar into an element (ndarray.__setitem__), and arithmetic in a
// dtype that rounds after every operation exactly as NumPy's loops do: no
// contraction into fused multiply-adds on the device, float16 and bfloat16
// through float32.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include <cuda/std/limits>

#include <cupp/config.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/numerics/rounded.hpp>

namespace cupp::detail {

// The dtype a generator takes from its arguments (NumPy's dtype=None).
struct dtype_from_args {};

template <class X>
inline constexpr bool is_scalar_leaf_v = false;
template <class T>
inline constexpr bool is_scalar_leaf_v<scalar_leaf<T>> = true;

// A number a generator accepts: a C++ scalar (weak, as a Python scalar) or
// a strong one (__half, __nv_bfloat16, cupp::scalar<T>(v)).
template <class X>
concept gen_number = Scalar<X> || is_scalar_leaf_v<std::remove_cvref_t<X>>;

// Its kind for promotion: weak_int ... or a dtype.
template <class X>
using number_kind_t = typename operand_t<X>::value_type;

template <class K>
struct weak_default {
  using type = weak_default_t<weak_rank<K>()>;
};

// The dtype a kind has once it is an array (numpy.asarray of the scalar).
template <class K>
using strong_t =
    typename std::conditional_t<is_weak_v<K>, weak_default<K>, std::type_identity<K>>::type;

// Integers and bool become float64 (NumPy's ensure_inexact).
template <class T>
using inexact_or_double_t = std::conditional_t<is_inexact_v<T>, T, double>;

// The first template argument unless it asks for the default.
template <class T, class Default>
using dtype_or_t = std::conditional_t<std::is_same_v<T, dtype_from_args>, Default, T>;

// A Python number: int (exact, as wide as C++ integers need), float or
// complex. bool counts as int, as in Python's arithmetic.
struct py_number {
  enum class kind : unsigned char { integer, real, complex };
  kind k = kind::integer;
  __int128 i = 0;
  double re = 0, im = 0;

  static py_number integer(__int128 v) { return {kind::integer, v, 0, 0}; }
  static py_number real(double v) { return {kind::real, 0, v, 0}; }
  static py_number complex(double r, double m) { return {kind::complex, 0, r, m}; }

  double as_double() const { return k == kind::integer ? static_cast<double>(i) : re; }
  double imag() const { return k == kind::complex ? im : 0.0; }
  bool is_zero() const { return k == kind::integer ? i == 0 : (re == 0 && imag() == 0); }
};

// The value of a C++ argument as the Python scalar it stands for. 16-bit
// floats and strong scalars enter Python's arithmetic as their float value.
template <class X>
py_number to_py(const X& x) {
  using V = std::remove_cvref_t<X>;
  if constexpr (is_scalar_leaf_v<V>) {
    return to_py(x.v);
  } else if constexpr (std::is_same_v<V, bool> || std::is_integral_v<V>) {
    return py_number::integer(static_cast<__int128>(x));
  } else if constexpr (std::is_floating_point_v<V>) {
    return py_number::real(static_cast<double>(x));
  } else if constexpr (is_low_float_v<V>) {
    return py_number::real(static_cast<double>(to_float(x)));
  } else {
    return py_number::complex(static_cast<double>(x.real()), static_cast<double>(x.imag()));
  }
}

inline std::string int128_string(__int128 v) CUPP_HOST_BODY({
  if (v == 0) return "0";
  const bool neg = v < 0;
  unsigned __int128 u =
      neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  for (; u; u /= 10) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
  return neg ? "-" + s : s;
});

// Python's a + b and a - b.
inline py_number py_add(const py_number& a, const py_number& b, int sign = 1) CUPP_HOST_BODY({
  using K = py_number::kind;
  if (a.k == K::integer && b.k == K::integer) return py_number::integer(a.i + sign * b.i);
  const double re = sign > 0 ? a.as_double() + b.as_double() : a.as_double() - b.as_double();
  if (a.k == K::complex || b.k == K::complex)
    return py_number::complex(re, sign > 0 ? a.imag() + b.imag() : a.imag() - b.imag());
  return py_number::real(re);
});

// ndarray.__setitem__ of a Python scalar into an element of dtype T: ints
// out of T's range raise OverflowError, floats become ints by truncation
// (then the same range check), complex values need a complex dtype.
template <class T>
T py_to_element(const py_number& v) {
  using K = py_number::kind;
  if constexpr (std::is_same_v<T, bool>) {
    return !v.is_zero();
  } else if constexpr (is_integer_v<T>) {
    __int128 x;
    if (v.k == K::integer) {
      x = v.i;
    } else {
      if (std::isnan(v.re)) throw value_error("cannot convert float NaN to integer");
      if (std::isinf(v.re)) throw overflow_error("cannot convert float infinity to integer");
      if (std::fabs(v.re) >= 1e38)
        throw overflow_error("Python integer out of bounds for " + std::string(dtype_of<T>().name));
      x = static_cast<__int128>(std::trunc(v.re));
    }
    using L = std::numeric_limits<T>;
    if (x < static_cast<__int128>(L::min()) || x > static_cast<__int128>(L::max()))
      throw overflow_error("Python integer " + int128_string(x) + " out of bounds for " +
                           std::string(dtype_of<T>().name));
    return static_cast<T>(x);
  } else if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    return T(convert<R>(v.as_double()), convert<R>(v.imag()));
  } else {
    return convert<T>(v.as_double());
  }
}

// ---------------------------------------------------------------------------
// Arithmetic rounded after each operation (numerics/rounded.hpp): NumPy's
// loops never fuse a * b + c, and nvcc would.

template <class D>
CUPP_HD inline D d_add(D a, D b) {
  if constexpr (is_low_float_v<D>)
    return convert<D>(numerics::add_rn(to_float(a), to_float(b)));
  else if constexpr (is_complex_type_v<D>)
    return D(numerics::add_rn(a.real(), b.real()), numerics::add_rn(a.imag(), b.imag()));
  else
    return numerics::add_rn(a, b);
}

template <class D>
CUPP_HD inline D d_sub(D a, D b) {
  if constexpr (is_low_float_v<D>)
    return convert<D>(numerics::sub_rn(to_float(a), to_float(b)));
  else if constexpr (is_complex_type_v<D>)
    return D(numerics::sub_rn(a.real(), b.real()), numerics::sub_rn(a.imag(), b.imag()));
  else
    return numerics::sub_rn(a, b);
}

// NumPy's complex product: (ar*br - ai*bi, ar*bi + ai*br).
template <class D>
CUPP_HD inline D d_mul(D a, D b) {
  if constexpr (is_low_float_v<D>)
    return convert<D>(numerics::mul_rn(to_float(a), to_float(b)));
  else if constexpr (is_complex_type_v<D>)
    return D(numerics::sub_rn(numerics::mul_rn(a.real(), b.real()),
                              numerics::mul_rn(a.imag(), b.imag())),
             numerics::add_rn(numerics::mul_rn(a.real(), b.imag()),
                              numerics::mul_rn(a.imag(), b.real())));
  else
    return numerics::mul_rn(a, b);
}

// NumPy's complex quotient: Smith's method, scaling by the larger part of
// the divisor.
template <class D>
CUPP_HD inline D d_div(D a, D b) {
  if constexpr (is_low_float_v<D>) {
    return convert<D>(numerics::div_rn(to_float(a), to_float(b)));
  } else if constexpr (is_complex_type_v<D>) {
    using R = typename D::value_type;
    const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    const R abr = br < 0 ? -br : br, abi = bi < 0 ? -bi : bi;
    if (abr >= abi) {
      if (abr == 0 && abi == 0) return D(numerics::div_rn(ar, abr), numerics::div_rn(ai, abr));
      const R rat = numerics::div_rn(bi, br);
      const R scl = numerics::div_rn(R(1), numerics::add_rn(br, numerics::mul_rn(bi, rat)));
      return D(numerics::mul_rn(numerics::add_rn(ar, numerics::mul_rn(ai, rat)), scl),
               numerics::mul_rn(numerics::sub_rn(ai, numerics::mul_rn(ar, rat)), scl));
    }
    const R rat = numerics::div_rn(br, bi);
    const R scl = numerics::div_rn(R(1), numerics::add_rn(bi, numerics::mul_rn(br, rat)));
    return D(numerics::mul_rn(numerics::add_rn(numerics::mul_rn(ar, rat), ai), scl),
             numerics::mul_rn(numerics::sub_rn(numerics::mul_rn(ai, rat), ar), scl));
  } else {
    return numerics::div_rn(a, b);
  }
}

template <class D>
CUPP_HD inline bool d_is_zero(D a) {
  if constexpr (is_low_float_v<D>)
    return to_float(a) == 0.0f;
  else if constexpr (is_complex_type_v<D>)
    return a.real() == 0 && a.imag() == 0;
  else
    return a == 0;
}

// numpy.arange(0, n, dtype=D)[i]: i converted to D (through float32 for
// the 16-bit types, as their fill loops compute).
template <class D>
CUPP_HD inline D d_from_index(index_t i) {
  if constexpr (is_low_float_v<D>)
    return convert<D>(static_cast<float>(i));
  else if constexpr (is_complex_type_v<D>)
    return D(static_cast<typename D::value_type>(i), typename D::value_type(0));
  else
    return static_cast<D>(i);
}

// numpy.floor for a real D.
template <class D>
CUPP_HD inline D d_floor(D a) {
  if constexpr (is_low_float_v<D>)
    return convert<D>(::cuda::std::floor(to_float(a)));
  else
    return ::cuda::std::floor(a);
}

// numpy.power(a, b) in D: libm's pow, through float32 for 16-bit types.
// Complex powers follow NumPy's npy_cpow: 1 for a zero exponent, repeated
// squaring for integer exponents below 100 in magnitude, exp(b * log(a))
// (libm's cpow) otherwise.
template <class D>
CUPP_HD inline D d_pow(D a, D b) {
  if constexpr (is_low_float_v<D>) {
    return convert<D>(::cuda::std::pow(to_float(a), to_float(b)));
  } else if constexpr (is_complex_type_v<D>) {
    using R = typename D::value_type;
    const R br = b.real(), bi = b.imag();
    if (br == 0 && bi == 0) return D(1, 0);
    if (a.real() == 0 && a.imag() == 0)
      return br > 0 && bi == 0 ? D(0, 0)
                               : D(::cuda::std::numeric_limits<R>::quiet_NaN(),
                                   ::cuda::std::numeric_limits<R>::quiet_NaN());
    if (bi == 0 && br > -100 && br < 100 && static_cast<R>(static_cast<int>(br)) == br) {
      int n = static_cast<int>(br);
      if (n == 1) return a;
      if (n == 2) return d_mul(a, a);
      if (n == 3) return d_mul(a, d_mul(a, a));
      if (n < 0) n = -n;
      D acc(1, 0), p = a;
      for (int mask = 1;; mask <<= 1) {
        if (n & mask) acc = d_mul(acc, p);
        if (n < (mask << 1)) break;
        p = d_mul(p, p);
      }
      return br < 0 ? d_div(D(1, 0), acc) : acc;
    }
    return ::cuda::std::exp(d_mul(b, ::cuda::std::log(a)));
  } else {
    return ::cuda::std::pow(a, b);
  }
}

}  // namespace cupp::detail
