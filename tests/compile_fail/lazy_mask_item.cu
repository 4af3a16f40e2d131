// expect: x\.item\(\) needs an array, but x is a lazy expression or generator
// x(mask) is a proxy: it converts to the selected array.
#include <cupp/cupp.hpp>

float rejected(const cupp::ndarray<float>& a) {
  auto x = a(a > 0);
  return x.item();
}
