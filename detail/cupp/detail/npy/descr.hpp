// .npy dtype descriptors ('<f4', '|b1', '>c16', ...) to cupp dtypes and back.
//
// dtype::from_descr covers the spellings np.save writes on a little-endian
// machine; a reader must also take what NumPy accepts from other writers:
// big-endian data, '=' and '|' for native order, no order character, type
// names and one-character codes.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <cupp/config.hpp>
#include <cupp/dtype.hpp>

namespace cupp::detail::npy {

inline constexpr bool host_is_big_endian = std::endian::native == std::endian::big;

enum class descr_match : std::uint8_t {
  cupp,     // a cupp dtype
  object,   // 'O': pickled Python objects
  foreign,  // a NumPy dtype cupp has no counterpart for ('<U5', '<f16', '<M8[s]', '|V4')
  invalid,  // not a dtype NumPy knows
};

struct descr_info {
  descr_match match = descr_match::invalid;
  dtype type = descriptor(dtype_id::float64);
  bool big_endian = false;  // the data is stored most significant byte first
};

// NumPy's one-character type codes for cupp's dtypes. 'l' is C long, whose
// size depends on the platform that wrote the file; we can only assume ours.
inline std::optional<dtype> dtype_from_code(char c) CUPP_HOST_BODY({
  switch (c) {
    case 'l':
      return descriptor(sizeof(long) == 8 ? dtype_id::int64 : dtype_id::int32);
    case 'L':
      return descriptor(sizeof(long) == 8 ? dtype_id::uint64 : dtype_id::uint32);
    case 'p':
      return descriptor(sizeof(void*) == 8 ? dtype_id::int64 : dtype_id::int32);
    case 'P':
      return descriptor(sizeof(void*) == 8 ? dtype_id::uint64 : dtype_id::uint32);
    case 'E':  // cupp's code for bfloat16, which NumPy does not have
    case 'V':
      return std::nullopt;
    default:
      return dtype::from_char(c);
  }
});

inline descr_info parse_descr(std::string_view s) CUPP_HOST_BODY({
  descr_info r;
  auto found = [&](dtype d, char order) {
    r.match = descr_match::cupp;
    r.type = d;
    const bool big = order == '>' || (order != '<' && host_is_big_endian);
    r.big_endian = d.itemsize > 1 && big;
    return r;
  };
  if (auto d = dtype::from_name(s)) return found(*d, '=');

  char order = '=';
  std::string_view body = s;
  if (!body.empty() && (body[0] == '<' || body[0] == '>' || body[0] == '=' || body[0] == '|')) {
    order = body[0];
    body.remove_prefix(1);
  }
  if (body.empty()) return r;
  const char kind = body[0];
  if (body.size() == 1) {
    if (auto d = dtype_from_code(kind)) return found(*d, order);
    if (kind == 'O') r.match = descr_match::object;
    // Codes NumPy knows that have no cupp dtype: long double, strings,
    // objects, voids, dates, StringDType.
    else if (std::string_view("gGSUVaMmcT").find(kind) != std::string_view::npos)
      r.match = descr_match::foreign;
    return r;
  }

  std::string_view rest = body.substr(1);
  std::size_t n = 0, size = 0;
  while (n < rest.size() && n < 9 && rest[n] >= '0' && rest[n] <= '9')
    size = size * 10 + static_cast<std::size_t>(rest[n++] - '0');
  const bool known_kind = std::string_view("biufcmMOSUVa").find(kind) != std::string_view::npos;
  if (n == 0 || n != rest.size()) {
    // Dates carry a unit: '<M8[ns]'.
    if ((kind == 'M' || kind == 'm') && n > 0 && rest[n] == '[' && rest.back() == ']')
      r.match = descr_match::foreign;
    return r;
  }
  if (kind == 'O') {
    r.match = descr_match::object;
    return r;
  }
  // ml_dtypes' bfloat16 has no type code of its own in NumPy and reaches the
  // file as a 2-byte void with a byte order ('<V2', '>V2'); a plain void
  // ('|V2') has none and is raw bytes, not a number.
  if (kind == 'V' && size == 2 && order != '|') return found(descriptor(dtype_id::bfloat16), order);
  if (kind != 'V')
    for (const dtype& d : dtype_table)
      if (d.kind == kind && static_cast<std::size_t>(d.itemsize) == size) return found(d, order);
  if (known_kind) r.match = descr_match::foreign;
  return r;
});

// The descriptor np.save writes for a dtype on this host.
inline std::string native_descr(dtype d) CUPP_HOST_BODY({
  std::string s = d.str();
  if (host_is_big_endian && s[0] == '<') s[0] = '>';
  return s;
});

}  // namespace cupp::detail::npy
