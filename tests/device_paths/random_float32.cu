// Device paths of random numbers on float32: the uniform numbers, normals
// and their closed forms through the Generator, a RandomState (cuRAND's
// XORWOW, and philox) and the module (random_draws.hpp: dtype, shape,
// range and mean of each draw). random.cu draws them on float64.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/random.hpp>

#include "random_draws.hpp"

void device_paths_random_float32() {
  auto g = cupp::random::default_rng(54321);
  cupp::random::RandomState rs(54321), ph(54321, cupp::random::rng_method::philox);
  device_paths::continuous_draws<float>(g, rs, ph);
}
