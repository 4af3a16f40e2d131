// One fused reduction, sum(x * y, 1), for NDT element types (float, double,
// int32, int64 in that order): the kernels a reduction compiles for a dtype
// the unit has not reduced before. Seconds per reduction of a new dtype =
// (time[NDT=4] - time[NDT=1]) / 3.
// compile_time_variants: NDT=1 NDT=4
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

#include <cstdint>
#include <tuple>

using types = std::tuple<float, double, std::int32_t, std::int64_t>;

template <class T>
auto row_dots(const cupp::ndarray<T>& x, const cupp::ndarray<T>& y) {
  return cupp::sum(x * y, 1);
}

void run_all() {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (row_dots<std::tuple_element_t<I, types>>({}, {}), ...);
  }
  (std::make_index_sequence<NDT>{});
}
