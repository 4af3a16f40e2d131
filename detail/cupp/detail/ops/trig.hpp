// sin, cos, tan, arcsin, arccos, arctan, arctan2, hypot, sinh, cosh, tanh,
// arcsinh, arccosh, arctanh, deg2rad, rad2deg, degrees, radians, sinc.
#pragma once

#include <cupp/detail/ops/complex_math.hpp>
#include <cupp/detail/ops/math_common.hpp>

namespace cupp::ops {

CUPP_MATH_UNARY(sin, sin, sin)
CUPP_MATH_UNARY(cos, cos, cos)
CUPP_MATH_UNARY(tan, tan, tan)
CUPP_MATH_UNARY(arcsin, asin, asin)
CUPP_MATH_UNARY(arccos, acos, acos)
CUPP_MATH_UNARY(arctan, atan, atan)
CUPP_MATH_UNARY(sinh, sinh, sinh)
CUPP_MATH_UNARY(cosh, cosh, cosh)
CUPP_MATH_UNARY(tanh, tanh, tanh)
CUPP_MATH_UNARY(arcsinh, asinh, asinh)
CUPP_MATH_UNARY(arccosh, acosh, acosh)
CUPP_MATH_UNARY(arctanh, atanh, atanh)

struct arctan2 {
  static constexpr const char* name = "arctan2";
  CUPP_MATH_REAL_SIGNATURE(arctan2)
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return via_float<T>([](auto y, auto x) { return ::cuda::std::atan2(y, x); }, a, b);
  }
};

struct hypot {
  static constexpr const char* name = "hypot";
  CUPP_MATH_REAL_SIGNATURE(hypot)
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return via_float<T>([](auto x, auto y) { return fmath::hypot(x, y); }, a, b);
  }
};

namespace math_detail {
// NumPy's constants: pi/180 and 180/pi rounded in the loop's precision
// (float's are float(pi)/180f and 180f/float(pi)).
template <class R>
CUPP_HD R deg2rad(R x) {
  return x * (pi<R>() / R(180));
}
template <class R>
CUPP_HD R rad2deg(R x) {
  return x * (R(180) / pi<R>());
}
}  // namespace math_detail

struct deg2rad {
  static constexpr const char* name = "deg2rad";
  CUPP_MATH_REAL_SIGNATURE(deg2rad)
  template <class T>
  CUPP_HD T operator()(T a) const {
    return via_float<T>([](auto x) { return math_detail::deg2rad(x); }, a);
  }
};

struct rad2deg {
  static constexpr const char* name = "rad2deg";
  CUPP_MATH_REAL_SIGNATURE(rad2deg)
  template <class T>
  CUPP_HD T operator()(T a) const {
    return via_float<T>([](auto x) { return math_detail::rad2deg(x); }, a);
  }
};

// degrees and radians are NumPy's rad2deg and deg2rad loops, but ml_dtypes
// registers no bfloat16 loop for them: bfloat16 gives float32.
#define CUPP_MATH_NO_BF16(NAME, FN)                                                          \
  struct NAME {                                                                              \
    static constexpr const char* name = #NAME;                                               \
    template <class... Ts>                                                                   \
    struct signature : common_loop_impl<float_loop_no_bf16_t<Ts...>, 1> {                    \
      static_assert(!float_loop_is_complex_v<Ts...>,                                         \
                    "cupp::" #NAME                                                           \
                    ": complex input is not supported (NumPy has no complex loop and "       \
                    "raises TypeError); pass real values, e.g. the real part of the array"); \
    };                                                                                       \
    template <class T>                                                                       \
    CUPP_HD T operator()(T a) const {                                                        \
      return via_float<T>([](auto x) { return math_detail::FN(x); }, a);                     \
    }                                                                                        \
  };

CUPP_MATH_NO_BF16(degrees, rad2deg)
CUPP_MATH_NO_BF16(radians, deg2rad)

#undef CUPP_MATH_NO_BF16

namespace math_detail {
// NumPy's complex division (Smith's method), for sinc's sin(y) / y.
template <class R>
CUPP_HD ::cuda::std::complex<R> smith_divide(::cuda::std::complex<R> a, ::cuda::std::complex<R> b) {
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  const R abr = ::cuda::std::fabs(br), abi = ::cuda::std::fabs(bi);
  if (abr >= abi) {
    if (abr == R(0) && abi == R(0)) return {ar / abr, ai / abr};
    const R rat = bi / br, scl = R(1) / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const R rat = br / bi, scl = R(1) / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}

// numpy.sinc's dtype: pi * x with the weak Python float pi, so integers and
// bool give float64 and bfloat16 gives float32 (ml_dtypes' bfloat16 times a
// Python float).
template <class C>
using sinc_in_t = std::conditional_t<is_bool_v<C> || is_integer_v<C>, double, C>;
template <class C>
using sinc_out_t = std::conditional_t<std::is_same_v<C, __nv_bfloat16>, float, sinc_in_t<C>>;
}  // namespace math_detail

// numpy.sinc (a function, not a ufunc): NumPy computes y = pi * x in x's
// dtype, replaces y == 0 by a tiny value and returns sin(y) / y. The same
// steps, with their roundings, are taken here, so sinc(1.0f) is
// sin(float(pi)) / float(pi) = -2.78e-08 as in NumPy, not 0.
struct sinc {
  static constexpr const char* name = "sinc";
  template <class... Ts>
  struct signature
      : loop<math_detail::sinc_out_t<promote_t<Ts...>>, math_detail::sinc_in_t<promote_t<Ts...>>> {
    static_assert(sizeof...(Ts) == 1, "cupp::sinc: takes one operand");
  };
  template <class T>
  CUPP_HD auto operator()(T a) const {
    using math_detail::pi;
    if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      // pi * z as NumPy's complex multiply by (pi + 0j) computes it.
      const R x = a.real(), y = a.imag();
      const T w(x * pi<R>() - y * R(0), x * R(0) + y * pi<R>());
      if (w.real() == R(0) && w.imag() == R(0)) return T(R(1), R(0));
      return math_detail::smith_divide(cmath::sin(w), w);
    } else if constexpr (std::is_same_v<T, __half>) {
      // float16 steps: pi rounds to float16 (3.140625), every result too.
      const __half w = detail::convert<__half>(
          detail::to_float(detail::convert<__half>(pi<float>())) * detail::to_float(a));
      const float wf = detail::to_float(w);
      if (wf == 0.0f) return detail::convert<__half>(1.0f);
      const __half s = detail::convert<__half>(::cuda::std::sin(wf));
      return detail::convert<__half>(detail::to_float(s) / wf);
    } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
      const float w = detail::to_float(a) * pi<float>();
      if (w == 0.0f) return 1.0f;
      return ::cuda::std::sin(w) / w;
    } else {
      const T w = a * pi<T>();
      if (w == T(0)) return T(1);
      return ::cuda::std::sin(w) / w;
    }
  }
};

}  // namespace cupp::ops
