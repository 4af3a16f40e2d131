// The distributed array's vocabulary: index maps (which chunks each device
// holds), modes (how overlapping chunks combine) and the declaration of
// cupp::distributed::distributed_array, so that the internals under
// detail/distributed/ can name it (as array_fwd.hpp declares ndarray). The
// array is defined in <cupp/distributed/array.hpp>.
// cupp-layer: vocabulary
#pragma once

#include <map>
#include <vector>

#include <cupp/index_types.hpp>

namespace cupp::distributed {

// One slice per axis (step 1; missing trailing axes are whole).
using chunk_index = std::vector<cupp::slice>;
// Device -> its chunks.
using index_map = std::map<int, std::vector<chunk_index>>;

enum class mode { replica, sum, prod, max, min };

inline const char* mode_name(mode m) {
  switch (m) {
    case mode::replica:
      return "replica";
    case mode::sum:
      return "sum";
    case mode::prod:
      return "prod";
    case mode::max:
      return "max";
    default:
      return "min";
  }
}

template <class T>
class distributed_array;

}  // namespace cupp::distributed
