// expect: ordering comparisons of complex
// Ordering comparisons of complex numbers (CuPy raises TypeError).
#include <cupp/cupp.hpp>

void f(const cupp::ndarray<cupp::complex64>& z) {
  cupp::ndarray<bool> r = z < z;
}
