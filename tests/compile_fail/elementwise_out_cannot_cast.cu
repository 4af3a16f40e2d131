// expect: Cannot cast ufunc output to the out= array
// out= of a user function: float64 result into an int64 array.
#include <cupp/cupp.hpp>
#include <cupp/elementwise.hpp>

struct half_of {
  template <class T>
  CUPP_HD double operator()(T a) const {
    return a / 2.0;
  }
};
void rejected(const cupp::ndarray<std::int64_t>& x) {
  cupp::elementwise(half_of{})(x, cupp::out(x));
}
