#include <cupp/cupp.hpp>
#include <iostream>
namespace cp = cupp;

int main() {
  cp::ndarray<float> x = cp::linspace<float>(-2, 2, 5);   // a lazy generator, filled on the GPU
  cp::ndarray<float> y = cp::maximum(0, x) + cp::log1p(cp::exp(-cp::abs(x)));  // one kernel
  std::cout << cp::asnumpy(y) << '\n';                     // array([0.126928 , 0.3132617, ...
  auto h = cp::host::array<float>({{1, 2, 3}, {4, 5, 6}});  // a NumPy-style host array
  cp::ndarray<float> d = cp::asarray(h) * 2 + cp::arange<float>(3);  // broadcast, float32
  cp::save("d.npy", d);                                     // numpy.load("d.npy") reads it
  std::cout << cp::sum(d * d, 1) << ' ' << d.max().item() << '\n';  // one fused pass each
}
