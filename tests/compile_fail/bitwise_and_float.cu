// expect: cupp::bitwise_and:
// Bitwise operators need integers or bools (NumPy raises TypeError for floats).
#include <cupp/cupp.hpp>
#include <cupp/ufunc/logic.hpp>

auto rejected(const cupp::ndarray<float>& x, const cupp::ndarray<float>& y) {
  return x & y;
}
