// isclose and nan_to_num: element-wise functions NumPy writes in Python on
// top of ufuncs, computed here in one pass with the same intermediate types.
#pragma once

#include <cupp/detail/ops/float_support.hpp>

namespace cupp::ops {

// isclose(x, y): |x - y| <= atol + rtol * |y| where y is finite, or x == y
// (equal infinities), or both NaN when equal_nan.
//
// NumPy first makes y inexact (result_type(y, 1.0); a Python int becomes a
// Python float), computes x - y in their common type D, the tolerance in
// y's type (in Python floats, i.e. double, when y is a Python scalar) and
// compares in D. YWeak says whether y is a C++ scalar, whose tolerance is a
// weak double.
template <bool YWeak>
struct isclose_op {
  static constexpr const char* name = "isclose";
  double rtol = 1e-05;
  double atol = 1e-08;
  bool equal_nan = false;

  // The type y is held in (result_type(y, 1.0), which is float64 for
  // bfloat16), and the operand kind it enters x - y as.
  template <class Y>
  using y_kind = std::conditional_t<
      is_weak_v<Y>, std::conditional_t<std::is_same_v<Y, weak_complex>, weak_complex, weak_float>,
      std::conditional_t<std::is_same_v<Y, __nv_bfloat16>, double, promote_t<Y, weak_float>>>;
  // x - y (a bfloat16 x minus a Python float runs in ml_dtypes' float32
  // loop).
  template <class X, class Y>
  using difference_t = arith::promote_t<X, y_kind<Y>>;
  template <class X, class Y>
  struct signature : loop<bool, difference_t<X, Y>, promote_t<y_kind<Y>>> {};

  template <class D, class Y>
  CUPP_HD bool operator()(D x, Y y) const {
    using Dr = misc_detail::real_of_t<D>;
    using Yr = misc_detail::real_of_t<Y>;
    const D yd = detail::convert<D>(y);
    const Dr diff = magnitude(difference(x, yd));
    Dr tol;
    if constexpr (YWeak) {
      tol =
          detail::convert<Dr>(atol + misc_detail::mul_rn(rtol, static_cast<double>(magnitude(y))));
    } else {
      const Yr r = detail::convert<Yr>(rtol), a = detail::convert<Yr>(atol);
      const Yr scaled =
          via_float<Yr>([](auto u, auto v) { return misc_detail::mul_rn(u, v); }, r, magnitude(y));
      tol = detail::convert<Dr>(via_float<Yr>([](auto u, auto v) { return u + v; }, a, scaled));
    }
    bool close =
        (misc_detail::math(diff) <= misc_detail::math(tol) && misc_detail::value_isfinite(y)) ||
        equal(x, yd);
    if (equal_nan) close = close || (misc_detail::value_isnan(x) && misc_detail::value_isnan(y));
    return close;
  }

 private:
  template <class T>
  CUPP_HD static T difference(T a, T b) {
    if constexpr (is_complex_v<T>)
      return a - b;
    else
      return via_float<T>([](auto u, auto v) { return u - v; }, a, b);
  }
  template <class T>
  CUPP_HD static misc_detail::real_of_t<T> magnitude(T v) {
    if constexpr (is_complex_v<T>)
      return misc_detail::complex_abs(v.real(), v.imag());
    else
      return fbits::abs(v);
  }
  template <class T>
  CUPP_HD static bool equal(T a, T b) {
    if constexpr (is_complex_v<T>)
      return a.real() == b.real() && a.imag() == b.imag();
    else
      return misc_detail::math(a) == misc_detail::math(b);
  }
};

// nan_to_num: NaN -> nan, +inf -> posinf, -inf -> neginf (by default the
// largest finite values of the dtype), each given value cast to the dtype
// as a Python float is; complex numbers treat both parts. Integers and bool
// are returned unchanged.
struct nan_to_num {
  static constexpr const char* name = "nan_to_num";
  double nan = 0.0;
  double posinf = 0.0;
  double neginf = 0.0;
  bool has_posinf = false;
  bool has_neginf = false;

  template <class... Ts>
  struct signature : common_loop<Ts...> {};
  template <class T>
  CUPP_HD T operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return T(part(a.real()), part(a.imag()));
    else if constexpr (is_floating_v<T>)
      return part(a);
    else
      return a;
  }

 private:
  template <class R>
  CUPP_HD R part(R v) const {
    if (fbits::isnan(v)) return detail::convert<R>(nan);
    if (!fbits::isinf(v)) return v;
    if (!fbits::signbit(v)) return has_posinf ? detail::convert<R>(posinf) : fbits::max_finite<R>();
    return has_neginf ? detail::convert<R>(neginf) : fbits::lowest<R>();
  }
};

}  // namespace cupp::ops
