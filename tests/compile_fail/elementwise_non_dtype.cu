// expect: cupp::elementwise: the function must return a cupp dtype
// A user function whose result is not one of the 15 dtypes.
#include <cupp/cupp.hpp>
#include <cupp/elementwise.hpp>

struct name_of {
  template <class T>
  CUPP_HD const char* operator()(T) const {
    return "x";
  }
};
auto rejected(const cupp::ndarray<float>& x) {
  return cupp::elementwise(name_of{})(x);
}
