// Compile time of one float sort and one argsort, along an axis and
// flattened: the CUB instantiations a unit that sorts pays for.
#include <cupp/sort.hpp>

void sort_floats(const cupp::ndarray<float>& x, cupp::ndarray<float>& s,
                 cupp::ndarray<std::int64_t>& i) {
  s = cupp::sort(x);
  i = cupp::argsort(x, cupp::none);
}
