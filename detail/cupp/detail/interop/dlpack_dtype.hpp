// cupp's dtypes and byte strides against DLPack's type codes and element
// strides. Kept apart from the ownership code so that both directions of
// the mapping are checked at compile time, below, for every dtype.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <cupp/dlpack_abi.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail::interop {

constexpr dlpack::DLDataType to_dl_dtype(dtype_id id) noexcept {
  const dtype d = descriptor(id);
  std::uint8_t code = dlpack::kDLFloat;
  switch (d.kind) {
    case 'b':
      code = dlpack::kDLBool;
      break;
    case 'i':
      code = dlpack::kDLInt;
      break;
    case 'u':
      code = dlpack::kDLUInt;
      break;
    case 'c':
      code = dlpack::kDLComplex;
      break;
    case 'V':
      code = dlpack::kDLBfloat;
      break;  // bfloat16 is cupp's only 'V'
    default:
      break;
  }
  return {code, static_cast<std::uint8_t>(d.itemsize * 8), 1};
}

// Empty for what cupp cannot hold: vector lanes, float8, opaque handles,
// sub-byte types.
constexpr std::optional<dtype_id> from_dl_dtype(dlpack::DLDataType t) noexcept {
  if (t.lanes != 1) return std::nullopt;
  for (int i = 0; i < n_dtypes; ++i) {
    const dlpack::DLDataType c = to_dl_dtype(static_cast<dtype_id>(i));
    if (c.code == t.code && c.bits == t.bits) return static_cast<dtype_id>(i);
  }
  return std::nullopt;
}

constexpr bool dl_dtype_round_trips() noexcept {
  for (int i = 0; i < n_dtypes; ++i) {
    const auto id = static_cast<dtype_id>(i);
    if (from_dl_dtype(to_dl_dtype(id)) != id) return false;
  }
  return true;
}
static_assert(dl_dtype_round_trips(), "every cupp dtype must map to one DLPack type and back");

// cupp keeps byte strides, DLPack element strides; a byte stride that is not
// a whole number of items (a view of a structured buffer, say) has no DLPack
// form and is refused rather than rounded.
inline std::int64_t elements_from_bytes(std::int64_t byte_stride, std::int64_t itemsize) {
  if (byte_stride % itemsize != 0)
    throw value_error("DLPack: stride of " + std::to_string(byte_stride) +
                      " bytes is not a multiple of the item size " + std::to_string(itemsize));
  return byte_stride / itemsize;
}

}  // namespace cupp::detail::interop
