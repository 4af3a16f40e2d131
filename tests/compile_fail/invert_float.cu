// expect: cupp::invert:
// Bitwise operators need integers or bools (NumPy raises TypeError for floats).
#include <cupp/cupp.hpp>
#include <cupp/ufunc/logic.hpp>

auto rejected(const cupp::host::ndarray<float>& x) {
  return ~x;
}
