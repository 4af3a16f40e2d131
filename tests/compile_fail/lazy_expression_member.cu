// expect: x\.data\(\) needs an array.*Write cupp::ndarray<T> x = \.\.\..*call x\.eval\(\)
// An expression has none of the members of arrays that need memory.
#include <cupp/cupp.hpp>

float* rejected(const cupp::ndarray<float>& a) {
  auto x = a * 2;
  return x.data();
}
