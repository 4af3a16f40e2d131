// expect: no operator .=. matches these operands
// The same for a class-type dtype (float16, bfloat16, complex), whose
// values an expression's iterator returns as const.
#include <cupp/cupp.hpp>
#include <cupp/iterator.hpp>

void rejected(const cupp::ndarray<cupp::float16>& x) {
  cupp::begin(x * 2)[1] = cupp::float16(1.0f);
}
