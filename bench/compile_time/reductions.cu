// 10 reductions of fused expressions over device arrays, for NDT element
// types (float, double, int32, int64, uint8 in that order). Seconds per
// reduction call of a new dtype =
// (time[NDT=5] - time[NDT=1]) / (4 * 10).
// compile_time_variants: NDT=1 NDT=5
#include <cupp/reductions.hpp>
#include <cupp/scans.hpp>
#include <cupp/ufunc.hpp>

#include <cstdint>
#include <tuple>

template <class T>
void reductions(const cupp::ndarray<T>& x, const cupp::ndarray<T>& y) {
  (void)cupp::sum(x * y);
  (void)cupp::sum(x + y, 1);
  (void)cupp::prod(x - y, 0);
  (void)cupp::max(x * y);
  (void)cupp::min(x + y, 1);
  (void)cupp::argmax(x - y);
  (void)cupp::mean(x * y, 0);
  (void)cupp::any(x > y);
  (void)cupp::var(x + y);
  (void)cupp::cumsum(x * y, 1);
}

using types = std::tuple<float, double, std::int32_t, std::int64_t, std::uint8_t>;

void run_all() {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (reductions<std::tuple_element_t<I, types>>({}, {}), ...);
  }(std::make_index_sequence<NDT>{});
}
