// The TCP store's exceptions (cupp::distributed::store_error, store_timeout):
// vocabulary, because the socket and protocol internals under
// detail/distributed/ throw them too, and <cupp/distributed/store.hpp>
// reports them.
// cupp-layer: vocabulary
#pragma once

#include <stdexcept>
#include <string>

namespace cupp::distributed {

// The store could not be reached or stopped answering sensibly: connection
// refused until the timeout, a connection that was lost (the serving process
// exited), a malformed message. A connection that failed stays failed: every
// later call on the same tcp_store throws store_error at once.
class store_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A wait that ran out of time (get, wait, barrier); the message names the
// keys that were still missing. The connection stays usable.
class store_timeout : public store_error {
 public:
  using store_error::store_error;
};

}  // namespace cupp::distributed
