// expect: cupp::elementwise: the function object must be trivially copyable
// A function object that cannot be copied into kernel parameters.
#include <cupp/cupp.hpp>
#include <cupp/elementwise.hpp>

#include <vector>
struct lookup {
  std::vector<float> table;
  template <class T>
  CUPP_HD T operator()(T a) const {
    return a;
  }
};
auto rejected() {
  return cupp::elementwise(lookup{});
}
