// The parts of a complex dtype: real_of<T>::type is the type of the real
// and imaginary parts of ::cuda::std::complex<T>, and T itself for every
// other type (a real value is its own real part).
#pragma once

#include <cuda/std/complex>

namespace cupp::detail::numerics {

template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<::cuda::std::complex<T>> {
  using type = T;
};
template <class T>
using real_of_t = typename real_of<T>::type;

}  // namespace cupp::detail::numerics
