// expect: in-place add: Cannot cast ufunc 'add' output
// int64 += 1.5: the weak float makes the result float64, which does not cast back.
#include <cupp/cupp.hpp>

void rejected(const cupp::host::ndarray<std::int64_t>& x) {
  x += 1.5;
}
