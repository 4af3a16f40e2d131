// How ufunc functions of <cupp/ufunc/> take operands that NumPy treats
// apart: the value of a scalar operand in a loop type (power's exponent),
// the dtype of an operand, clip's bounds (None, and Python ints beyond an
// integer dtype's range) and where's Python int operands.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include <cupp/detail/convert.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/dtype.hpp>
#include <cupp/ufunc_types.hpp>

namespace cupp {

namespace detail {

// The value of a scalar operand in the loop type To (nullopt for arrays and
// expressions).
template <class To, class X>
std::optional<To> scalar_operand_value(const X& x) {
  using L = operand_t<X>;
  if constexpr (requires(const L& l) { l.template as<To>(); })
    return as_operand(x).template as<To>();
  else if constexpr (std::is_same_v<L, scalar_leaf<typename L::value_type>>)
    return convert<To>(as_operand(x).v);
  else
    return std::nullopt;
}

}  // namespace detail

namespace detail::misc {
template <class X>
using operand_value_t = typename operand_t<X>::value_type;
}  // namespace detail::misc

namespace detail::misc {

// A bound of clip: an operand, or std::nullopt for NumPy's None.
template <class B>
concept ClipBound = Operand<B> || std::is_same_v<std::remove_cvref_t<B>, std::nullopt_t>;

template <class B>
inline constexpr bool is_python_int_v = std::is_integral_v<B> && !std::is_same_v<B, bool>;

// NumPy 2 drops a Python int bound beyond an integer array's range (the
// bound would not fit the dtype under NEP 50): clip(int8_array, -1000, 5)
// is minimum(int8_array, 5). Replacing the bound by the dtype's limit gives
// the same values and keeps one expression type.
template <class T, bool Lower, class B>
decltype(auto) clip_bound(const B& b) {
  if constexpr (is_integer_v<T> && is_python_int_v<B>) {
    using L = std::numeric_limits<T>;
    using Wide = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    if (Lower ? std::cmp_less_equal(b, L::min()) : std::cmp_greater_equal(b, L::max()))
      return as_operand(static_cast<Wide>(Lower ? L::min() : L::max()));
    return as_operand(b);
  } else {
    return b;
  }
}

}  // namespace detail::misc

namespace detail::misc {
// numpy.where casts Python int operands to the result dtype C-style (no
// OverflowError: where(c, int8_array, 1000) holds -24), so they enter as
// strong scalars already of that dtype.
template <class R, class X>
decltype(auto) where_operand(const X& x) {
  if constexpr (std::is_same_v<operand_t<X>, weak_leaf<weak_int>>)
    return scalar_leaf<R>{as_operand(x).template as<R>()};
  else
    return (x);
}
}  // namespace detail::misc

}  // namespace cupp
