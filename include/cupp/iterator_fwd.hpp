// The iterators of <cupp/iterator.hpp> before their definition: the class
// template cupp::flat_iterator and the iterator types of arrays,
// cupp::array_iterator and cupp::const_array_iterator. A vocabulary header,
// so that the machinery of detail/interop/ (what cupp::begin and friends
// run) names the iterators it returns.
// cupp-layer: vocabulary
#pragma once

#include <cupp/array_fwd.hpp>

namespace cupp {

namespace detail::interop {
// Reads (or refers to) an array's element at a linear C-order position:
// detail/interop/flat_walk.hpp.
template <class T>
struct array_access;
}  // namespace detail::interop

// The iterator cupp::begin returns (defined in <cupp/iterator.hpp>).
template <class Access, class Space>
class flat_iterator;

// The iterator types, by what they walk.
template <class T, class S = device_space>
using array_iterator = flat_iterator<detail::interop::array_access<T>, S>;
template <class T, class S = device_space>
using const_array_iterator = flat_iterator<detail::interop::array_access<const T>, S>;

}  // namespace cupp
