// Host and device arrays in one call of the reductions: every case passes a
// host and a device array (as operands, kw::where, kw::weights or out=) to
// one function, which must refuse it with CUPP_SAME_SPACE's message
// (<cupp/space_check.hpp>). The control makes the same calls with arrays
// of one space. Format: see CMakeLists.txt here.
// expect: cupp: the arguments mix host and device arrays
#include <cupp/reduction.hpp>
#include <cupp/reductions.hpp>

#include <cstdint>

// One case: -DCUPP_CF_CASE=N (0: the control). run_cases.cmake defines
// CUPP_CF itself to compile a set of cases at once.
#ifndef CUPP_CF
#define CUPP_CF(n) (CUPP_CF_CASE == (n))
#endif

using H = cupp::host::ndarray<float>;
using D = cupp::ndarray<float>;
using HB = cupp::host::ndarray<bool>;
using DB = cupp::ndarray<bool>;
using HD = cupp::host::ndarray<double>;

// Every case is a template over these arrays, called from a plain
// function: nvcc then instantiates all the cases at the end of the unit and
// reports each one's error (an error reported earlier, while the unit is
// read, would make it skip the instantiations still pending).
struct arrays {
  H h;
  D d;
  HB hb;
  DB db;
  HD hd;
};

struct same {
  CUPP_HD float operator()(float x) const { return x; }
};
struct plus {
  CUPP_HD float operator()(float x, float y) const { return x + y; }
};
struct times {
  CUPP_HD float operator()(float x, float y) const { return x * y; }
};

namespace kw = cupp::kw;

#if CUPP_CF(0)
void control(const D& d, const DB& db, const H& h, const HB& hb) {
  (void)cupp::sum(d, kw::where = db);
  cupp::sum(d, 0, cupp::out(d));
  (void)cupp::max(d, 0, kw::where = db, kw::initial = 0.0f);
  (void)cupp::mean(d, 0, kw::where = db);
  (void)cupp::var(d, kw::where = db, kw::ddof = 1);
  (void)cupp::average(d, 0, kw::weights = d);
  (void)d.min(kw::where = db, kw::initial = 1.0f);
  (void)cupp::allclose(d, d);
  (void)cupp::array_equal(d, d);
  (void)cupp::array_equiv(d, d);
  const auto k = cupp::reduction(same{}, plus{}, same{}, 0.0f);
  k(d, cupp::out(d));
  (void)cupp::reduction(times{}, plus{}, same{}, 0.0f)(d, d);
  (void)cupp::sum(h, kw::where = hb);
}
#endif

#if CUPP_CF(1)
template <class A>
void case1(const A& a) {
  (void)cupp::sum(a.d, kw::where = a.hb);
}
void run1(const arrays& a) {
  case1(a);
}
#endif
#if CUPP_CF(2)
template <class A>
void case2(const A& a) {
  cupp::sum(a.d, 0, cupp::out(a.h));
}
void run2(const arrays& a) {
  case2(a);
}
#endif
#if CUPP_CF(3)
template <class A>
void case3(const A& a) {
  (void)cupp::max(a.h, 0, kw::where = a.db, kw::initial = 0.0f);
}
void run3(const arrays& a) {
  case3(a);
}
#endif
#if CUPP_CF(4)
template <class A>
void case4(const A& a) {
  (void)cupp::mean(a.d, 0, kw::where = a.hb);
}
void run4(const arrays& a) {
  case4(a);
}
#endif
#if CUPP_CF(5)
template <class A>
void case5(const A& a) {
  (void)cupp::average(a.d, 0, kw::weights = a.h);
}
void run5(const arrays& a) {
  case5(a);
}
#endif
#if CUPP_CF(6)
template <class A>
void case6(const A& a) {
  (void)a.d.min(kw::where = a.hb, kw::initial = 1.0f);
}
void run6(const arrays& a) {
  case6(a);
}
#endif
#if CUPP_CF(7)
template <class A>
void case7(const A& a) {
  (void)cupp::allclose(a.d, a.h);
}
void run7(const arrays& a) {
  case7(a);
}
#endif
#if CUPP_CF(8)
template <class A>
void case8(const A& a) {
  (void)cupp::array_equal(a.h, a.d);
}
void run8(const arrays& a) {
  case8(a);
}
#endif
#if CUPP_CF(9)
template <class A>
void case9(const A& a) {
  (void)cupp::array_equiv(a.d, a.h);
}
void run9(const arrays& a) {
  case9(a);
}
#endif
#if CUPP_CF(10)
template <class A>
void case10(const A& a) {
  const auto k = cupp::reduction(same{}, plus{}, same{}, 0.0f);
  k(a.d, cupp::out(a.h));
}
void run10(const arrays& a) {
  case10(a);
}
#endif
#if CUPP_CF(11)
template <class A>
void case11(const A& a) {
  (void)cupp::reduction(times{}, plus{}, same{}, 0.0f)(a.h, a.d);
}
void run11(const arrays& a) {
  case11(a);
}
#endif
#if CUPP_CF(12)
template <class A>
void case12(const A& a) {
  (void)cupp::var(a.hd, kw::where = a.db, kw::ddof = 1);
}
void run12(const arrays& a) {
  case12(a);
}
#endif
