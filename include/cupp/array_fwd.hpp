// The array's name before its definition: where its memory lives, the
// declaration of cupp::ndarray and cupp::host::ndarray, is_ndarray_v, and
// the concept that marks lazy expression nodes.
// A vocabulary header, so that internal headers can name arrays in their
// templates without including the API layer.
// cupp-layer: vocabulary
#pragma once

#include <cstddef>

namespace cupp {

// Where an array's memory lives.
struct device_space {};
struct host_space {};

template <class T, class Space = device_space>
class ndarray;

namespace host {
// A host (CPU) array: the result of asnumpy, NumPy's ndarray.
template <class T>
using ndarray = cupp::ndarray<T, host_space>;
}  // namespace host

template <class A>
inline constexpr bool is_ndarray_v = false;
template <class T, class S>
inline constexpr bool is_ndarray_v<ndarray<T, S>> = true;

namespace detail {

// false, for a static_assert that fails only when a template is used.
template <class...>
inline constexpr bool dependent_false = false;

// Lazy expressions (expression.hpp): nodes mark themselves with this type.
template <class E>
concept expression_node = requires {
  typename E::is_cupp_expression;
};

// True once <cupp/mdspan.hpp> is included (it specialises this), so that
// ndarray's mdspan() member can say which header it needs.
template <class Array>
inline constexpr bool mdspan_header_included = false;

}  // namespace detail

// Defined in <cupp/mdspan.hpp>; declared here so that ndarray's mdspan()
// member can name it without ndarray.hpp paying for <cuda/std/mdspan>.
template <std::size_t Rank, class Array>
auto mdspan(const Array& x);

}  // namespace cupp
