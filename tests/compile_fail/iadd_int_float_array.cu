// expect: in-place add: Cannot cast ufunc 'add' output
// int32 += float32 array: float64 does not cast to int32 with casting same_kind.
#include <cupp/cupp.hpp>

void rejected(const cupp::ndarray<std::int32_t>& x, const cupp::ndarray<float>& y) {
  x += y;
}
