// A unit with one fused reduction, sum(x * y, 1) of float32 device arrays:
// the engine's fixed cost (one reduction, one dtype) on top of its headers.
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

cupp::ndarray<float> row_dots(const cupp::ndarray<float>& x, const cupp::ndarray<float>& y) {
  return cupp::sum(x * y, 1);
}
