// expect: && is not an element-wise operator of arrays.*cupp::logical_and\(a, b\), or a & b
// C++'s && cannot be element-wise (NumPy raises for `a and b` on arrays).
#include <cupp/cupp.hpp>

auto rejected(const cupp::ndarray<float>& a) {
  return (a > 0) && (a < 5);
}
