// expect: cupp::subtract: numpy boolean subtract
// NumPy raises TypeError for boolean subtraction.
#include <cupp/cupp.hpp>

auto rejected(const cupp::ndarray<bool>& x, const cupp::ndarray<bool>& y) {
  return x - y;
}
