// expect: expression must be a modifiable lvalue
// An expression's iterator computes its elements; there is no memory to
// write into (evaluate it into an array and take that array's iterator).
#include <cupp/cupp.hpp>
#include <cupp/iterator.hpp>

void rejected(const cupp::ndarray<float>& x) {
  *cupp::begin(x * 2) = 1.0f;
}
