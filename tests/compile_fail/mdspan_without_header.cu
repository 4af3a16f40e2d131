// expect: needs #include <cupp/mdspan.hpp>
// x.mdspan<Rank>() is declared by ndarray.hpp but defined by <cupp/mdspan.hpp>,
// which ndarray.hpp does not include (it would cost every user <cuda/std/mdspan>).
#include <cupp/ndarray.hpp>

int main() {
  cupp::ndarray<float> x;
  auto m = x.mdspan<1>();
  (void)m;
}
