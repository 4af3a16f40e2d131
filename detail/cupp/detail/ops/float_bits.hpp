// isnan, isinf, isfinite, signbit, copysign, nextafter, spacing, ldexp:
// operations on the representation of floating-point numbers, done on the
// bits so that -0.0, NaN signs and the 16-bit types come out as in NumPy.
#pragma once

#include <climits>

#include <cupp/detail/ops/float_support.hpp>

namespace cupp::ops {

#define CUPP_CLASSIFY(NAME, FN)                  \
  struct NAME {                                  \
    static constexpr const char* name = #NAME;   \
    template <class... Ts>                       \
    struct signature : predicate_loop<Ts...> {}; \
    template <class T>                           \
    CUPP_HD bool operator()(T a) const {         \
      return FN(a);                              \
    }                                            \
  };

// Every dtype: integers and bool are finite and never NaN.
CUPP_CLASSIFY(isnan, misc_detail::value_isnan)
CUPP_CLASSIFY(isinf, misc_detail::value_isinf)
CUPP_CLASSIFY(isfinite, misc_detail::value_isfinite)

#undef CUPP_CLASSIFY

// NumPy casts integers to a float type first; the sign survives the cast.
struct signbit {
  static constexpr const char* name = "signbit";
  template <class... Ts>
  struct signature : predicate_loop<Ts...> {
    static_assert(!is_complex_v<promote_t<Ts...>>,
                  "cupp::signbit: complex input is not supported (NumPy raises TypeError); "
                  "take real() or imag() first");
  };
  template <class T>
  CUPP_HD bool operator()(T a) const {
    if constexpr (is_floating_v<T>)
      return fbits::signbit(a);
    else if constexpr (is_signed_integer_v<T>)
      return a < 0;
    else
      return false;
  }
};

// The loop of a float-only binary ufunc, with the static_assert for complex
// operands.
#define CUPP_FLOAT_BINARY_SIGNATURE(NAME)                                                       \
  template <class... Ts>                                                                        \
  struct signature                                                                              \
      : common_loop_impl<misc_detail::or_double_t<misc_detail::float_loop_t<true, Ts...>>, 2> { \
    static_assert(!std::is_void_v<misc_detail::float_loop_t<true, Ts...>>,                      \
                  "cupp::" NAME                                                                 \
                  ": complex input is not supported (NumPy raises TypeError); use real "        \
                  "operands");                                                                  \
  };

struct copysign {
  static constexpr const char* name = "copysign";
  CUPP_FLOAT_BINARY_SIGNATURE("copysign")
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return fbits::copysign(a, b);
  }
};

// The next representable value after x toward y, stepping in x's own type
// (float16 and bfloat16 step by one 16-bit ulp).
struct nextafter {
  static constexpr const char* name = "nextafter";
  CUPP_FLOAT_BINARY_SIGNATURE("nextafter")
  template <class T>
  CUPP_HD T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, __half>) {
      // NumPy's float16 rules: NaN in, the default NaN out; equal values
      // (0.0 and -0.0 included) give x.
      if (fbits::isnan(x) || fbits::isnan(y)) return fbits::quiet_nan<T>();
      const float fx = misc_detail::math(x), fy = misc_detail::math(y);
      if (fx == fy) return x;
      if (fx == 0) return fbits::min_subnormal<T>(fbits::signbit(y));
      return fbits::step_magnitude(x, (fx < fy) == (fx > 0));
    } else {
      // C's nextafter (glibc for float32/64, ml_dtypes for bfloat16): equal
      // values give y.
      if (fbits::isnan(x) || fbits::isnan(y)) {
        if constexpr (std::is_same_v<T, __nv_bfloat16>)
          return fbits::quiet_nan<T>();
        else
          return x + y;
      }
      const auto fx = misc_detail::math(x), fy = misc_detail::math(y);
      if (fx == fy) return y;
      if (fx == 0) return fbits::min_subnormal<T>(fbits::signbit(y));
      return fbits::step_magnitude(x, (fx < fy) == (fx > 0));
    }
  }
};

// The distance from x to its neighbour; each type follows its NumPy
// implementation: float16 measures toward +inf and is never negative,
// float32/64 measure away from zero (sign of x, +0 for both zeros),
// bfloat16 (ml_dtypes) away from zero with the sign of x, -0.0 included.
struct spacing {
  static constexpr const char* name = "spacing";
  template <class... Ts>
  struct signature
      : common_loop_impl<misc_detail::or_double_t<misc_detail::float_loop_t<true, Ts...>>, 1> {
    static_assert(!std::is_void_v<misc_detail::float_loop_t<true, Ts...>>,
                  "cupp::spacing: complex input is not supported (NumPy raises TypeError)");
  };
  template <class T>
  CUPP_HD T operator()(T x) const {
    if constexpr (std::is_same_v<T, __half>) {
      if (!fbits::isfinite(x)) return fbits::quiet_nan<T>();
      const T up = nextafter{}(x, fbits::from_bits<T>(fbits::float_layout<T>::exp));
      return detail::convert<T>(misc_detail::math(up) - misc_detail::math(x));
    } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
      // inf - inf on x86 gives the negative default NaN.
      if (fbits::isinf(x)) return fbits::from_bits<T>(0xffc0u);
      if (fbits::isnan(x)) return fbits::quiet_nan<T>();
      const T away =
          fbits::from_bits<T>(fbits::float_layout<T>::exp | (fbits::to_bits(x) & 0x8000u));
      return detail::convert<T>(misc_detail::math(nextafter{}(x, away)) - misc_detail::math(x));
    } else {
      if (fbits::isinf(x)) return fbits::quiet_nan<T>();
      if (fbits::isnan(x)) return x + x;
      const T next = x == 0 ? fbits::min_subnormal<T>(false) : fbits::step_magnitude(x, true);
      return next - x;
    }
  }
};

// ldexp(x, n): NumPy's loops take an int (int32) or long (int64) exponent,
// and bfloat16 (ml_dtypes) only an int32 one.
struct ldexp {
  static constexpr const char* name = "ldexp";

  template <class E>
  static constexpr bool int32_exponent =
      std::is_same_v<E, bool> || std::is_same_v<E, weak_bool> || std::is_same_v<E, std::int8_t> ||
      std::is_same_v<E, std::int16_t> || std::is_same_v<E, std::int32_t> ||
      std::is_same_v<E, std::uint8_t> || std::is_same_v<E, std::uint16_t>;
  template <class E>
  static constexpr bool integer_exponent =
      int32_exponent<E> || std::is_same_v<E, std::int64_t> || std::is_same_v<E, std::uint32_t> ||
      std::is_same_v<E, weak_int>;

  // A Python int exponent takes the int32 loop next to an array (and raises
  // OverflowError beyond it); next to another Python scalar NumPy uses the
  // int64 one.
  template <class X, class E>
  using exponent_t =
      std::conditional_t<int32_exponent<E> || (std::is_same_v<E, weak_int> && !is_weak_v<X>),
                         std::int32_t, std::int64_t>;
  template <class X, class E>
  using mantissa_t = std::conditional_t<std::is_same_v<X, __nv_bfloat16> &&
                                            std::is_same_v<exponent_t<X, E>, std::int32_t>,
                                        __nv_bfloat16, misc_detail::float_loop_t<false, X>>;

  template <class X, class E>
  struct signature : loop<misc_detail::or_double_t<mantissa_t<X, E>>,
                          misc_detail::or_double_t<mantissa_t<X, E>>, exponent_t<X, E>> {
    static_assert(integer_exponent<E>,
                  "cupp::ldexp: the exponent must be an integer (bool, int8 .. int64, uint8 .. "
                  "uint32); NumPy has no loop for floating-point or uint64 exponents");
    static_assert(!std::is_void_v<mantissa_t<X, E>>,
                  "cupp::ldexp: complex input is not supported (NumPy raises TypeError)");
  };

  template <class T, class N>
  CUPP_HD T operator()(T x, N n) const {
    if (fbits::isnan(x)) return x;  // sign and payload kept, as NumPy's do
    int e;
    if constexpr (sizeof(N) > sizeof(int))
      e = n > INT_MAX ? INT_MAX : n < INT_MIN ? INT_MIN : static_cast<int>(n);
    else
      e = static_cast<int>(n);
    return via_float<T>([e](auto v) { return ::cuda::std::ldexp(v, e); }, x);
  }
};

#undef CUPP_FLOAT_BINARY_SIGNATURE

}  // namespace cupp::ops
