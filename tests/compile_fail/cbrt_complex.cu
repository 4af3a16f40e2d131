// expect: cupp::cbrt:
// cbrt has no complex loop (NumPy raises TypeError).
#include <cupp/cupp.hpp>
#include <cupp/ufunc/math.hpp>

auto rejected(const cupp::ndarray<cupp::complex128>& z) {
  return cupp::cbrt(z);
}
