// The ufuncs of integers and bool: bitwise_and, bitwise_or, bitwise_xor,
// invert, left_shift, right_shift, gcd, lcm.
//
// Operands are cast to their common dtype, which must be an integer (or
// bool): NumPy raises TypeError for floating-point and complex operands and
// for signed integers with uint64 (whose common dtype is float64). Shifts
// have no bool loop: bool operands shift as int8. gcd and lcm have no bool
// loop at all.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda/std/bit>

#include <cupp/detail/ops/common.hpp>

namespace cupp::ops {

namespace integer_impl {

template <class T>
constexpr bool integral_operand() {
  if constexpr (is_weak_v<T>)
    return std::is_same_v<T, weak_bool> || std::is_same_v<T, weak_int>;
  else
    return is_bool_v<T> || is_integer_v<T>;
}

template <class... Ts>
struct lazy_promote {
  using type = promote_t<Ts...>;
};

// The common dtype of integer and bool operands; int64 stands in where there
// is none, so that only the signature's static_assert reports the error.
template <class... Ts>
struct common {
  static constexpr bool integral_inputs = (integral_operand<Ts>() && ...);
  using promoted = typename std::conditional_t<integral_inputs, lazy_promote<Ts...>,
                                               std::type_identity<std::int64_t>>::type;
  static constexpr bool has_integer_type = integral_operand<promoted>();
  using type = std::conditional_t<has_integer_type, promoted, std::int64_t>;
};

template <class C>
using shift_type = std::conditional_t<is_bool_v<C>, std::int8_t, C>;

// Euclid's algorithm in binary form (Stein's), which needs no division: the
// common factors of two are counted once, then odd values are subtracted.
template <class W>
CUPP_HD W binary_gcd(W a, W b) {
  if (a == 0) return b;
  if (b == 0) return a;
  const int twos = ::cuda::std::countr_zero(static_cast<W>(a | b));
  a >>= ::cuda::std::countr_zero(a);
  do {
    b >>= ::cuda::std::countr_zero(b);
    if (a > b) {
      const W t = a;
      a = b;
      b = t;
    }
    b -= a;
  } while (b != 0);
  return a << twos;
}

// |v| as an unsigned value at least 32 bits wide (|INT8_MIN| is 128).
template <class T>
using magnitude_t = std::conditional_t<sizeof(T) <= 4, std::uint32_t, std::uint64_t>;
template <class T>
CUPP_HD magnitude_t<T> magnitude(T v) {
  using W = magnitude_t<T>;
  if constexpr (std::is_signed_v<T>)
    return v < 0 ? static_cast<W>(W(0) - static_cast<W>(v)) : static_cast<W>(v);
  else
    return static_cast<W>(v);
}

}  // namespace integer_impl

}  // namespace cupp::ops

// The TypeErrors of the integer ufuncs (inside a signature over Ts...).
#define CUPP_INTEGER_OPERANDS(NAME)                                                              \
  static_assert(::cupp::ops::integer_impl::common<Ts...>::integral_inputs,                       \
                "cupp::" #NAME                                                                   \
                ": only integer and bool operands are supported (NumPy raises TypeError for "    \
                "floating-point and complex ones); cast with astype<T>() first");                \
  static_assert(!::cupp::ops::integer_impl::common<Ts...>::integral_inputs ||                    \
                    ::cupp::ops::integer_impl::common<Ts...>::has_integer_type,                  \
                "cupp::" #NAME                                                                   \
                ": signed integers and uint64 have no common integer type (NumPy promotes them " \
                "to float64 and raises TypeError); cast one operand with astype<T>() first")

namespace cupp::ops {

struct bitwise_and {
  static constexpr const char* name = "bitwise_and";
  template <class... Ts>
  struct signature : common_loop_impl<typename integer_impl::common<Ts...>::type, sizeof...(Ts)> {
    CUPP_INTEGER_OPERANDS(bitwise_and);
  };
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return static_cast<T>(a & b);
  }
};

struct bitwise_or {
  static constexpr const char* name = "bitwise_or";
  template <class... Ts>
  struct signature : common_loop_impl<typename integer_impl::common<Ts...>::type, sizeof...(Ts)> {
    CUPP_INTEGER_OPERANDS(bitwise_or);
  };
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return static_cast<T>(a | b);
  }
};

struct bitwise_xor {
  static constexpr const char* name = "bitwise_xor";
  template <class... Ts>
  struct signature : common_loop_impl<typename integer_impl::common<Ts...>::type, sizeof...(Ts)> {
    CUPP_INTEGER_OPERANDS(bitwise_xor);
  };
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return static_cast<T>(a ^ b);
  }
};

// Bitwise NOT; for bool, logical NOT.
struct invert {
  static constexpr const char* name = "invert";
  template <class... Ts>
  struct signature : common_loop_impl<typename integer_impl::common<Ts...>::type, sizeof...(Ts)> {
    CUPP_INTEGER_OPERANDS(invert);
  };
  template <class T>
  CUPP_HD T operator()(T a) const {
    if constexpr (is_bool_v<T>)
      return !a;
    else
      return static_cast<T>(~a);
  }
};

// a * 2**b in T's width, wrapping; 0 when b is negative or not below T's
// width (NumPy's definition, where C++ leaves the shift undefined).
struct left_shift {
  static constexpr const char* name = "left_shift";
  template <class... Ts>
  struct signature
      : common_loop_impl<integer_impl::shift_type<typename integer_impl::common<Ts...>::type>,
                         sizeof...(Ts)> {
    CUPP_INTEGER_OPERANDS(left_shift);
  };
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    if (static_cast<U>(b) >= sizeof(T) * 8) return T(0);
    // Unsigned arithmetic, at least as wide as unsigned int, so that the
    // bits shifted out are dropped rather than overflowing.
    using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, U>;
    return static_cast<T>(static_cast<W>(static_cast<U>(a)) << static_cast<U>(b));
  }
};

// a // 2**b, arithmetic for signed types; when b is negative or not below
// T's width, 0 (-1 for negative a).
struct right_shift {
  static constexpr const char* name = "right_shift";
  template <class... Ts>
  struct signature
      : common_loop_impl<integer_impl::shift_type<typename integer_impl::common<Ts...>::type>,
                         sizeof...(Ts)> {
    CUPP_INTEGER_OPERANDS(right_shift);
  };
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    if (static_cast<U>(b) >= sizeof(T) * 8) {
      if constexpr (std::is_signed_v<T>)
        return a < 0 ? T(-1) : T(0);
      else
        return T(0);
    }
    return static_cast<T>(a >> static_cast<U>(b));
  }
};

// The greatest common divisor of |a| and |b|, in T's width: gcd(0, 0) is 0,
// and a result of 2**(bits-1) wraps to T's minimum, as in NumPy.
struct gcd {
  static constexpr const char* name = "gcd";
  template <class... Ts>
  struct signature : common_loop_impl<typename integer_impl::common<Ts...>::type, sizeof...(Ts)> {
    CUPP_INTEGER_OPERANDS(gcd);
    static_assert(!is_bool_v<typename integer_impl::common<Ts...>::type>,
                  "cupp::gcd: NumPy has no bool loop for gcd (it raises TypeError); cast with "
                  "astype<std::int8_t>() first");
  };
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return static_cast<T>(
        integer_impl::binary_gcd(integer_impl::magnitude(a), integer_impl::magnitude(b)));
  }
};

// The least common multiple of |a| and |b| (0 when either is 0), wrapping to
// T's width where it does not fit, as in NumPy.
struct lcm {
  static constexpr const char* name = "lcm";
  template <class... Ts>
  struct signature : common_loop_impl<typename integer_impl::common<Ts...>::type, sizeof...(Ts)> {
    CUPP_INTEGER_OPERANDS(lcm);
    static_assert(!is_bool_v<typename integer_impl::common<Ts...>::type>,
                  "cupp::lcm: NumPy has no bool loop for lcm (it raises TypeError); cast with "
                  "astype<std::int8_t>() first");
  };
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    const auto x = integer_impl::magnitude(a), y = integer_impl::magnitude(b);
    const auto g = integer_impl::binary_gcd(x, y);
    return g == 0 ? T(0) : static_cast<T>(x / g * y);
  }
};

}  // namespace cupp::ops

#undef CUPP_INTEGER_OPERANDS
