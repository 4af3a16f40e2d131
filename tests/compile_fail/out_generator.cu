// expect: cupp::out needs an array to write into, and this is a lazy expression or generator
// out= needs memory: zeros() is lazy.
#include <cupp/cupp.hpp>

void rejected(const cupp::ndarray<float>& a) {
  cupp::add(a, 1, cupp::out(cupp::zeros<float>({3})));
}
