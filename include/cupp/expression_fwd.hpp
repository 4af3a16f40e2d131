// The names of lazy expressions before their definitions: the space of
// operands that live nowhere in particular (any_space), the concept
// Expression, and the declarations of the expression node (expression_base,
// ufunc_expr) and of make_ufunc, defined in detail/expression/.
// A vocabulary header, so that internal headers can name expressions in
// their templates without including the API layer.
// cupp-layer: vocabulary
#pragma once

#include <type_traits>

#include <cupp/array_fwd.hpp>

namespace cupp {

// The space of operands that live nowhere in particular: scalars and
// generators, which adopt the space of the other operands.
struct any_space {};

// An array, a lazy expression or a generator.
template <class E>
concept Expression =
    is_ndarray_v<std::remove_cvref_t<E>> || detail::expression_node<std::remove_cvref_t<E>>;

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
