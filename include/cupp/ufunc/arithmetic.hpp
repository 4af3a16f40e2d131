// Arithmetic ufuncs and their operators.
//
// Lazy (fusing) functions: add, subtract, multiply, true_divide (divide),
// negative, positive, reciprocal, floor_divide, remainder (mod), fmod,
// power, float_power; operators + - * / % and their in-place forms.
// Two-output ufuncs, evaluated at once in one kernel: divmod, frexp, modf.
#pragma once

#include <optional>
#include <type_traits>
#include <utility>

// Expressions and the array their leaves hold, before the machinery.
#include <cupp/expression.hpp>

#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/detail/expression/ufunc_define.hpp>
#include <cupp/errors.hpp>

namespace cupp {

CUPP_UFUNC_2(add, ops::add)
CUPP_UFUNC_2(subtract, ops::subtract)
CUPP_UFUNC_2(multiply, ops::multiply)
CUPP_UFUNC_2(true_divide, ops::true_divide)
CUPP_UFUNC_2(divide, ops::true_divide)
CUPP_UFUNC_1(negative, ops::negative)
CUPP_UFUNC_1(positive, ops::positive)
CUPP_UFUNC_1(reciprocal, ops::reciprocal)
CUPP_UFUNC_2(floor_divide, ops::floor_divide)
CUPP_UFUNC_2(remainder, ops::remainder)
CUPP_UFUNC_2(mod, ops::remainder)
CUPP_UFUNC_2(fmod, ops::fmod)
CUPP_UFUNC_2(float_power, ops::float_power)

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

// numpy.power. A scalar negative exponent in an integer loop throws
// value_error, as NumPy does; an array of exponents cannot (see
// ops::arith::int_power for what a negative element gives).
template <Operand A, Operand B>
auto power(const A& a, const B& b) {
  using In = typename decltype(make_ufunc(ops::power{}, a, b))::signature::template in<1>;
  ops::power op;
  if constexpr (std::is_same_v<In, float> || std::is_same_v<In, double>) {
    const std::optional<In> e = detail::scalar_operand_value<In>(b);
    op.scalar_half = e && *e == In(0.5);
  }
  // Building the node first raises OverflowError for a scalar that does not
  // fit the loop type, which NumPy checks before the sign.
  auto node = make_ufunc(op, a, b);
  if constexpr (is_signed_integer_v<In>) {
    const std::optional<In> e = detail::scalar_operand_value<In>(b);
    if (e && *e < 0) throw value_error("Integers to negative integer powers are not allowed.");
  }
  return node;
}
template <Operand A, Operand B, class T_, class S_>
const ndarray<T_, S_>& power(const A& a, const B& b, const out_arg<T_, S_>& o) {
  detail::check_ufunc_out(o.array, a, b);
  return detail::write_out(o, power(a, b));
}

namespace detail {

template <class S, class E>
void check_pair_space() {
  static_assert(
      std::is_same_v<typename E::space, any_space> || std::is_same_v<typename E::space, S>,
      "cupp: an expression mixes host and device arrays; move one side with "
      "cupp::asarray (host to device) or cupp::asnumpy (device to host)");
}

// The out=(first, second) form of a two-output ufunc: writes both arrays in
// one kernel (casting 'same_kind') and returns them.
template <class T1, class T2, class S, class E>
std::pair<ndarray<T1, S>, ndarray<T2, S>> write_pair(const out_arg<T1, S>& o1,
                                                     const out_arg<T2, S>& o2, const E& e) {
  check_pair_space<S, E>();
  assign_pair(o1.array, o2.array, e);
  return {o1.array, o2.array};
}

}  // namespace detail

// numpy.divmod: (floor_divide(x, y), remainder(x, y)) from one kernel.
// auto [q, r] = cupp::divmod(x, y);
template <Operand A, Operand B>
auto divmod(const A& a, const B& b) {
  return detail::evaluate_pair(make_ufunc(ops::divmod{}, a, b));
}
// cupp::divmod(x, y, cupp::out(q), cupp::out(r)): numpy.divmod(x, y, out=(q, r)).
template <Operand A, Operand B, class T1, class T2, class S>
std::pair<ndarray<T1, S>, ndarray<T2, S>> divmod(const A& a, const B& b, const out_arg<T1, S>& q,
                                                 const out_arg<T2, S>& r) {
  detail::check_ufunc_out2(q.array, r.array, a, b);
  return detail::write_pair(q, r, make_ufunc(ops::divmod{}, a, b));
}

// numpy.frexp: (mantissa, exponent) with the mantissa in x's float type
// (float16 for int8, float32 for int16, float64 for wider integers) and the
// exponent int32.
template <Operand A>
auto frexp(const A& a) {
  return detail::evaluate_pair(make_ufunc(ops::frexp{}, a));
}
template <Operand A, class T1, class T2, class S>
std::pair<ndarray<T1, S>, ndarray<T2, S>> frexp(const A& a, const out_arg<T1, S>& mantissa,
                                                const out_arg<T2, S>& exponent) {
  detail::check_ufunc_out2(mantissa.array, exponent.array, a);
  return detail::write_pair(mantissa, exponent, make_ufunc(ops::frexp{}, a));
}

// numpy.modf: (fractional part, integral part), both with x's sign.
template <Operand A>
auto modf(const A& a) {
  return detail::evaluate_pair(make_ufunc(ops::modf{}, a));
}
template <Operand A, class T1, class T2, class S>
std::pair<ndarray<T1, S>, ndarray<T2, S>> modf(const A& a, const out_arg<T1, S>& fractional,
                                               const out_arg<T2, S>& integral) {
  detail::check_ufunc_out2(fractional.array, integral.array, a);
  return detail::write_pair(fractional, integral, make_ufunc(ops::modf{}, a));
}

CUPP_BINARY_OPERATOR(+, add)
CUPP_BINARY_OPERATOR(-, subtract)
CUPP_BINARY_OPERATOR(*, multiply)
CUPP_BINARY_OPERATOR(/, true_divide)
CUPP_BINARY_OPERATOR(%, remainder)

template <Expression A>
auto operator-(const A& a) {
  return negative(a);
}
template <Expression A>
auto operator+(const A& a) {
  return positive(a);
}

CUPP_INPLACE_OPERATOR(+=, add)
CUPP_INPLACE_OPERATOR(-=, subtract)
CUPP_INPLACE_OPERATOR(*=, multiply)
CUPP_INPLACE_OPERATOR(/=, true_divide)
CUPP_INPLACE_OPERATOR(%=, remainder)

}  // namespace cupp
