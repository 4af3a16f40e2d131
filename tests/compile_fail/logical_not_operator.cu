// expect: ! is not an element-wise operator of arrays.*cupp::logical_not\(a\), or ~a
#include <cupp/cupp.hpp>

auto rejected(const cupp::ndarray<bool>& a) {
  return !a;
}
