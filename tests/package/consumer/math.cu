// The same expressions, reductions and scans on host and device arrays.
#include <cupp/cupp.hpp>

#include "consumer.hpp"

namespace {

template <class S>
int run(const char* where) {
  using consumer::expect;
  const auto x = consumer::place<S>(cupp::host::array<float>({{1, -2, 3}, {-4, 5, -6}}));
  const std::string in = std::string(" on the ") + where;
  cupp::ndarray<float, S> y = cupp::maximum(0, x) * 2 + 1;  // one fused loop or kernel
  int bad = 0;
  bad += !expect(cupp::asnumpy(y), {3, 1, 7, 1, 11, 1}, "maximum(0, x) * 2 + 1" + in);
  bad += !expect(cupp::asnumpy(cupp::sum(x * x, 1)), {14, 77}, "sum(x * x, axis=1)" + in);
  bad += !expect(cupp::asnumpy(cupp::max(cupp::abs(x))), {6}, "max(abs(x))" + in);
  bad += !expect(cupp::asnumpy(cupp::cumsum(x)), {1, -1, 2, -2, 3, -3}, "cumsum(x)" + in);
  return bad;
}

}  // namespace

int consumer::check_math(bool device) {
  return run<cupp::host_space>("host") + (device ? run<cupp::device_space>("device") : 0);
}
