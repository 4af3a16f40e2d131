// The options of numpy.meshgrid (<cupp/generators.hpp>): indexing= ('xy'
// or 'ij') and sparse=. A vocabulary header, so that the machinery of
// detail/generators/ takes them as cupp::meshgrid receives them.
// cupp-layer: vocabulary
#pragma once

namespace cupp {

// numpy.meshgrid's indexing=: 'xy' (Cartesian: the first two output axes
// swapped) or 'ij' (matrix).
enum class indexing { xy, ij };

struct meshgrid_options {
  cupp::indexing indexing = cupp::indexing::xy;
  bool sparse = false;  // numpy's sparse=True: extent 1 along the other axes
};

}  // namespace cupp
