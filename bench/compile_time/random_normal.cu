// A unit that draws one thing: standard normals into a device array, with
// only <cupp/random.hpp> included. What a program that draws random numbers
// (and sorts nothing) pays; the house issue's measure of whether drawing
// still compiles the sort area.
#include <cupp/random.hpp>

cupp::ndarray<float> normals(cupp::random::Generator& rng, cupp::index_t n) {
  return rng.standard_normal<float>({n});
}
