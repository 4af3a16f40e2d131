// cupp::npy_header: what the header of a .npy file says (its dtype, shape,
// order, format version and where the data starts), as
// cupp::read_npy_header (<cupp/npy.hpp>) returns it. A vocabulary header,
// so that the reader and writer of detail/npy/ fill and read it.
// cupp-layer: vocabulary
#pragma once

#include <cstddef>
#include <string>

#include <cupp/dtype.hpp>
#include <cupp/shape.hpp>

namespace cupp {

// What a .npy header says (cupp::read_npy_header, <cupp/npy.hpp>).
struct npy_header {
  cupp::dtype dtype = descriptor(dtype_id::float64);
  shape_t shape;
  bool fortran_order = false;
  int major = 1, minor = 0;     // format version
  std::size_t data_offset = 0;  // where the data starts, from the magic string
  bool big_endian = false;      // data stored most significant byte first
  std::string descr;            // the descriptor as written: '<f4', '>V2', ...
};

}  // namespace cupp
