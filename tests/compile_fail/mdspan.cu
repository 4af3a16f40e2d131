// x.mdspan<Rank>() is declared by ndarray.hpp but defined by
// <cupp/mdspan.hpp>, which ndarray.hpp does not include (it would cost
// every user <cuda/std/mdspan>): without it the call says which header it
// needs. The control includes it. Format: see CMakeLists.txt here.
// case 1 expect: needs #include <cupp/mdspan.hpp>
#include <cupp/ndarray.hpp>

// One case: -DCUPP_CF_CASE=N (0: the control). run_cases.cmake defines
// CUPP_CF itself to compile a set of cases at once (a batch cannot prove
// case 1, which the control's include makes valid: it is then compiled on
// its own).
#ifndef CUPP_CF
#define CUPP_CF(n) (CUPP_CF_CASE == (n))
#endif

#if CUPP_CF(0)
#include <cupp/mdspan.hpp>
void control(const cupp::ndarray<float>& x) {
  auto m = x.mdspan<1>();
  (void)m;
}
#endif

#if CUPP_CF(1)
template <class X>
void case1(const X& x) {
  auto m = x.template mdspan<1>();
  (void)m;
}
void run1(const cupp::ndarray<float>& x) {
  case1(x);
}
#endif
