// The arguments of the sorts: NumPy's kind= names and axis check.
#pragma once

#include <string>
#include <string_view>

#include <cupp/config.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail::sorting {

// NumPy reads only the first letter, in either case: q(uick), h(eap),
// m(erge), s(table). Empty is NumPy's kind=None. Every kind sorts stably.
inline void check_kind(std::string_view kind) {
  if (kind.empty()) return;
  switch (kind[0]) {
    case 'q':
    case 'Q':
    case 'h':
    case 'H':
    case 'm':
    case 'M':
    case 's':
    case 'S':
      return;
    default:
      throw value_error("sort kind must be one of 'quick', 'heap', or 'stable' (got '" +
                        std::string(kind) + "')");
  }
}

inline int sort_axis(int axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    throw axis_error("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                     std::to_string(ndim));
  return axis < 0 ? axis + ndim : axis;
}

}  // namespace cupp::detail::sorting
