// Macros that declare the public function of a ufunc from its operation:
// the lazy form, NAME(x, ...), and the out= form, NAME(x, ..., cupp::out(z)),
// which writes into z with casting 'same_kind' and returns it. The out=
// argument itself is vocabulary (<cupp/out_arg.hpp>).
#pragma once

#include <cupp/array_fwd.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/expression/ufunc_expr.hpp>
#include <cupp/expression_fwd.hpp>
#include <cupp/out_arg.hpp>
#include <cupp/ufunc_types.hpp>

namespace cupp {

namespace detail {
template <class T, class S, class E>
const ndarray<T, S>& write_out(const out_arg<T, S>& o, const E& e) {
  static_assert(can_cast_same_kind_v<typename E::value_type, T>,
                "cupp: Cannot cast ufunc output to the out= array's dtype with casting rule "
                "'same_kind'; cast explicitly with .astype<T>()");
  assign(o.array, e);
  return o.array;
}
}  // namespace detail

}  // namespace cupp

#define CUPP_UFUNC_1(NAME, OP)                                                        \
  template <::cupp::Operand A>                                                        \
  auto NAME(const A& a) {                                                             \
    return ::cupp::make_ufunc(OP{}, a);                                               \
  }                                                                                   \
  template <::cupp::Operand A, class T_, class S_>                                    \
  const ::cupp::ndarray<T_, S_>& NAME(const A& a, const ::cupp::out_arg<T_, S_>& o) { \
    ::cupp::detail::check_ufunc_out(o.array, a);                                      \
    return ::cupp::detail::write_out(o, NAME(a));                                     \
  }

#define CUPP_UFUNC_2(NAME, OP)                                                                    \
  template <::cupp::Operand A, ::cupp::Operand B>                                                 \
  auto NAME(const A& a, const B& b) {                                                             \
    return ::cupp::make_ufunc(OP{}, a, b);                                                        \
  }                                                                                               \
  template <::cupp::Operand A, ::cupp::Operand B, class T_, class S_>                             \
  const ::cupp::ndarray<T_, S_>& NAME(const A& a, const B& b, const ::cupp::out_arg<T_, S_>& o) { \
    ::cupp::detail::check_ufunc_out(o.array, a, b);                                               \
    return ::cupp::detail::write_out(o, NAME(a, b));                                              \
  }

#define CUPP_UFUNC_3(NAME, OP)                                                           \
  template <::cupp::Operand A, ::cupp::Operand B, ::cupp::Operand C>                     \
  auto NAME(const A& a, const B& b, const C& c) {                                        \
    return ::cupp::make_ufunc(OP{}, a, b, c);                                            \
  }                                                                                      \
  template <::cupp::Operand A, ::cupp::Operand B, ::cupp::Operand C, class T_, class S_> \
  const ::cupp::ndarray<T_, S_>& NAME(const A& a, const B& b, const C& c,                \
                                      const ::cupp::out_arg<T_, S_>& o) {                \
    ::cupp::detail::check_ufunc_out(o.array, a, b, c);                                   \
    return ::cupp::detail::write_out(o, NAME(a, b, c));                                  \
  }

// A binary operator over cupp operands, at least one of them an array or
// an expression (so that it never applies to plain C++ numbers).
#define CUPP_BINARY_OPERATOR(SYMBOL, NAME)                                                    \
  template <::cupp::Operand A, ::cupp::Operand B>                                             \
  requires(::cupp::Expression<A> || ::cupp::Expression<B>) auto operator SYMBOL(const A& a,   \
                                                                                const B& b) { \
    return NAME(a, b);                                                                        \
  }

// x OP= y: one kernel writing into x, casting 'same_kind' as NumPy's in-place
// operators do.
#define CUPP_INPLACE_OPERATOR(SYMBOL, NAME)                                                      \
  template <class T_, class S_, ::cupp::Operand B>                                               \
  const ::cupp::ndarray<T_, S_>& operator SYMBOL(const ::cupp::ndarray<T_, S_>& x, const B& b) { \
    using R_ = typename decltype(NAME(x, b))::value_type;                                        \
    static_assert(::cupp::can_cast_same_kind_v<R_, T_>,                                          \
                  "cupp: in-place " #NAME ": Cannot cast ufunc '" #NAME                          \
                  "' output to the array's dtype with casting rule 'same_kind'");                \
    ::cupp::detail::check_ufunc_out(x, x, b);                                                    \
    ::cupp::detail::assign(x, NAME(x, b));                                                       \
    return x;                                                                                    \
  }
