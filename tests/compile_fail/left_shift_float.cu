// expect: cupp::left_shift:
// Shifts need integers (NumPy raises TypeError for floats).
#include <cupp/cupp.hpp>
#include <cupp/ufunc/logic.hpp>

auto rejected(const cupp::ndarray<std::int32_t>& x) {
  return x << 1.5;
}
