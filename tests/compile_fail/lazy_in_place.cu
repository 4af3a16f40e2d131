// expect: x \+= y needs an array, but x is a lazy expression or generator
// In-place operators write into memory, which a generator has none of.
#include <cupp/cupp.hpp>

void rejected() {
  auto x = cupp::zeros<float>({3, 4});
  x += 1;
}
