// expect: cupp::elementwise: the function cannot be called with the operands' common dtype
// A user function taking float, called with complex operands.
#include <cupp/cupp.hpp>
#include <cupp/elementwise.hpp>

struct twice {
  CUPP_HD float operator()(float a) const { return 2 * a; }
};
auto rejected(const cupp::ndarray<cupp::complex64>& x) {
  return cupp::elementwise(twice{})(x);
}
