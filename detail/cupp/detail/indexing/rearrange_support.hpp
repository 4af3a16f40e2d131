// What the gathers of <cupp/rearranging.hpp> and <cupp/diagonals.hpp>
// share: NumPy's messages for a result too large to address and for counts
// that do not match the elements they repeat, and Python's modulo.
#pragma once

#include <string>

#include <cupp/config.hpp>

namespace cupp::detail {

// NumPy's error for counts that do not match the elements they repeat.
inline std::string broadcast_shape_message(index_t n, index_t m) CUPP_HOST_BODY({
  return "operands could not be broadcast together with shape (" + std::to_string(n) + ",) (" +
         std::to_string(m) + ",)";
});

// NumPy's message for a result too large to address.
inline constexpr const char* too_big =
    "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.";

// Python's a % n for n > 0 (never negative).
inline index_t py_mod(index_t a, index_t n) CUPP_HOST_BODY({
  const index_t r = a % n;
  return r < 0 ? r + n : r;
});

}  // namespace cupp::detail
