// numpy.trim_zeros's arguments and result: the `trim` and `axis` checks
// (with NumPy's messages) and the basic index of the bounding box of the
// non-zero elements. Plain host code over shapes; finding the box is left
// to <cupp/joining.hpp>, as it runs reductions on the array.
#pragma once

#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include <cupp/axis.hpp>
#include <cupp/config.hpp>
#include <cupp/errors.hpp>
#include <cupp/index_types.hpp>
#include <cupp/detail/views/layout.hpp>

namespace cupp::detail {

// Which ends to trim, and along which axes (a bit per axis).
struct trim_spec {
  bool front = false, back = false;
  std::uint64_t axes = 0;
};

inline trim_spec trim_zeros_spec(std::string trim, const axis_arg& axis, int nd) CUPP_HOST_BODY({
  for (char& c : trim) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (trim != "fb" && trim != "bf" && trim != "f" && trim != "b")
    throw value_error("unexpected character(s) in `trim`: '" + trim + "'");
  trim_spec t;
  t.front = trim.find('f') != std::string::npos;
  t.back = trim.find('b') != std::string::npos;
  t.axes = axis.all() ? (nd == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << nd) - 1)
                      : axis_set(axis, nd, "repeated axis", "axis");
  return t;
});

// Per axis, the first and last positions that hold a non-zero element;
// `any` is false when no element is non-zero (then first and last are
// meaningless).
struct nonzero_bounds {
  std::vector<index_t> first, last;
  bool any = false;
};

// The basic index that keeps the bounding box along the trimmed axes (an
// empty view when every element is zero).
inline std::vector<cupp::index_item> trim_items(const trim_spec& t, const nonzero_bounds& b,
                                                int nd) {
  std::vector<cupp::index_item> items;
  for (int k = 0; k < nd; ++k) {
    if (!(t.axes >> k & 1)) {
      items.push_back(_);
    } else if (!b.any) {
      items.push_back(slice(0, 0));
    } else {
      const slice::bound lo = t.front ? slice::bound(b.first[k]) : _;
      const slice::bound hi = t.back ? slice::bound(b.last[k] + 1) : _;
      items.push_back(slice(lo, hi));
    }
  }
  return items;
}

}  // namespace cupp::detail
