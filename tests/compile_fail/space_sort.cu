// Host and device arrays in one call of the sort area: every case passes
// one host and one device array (or a list of them) to one function, which
// must refuse it with CUPP_SAME_SPACE's message (<cupp/space_check.hpp>).
// The control makes the same calls with arrays of one space. Format: see
// CMakeLists.txt here.
// expect: cupp: the arguments mix host and device arrays
#include <cupp/sort.hpp>

#include <cstdint>
#include <vector>

// One case: -DCUPP_CF_CASE=N (0: the control). run_cases.cmake defines
// CUPP_CF itself to compile a set of cases at once.
#ifndef CUPP_CF
#define CUPP_CF(n) (CUPP_CF_CASE == (n))
#endif

using H = cupp::host::ndarray<float>;
using D = cupp::ndarray<float>;
using HI = cupp::host::ndarray<std::int64_t>;
using DI = cupp::ndarray<std::int64_t>;

// Every case is a template over these arrays, called from a plain
// function: nvcc then instantiates all the cases at the end of the unit and
// reports each one's error (an error reported earlier, while the unit is
// read, would make it skip the instantiations still pending).
struct arrays {
  H h;
  D d;
  HI hi;
  DI di;
};

#if CUPP_CF(0)
void control(const D& d, const DI& di, const H& h, const HI& hi) {
  (void)cupp::lexsort(d, d);
  (void)cupp::searchsorted(d, d);
  (void)cupp::searchsorted(d, d, "left", di);
  (void)cupp::digitize(d, d);
  (void)cupp::bincount(di, d);
  (void)cupp::histogram(d, d);
  (void)cupp::histogram(d, 10, std::nullopt, d);
  (void)cupp::histogram2d(d, d);
  (void)cupp::histogramdd(d, std::vector<D>{d});
  (void)cupp::histogramdd(d, 10, {}, false, d);
  (void)cupp::quantile(d, 0.5, cupp::axis_arg{}, d, cupp::quantile_options{});
  (void)cupp::isin(d, d);
  (void)cupp::in1d(d, d);
  (void)cupp::intersect1d(d, d);
  (void)cupp::intersect1d(d, d, false, cupp::return_indices);
  (void)cupp::union1d(d, d);
  (void)cupp::setdiff1d(d, d);
  (void)cupp::setxor1d(d, d);
  (void)cupp::setdiff1d(h, h);
  (void)cupp::bincount(hi, h);
}
#endif

#if CUPP_CF(1)
template <class A>
void case1(const A& a) {
  (void)cupp::lexsort(a.d, a.h);
}
void run1(const arrays& a) {
  case1(a);
}
#endif
#if CUPP_CF(2)
template <class A>
void case2(const A& a) {
  (void)cupp::searchsorted(a.d, a.h);
}
void run2(const arrays& a) {
  case2(a);
}
#endif
#if CUPP_CF(3)
template <class A>
void case3(const A& a) {
  (void)cupp::searchsorted(a.d, a.d, "left", a.hi);
}
void run3(const arrays& a) {
  case3(a);
}
#endif
#if CUPP_CF(4)
template <class A>
void case4(const A& a) {
  (void)cupp::digitize(a.h, a.d);
}
void run4(const arrays& a) {
  case4(a);
}
#endif
#if CUPP_CF(5)
template <class A>
void case5(const A& a) {
  (void)cupp::bincount(a.di, a.h);
}
void run5(const arrays& a) {
  case5(a);
}
#endif
#if CUPP_CF(6)
template <class A>
void case6(const A& a) {
  (void)cupp::histogram(a.d, a.h);
}
void run6(const arrays& a) {
  case6(a);
}
#endif
#if CUPP_CF(7)
template <class A>
void case7(const A& a) {
  (void)cupp::histogram(a.d, 10, std::nullopt, a.h);
}
void run7(const arrays& a) {
  case7(a);
}
#endif
#if CUPP_CF(8)
template <class A>
void case8(const A& a) {
  (void)cupp::histogram2d(a.h, a.d);
}
void run8(const arrays& a) {
  case8(a);
}
#endif
#if CUPP_CF(9)
template <class A>
void case9(const A& a) {
  (void)cupp::histogramdd(a.d, std::vector<H>{a.h});
}
void run9(const arrays& a) {
  case9(a);
}
#endif
#if CUPP_CF(10)
template <class A>
void case10(const A& a) {
  (void)cupp::histogramdd(a.d, 10, {}, false, a.h);
}
void run10(const arrays& a) {
  case10(a);
}
#endif
#if CUPP_CF(11)
template <class A>
void case11(const A& a) {
  (void)cupp::quantile(a.d, 0.5, cupp::axis_arg{}, a.h, cupp::quantile_options{});
}
void run11(const arrays& a) {
  case11(a);
}
#endif
#if CUPP_CF(12)
template <class A>
void case12(const A& a) {
  (void)cupp::isin(a.d, a.h);
}
void run12(const arrays& a) {
  case12(a);
}
#endif
#if CUPP_CF(13)
template <class A>
void case13(const A& a) {
  (void)cupp::in1d(a.h, a.d);
}
void run13(const arrays& a) {
  case13(a);
}
#endif
#if CUPP_CF(14)
template <class A>
void case14(const A& a) {
  (void)cupp::intersect1d(a.d, a.h);
}
void run14(const arrays& a) {
  case14(a);
}
#endif
#if CUPP_CF(15)
template <class A>
void case15(const A& a) {
  (void)cupp::intersect1d(a.d, a.h, false, cupp::return_indices);
}
void run15(const arrays& a) {
  case15(a);
}
#endif
#if CUPP_CF(16)
template <class A>
void case16(const A& a) {
  (void)cupp::union1d(a.h, a.d);
}
void run16(const arrays& a) {
  case16(a);
}
#endif
#if CUPP_CF(17)
template <class A>
void case17(const A& a) {
  (void)cupp::setdiff1d(a.d, a.h);
}
void run17(const arrays& a) {
  case17(a);
}
#endif
#if CUPP_CF(18)
template <class A>
void case18(const A& a) {
  (void)cupp::setxor1d(a.h, a.d);
}
void run18(const arrays& a) {
  case18(a);
}
#endif
