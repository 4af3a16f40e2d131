// EXPRS distinct fused expressions over device arrays, each a different tree
// of three leaves and three operators (so each is its own kernel), the
// typical size of a line of NumPy code. Seconds per extra expression =
// (time[EXPRS=50] - time[EXPRS=1]) / 49.
// compile_time_variants: EXPRS=1 EXPRS=10 EXPRS=50
#include <cupp/ndarray.hpp>
#include <cupp/ufunc.hpp>

#include <utility>

template <int K, class A, class B>
auto op(const A& a, const B& b) {
  if constexpr (K == 0)
    return a + b;
  else if constexpr (K == 1)
    return a - b;
  else if constexpr (K == 2)
    return a * b;
  else
    return a / b;
}

template <int I>
void expression(const cupp::ndarray<float>& x, const cupp::ndarray<float>& y,
                const cupp::ndarray<float>& w, cupp::ndarray<float>& out) {
  out = op<I / 16 % 4>(op<I / 4 % 4>(x, y), op<I % 4>(w, x));
}

void run_all(const cupp::ndarray<float>& x, const cupp::ndarray<float>& y,
             const cupp::ndarray<float>& w, cupp::ndarray<float>& out) {
  [&]<int... I>(std::integer_sequence<int, I...>) {
    (expression<I>(x, y, w, out), ...);
  }
  (std::make_integer_sequence<int, EXPRS>{});
}
