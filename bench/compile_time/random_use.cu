// A unit that draws: a fused normal, a gamma and a Poisson draw of device
// arrays (three sampler kernels: a block sampler and two rejection ones).
#include <cupp/cupp.hpp>
#include <cupp/random.hpp>

cupp::ndarray<float> noisy(const cupp::ndarray<float>& x, cupp::random::Generator& rng) {
  return x + rng.normal<float>(0.0f, 1.0f, x.shape());
}
cupp::ndarray<double> gammas(cupp::random::Generator& rng) {
  return rng.gamma(2.5, 1.0, {1 << 20});
}
cupp::ndarray<std::int64_t> counts(cupp::random::Generator& rng) {
  return rng.poisson(10.0, {1 << 20});
}
