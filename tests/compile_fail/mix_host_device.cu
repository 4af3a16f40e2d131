// expect: mixes host and device arrays
// One expression over a host and a device array.
#include <cupp/cupp.hpp>

auto rejected(const cupp::host::ndarray<float>& h, const cupp::ndarray<float>& d) {
  return h + d;
}
