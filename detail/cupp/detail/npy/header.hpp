// The .npy header: magic string, version, length and the Python dict that
// describes the array; read with NumPy's checks and messages, and written
// byte for byte as numpy.save writes it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/detail/npy/descr.hpp>
#include <cupp/detail/npy/io.hpp>
#include <cupp/detail/npy/literal.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/npy_header.hpp>
#include <cupp/shape.hpp>

namespace cupp {

namespace detail::npy {

inline constexpr std::string_view magic_prefix{"\x93NUMPY", 6};

// Python's sorted(d.keys()), printed as a list, for the key error.
inline std::string sorted_keys(const py_value& dict) CUPP_HOST_BODY({
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < dict.items.size(); i += 2) keys.push_back(py_repr(dict.items[i]));
  std::sort(keys.begin(), keys.end());
  std::string s = "[";
  for (std::size_t i = 0; i < keys.size(); ++i) s += (i ? ", " : "") + keys[i];
  return s + "]";
});

inline const py_value* dict_get(const py_value& dict, std::string_view key) CUPP_HOST_BODY({
  for (std::size_t i = 0; i < dict.items.size(); i += 2)
    if (dict.items[i].k == py_value::kind::string && dict.items[i].text == key)
      return &dict.items[i + 1];
  return nullptr;
});

inline std::string supported_dtypes() CUPP_HOST_BODY({
  return "cupp reads bool, int8 ... int64, uint8 ... uint64, float16, bfloat16 ('<V2' as "
         "ml_dtypes writes it), float32, float64, complex64 and complex128";
});

// The dtype a descr value names, or NumPy's ValueError / cupp's TypeError.
inline descr_info dtype_of_descr(const py_value& descr, const source& in) CUPP_HOST_BODY({
  using K = py_value::kind;
  if (descr.k == K::list)
    throw type_error("cannot read structured dtype " + py_repr(descr) +
                     ": cupp arrays hold one number per element; save each field as its own "
                     "array" +
                     in.where());
  if (descr.k == K::tuple)
    throw type_error("cannot read subarray dtype " + py_repr(descr) + "; " + supported_dtypes() +
                     in.where());
  if (descr.k != K::string)
    throw value_error("descr is not a valid dtype descriptor: " + py_repr(descr) + in.where());
  const descr_info info = parse_descr(descr.text);
  switch (info.match) {
    case descr_match::cupp:
      return info;
    case descr_match::object:
      throw type_error("cannot read object arrays (descr " + py_repr(descr) +
                       "): they hold pickled Python objects, not numbers" + in.where());
    case descr_match::foreign:
      throw type_error("cannot read dtype " + py_repr(descr) + ": " + supported_dtypes() +
                       in.where());
    case descr_match::invalid:
      break;
  }
  throw value_error("descr is not a valid dtype descriptor: " + py_repr(descr) + in.where());
});

inline shape_t shape_of(const py_value& shape, const source& in) CUPP_HOST_BODY({
  using K = py_value::kind;
  bool ok = shape.k == K::tuple;
  for (const py_value& e : shape.items) ok = ok && e.k == K::integer;
  if (!ok) throw value_error("shape is not valid: " + py_repr(shape) + in.where());
  if (shape.items.size() > static_cast<std::size_t>(max_ndim))
    throw value_error("maximum supported dimension for an ndarray is currently " +
                      std::to_string(max_ndim) + ", found " + std::to_string(shape.items.size()) +
                      in.where());
  shape_t s;
  for (const py_value& e : shape.items) {
    if (!e.text.empty() && e.text[0] == '-')
      throw value_error("negative dimensions are not allowed" + in.where());
    if (!e.fits)
      throw value_error(
          "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
          "possible size." +
          in.where());
    s.push_back(e.integer);
  }
  return s;
});

// Reads a header, leaving the source at the first byte of the data. Checks
// everything numpy.lib.format does, and also that the data size is
// representable (negative or overflowing shapes), so that callers can size
// an allocation from the result.
inline npy_header read_header(source& in) CUPP_HOST_BODY({
  char magic[8];
  read_exact(in, magic, sizeof magic, "magic string");
  if (std::string_view(magic, 6) != magic_prefix)
    throw value_error("the magic string is not correct; expected " +
                      py_repr_str(magic_prefix, true) + ", got " +
                      py_repr_str(std::string_view(magic, 6), true) + in.where());
  npy_header h;
  h.major = static_cast<unsigned char>(magic[6]);
  h.minor = static_cast<unsigned char>(magic[7]);
  if (h.minor != 0 || h.major < 1 || h.major > 3)
    throw value_error("we only support format version (1,0), (2,0), and (3,0), not (" +
                      std::to_string(h.major) + ", " + std::to_string(h.minor) + ")" + in.where());

  const std::size_t len_size = h.major == 1 ? 2 : 4;
  unsigned char len_bytes[4] = {};
  read_exact(in, len_bytes, len_size, "array header length");
  std::size_t header_len = 0;
  for (std::size_t i = len_size; i-- > 0;) header_len = header_len << 8 | len_bytes[i];
  const std::string text = read_string(in, header_len, "array header");
  h.data_offset = sizeof magic + len_size + header_len;

  // Python 2 wrote large ints with an L suffix; NumPy still reads those
  // files (versions 1 and 2 only, as it does).
  const std::optional<py_value> dict = literal_parser(text, h.major <= 2).parse();
  if (!dict) throw value_error("Cannot parse header: " + py_repr_str(text) + in.where());
  if (dict->k != py_value::kind::dict)
    throw value_error("Header is not a dictionary: " + py_repr(*dict) + in.where());
  const py_value* descr = dict_get(*dict, "descr");
  const py_value* fortran = dict_get(*dict, "fortran_order");
  const py_value* shape = dict_get(*dict, "shape");
  if (!descr || !fortran || !shape || dict->items.size() != 6)
    throw value_error("Header does not contain the correct keys: " + sorted_keys(*dict) +
                      in.where());

  h.shape = shape_of(*shape, in);
  if (fortran->k != py_value::kind::boolean)
    throw value_error("fortran_order is not a valid bool: " + py_repr(*fortran) + in.where());
  h.fortran_order = fortran->truth;
  const descr_info info = dtype_of_descr(*descr, in);
  h.dtype = info.type;
  h.big_endian = info.big_endian;
  h.descr = descr->text;
  try {
    checked_size(h.shape, h.dtype.itemsize);
  } catch (const value_error& e) {
    throw value_error(e.what() + in.where());
  }
  return h;
});

// --- writing -------------------------------------------------------------------

// numpy.save's prefix for a header dict: magic, the oldest version whose
// length field holds it (1.0, else 2.0), the dict padded with spaces and a
// newline so that the data starts on a multiple of 64 bytes.
inline std::string wrap_header(std::string_view dict) CUPP_HOST_BODY({
  const std::size_t hlen = dict.size() + 1;
  for (int major = 1; major <= 2; ++major) {
    const std::size_t len_size = major == 1 ? 2 : 4;
    // NumPy pads a full 64 bytes when already aligned; keep its bytes.
    const std::size_t pad = 64 - (8 + len_size + hlen) % 64;
    const std::uint64_t total = hlen + pad;
    if (total > (major == 1 ? 0xFFFFu : 0xFFFFFFFFu)) continue;
    std::string out(magic_prefix);
    out += static_cast<char>(major);
    out += '\0';
    for (std::size_t i = 0; i < len_size; ++i) out += static_cast<char>((total >> (8 * i)) & 0xFF);
    out += dict;
    out.append(pad, ' ');
    out += '\n';
    return out;
  }
  throw value_error("Header length " + std::to_string(hlen) + " too big for version=(2, 0)");
});

inline std::string format_header(dtype d, const shape_t& shape, bool fortran_order) CUPP_HOST_BODY({
  std::string dict = "{'descr': '" + native_descr(d) +
                     "', 'fortran_order': " + (fortran_order ? "True" : "False") +
                     ", 'shape': " + to_string(shape) + ", }";
  // NumPy leaves room for the growing axis (the first in C order, the last
  // in F order) to reach 21 digits, so that appending can rewrite the header
  // in place.
  if (shape.size() > 0) {
    const std::size_t digits = std::to_string(shape[fortran_order ? shape.size() - 1 : 0]).size();
    if (digits < 21) dict.append(21 - digits, ' ');
  }
  return wrap_header(dict);
});

}  // namespace detail::npy
}  // namespace cupp
