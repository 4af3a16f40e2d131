// expect: mixes host and device arrays
// copyto from a device expression into a host array.
#include <cupp/cupp.hpp>

void rejected(const cupp::host::ndarray<float>& h, const cupp::ndarray<float>& d) {
  cupp::copyto(h, d + 1);
}
