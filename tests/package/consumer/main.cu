#include <cupp/cupp.hpp>

#include <cstdio>

int main() {
  auto h = cupp::host::array<float>({{1, 2}, {3, 4}});
  static_assert(std::is_same_v<cupp::result_type_t<float, std::int64_t>, double>);
  if (!cupp::cuda::is_available()) {
    std::printf("consumer: host array of %lld elements; no CUDA device\n",
                static_cast<long long>(h.size()));
    return h.at(1, 0) == 3.0f ? 0 : 1;
  }
  auto d = cupp::asarray(h);
  auto back = cupp::asnumpy(d.copy(cupp::order::F));
  std::printf("consumer: round trip through device %d\n", d.device_id());
  return back.at(1, 0) == 3.0f ? 0 : 1;
}
