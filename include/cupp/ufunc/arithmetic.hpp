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

#include <cupp/space_check.hpp>
#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/detail/expression/ufunc_define.hpp>
#include <cupp/errors.hpp>
#include <cupp/detail/ufunc/operands.hpp>
#include <cupp/detail/ufunc/two_outputs.hpp>

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

// numpy.power. A scalar negative exponent in an integer loop throws
// value_error, as NumPy does; an array of exponents cannot (see
// ops::arith::int_power for what a negative element gives).
template <Operand A, Operand B>
auto power(const A& a, const B& b) {
  CUPP_SAME_SPACE(A, B);
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
  CUPP_SAME_SPACE(A, B, out_arg<T_, S_>);
  detail::check_ufunc_out(o.array, a, b);
  return detail::write_out(o, power(a, b));
}

// numpy.divmod: (floor_divide(x, y), remainder(x, y)) from one kernel.
// auto [q, r] = cupp::divmod(x, y);
template <Operand A, Operand B>
auto divmod(const A& a, const B& b) {
  CUPP_SAME_SPACE(A, B);
  return detail::evaluate_pair(make_ufunc(ops::divmod{}, a, b));
}
// cupp::divmod(x, y, cupp::out(q), cupp::out(r)): numpy.divmod(x, y, out=(q, r)).
// (Each out= has a space parameter of its own so that a mix reaches the
// space check rather than failing deduction.)
template <Operand A, Operand B, class T1, class T2, class S, class S2>
std::pair<ndarray<T1, S>, ndarray<T2, S>> divmod(const A& a, const B& b, const out_arg<T1, S>& q,
                                                 const out_arg<T2, S2>& r) {
  CUPP_SAME_SPACE(A, B, out_arg<T1, S>, out_arg<T2, S2>);
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
template <Operand A, class T1, class T2, class S, class S2>
std::pair<ndarray<T1, S>, ndarray<T2, S>> frexp(const A& a, const out_arg<T1, S>& mantissa,
                                                const out_arg<T2, S2>& exponent) {
  CUPP_SAME_SPACE(A, out_arg<T1, S>, out_arg<T2, S2>);
  detail::check_ufunc_out2(mantissa.array, exponent.array, a);
  return detail::write_pair(mantissa, exponent, make_ufunc(ops::frexp{}, a));
}

// numpy.modf: (fractional part, integral part), both with x's sign.
template <Operand A>
auto modf(const A& a) {
  return detail::evaluate_pair(make_ufunc(ops::modf{}, a));
}
template <Operand A, class T1, class T2, class S, class S2>
std::pair<ndarray<T1, S>, ndarray<T2, S>> modf(const A& a, const out_arg<T1, S>& fractional,
                                               const out_arg<T2, S2>& integral) {
  CUPP_SAME_SPACE(A, out_arg<T1, S>, out_arg<T2, S2>);
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
