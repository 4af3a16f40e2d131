// expect: in-place multiply: Cannot cast ufunc 'multiply' output
// float32 *= complex64: complex does not cast to float with casting same_kind.
#include <cupp/cupp.hpp>

void rejected(const cupp::ndarray<float>& x, const cupp::ndarray<cupp::complex64>& c) {
  x *= c;
}
