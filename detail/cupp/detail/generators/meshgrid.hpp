// The machinery of cupp::meshgrid (<cupp/generators.hpp>): its trailing
// option argument recognised, its inputs (1-d arrays or generators)
// checked, and each input spread over the grid as a view (stride 0 along
// the other axes), an array view for an array and a generator for a
// generator.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/generators/view.hpp>
#include <cupp/errors.hpp>
#include <cupp/meshgrid_options.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

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

inline void check_mesh_input(int ndim) CUPP_HOST_BODY({
  if (ndim != 1)
    throw value_error("cupp::meshgrid: each input must be 1-dimensional, not " +
                      std::to_string(ndim) + "-dimensional (reshape it with ravel first)");
});

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

}  // namespace cupp::detail
