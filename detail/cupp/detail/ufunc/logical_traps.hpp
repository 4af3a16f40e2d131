// The result types of `a && b`, `a || b` and `!a` on arrays and expressions
// (<cupp/expression.hpp>): each a static_assert that names the element-wise
// forms, reported at the use.
#pragma once

#include <cupp/array_fwd.hpp>

namespace cupp {

namespace detail {
template <class... X>
struct no_logical_and {
  static_assert(dependent_false<X...>,
                "cupp: && is not an element-wise operator of arrays and expressions; write "
                "cupp::logical_and(a, b), or a & b on bool arrays (parenthesised: (x > 0) & (x < "
                "5))");
  using type = bool;
};
template <class... X>
struct no_logical_or {
  static_assert(dependent_false<X...>,
                "cupp: || is not an element-wise operator of arrays and expressions; write "
                "cupp::logical_or(a, b), or a | b on bool arrays (parenthesised: (x < 0) | (x > "
                "5))");
  using type = bool;
};
template <class... X>
struct no_logical_not {
  static_assert(dependent_false<X...>,
                "cupp: ! is not an element-wise operator of arrays and expressions; write "
                "cupp::logical_not(a), or ~a on a bool array");
  using type = bool;
};
}  // namespace detail

}  // namespace cupp
