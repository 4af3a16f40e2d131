// The array space a test source is built for: one source compiles into a
// host test and, with CUPP_TEST_DEVICE=1, a GPU test. Helpers move host
// arrays into that space and back.
#pragma once

#include <type_traits>

#include <cupp/ndarray.hpp>

namespace cupp_test {

#if CUPP_TEST_DEVICE
using space = cupp::device_space;
#else
using space = cupp::host_space;
#endif

template <class T>
using array = cupp::ndarray<T, space>;

template <class T>
array<T> on_space(const cupp::host::ndarray<T>& h) {
  if constexpr (std::is_same_v<space, cupp::device_space>)
    return cupp::asarray(h);
  else
    return h;
}

template <class T>
cupp::host::ndarray<T> to_host(const array<T>& a) {
  if constexpr (std::is_same_v<space, cupp::device_space>)
    return a.get();
  else
    return a;
}

}  // namespace cupp_test
