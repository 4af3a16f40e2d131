// The index arrays of integer-array indexing and of take/put/choose, as
// the gather and scatter kernels read them: int64, in the space of the
// array they index. What a user passes (an array of any integer dtype in
// either space, or a std::vector of integers) is converted here, once per
// indexing, so that the kernels are instantiated for int64 alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <cupp/shape.hpp>
// ndarray: to be repointed at detail/ once it moves.
#include <cupp/array_fwd.hpp>

namespace cupp::detail {

template <class X>
inline constexpr bool is_int_vector_v = false;
template <class I>
inline constexpr bool is_int_vector_v<std::vector<I>> =
    std::is_integral_v<I> && !std::is_same_v<I, bool>;

// A device copy of a host index array, laid out as cupp::asarray lays it
// out (F order kept, any other layout made C-contiguous): asarray itself
// is in creation.hpp, an API header.
template <class U>
ndarray<U> upload_index_array(const host::ndarray<U>& h) {
  ndarray<U> d(h.shape(), h.is_f_contiguous() && !h.is_c_contiguous() ? order::F : order::C);
  d.set(h);
  return d;
}

// An index array as int64 in space S (a copy where it has another dtype or
// lives in the other space).
template <class S, class X>
ndarray<std::int64_t, S> to_index_array(const X& x) {
  if constexpr (is_int_vector_v<X>) {
    host::ndarray<std::int64_t> h(shape_t{static_cast<index_t>(x.size())});
    for (std::size_t i = 0; i < x.size(); ++i) h.data()[i] = static_cast<std::int64_t>(x[i]);
    if constexpr (std::is_same_v<S, device_space>)
      return upload_index_array(h);
    else
      return h;
  } else {
    using U = typename X::value_type;
    using XS = typename X::space_type;
    static_assert(std::is_integral_v<U> && !std::is_same_v<U, bool>,
                  "cupp: an index array must have an integer dtype");
    static_assert(std::is_same_v<XS, S> || std::is_same_v<XS, host_space>,
                  "cupp: a device index array cannot index a host array; copy it with "
                  "cupp::asnumpy first");
    if constexpr (std::is_same_v<XS, S>) {
      if constexpr (std::is_same_v<U, std::int64_t>)
        return x;
      else
        return x.template astype<std::int64_t>();
    } else {
      if constexpr (std::is_same_v<U, std::int64_t>)
        return upload_index_array(x);
      else
        return upload_index_array(x.template astype<std::int64_t>());
    }
  }
}

}  // namespace cupp::detail
