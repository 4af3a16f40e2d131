// Host and device arrays in one call of the linear algebra and correlation
// routines: every case passes one host and one device array (or out=) to
// one function, which must refuse it with CUPP_SAME_SPACE's message
// (<cupp/space_check.hpp>). The control makes the same calls with arrays of
// one space. Format: see CMakeLists.txt here.
// expect: cupp: the arguments mix host and device arrays
#include <cupp/correlation.hpp>
#include <cupp/linalg.hpp>

#include <cstdint>

// One case: -DCUPP_CF_CASE=N (0: the control). run_cases.cmake defines
// CUPP_CF itself to compile a set of cases at once.
#ifndef CUPP_CF
#define CUPP_CF(n) (CUPP_CF_CASE == (n))
#endif

using H = cupp::host::ndarray<double>;
using D = cupp::ndarray<double>;
using HF = cupp::host::ndarray<float>;
using DF = cupp::ndarray<float>;
using DI = cupp::ndarray<std::int64_t>;

// Every case is a template over these arrays, called from a plain
// function: nvcc then instantiates all the cases at the end of the unit and
// reports each one's error (an error reported earlier, while the unit is
// read, would make it skip the instantiations still pending).
struct arrays {
  H h;
  D d;
  HF hf;
  DF df;
  DI di;
};

#if CUPP_CF(0)
void control(const D& d, const DF& df, const DI& di) {
  D m = cupp::matmul(d, d);
  cupp::matmul(d, d, d);
  cupp::matmul(df, df, cupp::out(df));
  (void)cupp::dot(d, d);
  cupp::dot(d, d, d);
  (void)cupp::vdot(d, d);
  (void)cupp::outer(d, d);
  (void)cupp::linalg::outer(d, d);
  (void)cupp::inner(d, d);
  (void)cupp::tensordot(d, d);
  (void)cupp::kron(d, d);
  (void)cupp::cross(d, d);
  (void)cupp::linalg::vecdot(d, d);
  (void)cupp::linalg::cross(d, d);
  (void)cupp::linalg::multi_dot(d, d, d);
  (void)cupp::einsum("ij,jk->ik", d, d);
  (void)cupp::linalg::solve(d, d);
  (void)cupp::linalg::lstsq(d, d);
  (void)cupp::linalg::tensorsolve(d, d);
  (void)cupp::cov(d, d);
  (void)cupp::cov(d, cupp::none, cupp::cov_options{}, di, d);
  (void)cupp::corrcoef(d, d);
  (void)cupp::correlate(d, d);
  (void)cupp::convolve(d, d);
}
#endif

#if CUPP_CF(1)
template <class A>
void case1(const A& a) {
  D r = cupp::matmul(a.d, a.h);
}
void run1(const arrays& a) {
  case1(a);
}
#endif
#if CUPP_CF(2)
template <class A>
void case2(const A& a) {
  cupp::matmul(a.d, a.d, a.h);
}
void run2(const arrays& a) {
  case2(a);
}
#endif
#if CUPP_CF(3)
template <class A>
void case3(const A& a) {
  cupp::matmul(a.df, a.df, cupp::out(a.hf));
}
void run3(const arrays& a) {
  case3(a);
}
#endif
#if CUPP_CF(4)
template <class A>
void case4(const A& a) {
  (void)cupp::dot(a.h, a.d);
}
void run4(const arrays& a) {
  case4(a);
}
#endif
#if CUPP_CF(5)
template <class A>
void case5(const A& a) {
  cupp::dot(a.d, a.d, a.h);
}
void run5(const arrays& a) {
  case5(a);
}
#endif
#if CUPP_CF(6)
template <class A>
void case6(const A& a) {
  (void)cupp::vdot(a.d, a.h);
}
void run6(const arrays& a) {
  case6(a);
}
#endif
#if CUPP_CF(7)
template <class A>
void case7(const A& a) {
  (void)cupp::outer(a.h, a.d);
}
void run7(const arrays& a) {
  case7(a);
}
#endif
#if CUPP_CF(8)
template <class A>
void case8(const A& a) {
  (void)cupp::inner(a.d, a.h);
}
void run8(const arrays& a) {
  case8(a);
}
#endif
#if CUPP_CF(9)
template <class A>
void case9(const A& a) {
  (void)cupp::tensordot(a.h, a.d);
}
void run9(const arrays& a) {
  case9(a);
}
#endif
#if CUPP_CF(10)
template <class A>
void case10(const A& a) {
  (void)cupp::kron(a.d, a.h);
}
void run10(const arrays& a) {
  case10(a);
}
#endif
#if CUPP_CF(11)
template <class A>
void case11(const A& a) {
  (void)cupp::cross(a.h, a.d);
}
void run11(const arrays& a) {
  case11(a);
}
#endif
#if CUPP_CF(12)
template <class A>
void case12(const A& a) {
  (void)cupp::linalg::vecdot(a.d, a.h);
}
void run12(const arrays& a) {
  case12(a);
}
#endif
#if CUPP_CF(13)
template <class A>
void case13(const A& a) {
  (void)cupp::linalg::cross(a.d, a.h);
}
void run13(const arrays& a) {
  case13(a);
}
#endif
#if CUPP_CF(14)
template <class A>
void case14(const A& a) {
  (void)cupp::linalg::multi_dot(a.d, a.d, a.h);
}
void run14(const arrays& a) {
  case14(a);
}
#endif
#if CUPP_CF(15)
template <class A>
void case15(const A& a) {
  (void)cupp::einsum("ij,jk->ik", a.h, a.d);
}
void run15(const arrays& a) {
  case15(a);
}
#endif
#if CUPP_CF(16)
template <class A>
void case16(const A& a) {
  (void)cupp::linalg::solve(a.d, a.h);
}
void run16(const arrays& a) {
  case16(a);
}
#endif
#if CUPP_CF(17)
template <class A>
void case17(const A& a) {
  (void)cupp::linalg::lstsq(a.h, a.d);
}
void run17(const arrays& a) {
  case17(a);
}
#endif
#if CUPP_CF(18)
template <class A>
void case18(const A& a) {
  (void)cupp::linalg::tensorsolve(a.d, a.h);
}
void run18(const arrays& a) {
  case18(a);
}
#endif
#if CUPP_CF(19)
template <class A>
void case19(const A& a) {
  (void)cupp::cov(a.d, a.h);
}
void run19(const arrays& a) {
  case19(a);
}
#endif
#if CUPP_CF(20)
template <class A>
void case20(const A& a) {
  (void)cupp::cov(a.d, cupp::none, cupp::cov_options{}, a.di, a.h);
}
void run20(const arrays& a) {
  case20(a);
}
#endif
#if CUPP_CF(21)
template <class A>
void case21(const A& a) {
  (void)cupp::corrcoef(a.h, a.d);
}
void run21(const arrays& a) {
  case21(a);
}
#endif
#if CUPP_CF(22)
template <class A>
void case22(const A& a) {
  (void)cupp::correlate(a.d, a.h);
}
void run22(const arrays& a) {
  case22(a);
}
#endif
#if CUPP_CF(23)
template <class A>
void case23(const A& a) {
  (void)cupp::convolve(a.h, a.d);
}
void run23(const arrays& a) {
  case23(a);
}
#endif
#if CUPP_CF(24)
template <class A>
void case24(const A& a) {
  (void)cupp::linalg::outer(a.hf, a.df);
}
void run24(const arrays& a) {
  case24(a);
}
#endif
