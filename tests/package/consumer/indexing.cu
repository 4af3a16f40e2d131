// Views, integer-array and boolean-mask indexing and concatenate on host
// and device arrays.
#include <cupp/cupp.hpp>

#include "consumer.hpp"

namespace {

template <class S>
int run(const char* where) {
  using consumer::expect;
  using cupp::_, cupp::slice;
  const auto x =
      consumer::place<S>(cupp::host::array<float>({{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}}));
  const auto rows = consumer::place<S>(cupp::host::array<std::int64_t>({2, 0}));
  const std::string in = std::string(" on the ") + where;
  int bad = 0;
  bad += !expect(cupp::asnumpy(x(_, slice(1, _, 2))), {1, 3, 5, 7, 9, 11}, "x[:, 1::2]" + in);
  const cupp::ndarray<float, S> picked = x(rows);
  bad += !expect(cupp::asnumpy(picked), {8, 9, 10, 11, 0, 1, 2, 3}, "x[[2, 0]]" + in);
  const cupp::ndarray<float, S> masked = x(x > 8.5f);
  bad += !expect(cupp::asnumpy(masked), {9, 10, 11}, "x[x > 8.5]" + in);
  const auto joined = cupp::concatenate({x(0), x(2)});
  bad += !expect(cupp::asnumpy(joined), {0, 1, 2, 3, 8, 9, 10, 11}, "concatenate" + in);
  return bad;
}

}  // namespace

int consumer::check_indexing(bool device) {
  return run<cupp::host_space>("host") + (device ? run<cupp::device_space>("device") : 0);
}
