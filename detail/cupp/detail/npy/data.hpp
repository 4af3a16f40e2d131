// The data block of a .npy file: its size, checked against what the file
// holds before anything is allocated, and its conversion to host order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include <cupp/config.hpp>
#include <cupp/detail/npy/header.hpp>
#include <cupp/detail/npy/io.hpp>

namespace cupp::detail::npy {

// Bytes of array data the header promises. Throws NumPy's EOF error when the
// source is known to be shorter, so that a corrupt or truncated file cannot
// trigger a huge allocation.
inline std::size_t data_size(const npy_header& h, const source& in) CUPP_HOST_BODY({
  const auto n = static_cast<std::uint64_t>(checked_size(h.shape, h.dtype.itemsize)) *
                 static_cast<std::uint64_t>(h.dtype.itemsize);
  require_available(in, "array data", n);
  return static_cast<std::size_t>(n);
});

// Reverses the bytes of every `width`-byte word (complex numbers swap their
// two parts separately).
inline void byteswap(unsigned char* p, std::size_t nbytes, std::size_t width) CUPP_HOST_BODY({
  for (std::size_t off = 0; off + width <= nbytes; off += width)
    for (std::size_t i = 0, j = width - 1; i < j; ++i, --j) std::swap(p[off + i], p[off + j]);
});

// Fills dst with the data (nbytes from data_size) in this host's byte order.
inline void read_data(source& in, const npy_header& h, void* dst, std::size_t nbytes) {
  read_exact(in, dst, nbytes, "array data");
  auto* bytes = static_cast<unsigned char*>(dst);
  if (h.dtype.itemsize > 1 && h.big_endian != host_is_big_endian) {
    const auto width =
        static_cast<std::size_t>(h.dtype.kind == 'c' ? h.dtype.itemsize / 2 : h.dtype.itemsize);
    byteswap(bytes, nbytes, width);
  }
  // NumPy keeps whatever byte a bool holds; a C++ bool other than 0 or 1 is
  // undefined behaviour, so any non-zero byte becomes true.
  if (h.dtype.id == dtype_id::bool_)
    for (std::size_t i = 0; i < nbytes; ++i) bytes[i] = bytes[i] != 0;
}

}  // namespace cupp::detail::npy
