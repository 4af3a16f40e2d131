// Saving an array as a .npy file (the engine of cupp::save): the array as
// a dense host block, as numpy.save writes it, and the header that
// describes that block.
#pragma once

#include <string>

#include <cupp/array_fwd.hpp>
#include <cupp/detail/npy/header.hpp>
#include <cupp/dtype.hpp>
#include <cupp/shape.hpp>
#include <cupp/transfer_options.hpp>

namespace cupp::detail::npy {

// A host array whose memory is the file's data block: the array itself when
// it is contiguous, else a C-ordered copy (numpy.save writes those in C order).
template <class T, class S>
host::ndarray<T> dense_host(const ndarray<T, S>& x) {
  if constexpr (ndarray<T, S>::is_device) {
    return x.get(transfer_options{.ord = order::K});
  } else {
    if (x.is_c_contiguous() || x.is_f_contiguous()) return x;
    return x.copy(order::C);
  }
}

template <class T>
std::string header_for(const host::ndarray<T>& dense) {
  return format_header(dtype_of<T>(), dense.shape(),
                       dense.is_f_contiguous() && !dense.is_c_contiguous());
}

}  // namespace cupp::detail::npy
