// A unit that includes everything and copies nothing: no kernel of cupp's
// may be compiled here (what every unit would pay in compile time).
#include <cupp/cupp.hpp>

int shape_only(const cupp::ndarray<float>& x) { return static_cast<int>(x.ndim()); }
