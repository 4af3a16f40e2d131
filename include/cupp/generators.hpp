// Arrays computed from their indices, lazily: numpy.arange, linspace,
// logspace, geomspace, full, zeros, ones (and their _like forms), eye,
// identity, tri, indices, plus meshgrid.
//
// Each function returns a cupp::generator: nothing is allocated and nothing
// runs until it is assigned to an array, evaluated with eval(), or used in
// an expression, where it fuses into that expression's single kernel:
//
//   cupp::ndarray<double> y = cupp::arange(n).reshape({1000, -1}).T() * 2;  // one kernel
//   auto x = cupp::linspace(0.0, 1.0, 101).eval();                         // device array
//   auto h = cupp::host::eye<float>(3).eval();                              // host array
//
// Generators in cupp:: take the space of the arrays they meet (evaluated
// alone they go to the current device); those in cupp::host:: are host
// expressions. Elements equal NumPy's bit for bit, except where libm
// functions are involved (logspace, geomspace: pow and log10 may differ in
// the last place between NumPy's libm, the host and the device).
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/space_check.hpp>
#include <cupp/detail/generators/make.hpp>
#include <cupp/detail/generators/meshgrid.hpp>
#include <cupp/detail/generators/view.hpp>
#include <cupp/expression.hpp>
#include <cupp/lazy_fwd.hpp>
#include <cupp/meshgrid_options.hpp>

namespace cupp {

// ---------------------------------------------------------------------------
// The generator functions (full, zeros, ones and their _like forms, arange,
// linspace, linspace_retstep, logspace, geomspace, eye, identity, tri,
// indices, sparse_indices), declared once in
// <cupp/generator_functions.inc> for cupp:: (any_space) and cupp::host
// (host_space).

#define CUPP_GENERATOR_SPACE any_space
#include <cupp/generator_functions.inc>
#undef CUPP_GENERATOR_SPACE

namespace host {
#define CUPP_GENERATOR_SPACE host_space
#include <cupp/generator_functions.inc>
#undef CUPP_GENERATOR_SPACE
}  // namespace host

// ---------------------------------------------------------------------------
// meshgrid

// cupp::indexing and cupp::meshgrid_options are in <cupp/meshgrid_options.hpp>.

// numpy.meshgrid(x1, x2, ..., indexing='xy', sparse=False, copy=False):
// a std::tuple with one output per input, each input spread over the grid
// without copying (stride 0 along the other axes). Array inputs give array
// views of their memory, generator inputs give generators; both fuse into
// expressions. Call .copy() / .eval() for independent arrays (NumPy's
// default copy=True).
//   auto [X, Y] = cupp::meshgrid(x, y);                       // 'xy'
//   auto [I, J] = cupp::meshgrid(x, y, cupp::indexing::ij);
//   auto [A, B] = cupp::meshgrid(x, y, cupp::meshgrid_options{.sparse = true});
template <class... X>
auto meshgrid(const X&... args) {
  CUPP_SAME_SPACE(X...);
  constexpr std::size_t n = sizeof...(X);
  const auto in = std::forward_as_tuple(args...);
  if constexpr (n > 0) {
    using Last = std::remove_cvref_t<std::tuple_element_t<n - 1, std::tuple<X...>>>;
    if constexpr (detail::is_meshgrid_option_v<Last>) {
      return detail::meshgrid_impl(detail::to_meshgrid_options(std::get<n - 1>(in)), in,
                                   std::make_index_sequence<n - 1>{});
    } else {
      return detail::meshgrid_impl(meshgrid_options{}, in, std::make_index_sequence<n>{});
    }
  } else {
    return std::tuple<>{};
  }
}

namespace host {
using cupp::meshgrid;
}  // namespace host

}  // namespace cupp
