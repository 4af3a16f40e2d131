// expect: cupp::bitwise_or:
// Bitwise operators need integers or bools (NumPy raises TypeError for floats).
#include <cupp/cupp.hpp>
#include <cupp/ufunc/logic.hpp>

auto rejected(const cupp::ndarray<double>& x) {
  return x | 1;
}
