// The out= argument of ufuncs and reductions: cupp::add(x, y, cupp::out(z)),
// cupp::sum(x, 0, cupp::out(z)). Beside the other keyword arguments
// (reduction_options.hpp); a lazy value given to cupp::out is a compile
// error that says to make the array first.
// cupp-layer: vocabulary
#pragma once

#include <cupp/array_fwd.hpp>

namespace cupp {

// The out= argument of a ufunc: cupp::add(x, y, cupp::out(z)).
template <class T, class S>
struct out_arg {
  ndarray<T, S> array;
};
template <class T, class S>
out_arg<T, S> out(const ndarray<T, S>& a) {
  return {a};
}

namespace detail {
template <class... E>
struct lazy_out {
  static_assert(dependent_false<E...>,
                "cupp::out needs an array to write into, and this is a lazy expression or "
                "generator (zeros, empty_like ... compute nothing until assigned): make the "
                "array first, cupp::ndarray<T> z = cupp::zeros<T>(shape), then cupp::out(z)");
  using type = void;
};
}  // namespace detail

// cupp::out(cupp::zeros<T>(...)): a lazy value has no memory to write into.
template <class E>
requires detail::expression_node<E>
typename detail::lazy_out<E>::type out(const E&) {}

}  // namespace cupp
