// What every ufunc operation builds on: loop resolution helpers and the
// arithmetic of the 16-bit float types.
//
// An operation is a small trivially copyable struct in cupp::ops:
//   name                    NumPy's name, for messages
//   signature<Ts...>        the loop for operand types Ts (dtypes or weak
//                           kinds): a cupp::loop<Out, In...>, whose
//                           static_asserts reject what NumPy rejects with
//                           TypeError
//   operator()(In...)       one element, on the host and on the device
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include <cupp/detail/convert.hpp>
#include <cupp/ufunc_types.hpp>
#include <cupp/dtype.hpp>

namespace cupp::ops {

// The loop of a ufunc that casts every operand to their common dtype C and
// returns Out (C by default).
template <class C, int Arity, class Out = C>
struct common_loop_impl;
template <class C, class Out>
struct common_loop_impl<C, 1, Out> : loop<Out, C> {};
template <class C, class Out>
struct common_loop_impl<C, 2, Out> : loop<Out, C, C> {};
template <class C, class Out>
struct common_loop_impl<C, 3, Out> : loop<Out, C, C, C> {};

template <class... Ts>
using common_loop = common_loop_impl<promote_t<Ts...>, sizeof...(Ts)>;

// Same, with a bool result (comparisons, predicates).
template <class... Ts>
using predicate_loop = common_loop_impl<promote_t<Ts...>, sizeof...(Ts), bool>;

// Integers and bool become float64, other types stay (true_divide, sqrt ...).
template <class C>
using inexact_t = std::conditional_t<is_inexact_v<C>, C, double>;

template <class T>
inline constexpr bool is_float16_like_v = detail::is_low_float_v<T>;

// f applied to 16-bit floats through float, rounded back; other types as is.
template <class T, class F, class... Args>
CUPP_HD inline T via_float(F f, Args... a) {
  if constexpr (detail::is_low_float_v<T>)
    return detail::convert<T>(f(detail::to_float(a)...));
  else
    return f(a...);
}

}  // namespace cupp::ops
