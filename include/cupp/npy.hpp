// NumPy's .npy files: numpy.save and numpy.load for cupp arrays.
//
//   cupp::save("x.npy", x);                      // device or host array
//   auto d = cupp::load<float>("x.npy");         // device array, current device
//   auto h = cupp::host::load<float>("x.npy");   // host array
//   cupp::npy_header info = cupp::read_npy_header("x.npy");  // dtype, shape, ...
//
// Files are byte-for-byte what numpy.save writes. Loading is typed: a file
// whose dtype is not T throws type_error rather than casting. See docs/npy.md.
#pragma once

#include <filesystem>
#include <iosfwd>

#include <cupp/creation.hpp>
#include <cupp/detail/npy/header.hpp>
#include <cupp/detail/npy/io.hpp>
#include <cupp/detail/npy/load.hpp>
#include <cupp/detail/npy/save.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/npy_header.hpp>

namespace cupp {

// The header of a .npy file, for files whose dtype is not known in advance
// (npy_header is defined in <cupp/npy_header.hpp>). The stream form
// leaves the stream at the first byte of the data.
inline npy_header read_npy_header(const std::filesystem::path& path) {
  detail::npy::file_source in(path);
  return detail::npy::read_header(in);
}
inline npy_header read_npy_header(std::istream& is) {
  detail::npy::stream_source in(is);
  return detail::npy::read_header(in);
}

namespace host {

// numpy.load of a .npy file into a host array; F-ordered files give
// F-contiguous arrays. Throws type_error when the file's dtype is not T.
template <Dtype T>
ndarray<T> load(const std::filesystem::path& path) {
  cupp::detail::npy::file_source in(path);
  return cupp::detail::npy::load_host<T>(in);
}

// Reads one array from the stream's current position and leaves the stream
// after its data, so that arrays saved one after another load in turn.
template <Dtype T>
ndarray<T> load(std::istream& is) {
  cupp::detail::npy::stream_source in(is);
  return cupp::detail::npy::load_host<T>(in);
}

}  // namespace host

// numpy.load into a device array on the current device (read on the host,
// then copied; F-ordered files stay F-ordered).
template <Dtype T>
ndarray<T> load(const std::filesystem::path& path) {
  return asarray(host::load<T>(path));
}
template <Dtype T>
ndarray<T> load(std::istream& is) {
  return asarray(host::load<T>(is));
}

// numpy.save: format version 1.0 (2.0 for headers past 64 KiB), fortran_order
// True for F-contiguous arrays, C order for everything else. Device arrays
// are copied to the host first. The file appears complete or not at all: it
// is written under a temporary name next to `path`, then renamed. Unlike
// numpy.save, no ".npy" is appended to the path.
template <class T, class S>
void save(const std::filesystem::path& path, const ndarray<T, S>& x) {
  const host::ndarray<T> dense = detail::npy::dense_host(x);
  detail::npy::write_file_atomically(path, detail::npy::header_for(dense), dense.data(),
                                     static_cast<std::size_t>(dense.nbytes()));
}

// numpy.save to an open stream (several arrays may follow one another).
template <class T, class S>
void save(std::ostream& os, const ndarray<T, S>& x) {
  const host::ndarray<T> dense = detail::npy::dense_host(x);
  detail::npy::write_stream(os, detail::npy::header_for(dense), dense.data(),
                            static_cast<std::size_t>(dense.nbytes()));
}

}  // namespace cupp
