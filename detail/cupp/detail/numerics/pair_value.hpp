// Two values produced together by a two-output ufunc (divmod, frexp, modf):
// the scalar operations return one, and the element-wise writer stores its
// halves into two arrays from the same kernel.
#pragma once

namespace cupp::detail {

template <class A, class B>
struct pair_value {
  A first;
  B second;
};

template <class T>
inline constexpr bool is_pair_value_v = false;
template <class A, class B>
inline constexpr bool is_pair_value_v<pair_value<A, B>> = true;

}  // namespace cupp::detail
