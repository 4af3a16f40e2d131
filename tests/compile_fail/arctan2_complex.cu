// expect: cupp::arctan2:
// arctan2 has no complex loop (NumPy raises TypeError).
#include <cupp/cupp.hpp>
#include <cupp/ufunc/math.hpp>

auto rejected(const cupp::ndarray<float>& y, const cupp::ndarray<cupp::complex64>& x) {
  return cupp::arctan2(y, x);
}
