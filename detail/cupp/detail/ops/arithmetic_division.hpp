// floor_divide, remainder, fmod and divmod.
//
// Floor division and remainder follow Python: the quotient is rounded down
// and the remainder takes the divisor's sign, for integers and floats alike.
// fmod is C's: the remainder takes the dividend's sign. Integer division by
// zero gives 0 (NumPy warns). Bools run in the int8 loop; complex numbers
// have no loop (TypeError in NumPy).
#pragma once

#include <cupp/detail/ops/arithmetic_element.hpp>
#include <cupp/detail/ops/common.hpp>

namespace cupp::ops {

namespace arith {

// The loop of the division ufuncs: the promoted type, int8 for bools.
template <class... Ts>
using division_t = no_bool_t<promote_t<Ts...>>;

// (floor quotient, remainder) of one element of loop type T.
template <class T>
CUPP_HD inline detail::pair_value<T, T> divmod_of(T a, T b) {
  if constexpr (is_integer_v<T>) {
    return int_divmod(a, b);
  } else {
    using M = detail::math_t<T>;
    const auto r = float_divmod<M>(detail::convert<M>(a), detail::convert<M>(b));
    return {detail::convert<T>(r.first), detail::convert<T>(r.second)};
  }
}

}  // namespace arith

struct floor_divide {
  static constexpr const char* name = "floor_divide";
  template <class... Ts>
  struct signature : common_loop_impl<arith::division_t<Ts...>, 2> {
    static_assert(!is_complex_v<arith::promote_t<Ts...>>,
                  "cupp::floor_divide: complex numbers have no floor division (NumPy raises "
                  "TypeError); divide with true_divide and floor the real() part");
  };
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return arith::divmod_of(a, b).first;
  }
};

// numpy.remainder (and numpy.mod, the `%` operator).
struct remainder {
  static constexpr const char* name = "remainder";
  template <class... Ts>
  struct signature : common_loop_impl<arith::division_t<Ts...>, 2> {
    static_assert(!is_complex_v<arith::promote_t<Ts...>>,
                  "cupp::remainder: complex numbers have no remainder (NumPy raises TypeError); "
                  "take the remainder of the real() and imag() parts separately");
  };
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return arith::divmod_of(a, b).second;
  }
};

struct fmod {
  static constexpr const char* name = "fmod";
  template <class... Ts>
  struct signature : common_loop_impl<arith::division_t<Ts...>, 2> {
    static_assert(!is_complex_v<arith::promote_t<Ts...>>,
                  "cupp::fmod: complex numbers have no fmod (NumPy raises TypeError); take the "
                  "fmod of the real() and imag() parts separately");
  };
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    if constexpr (is_integer_v<T>)
      return arith::int_fmod(a, b);
    else
      return via_float<T>([](auto x, auto y) { return ::cuda::std::fmod(x, y); }, a, b);
  }
};

// Both results of floor_divide and remainder from one computation: a
// two-output loop (evaluate it with cupp::divmod).
struct divmod {
  static constexpr const char* name = "divmod";
  template <class... Ts>
  struct signature : loop<detail::pair_value<arith::division_t<Ts...>, arith::division_t<Ts...>>,
                          arith::division_t<Ts...>, arith::division_t<Ts...>> {
    static_assert(!is_complex_v<arith::promote_t<Ts...>>,
                  "cupp::divmod: complex numbers have no floor division (NumPy raises "
                  "TypeError); divide with true_divide instead");
  };
  template <class T>
  CUPP_HD detail::pair_value<T, T> operator()(T a, T b) const {
    return arith::divmod_of(a, b);
  }
};

}  // namespace cupp::ops
