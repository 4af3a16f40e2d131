// The geometry of numpy.diagonal: a view with axis1 and axis2 removed and
// the diagonal appended as the last axis (its stride the sum of theirs).
// Plain code, shared by ndarray::diagonal and cupp::diagonal.
#pragma once

#include <algorithm>

#include <cupp/config.hpp>
#include <cupp/detail/views/layout.hpp>

namespace cupp::detail {

inline view_layout diagonal_layout(const shape_t& shape, const strides_t& strides, index_t offset,
                                   index_t axis1, index_t axis2) CUPP_HOST_BODY({
  const int nd = shape.size();
  if (nd < 2) throw value_error("diag requires an array of at least two dimensions");
  const int a1 = checked_axis(axis1, nd, "axis1"), a2 = checked_axis(axis2, nd, "axis2");
  if (a1 == a2) throw value_error("axis1 and axis2 cannot be the same");
  const index_t n1 = shape[a1], n2 = shape[a2];
  view_layout v;
  index_t len = 0;
  // Offsets past either edge give an empty diagonal (and no pointer move).
  if (offset >= 0 && offset < n2) {
    len = std::min(n1, n2 - offset);
    if (len > 0) v.offset = offset * strides[a2];
  } else if (offset < 0 && offset > -n1) {
    len = std::min(n1 + offset, n2);
    if (len > 0) v.offset = -offset * strides[a1];
  }
  for (int i = 0; i < nd; ++i)
    if (i != a1 && i != a2) {
      v.shape.push_back(shape[i]);
      v.strides.push_back(strides[i]);
    }
  v.shape.push_back(len);
  v.strides.push_back(strides[a1] + strides[a2]);
  return v;
});

}  // namespace cupp::detail
