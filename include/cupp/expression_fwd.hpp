// The names of lazy expressions before their definitions: the space of
// operands that live nowhere in particular (any_space), the concepts
// Expression, Scalar and Operand, and the declarations of the expression node (expression_base,
// ufunc_expr) and of make_ufunc, defined in detail/expression/.
// A vocabulary header, so that internal headers can name expressions in
// their templates without including the API layer.
// cupp-layer: vocabulary
#pragma once

#include <complex>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/dtype.hpp>

namespace cupp {

// The space of operands that live nowhere in particular: scalars and
// generators, which adopt the space of the other operands.
struct any_space {};

// An array, a lazy expression or a generator.
template <class E>
concept Expression =
    is_ndarray_v<std::remove_cvref_t<E>> || detail::expression_node<std::remove_cvref_t<E>>;

// A C++ scalar taking part in an expression: bool, integers, floating-point
// and complex numbers are weak (NEP 50); __half and __nv_bfloat16 values
// are strong 0-d operands of their dtype.
template <class S>
concept Scalar = std::is_arithmetic_v<std::remove_cvref_t<S>> ||
    detail::is_complex_type_v<std::remove_cvref_t<S>> ||
    detail::is_low_float_v<std::remove_cvref_t<S>> || requires(const std::remove_cvref_t<S>& s) {
  requires std::is_same_v<std::remove_cvref_t<S>,
                          std::complex<typename std::remove_cvref_t<S>::value_type>>;
};

template <class X>
concept Operand = Expression<X> || Scalar<X>;

// Members every expression node offers (CRTP): detail/expression/ufunc_expr.hpp.
template <class D>
class expression_base;

// A ufunc applied to operands: the node of an expression tree.
template <class Op, class... A>
class ufunc_expr;

// Builds the node of `Op` over any operands (arrays, expressions, scalars).
template <class Op, class... X>
auto make_ufunc(Op op, const X&... x);

}  // namespace cupp
