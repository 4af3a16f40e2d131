// Rounding, sign and magnitude, selection (maximum, clip, where),
// floating-point representation, classification and complex-part ufuncs,
// and the NumPy functions built on them (round, isclose, nan_to_num,
// angle, real, imag).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

// Expressions and the array their leaves hold, before the machinery.
#include <cupp/expression.hpp>

#include <cupp/space_check.hpp>
#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/detail/ops/closeness.hpp>
#include <cupp/detail/ops/complex_parts.hpp>
#include <cupp/detail/ops/float_bits.hpp>
#include <cupp/detail/ops/magnitude.hpp>
#include <cupp/detail/ops/rounding.hpp>
#include <cupp/detail/ops/selection.hpp>
#include <cupp/detail/expression/ufunc_define.hpp>
#include <cupp/detail/ufunc/operands.hpp>
#include <cupp/errors.hpp>

namespace cupp {

CUPP_UFUNC_1(absolute, ops::absolute)
CUPP_UFUNC_1(abs, ops::absolute)
CUPP_UFUNC_1(fabs, ops::fabs)
CUPP_UFUNC_1(sign, ops::sign)
CUPP_UFUNC_2(heaviside, ops::heaviside)

CUPP_UFUNC_1(floor, ops::floor)
CUPP_UFUNC_1(ceil, ops::ceil)
CUPP_UFUNC_1(trunc, ops::trunc)
CUPP_UFUNC_1(fix, ops::fix)
CUPP_UFUNC_1(rint, ops::rint)

CUPP_UFUNC_2(maximum, ops::maximum)
CUPP_UFUNC_2(minimum, ops::minimum)
CUPP_UFUNC_2(fmax, ops::fmax)
CUPP_UFUNC_2(fmin, ops::fmin)

CUPP_UFUNC_1(isnan, ops::isnan)
CUPP_UFUNC_1(isinf, ops::isinf)
CUPP_UFUNC_1(isfinite, ops::isfinite)
CUPP_UFUNC_1(signbit, ops::signbit)
CUPP_UFUNC_2(copysign, ops::copysign)
CUPP_UFUNC_2(nextafter, ops::nextafter)
CUPP_UFUNC_1(spacing, ops::spacing)
CUPP_UFUNC_2(ldexp, ops::ldexp)

CUPP_UFUNC_1(conjugate, ops::conjugate)
CUPP_UFUNC_1(conj, ops::conjugate)
// numpy.real / numpy.imag as lazy values (NumPy returns views).
CUPP_UFUNC_1(real, ops::real)
CUPP_UFUNC_1(imag, ops::imag)

// numpy.round(a, decimals=0) / numpy.around: see ops::round for NumPy's
// algorithm. bool input is rounded as float16 with decimals 0 and raises
// type_error otherwise, as in NumPy.
template <Operand A>
auto round(const A& a, int decimals = 0) {
  if constexpr (is_bool_v<promote_t<detail::misc::operand_value_t<A>>>) {
    if (decimals != 0)
      throw type_error(
          "Cannot cast ufunc 'multiply' output from dtype('float64') to dtype('bool') with "
          "casting rule 'same_kind'");
  }
  return make_ufunc(ops::round::make(decimals), a);
}
template <Operand A, class T_, class S_>
const ndarray<T_, S_>& round(const A& a, int decimals, const out_arg<T_, S_>& o) {
  CUPP_SAME_SPACE(A, out_arg<T_, S_>);
  detail::check_ufunc_out(o.array, a);
  return detail::write_out(o, round(a, decimals));
}
template <Operand A, class T_, class S_>
const ndarray<T_, S_>& round(const A& a, const out_arg<T_, S_>& o) {
  CUPP_SAME_SPACE(A, out_arg<T_, S_>);
  detail::check_ufunc_out(o.array, a);
  return detail::write_out(o, round(a));
}
template <Operand A>
auto around(const A& a, int decimals = 0) {
  return round(a, decimals);
}
template <Operand A, class T_, class S_>
const ndarray<T_, S_>& around(const A& a, int decimals, const out_arg<T_, S_>& o) {
  return round(a, decimals, o);
}
template <Operand A, class T_, class S_>
const ndarray<T_, S_>& around(const A& a, const out_arg<T_, S_>& o) {
  return round(a, o);
}

// numpy.angle(z, deg=False).
template <Operand A>
auto angle(const A& z, bool deg = false) {
  return make_ufunc(ops::angle{deg}, z);
}

// numpy.isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False), element-wise
// (the tolerances are scalars here).
template <Operand A, Operand B>
auto isclose(const A& a, const B& b, double rtol = 1e-05, double atol = 1e-08,
             bool equal_nan = false) {
  CUPP_SAME_SPACE(A, B);
  using op = ops::isclose_op<is_weak_v<detail::misc::operand_value_t<B>>>;
  return make_ufunc(op{rtol, atol, equal_nan}, a, b);
}

// numpy.nan_to_num(x, nan=0.0, posinf=None, neginf=None); lazy, so NumPy's
// copy argument has no meaning.
template <Operand A>
auto nan_to_num(const A& x, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                std::optional<double> neginf = std::nullopt) {
  ops::nan_to_num op;
  op.nan = nan;
  op.has_posinf = posinf.has_value();
  op.posinf = posinf.value_or(0.0);
  op.has_neginf = neginf.has_value();
  op.neginf = neginf.value_or(0.0);
  return make_ufunc(op, x);
}

// numpy.clip(a, a_min, a_max): bounds are arrays, expressions, scalars or
// std::nullopt (None): clip(a, std::nullopt, hi) is minimum(a, hi),
// clip(a, lo, std::nullopt) is maximum(a, lo), both nullopt is positive(a).
template <Operand A, detail::misc::ClipBound L, detail::misc::ClipBound H>
auto clip(const A& a, const L& a_min, const H& a_max) {
  CUPP_SAME_SPACE(A, L, H);
  constexpr bool no_min = std::is_same_v<L, std::nullopt_t>;
  constexpr bool no_max = std::is_same_v<H, std::nullopt_t>;
  using T = promote_t<detail::misc::operand_value_t<A>>;
  if constexpr (no_min && no_max)
    return make_ufunc(ops::positive{}, a);
  else if constexpr (no_min)
    return make_ufunc(ops::minimum{}, a, detail::misc::clip_bound<T, false>(a_max));
  else if constexpr (no_max)
    return make_ufunc(ops::maximum{}, a, detail::misc::clip_bound<T, true>(a_min));
  else
    return make_ufunc(ops::clip{Scalar<L> && Scalar<H>}, a,
                      detail::misc::clip_bound<T, true>(a_min),
                      detail::misc::clip_bound<T, false>(a_max));
}
template <Operand A, detail::misc::ClipBound L, detail::misc::ClipBound H, class T_, class S_>
const ndarray<T_, S_>& clip(const A& a, const L& a_min, const H& a_max, const out_arg<T_, S_>& o) {
  CUPP_SAME_SPACE(A, L, H, out_arg<T_, S_>);
  // The operands of the ufunc NumPy runs: clip, or maximum / minimum for
  // one bound, or the array alone.
  constexpr bool no_min = std::is_same_v<L, std::nullopt_t>;
  constexpr bool no_max = std::is_same_v<H, std::nullopt_t>;
  if constexpr (no_min && no_max)
    detail::check_ufunc_out(o.array, a);
  else if constexpr (no_min)
    detail::check_ufunc_out(o.array, a, a_max);
  else if constexpr (no_max)
    detail::check_ufunc_out(o.array, a, a_min);
  else
    detail::check_ufunc_out(o.array, a, a_min, a_max);
  return detail::write_out(o, clip(a, a_min, a_max));
}

// numpy.where(condition, x, y): condition of any dtype (nonzero is true);
// the result dtype is result_type(x, y) with C++ scalars weak (NEP 50).
template <Operand C, Operand A, Operand B>
auto where(const C& condition, const A& x, const B& y) {
  CUPP_SAME_SPACE(C, A, B);
  using R =
      ops::where::result_t<detail::misc::operand_value_t<A>, detail::misc::operand_value_t<B>>;
  return make_ufunc(ops::where{}, condition, detail::misc::where_operand<R>(x),
                    detail::misc::where_operand<R>(y));
}

}  // namespace cupp
