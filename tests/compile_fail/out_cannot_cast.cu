// expect: Cannot cast ufunc output to the out= array
// out= an int32 array for a float32 result (casting same_kind).
#include <cupp/cupp.hpp>

void rejected(const cupp::ndarray<float>& x, const cupp::ndarray<std::int32_t>& z) {
  cupp::add(x, x, cupp::out(z));
}
