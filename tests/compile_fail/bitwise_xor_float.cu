// expect: cupp::bitwise_xor:
// Bitwise operators need integers or bools (NumPy raises TypeError for floats).
#include <cupp/cupp.hpp>
#include <cupp/ufunc/logic.hpp>

auto rejected(const cupp::ndarray<int>& x, const cupp::ndarray<__half>& y) {
  return x ^ y;
}
