// expect: cupp::scatter_max/scatter_min: complex dtypes have no order
// scatter_max needs an order of the values; complex numbers have none.
#include <cupp/cupp.hpp>

void rejected(const cupp::ndarray<cupp::complex64>& z) {
  cupp::scatter_max(z, std::vector<int>{0, 1}, 1.0f);
}
