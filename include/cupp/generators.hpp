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

#include <cupp/detail/generators/make.hpp>
#include <cupp/detail/generators/view.hpp>
#include <cupp/expression.hpp>

namespace cupp {

#define CUPP_GENERATOR_SPACE any_space
#include <cupp/detail/generators/api.hpp>
#undef CUPP_GENERATOR_SPACE

namespace host {
#define CUPP_GENERATOR_SPACE host_space
#include <cupp/detail/generators/api.hpp>
#undef CUPP_GENERATOR_SPACE
}  // namespace host

// ---------------------------------------------------------------------------
// meshgrid

// numpy.meshgrid's indexing=: 'xy' (Cartesian: the first two output axes
// swapped) or 'ij' (matrix).
enum class indexing { xy, ij };

struct meshgrid_options {
  cupp::indexing indexing = cupp::indexing::xy;
  bool sparse = false;  // numpy's sparse=True: extent 1 along the other axes
};

namespace detail {

template <class X>
inline constexpr bool is_meshgrid_option_v =
    std::is_same_v<X, indexing> || std::is_same_v<X, meshgrid_options>;

inline meshgrid_options to_meshgrid_options(indexing i) {
  return {i, false};
}
inline meshgrid_options to_meshgrid_options(const meshgrid_options& o) {
  return o;
}

template <class X>
inline constexpr bool is_generator_v = false;
template <class G, class S>
inline constexpr bool is_generator_v<generator<G, S>> = true;

template <class X>
concept mesh_input = is_ndarray_v<X> || is_generator_v<X>;

inline void check_mesh_input(int ndim) {
  if (ndim != 1)
    throw value_error("cupp::meshgrid: each input must be 1-dimensional, not " +
                      std::to_string(ndim) + "-dimensional (reshape it with ravel first)");
}

// Input x spread along axis `ax` of `shape`: stride 0 on the other axes.
template <class T, class S>
ndarray<T, S> mesh_view(const ndarray<T, S>& x, const shape_t& shape, int ax) {
  strides_t st = strides_t::filled(shape.size(), 0);
  st[ax] = x.strides()[0];
  return ndarray<T, S>(x.data(), shape, st, x.memory(), x.device_id(), false);
}
template <class G, class S>
generator<G, S> mesh_view(const generator<G, S>& x, const shape_t& shape, int ax) {
  constexpr int K = G::coords;
  std::array<strides_t, K> st;
  for (int k = 0; k < K; ++k) {
    st[k] = strides_t::filled(shape.size(), 0);
    st[k][ax] = x.st[k][0];
  }
  return generator<G, S>(x.functor(), shape, st, x.base);
}

template <class Tuple, std::size_t... I>
auto meshgrid_impl(const meshgrid_options& opt, const Tuple& in, std::index_sequence<I...>) {
  constexpr int n = sizeof...(I);
  static_assert((mesh_input<std::remove_cvref_t<std::tuple_element_t<I, Tuple>>> && ...),
                "cupp::meshgrid: the inputs are 1-d arrays or generators, optionally followed by "
                "cupp::indexing::ij or a cupp::meshgrid_options");
  (check_mesh_input(std::get<I>(in).ndim()), ...);
  const index_t len[] = {index_t{0}, std::get<I>(in).shape()[0]...};
  const bool swap = opt.indexing == indexing::xy && n > 1;
  auto axis = [&](int i) { return swap && i < 2 ? 1 - i : i; };
  auto shape_for = [&](int i) {
    shape_t s = shape_t::filled(n, 1);
    for (int j = 0; j < n; ++j)
      if (!opt.sparse || j == i) s[axis(j)] = len[j + 1];
    return s;
  };
  return std::tuple{
      mesh_view(std::get<I>(in), shape_for(static_cast<int>(I)), axis(static_cast<int>(I)))...};
}

}  // namespace detail

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
