// expect: \|\| is not an element-wise operator of arrays.*cupp::logical_or\(a, b\), or a \| b
#include <cupp/cupp.hpp>

auto rejected(const cupp::ndarray<float>& a) {
  return a < 0 || a > 5;
}
