// expect: cupp::right_shift:
// Shifts need integers (NumPy raises TypeError for floats).
#include <cupp/cupp.hpp>
#include <cupp/ufunc/logic.hpp>

auto rejected(const cupp::ndarray<float>& x, const cupp::ndarray<std::int64_t>& n) {
  return x >> n;
}
