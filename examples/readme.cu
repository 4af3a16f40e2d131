#include <cupp/cupp.hpp>
#include <iostream>
namespace cp = cupp;

int main() {
  auto h = cp::host::array<float>({{1, 2, 3}, {4, 5, 6}});  // a NumPy-style host array
  cp::ndarray<float> d = cp::asarray(h);                    // copied to the current GPU
  cp::ndarray<float> f = d.copy(cp::order::F);              // a Fortran-ordered copy there
  std::cout << cp::asnumpy(f) << '\n';                      // array([[1., 2., 3.], ...
  cp::save("f.npy", f);                                     // numpy.load("f.npy") reads it
}
