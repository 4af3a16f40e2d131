// expect: indexing x\(\.\.\.\) needs an array, but x is a lazy expression or generator
// A generator held in `auto` is not an array: x(x > 5) = 0 (NumPy's
// x[x > 5] = 0) needs `cupp::host::ndarray<float> x = ...`.
#include <cupp/cupp.hpp>

void rejected() {
  auto x = cupp::host::arange<float>(12);
  x(x > 5) = 0;
}
