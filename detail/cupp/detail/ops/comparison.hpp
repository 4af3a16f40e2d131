// equal, not_equal, less, less_equal, greater, greater_equal.
//
// NumPy 2 compares exactly where promotion alone would not:
// - a Python int against an integer array compares by value even when the
//   int does not fit the array's dtype (`int8 < 300` is all True, `uint8 ==
//   -1` all False), where arithmetic raises OverflowError. The public
//   functions fold such a C++ integer into the operation (compare_with_int,
//   with the array's dtype and whether the value lies below, inside or above
//   its range); used as a plain binary operation, the loop takes the int as
//   int64 and compares exactly across signedness.
// - int64 against uint64 (whose common dtype is float64) has exact loops.
// - bfloat16 with int16/uint16/float16 (float32) or wider integers (float64)
//   has no common dtype but ufunc loops to which both cast safely; with a
//   Python float, ml_dtypes' loop is float32.
// - ordering comparisons of complex numbers do not compile (as in CuPy, and
//   as the array API standard leaves them undefined); == and != work.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include <cuda/std/cmath>

#include <cupp/detail/ops/common.hpp>

namespace cupp::ops {

enum class relation { equal, not_equal, less, less_equal, greater, greater_equal };

namespace comparison_impl {

// The relation with its operands swapped: a < b is b > a.
CUPP_HD constexpr relation mirror(relation r) {
  switch (r) {
    case relation::less:
      return relation::greater;
    case relation::less_equal:
      return relation::greater_equal;
    case relation::greater:
      return relation::less;
    case relation::greater_equal:
      return relation::less_equal;
    default:
      return r;
  }
}

constexpr const char* relation_name(relation r) {
  constexpr const char* names[] = {"equal",      "not_equal", "less",
                                   "less_equal", "greater",   "greater_equal"};
  return names[static_cast<int>(r)];
}

template <relation R, class T>
CUPP_HD bool holds(T x, T y);

// NumPy's lexicographic order: the real parts decide unless they are equal,
// except that a NaN imaginary part on either side keeps them from deciding
// (so only equal real parts with ordered imaginary parts can still compare).
template <relation R, class C>
CUPP_HD bool complex_holds(C x, C y) {
  const auto xr = x.real(), xi = x.imag(), yr = y.real(), yi = y.imag();
  if constexpr (R == relation::equal) {
    return xr == yr && xi == yi;
  } else if constexpr (R == relation::not_equal) {
    return !(xr == yr && xi == yi);
  } else if constexpr (R == relation::greater || R == relation::greater_equal) {
    return complex_holds<mirror(R)>(y, x);
  } else {
    const bool by_real = xr < yr && !::cuda::std::isnan(xi) && !::cuda::std::isnan(yi);
    const bool by_imag = R == relation::less ? xi < yi : xi <= yi;
    return by_real || (xr == yr && by_imag);
  }
}

// x R y for two values of one type.
template <relation R, class T>
CUPP_HD bool holds(T x, T y) {
  if constexpr (detail::is_low_float_v<T>) {
    return holds<R>(detail::to_float(x), detail::to_float(y));
  } else if constexpr (detail::is_complex_type_v<T>) {
    return complex_holds<R>(x, y);
  } else if constexpr (R == relation::equal) {
    return x == y;
  } else if constexpr (R == relation::not_equal) {
    return x != y;
  } else if constexpr (R == relation::less) {
    return x < y;
  } else if constexpr (R == relation::less_equal) {
    return x <= y;
  } else if constexpr (R == relation::greater) {
    return x > y;
  } else {
    return x >= y;
  }
}

// x R y for integers of different types, by value (C++'s usual conversions
// would turn -1 into UINT64_MAX).
template <relation R, class A, class B>
CUPP_HD bool holds_mixed(A x, B y) {
  if constexpr (std::is_signed_v<A> == std::is_signed_v<B>) {
    using W = std::conditional_t<std::is_signed_v<A>, std::int64_t, std::uint64_t>;
    return holds<R>(static_cast<W>(x), static_cast<W>(y));
  } else if constexpr (std::is_signed_v<A>) {
    if (x < 0) return holds<R>(-1, 0);
    return holds<R>(static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y));
  } else {
    if (y < 0) return holds<R>(0, -1);
    return holds<R>(static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y));
  }
}

template <class T>
constexpr bool integer_dtype() {
  if constexpr (is_dtype_v<T>)
    return is_integer_v<T>;
  else
    return false;
}

// The float type of the ufunc loop for bfloat16 and a type it has no common
// dtype with (ml_dtypes' loops: the first to which both cast safely).
template <class A, class B>
using unpromotable_float_t =
    std::conditional_t<detail::can_cast_safe(
                           dtype_id_of<std::conditional_t<std::is_same_v<A, bfloat16>, B, A>>,
                           dtype_id::float32),
                       float, double>;

// promote_t where both are dtypes with a common dtype, and otherwise a
// placeholder (so that conditions can name it without failing to compile).
template <class A, class B>
using lazy_promote_t = typename std::conditional_t<Promotable<A, B>, detail::result_type_impl<A, B>,
                                                   std::type_identity<void>>::type;

template <class... Ts>
struct loop_for {
  using type = predicate_loop<Ts...>;
};
template <class A, class B>
struct loop_for<A, B> {
  static constexpr auto pick() {
    if constexpr (integer_dtype<A>() && std::is_same_v<B, weak_int>)
      return std::type_identity<loop<bool, A, std::int64_t>>{};
    else if constexpr (std::is_same_v<A, weak_int> && integer_dtype<B>())
      return std::type_identity<loop<bool, std::int64_t, B>>{};
    else if constexpr (integer_dtype<A>() && integer_dtype<B>() &&
                       !integer_dtype<lazy_promote_t<A, B>>())
      return std::type_identity<loop<bool, A, B>>{};
    else if constexpr ((std::is_same_v<A, bfloat16> && std::is_same_v<B, weak_float>) ||
                       (std::is_same_v<A, weak_float> && std::is_same_v<B, bfloat16>))
      return std::type_identity<common_loop_impl<float, 2, bool>>{};
    else if constexpr (is_dtype_v<A> && is_dtype_v<B> && !Promotable<A, B>)
      return std::type_identity<common_loop_impl<unpromotable_float_t<A, B>, 2, bool>>{};
    else
      return std::type_identity<predicate_loop<A, B>>{};
  }
  using type = typename decltype(pick())::type;
};

}  // namespace comparison_impl

// The comparison `R` between any two operands.
template <relation R>
struct comparison {
  static constexpr relation rel = R;
  static constexpr const char* name = comparison_impl::relation_name(R);
  template <class... Ts>
  struct signature : comparison_impl::loop_for<Ts...>::type {
    using resolved = typename comparison_impl::loop_for<Ts...>::type;
    static_assert(R == relation::equal || R == relation::not_equal ||
                      !(is_complex_v<typename resolved::template in<0>> ||
                        is_complex_v<typename resolved::template in<1>>),
                  "cupp::less/less_equal/greater/greater_equal: ordering comparisons of complex "
                  "numbers are not supported (CuPy raises TypeError); compare real() or abs()");
  };
  template <class A, class B>
  CUPP_HD bool operator()(A a, B b) const {
    if constexpr (std::is_same_v<A, B>)
      return comparison_impl::holds<R>(a, b);
    else
      return comparison_impl::holds_mixed<R>(a, b);
  }
};

struct equal : comparison<relation::equal> {};
struct not_equal : comparison<relation::not_equal> {};
struct less : comparison<relation::less> {};
struct less_equal : comparison<relation::less_equal> {};
struct greater : comparison<relation::greater> {};
struct greater_equal : comparison<relation::greater_equal> {};

// A C++ integer as seen from integer type I: its value when it fits I, and
// otherwise only which side of I's range it lies on, which decides every
// comparison with an I.
template <class I>
struct int_bound {
  I value;
  signed char side;  // -1 below I's range, 0 inside, +1 above
};

template <class I, class S>
int_bound<I> bound_of(S v) {
  // Through a 64-bit type: std::in_range rejects the character types.
  using W = std::conditional_t<std::is_signed_v<S>, std::int64_t, std::uint64_t>;
  const W w = static_cast<W>(v);
  if (std::in_range<I>(w)) return {static_cast<I>(w), 0};
  return {I(0), static_cast<signed char>(std::cmp_less(w, 0) ? -1 : 1)};
}

// `x R bound` for the elements x of an integer operand of type I: a
// comparison with a C++ integer, done in I's width.
template <relation R, class I>
struct compare_with_int {
  static constexpr const char* name = comparison_impl::relation_name(R);
  int_bound<I> bound;
  template <class T>
  struct signature : loop<bool, I> {};
  CUPP_HD bool operator()(I x) const {
    if (bound.side == 0) return comparison_impl::holds<R>(x, bound.value);
    return comparison_impl::holds<R>(0, static_cast<int>(bound.side));
  }
};

}  // namespace cupp::ops
