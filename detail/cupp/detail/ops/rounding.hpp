// floor, ceil, trunc (and fix), rint, round: rounding to integral values or
// to a number of decimals.
#pragma once

#include <climits>
#include <limits>

#include <cupp/detail/ops/float_support.hpp>

namespace cupp::ops {

// NumPy 2 keeps the dtype: integers and bool come back unchanged. NaN is
// returned as it is (sign and payload kept, as NumPy's float16 loops do).
#define CUPP_ROUNDING(NAME, FN)                                                                  \
  struct NAME {                                                                                  \
    static constexpr const char* name = #NAME;                                                   \
    template <class... Ts>                                                                       \
    struct signature : common_loop<Ts...> {                                                      \
      static_assert(!is_complex_v<promote_t<Ts...>>,                                             \
                    "cupp::" #NAME                                                               \
                    ": complex input is not supported (NumPy raises TypeError); round the "      \
                    "real() and imag() parts separately");                                       \
    };                                                                                           \
    template <class T>                                                                           \
    CUPP_HD T operator()(T a) const {                                                            \
      if constexpr (is_floating_v<T>)                                                            \
        return fbits::isnan(a) ? a : via_float<T>([](auto x) { return ::cuda::std::FN(x); }, a); \
      else                                                                                       \
        return a;                                                                                \
    }                                                                                            \
  };

CUPP_ROUNDING(floor, floor)
CUPP_ROUNDING(ceil, ceil)
CUPP_ROUNDING(trunc, trunc)
// numpy.fix is numpy.trunc.
CUPP_ROUNDING(fix, trunc)

#undef CUPP_ROUNDING

// Round half to even, in the current (default) rounding mode. Integers go
// to the float loop they cast to safely; complex rounds both parts.
struct rint {
  static constexpr const char* name = "rint";
  template <class... Ts>
  using loop_type =
      std::conditional_t<is_complex_v<promote_t<Ts...>>, promote_t<Ts...>,
                         misc_detail::or_double_t<misc_detail::float_loop_t<true, Ts...>>>;
  template <class... Ts>
  struct signature : common_loop_impl<loop_type<Ts...>, 1> {};
  template <class T>
  CUPP_HD T operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return T((*this)(a.real()), (*this)(a.imag()));
    else
      return fbits::isnan(a) ? a : via_float<T>([](auto x) { return ::cuda::std::rint(x); }, a);
  }
};

// numpy.round(x, decimals). NumPy's algorithm, followed step by step so that
// every intermediate rounds as in NumPy: with f = 10**|decimals| (a double,
// cast to the array's type as a Python float is, float32 for bfloat16),
// floats compute rint(x * f) / f, or rint(x / f) * f for negative
// decimals, rounding to the array's type after each step; complex numbers
// round both parts; integers are unchanged for decimals >= 0 and otherwise
// go through float64 and are cast back; bool with decimals 0 is rint's
// (float16).
struct round {
  static constexpr const char* name = "round";
  int decimals = 0;
  double factor = 1;  // power_of_ten(|decimals|)

  // 10**n as NumPy computes it: exact up to 1e8, then repeated products,
  // whose rounding NumPy's result depends on.
  static constexpr double power_of_ten(int n) {
    constexpr double exact[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
    if (n < 9) return exact[n];
    double r = 1e9;
    for (int k = 9; k < n && r != std::numeric_limits<double>::infinity(); ++k) r *= 10.;
    return r;
  }
  static constexpr round make(int decimals) {
    const int n = decimals >= 0 ? decimals : decimals == INT_MIN ? INT_MAX : -decimals;
    return round{decimals, power_of_ten(n)};
  }

  template <class... Ts>
  using loop_type = std::conditional_t<is_bool_v<promote_t<Ts...>>, __half, promote_t<Ts...>>;
  template <class... Ts>
  struct signature : common_loop_impl<loop_type<Ts...>, 1> {};

  template <class T>
  CUPP_HD T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      return T(part(a.real()), part(a.imag()));
    } else if constexpr (is_integer_v<T>) {
      if (decimals >= 0) return a;
      return detail::convert<T>(::cuda::std::rint(static_cast<double>(a) / factor) * factor);
    } else {
      return part(a);
    }
  }

 private:
  template <class T>
  CUPP_HD T part(T a) const {
    if (fbits::isnan(a)) return a;
    // A Python float next to bfloat16 takes ml_dtypes' float32 loops: the
    // factor stays a float32, each step still rounds to bfloat16.
    using F = std::conditional_t<std::is_same_v<T, __nv_bfloat16>, float, T>;
    const F f = detail::convert<F>(factor);
    auto step = [](auto fn, auto... v) { return detail::convert<T>(fn(misc_detail::math(v)...)); };
    const auto mul = [](auto x, auto y) { return x * y; };
    const auto div = [](auto x, auto y) { return x / y; };
    const auto rnd = [](auto x) { return ::cuda::std::rint(x); };
    if (decimals >= 0) return step(div, step(rnd, step(mul, a, f)), f);
    return step(mul, step(rnd, step(div, a, f)), f);
  }
};

}  // namespace cupp::ops
