// 10 fancy-indexing calls (integer arrays, masks, take/put, scatter) over
// device arrays, for NDT element types (float, double, int32, int64, uint8
// in that order). Seconds per indexing call of a new dtype =
// (time[NDT=5] - time[NDT=1]) / (4 * 10).
// compile_time_variants: NDT=1 NDT=5
#include <cupp/advanced_indexing.hpp>
#include <cupp/boolean_indexing.hpp>
#include <cupp/ufunc.hpp>

#include <cstdint>
#include <tuple>

template <class T>
void indexing(cupp::ndarray<T>& x, const cupp::ndarray<std::int64_t>& idx) {
  cupp::ndarray<T> a = x(idx);
  cupp::ndarray<T> b = x(x > T(1));
  x(idx) = a;
  x(x > T(2)) = T(0);
  cupp::ndarray<T> c = cupp::take(x, idx, 0);
  cupp::put(x, idx, b);
  cupp::scatter_add(x, idx, a);
  (void)cupp::nonzero(x);
  cupp::ndarray<T> d = cupp::compress(x > T(3), x, 0);
  cupp::ndarray<T> e = cupp::where(x > T(4), x, c);
  (void)d;
  (void)e;
}

using types = std::tuple<float, double, std::int32_t, std::int64_t, std::uint8_t>;

template <class T>
void indexing_for(const cupp::ndarray<std::int64_t>& idx) {
  cupp::ndarray<T> x;
  indexing(x, idx);
}

void run_all() {
  cupp::ndarray<std::int64_t> idx;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (indexing_for<std::tuple_element_t<I, types>>(idx), ...);
  }(std::make_index_sequence<NDT>{});
}
