// expect: a device expression cannot become a host array
// A host array initialised from a device expression.
#include <cupp/cupp.hpp>

cupp::host::ndarray<float> rejected(const cupp::ndarray<float>& d) {
  return d * 2;
}
