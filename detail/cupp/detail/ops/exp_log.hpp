// sqrt, cbrt, square, exp, exp2, expm1, log, log2, log10, log1p,
// logaddexp, logaddexp2.
#pragma once

#include <cupp/detail/ops/complex_math.hpp>
#include <cupp/detail/ops/math_common.hpp>

namespace cupp::ops {

CUPP_MATH_UNARY(sqrt, sqrt, sqrt)
CUPP_MATH_UNARY(exp, exp, exp)
CUPP_MATH_UNARY(exp2, exp2, exp2)
CUPP_MATH_UNARY(expm1, expm1, expm1)
CUPP_MATH_UNARY(log, log, log)
CUPP_MATH_UNARY(log2, log2, log2)
CUPP_MATH_UNARY(log10, log10, log10)
CUPP_MATH_UNARY(log1p, log1p, log1p)

struct cbrt {
  static constexpr const char* name = "cbrt";
  CUPP_MATH_REAL_SIGNATURE(cbrt)
  template <class T>
  CUPP_HD T operator()(T a) const {
    return via_float<T>([](auto x) { return ::cuda::std::cbrt(x); }, a);
  }
};

// square keeps integer types (wrapping on overflow); bool squares as int8,
// NumPy's first loop that bool casts to.
struct square {
  static constexpr const char* name = "square";
  template <class... Ts>
  struct signature
      : common_loop_impl<
            std::conditional_t<is_bool_v<promote_t<Ts...>>, std::int8_t, promote_t<Ts...>>, 1> {};
  template <class T>
  CUPP_HD T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      return cmath::square(a);
    } else if constexpr (std::is_integral_v<T>) {
      // Unsigned arithmetic at least as wide as int: defined wrap-around.
      using U =
          std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
      return static_cast<T>(static_cast<U>(a) * static_cast<U>(a));
    } else {
      return via_float<T>([](auto x) { return x * x; }, a);
    }
  }
};

namespace math_detail {
// NumPy's npy_logaddexp: equal arguments (infinities of one sign included)
// give x + log 2; the difference's NaN is the result for NaN inputs.
template <class R>
CUPP_HD R logaddexp(R x, R y) {
  if (x == y) return x + ln2<R>();
  const R d = x - y;
  if (d > R(0)) return x + ::cuda::std::log1p(::cuda::std::exp(-d));
  if (d <= R(0)) return y + ::cuda::std::log1p(::cuda::std::exp(d));
  return d;
}
template <class R>
CUPP_HD R logaddexp2(R x, R y) {
  if (x == y) return x + R(1);
  const R d = x - y;
  if (d > R(0)) return x + log2e<R>() * ::cuda::std::log1p(::cuda::std::exp2(-d));
  if (d <= R(0)) return y + log2e<R>() * ::cuda::std::log1p(::cuda::std::exp2(d));
  return d;
}
}  // namespace math_detail

struct logaddexp {
  static constexpr const char* name = "logaddexp";
  CUPP_MATH_REAL_SIGNATURE(logaddexp)
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return via_float<T>([](auto x, auto y) { return math_detail::logaddexp(x, y); }, a, b);
  }
};

struct logaddexp2 {
  static constexpr const char* name = "logaddexp2";
  CUPP_MATH_REAL_SIGNATURE(logaddexp2)
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return via_float<T>([](auto x, auto y) { return math_detail::logaddexp2(x, y); }, a, b);
  }
};

}  // namespace cupp::ops
