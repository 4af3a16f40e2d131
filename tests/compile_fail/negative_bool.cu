// expect: cupp::negative:
// NumPy raises TypeError for the boolean negative.
#include <cupp/cupp.hpp>

auto rejected(const cupp::ndarray<bool>& x) {
  return -x;
}
