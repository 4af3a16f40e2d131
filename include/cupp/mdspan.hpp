// A view of an array as cuda::std::mdspan, to pass to a user's __global__
// kernel by value:
//
//   __global__ void scale(cupp::mdspan_t<float, 2> a) { a(i, j) *= 2; }
//   scale<<<g, b>>>(cupp::mdspan<2>(x.T()));   // strided and transposed views too
//   scale<<<g, b>>>(x.mdspan<2>());            // the same, as a member
//
// The mdspan does not own memory: keep the array alive while a kernel uses it.
// Kept out of ndarray.hpp so that <cuda/std/mdspan> costs only its users.
#pragma once

#include <cuda/std/array>
#include <cuda/std/mdspan>

#include <cstddef>
#include <string>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/errors.hpp>

namespace cupp {

template <class T, std::size_t Rank>
using mdspan_t =
    ::cuda::std::mdspan<T, ::cuda::std::dextents<index_t, Rank>, ::cuda::std::layout_stride>;

// Rank is static in mdspan and dynamic in ndarray, hence the check at run
// time; strides become element counts, which mdspan requires.
namespace detail {
template <class T, class S>
inline constexpr bool mdspan_header_included<ndarray<T, S>> = true;
}  // namespace detail

template <std::size_t Rank, class Array>
auto mdspan(const Array& x) {
  using T = std::remove_pointer_t<decltype(x.data())>;
  if (x.ndim() != static_cast<int>(Rank))
    throw value_error("mdspan<" + std::to_string(Rank) + ">: array has " +
                      std::to_string(x.ndim()) + " dimensions");
  ::cuda::std::array<index_t, Rank> extents{};
  ::cuda::std::array<index_t, Rank> strides{};
  for (int d = 0; d < static_cast<int>(Rank); ++d) {  // int: Rank 0 would warn
    const index_t s = x.strides()[d];
    if (s % x.itemsize() != 0)
      throw value_error("mdspan: stride of " + std::to_string(s) +
                        " bytes is not a multiple of the item size");
    extents[d] = x.shape()[d];
    // layout_stride requires positive strides: a reversed (x[::-1]) or
    // broadcast view has no mdspan form; a length-1 axis's stride is moot.
    if (extents[d] > 1 && s <= 0)
      throw value_error(
          "mdspan: negative or zero stride (a reversed or broadcast view); "
          "copy the array first");
    strides[d] = extents[d] > 1 ? s / x.itemsize() : 1;
  }
  using ext = ::cuda::std::dextents<index_t, Rank>;
  return mdspan_t<T, Rank>(
      x.data(), typename ::cuda::std::layout_stride::template mapping<ext>(ext(extents), strides));
}

}  // namespace cupp
