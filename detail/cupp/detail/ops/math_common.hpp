// Loop resolution of the floating-point math ufuncs (sqrt, exp, sin,
// arctan2 ...) and small helpers they share.
//
// These ufuncs only have float16, float32 and float64 loops (plus complex
// ones for most, and a bfloat16 loop that ml_dtypes registers). NumPy takes
// the first loop every operand casts to safely, which is not the promoted
// type: int8 gives float16, int16 float32, int32 and wider float64, and
// arctan2(int8, uint8) is float16 although int8 and uint8 promote to int16.
// A weak scalar does not widen the loop unless its kind is higher than the
// strong operands' (NEP 50): arctan2(int8, 2) is float16, arctan2(int8, 2.0)
// float64. A Python float with bfloat16 lands on the float32 loop, since
// bfloat16 is not a NumPy float kind (ml_dtypes' behaviour).
#pragma once

#include <cuda/std/cmath>
#include <cuda/std/complex>
#include <cuda/std/limits>

#include <type_traits>

#include <cupp/detail/ops/common.hpp>

namespace cupp::ops {

namespace math_detail {

// The loops in NumPy's search order. `k_small` is below every float loop
// (bool, int8, uint8 cast safely to float16 and bfloat16 alike); float16
// and bfloat16 have no safe cast between them and meet at float32.
enum kind : int { k_small, k_half, k_bf16, k_single, k_dbl, k_csingle, k_cdouble };

constexpr kind join(kind a, kind b) {
  if (a == b) return a;
  if (a == k_small) return b;
  if (b == k_small) return a;
  const kind lo = a < b ? a : b, hi = a < b ? b : a;
  if (lo == k_half && hi == k_bf16) return k_single;
  if (lo == k_dbl && hi == k_csingle) return k_cdouble;
  return hi;
}

template <class T>
constexpr kind kind_of() {
  if constexpr (is_bool_v<T>)
    return k_small;
  else if constexpr (is_integer_v<T>)
    return sizeof(T) == 1 ? k_small : sizeof(T) == 2 ? k_single : k_dbl;
  else if constexpr (std::is_same_v<T, __half>)
    return k_half;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return k_bf16;
  else if constexpr (std::is_same_v<T, float>)
    return k_single;
  else if constexpr (std::is_same_v<T, double>)
    return k_dbl;
  else if constexpr (std::is_same_v<T, complex64>)
    return k_csingle;
  else
    return k_cdouble;
}

template <class T>
constexpr bool strong_nonbool() {
  if constexpr (is_weak_v<T>)
    return false;
  else
    return !is_bool_v<T>;
}
template <class T>
constexpr bool strong_inexact() {
  if constexpr (is_weak_v<T>)
    return false;
  else
    return is_inexact_v<T>;
}

// What operand T adds to the loop search, given whether the operands include
// a strong non-bool dtype and a strong float or complex dtype.
template <class T, bool StrongNonbool, bool StrongInexact>
constexpr kind contribution() {
  if constexpr (std::is_same_v<T, weak_bool>)
    return k_small;
  else if constexpr (std::is_same_v<T, weak_int>)
    return StrongNonbool ? k_small : k_dbl;  // alone or with bools: int64
  else if constexpr (std::is_same_v<T, weak_float>)
    return StrongInexact ? k_half : k_dbl;  // takes any float loop, int operands make it float64
  else if constexpr (std::is_same_v<T, weak_complex>)
    return StrongInexact ? k_csingle : k_cdouble;
  else
    return kind_of<T>();
}

template <class... Ts>
constexpr kind resolve() {
  constexpr bool nonbool = (strong_nonbool<Ts>() || ...);
  constexpr bool inexact = (strong_inexact<Ts>() || ...);
  kind k = k_small;
  ((k = join(k, contribution<Ts, nonbool, inexact>())), ...);
  return k;
}

template <kind K>
using kind_type = std::conditional_t<
    K == k_small || K == k_half, __half,
    std::conditional_t<
        K == k_bf16, __nv_bfloat16,
        std::conditional_t<
            K == k_single, float,
            std::conditional_t<K == k_dbl, double,
                               std::conditional_t<K == k_csingle, complex64, complex128>>>>>;

// Bf16Loop false: ml_dtypes registers no bfloat16 loop (degrees, radians),
// so bfloat16 takes NumPy's float32 loop.
template <bool Bf16Loop, class... Ts>
constexpr kind resolve_loop() {
  constexpr kind k = resolve<Ts...>();
  return !Bf16Loop && k == k_bf16 ? k_single : k;
}

}  // namespace math_detail

// The dtype a float math ufunc computes in for operand types Ts.
template <class... Ts>
using float_loop_t = math_detail::kind_type<math_detail::resolve_loop<true, Ts...>()>;

// The loop itself: every operand cast to float_loop_t, which is also the
// output. Real-only ufuncs reject complex operands as NumPy does (TypeError:
// "ufunc 'cbrt' not supported for the input types").
template <class... Ts>
struct float_loop : common_loop_impl<float_loop_t<Ts...>, sizeof...(Ts)> {};

template <class... Ts>
inline constexpr bool float_loop_is_complex_v = is_complex_v<float_loop_t<Ts...>>;

// For the ufuncs ml_dtypes registers no bfloat16 loop for (degrees,
// radians): bfloat16 takes NumPy's float32 loop and gives float32.
template <class... Ts>
using float_loop_no_bf16_t = math_detail::kind_type<math_detail::resolve_loop<false, Ts...>()>;

// A float ufunc with real and complex loops: REAL from libcu++ (16-bit
// floats through float; float in single precision), COMPLEX from
// ops/complex_math.hpp, which the including file brings in.
#define CUPP_MATH_UNARY(NAME, REAL, COMPLEX)                                 \
  struct NAME {                                                              \
    static constexpr const char* name = #NAME;                               \
    template <class... Ts>                                                   \
    struct signature : float_loop<Ts...> {};                                 \
    template <class T>                                                       \
    CUPP_HD T operator()(T a) const {                                        \
      if constexpr (is_complex_v<T>)                                         \
        return cmath::COMPLEX(a);                                            \
      else                                                                   \
        return via_float<T>([](auto x) { return ::cuda::std::REAL(x); }, a); \
    }                                                                        \
  };

// A float ufunc without complex loops, which NumPy rejects with TypeError.
#define CUPP_MATH_REAL_SIGNATURE(NAME)                                                  \
  template <class... Ts>                                                                \
  struct signature : float_loop<Ts...> {                                                \
    static_assert(!float_loop_is_complex_v<Ts...>,                                      \
                  "cupp::" #NAME                                                        \
                  ": complex input is not supported (NumPy has no complex loop and "    \
                  "raises TypeError); pass real values, e.g. the real part or the abs " \
                  "of the complex array");                                              \
  };

namespace math_detail {
template <class R>
CUPP_HD constexpr R pi() {
  return R(3.14159265358979323846);
}
template <class R>
CUPP_HD constexpr R ln2() {
  return R(0.69314718055994530942);
}
template <class R>
CUPP_HD constexpr R log2e() {
  return R(1.44269504088896340736);
}
template <class R>
CUPP_HD constexpr R log10e() {
  return R(0.43429448190325182765);
}
}  // namespace math_detail

}  // namespace cupp::ops
