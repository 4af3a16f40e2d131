// cupp::pad_mode, the mode= argument of numpy.pad (<cupp/rearranging.hpp>).
// A vocabulary header, so that pad's machinery in detail/indexing/ takes the
// mode as cupp::pad receives it.
// cupp-layer: vocabulary
#pragma once

namespace cupp {

// numpy.pad's modes (those that copy elements of the array or a constant).
enum class pad_mode { constant, edge, reflect, symmetric, wrap };

}  // namespace cupp
