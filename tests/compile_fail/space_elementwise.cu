// Host and device arrays in one element-wise call: every case passes a host
// and a device array (as operands or out=) to one ufunc, operator or user
// function, which must refuse it at compile time. Ufuncs written in
// <cupp/ufunc/*.hpp> and cupp::elementwise / fuse say it with
// CUPP_SAME_SPACE's message (<cupp/space_check.hpp>); the ufuncs and
// operators declared by the macros of detail/expression/ufunc_define.hpp
// still say it in the expression layer's words. The control makes the same
// calls with arrays of one space. Format: see CMakeLists.txt here.
// expect: cupp: the arguments mix host and device arrays
// case 1 expect: an expression mixes host and device arrays
// case 2 expect: an expression mixes host and device arrays
// case 18 expect: an expression mixes host and device arrays
// case 19 expect: a device expression cannot become a host array
#include <cupp/elementwise.hpp>
#include <cupp/expression.hpp>
#include <cupp/ufunc.hpp>

#include <cstdint>

// One case: -DCUPP_CF_CASE=N (0: the control). run_cases.cmake defines
// CUPP_CF itself to compile a set of cases at once.
#ifndef CUPP_CF
#define CUPP_CF(n) (CUPP_CF_CASE == (n))
#endif

using H = cupp::host::ndarray<float>;
using D = cupp::ndarray<float>;
using HD = cupp::host::ndarray<double>;
using HB = cupp::host::ndarray<bool>;
using DB = cupp::ndarray<bool>;
using DI = cupp::ndarray<std::int32_t>;

// Every case is a template over these arrays, called from a plain
// function: nvcc then instantiates all the cases at the end of the unit and
// reports each one's error (an error reported earlier, while the unit is
// read, would make it skip the instantiations still pending).
struct arrays {
  H h;
  D d;
  HD hd;
  HB hb;
  DB db;
  DI di;
};

struct twice {
  template <class T>
  CUPP_HD T operator()(T x) const {
    return x + x;
  }
};
struct twice_sum {
  template <class T>
  CUPP_HD T operator()(T x, T y) const {
    return x + x + y;
  }
};

#if CUPP_CF(0)
void control(const D& d, const DB& db, const DI& di, const H& h) {
  D s = d + d;
  cupp::add(d, d, cupp::out(d));
  (void)cupp::power(d, d);
  cupp::power(d, d, cupp::out(d));
  (void)cupp::divmod(d, d);
  cupp::divmod(d, d, cupp::out(d), cupp::out(d));
  cupp::frexp(d, cupp::out(d), cupp::out(di));
  (void)cupp::isclose(d, d);
  (void)cupp::clip(d, d, d);
  cupp::clip(d, d, d, cupp::out(d));
  cupp::round(d, 2, cupp::out(d));
  (void)cupp::equal(d, d);
  (void)(d == d);
  cupp::equal(d, d, cupp::out(db));
  (void)cupp::elementwise(twice_sum{})(d, d);
  cupp::elementwise(twice{})(d, cupp::out(d));
  (void)cupp::fuse([](const auto& x, const auto& y) { return x + y; })(d, d);
  d += d;
  H t = h * 2 + h;
}
#endif

#if CUPP_CF(1)
template <class A>
void case1(const A& a) {
  D r = a.h + a.d;
}
void run1(const arrays& a) {
  case1(a);
}
#endif
#if CUPP_CF(2)
template <class A>
void case2(const A& a) {
  a.d += a.h;
}
void run2(const arrays& a) {
  case2(a);
}
#endif
#if CUPP_CF(3)
template <class A>
void case3(const A& a) {
  (void)cupp::power(a.h, a.d);
}
void run3(const arrays& a) {
  case3(a);
}
#endif
#if CUPP_CF(4)
template <class A>
void case4(const A& a) {
  cupp::power(a.d, a.d, cupp::out(a.h));
}
void run4(const arrays& a) {
  case4(a);
}
#endif
#if CUPP_CF(5)
template <class A>
void case5(const A& a) {
  (void)cupp::divmod(a.d, a.h);
}
void run5(const arrays& a) {
  case5(a);
}
#endif
#if CUPP_CF(6)
template <class A>
void case6(const A& a) {
  cupp::divmod(a.d, a.d, cupp::out(a.d), cupp::out(a.h));
}
void run6(const arrays& a) {
  case6(a);
}
#endif
#if CUPP_CF(7)
template <class A>
void case7(const A& a) {
  cupp::frexp(a.d, cupp::out(a.h), cupp::out(a.di));
}
void run7(const arrays& a) {
  case7(a);
}
#endif
#if CUPP_CF(8)
template <class A>
void case8(const A& a) {
  (void)cupp::isclose(a.d, a.h);
}
void run8(const arrays& a) {
  case8(a);
}
#endif
#if CUPP_CF(9)
template <class A>
void case9(const A& a) {
  (void)cupp::clip(a.d, a.h, a.d);
}
void run9(const arrays& a) {
  case9(a);
}
#endif
#if CUPP_CF(10)
template <class A>
void case10(const A& a) {
  cupp::clip(a.d, a.d, a.d, cupp::out(a.h));
}
void run10(const arrays& a) {
  case10(a);
}
#endif
#if CUPP_CF(11)
template <class A>
void case11(const A& a) {
  cupp::round(a.d, 2, cupp::out(a.h));
}
void run11(const arrays& a) {
  case11(a);
}
#endif
#if CUPP_CF(12)
template <class A>
void case12(const A& a) {
  (void)cupp::equal(a.d, a.h);
}
void run12(const arrays& a) {
  case12(a);
}
#endif
#if CUPP_CF(13)
template <class A>
void case13(const A& a) {
  (void)(a.d == a.hd);
}
void run13(const arrays& a) {
  case13(a);
}
#endif
#if CUPP_CF(14)
template <class A>
void case14(const A& a) {
  cupp::equal(a.d, a.d, cupp::out(a.hb));
}
void run14(const arrays& a) {
  case14(a);
}
#endif
#if CUPP_CF(15)
template <class A>
void case15(const A& a) {
  (void)cupp::elementwise(twice_sum{})(a.d, a.h);
}
void run15(const arrays& a) {
  case15(a);
}
#endif
#if CUPP_CF(16)
template <class A>
void case16(const A& a) {
  cupp::elementwise(twice{})(a.d, cupp::out(a.h));
}
void run16(const arrays& a) {
  case16(a);
}
#endif
#if CUPP_CF(17)
template <class A>
void case17(const A& a) {
  (void)cupp::fuse([](const auto& x, const auto& y) { return x + y; })(a.h, a.d);
}
void run17(const arrays& a) {
  case17(a);
}
#endif
#if CUPP_CF(18)
template <class A>
void case18(const A& a) {
  cupp::add(a.d, a.d, cupp::out(a.h));
}
void run18(const arrays& a) {
  case18(a);
}
#endif

#if CUPP_CF(19)
template <class A>
void case19(const A& a) {
  H r = a.d * 2;
}
void run19(const arrays& a) {
  case19(a);
}
#endif
