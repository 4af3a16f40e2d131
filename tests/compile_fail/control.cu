// The positive control: the same headers and the valid neighbours of every
// rejected case compile, so a failure of the cases is the diagnostic they
// expect and not a broken harness (include paths, flags).
#include <cupp/cupp.hpp>
#include <cupp/elementwise.hpp>
#include <cupp/iterator.hpp>
#include <cupp/module.hpp>
#include <cupp/ufunc/logic.hpp>
#include <cupp/ufunc/math.hpp>
#include <cupp/ufunc/misc.hpp>

#include <iostream>
#include <vector>

struct twice {
  template <class T>
  CUPP_HD T operator()(T a) const {
    return a + a;
  }
};

void accepted(const cupp::ndarray<std::int32_t>& i, const cupp::ndarray<float>& f,
              const cupp::ndarray<bool>& b, const cupp::ndarray<cupp::complex64>& c,
              const cupp::host::ndarray<float>& h, const cupp::ndarray<cupp::bfloat16>& bf) {
  cupp::ndarray<std::int32_t> r = (i & 3) | (i ^ i) | ~i | (i << 1) | (i >> 1);
  cupp::ndarray<bool> e = (c == c) & (f < 1) & ~b & (b ^ b);
  cupp::ndarray<float> s = f + f * 2 - f / 2 + cupp::astype<float>(i) + cupp::astype<float>(bf);
  f += 1.5;
  c *= f;
  i += 2;
  cupp::add(f, f, cupp::out(c));
  cupp::host::ndarray<float> g = h * 2;
  cupp::copyto(f, f + 1);
  cupp::ndarray<float> u = cupp::elementwise(twice{})(f, cupp::out(f)) * 2;
  cupp::ndarray<double> m = cupp::cbrt(f) + cupp::arctan2(f, 2.0) + cupp::maximum(0, f);
  auto xp = cupp::get_array_module(f);
  auto z = xp.zeros<float>({2});
  // Lazy values keep the members they have (the array members they lack
  // are rejected by the lazy_* cases), and print as arrays.
  auto gen = cupp::host::arange<float>(12);
  cupp::host::ndarray<float> gv = gen.reshape(3, 4).T().transpose(1, 0) * 2;
  const auto ex = f * 2;
  const cupp::index_t n = ex.size() + ex.ndim() + ex.shape()[0] + gen.reshape({2, 6}).size();
  cupp::ndarray<float> ev = ex.eval() + ex.astype<double>().sum().item();
  gv(gv > 5) = 0;
  gv(gv > 5) += 1;
  std::cout << gv(gv > 5) << gen << ex << gv(std::vector<int>{0, 1}) << '\n';
  const bool both = n > 0 && gv.size() > 0;
  cupp::ndarray<bool> l =
      cupp::logical_and(f > 0, f < 5) | cupp::logical_or(b, ~b) | cupp::logical_not(b);
  i(std::vector<int>{0}) <<= 1;
  // Iterators: arrays' are written through, expressions' read.
  *cupp::begin(f) = *cupp::begin(f * 2) + *cupp::cbegin(f);
  const cupp::ndarray<cupp::float16> hf = cupp::astype<cupp::float16>(f);
  cupp::begin(hf)[1] = cupp::begin(hf * 2)[1];
}
