// The spaces a Generator's draws live in, and host vectors as arrays of a
// space: a lazy draw's generator space (any_space for device generators,
// host_space for host ones), the array space it evaluates to, the space of
// a materialised draw (draw_space_t), C-order position strides, and a
// host vector copied into an array of either space (the tables and
// parameters that a draw reads). Shared by the permutations and choices
// (shuffle_run.hpp, choice_run.hpp) and the draws of vectors
// (vector_draw_run.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/shape.hpp>
#include <cupp/detail/expression/operands.hpp>

namespace cupp::random::detail {

// The generator space whose evaluation lands in array space AS.
template <class AS>
using generator_space_for =
    std::conditional_t<std::is_same_v<AS, host_space>, host_space, any_space>;
template <class S>
using array_space_for = ::cupp::detail::eval_space_t<S>;

// The space a generator's materialised draws live in: host generators
// draw host arrays, the others device arrays.
template <class S>
using draw_space_t = std::conditional_t<std::is_same_v<S, host_space>, host_space, device_space>;

inline std::array<strides_t, 1> flat_strides(const shape_t& shape) {
  return {::cupp::detail::contiguous_strides(shape, 1)};
}

// A host vector as an array of space AS.
template <class AS, class T>
ndarray<T, AS> to_space(const std::vector<T>& v) {
  host::ndarray<T> h(shape_t{static_cast<index_t>(v.size())});
  for (std::size_t i = 0; i < v.size(); ++i) h.data()[i] = v[i];
  if constexpr (std::is_same_v<AS, host_space>) {
    return h;
  } else {
    ndarray<T> d(h.shape());
    d.set(h);
    return d;
  }
}

}  // namespace cupp::random::detail
