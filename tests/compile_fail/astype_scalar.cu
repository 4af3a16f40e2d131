// expect: cupp::astype: cast an array or an expression, not a scalar
// astype of a C++ number (a weak scalar has no dtype to cast from).
#include <cupp/cupp.hpp>
#include <cupp/elementwise.hpp>

auto rejected() {
  return cupp::astype<float>(2.5);
}
