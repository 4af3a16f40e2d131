// Compiled by the host compiler, not nvcc: holds device and host arrays,
// reads their shape and dtype, copies them between host and device, prints
// them and computes on host arrays. Computing on device arrays here would
// not compile (that takes nvcc).
#include <cupp/ufunc.hpp>
#include <cupp/print.hpp>

#include <cstdio>
#include <sstream>

#include "consumer.hpp"

namespace {
template <class S>
std::string describe_any(const cupp::ndarray<float, S>& x) {
  std::ostringstream os;
  os << cupp::to_string(x.shape()) << ' ' << x.dtype().name << ' ' << x;
  return os.str();
}
}  // namespace

std::string consumer::describe(const cupp::ndarray<float>& x) {
  return describe_any(x);
}
std::string consumer::describe(const cupp::host::ndarray<float>& x) {
  return describe_any(x);
}

cupp::host::ndarray<float> consumer::fetch(const cupp::ndarray<float>& x) {
  return x.get();
}

cupp::ndarray<float> consumer::upload(const cupp::host::ndarray<float>& h) {
  cupp::ndarray<float> d(h.shape());
  d.set(h);
  return d;
}

cupp::host::ndarray<float> consumer::affine(const cupp::host::ndarray<float>& h) {
  return 2 * h + 1;
}

bool consumer::expect(const cupp::host::ndarray<float>& got, const std::vector<float>& want,
                      const std::string& what) {
  const cupp::host::ndarray<float> c = got.copy();
  bool ok = c.size() == static_cast<cupp::index_t>(want.size());
  for (cupp::index_t i = 0; ok && i < c.size(); ++i) ok = c.data()[i] == want[i];
  if (!ok) {
    std::ostringstream os;
    os << got;
    std::printf("consumer: WRONG %s: %s\n", what.c_str(), os.str().c_str());
  }
  return ok;
}
