// Loading a .npy file into a host array (the engine of cupp::load): the
// header read and its dtype checked against the requested one (load does
// not cast), then the data read straight into the array's memory.
#pragma once

#include <iterator>
#include <string>
#include <string_view>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/npy/data.hpp>
#include <cupp/detail/npy/header.hpp>
#include <cupp/detail/npy/io.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/npy_header.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::npy {

// The C++ spelling of a dtype, for the hint in type errors.
inline std::string_view cpp_type_name(dtype_id id) CUPP_HOST_BODY({
  constexpr std::string_view names[] = {
      "bool",          "std::int8_t",   "std::int16_t",  "std::int32_t",    "std::int64_t",
      "std::uint8_t",  "std::uint16_t", "std::uint32_t", "std::uint64_t",   "__half",
      "__nv_bfloat16", "float",         "double",        "cupp::complex64", "cupp::complex128"};
  static_assert(std::size(names) == n_dtypes, "one name per dtype_id, in its order");
  return names[static_cast<int>(id)];
});

inline void check_dtype(const npy_header& h, dtype want, const source& in) CUPP_HOST_BODY({
  if (h.dtype == want) return;
  throw type_error("cannot load " + std::string(h.dtype.name) + " data (descr '" + h.descr +
                   "') as " + std::string(want.name) + "; call load<" +
                   std::string(cpp_type_name(h.dtype.id)) + "> (load does not cast)" + in.where());
});

template <class T>
host::ndarray<T> load_host(source& in) {
  const npy_header h = read_header(in);
  check_dtype(h, dtype_of<T>(), in);
  const std::size_t nbytes = data_size(h, in);
  // F-ordered data is already the memory of an F-contiguous array.
  host::ndarray<T> a(h.shape, h.fortran_order ? order::F : order::C);
  read_data(in, h, a.data(), nbytes);
  return a;
}

}  // namespace cupp::detail::npy
