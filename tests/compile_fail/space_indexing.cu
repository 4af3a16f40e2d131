// Host and device arrays in one call of the indexing, joining and
// manipulation routines: every case passes one host and one device array
// (or a list of them) to one function, which must refuse it with
// CUPP_SAME_SPACE's message (<cupp/space_check.hpp>). Index arrays are the
// exception the message allows: a host index array indexes device data (it
// is uploaded, as a std::vector of indices is), never a device one host
// data. The control makes the same calls with arrays of one space. Format:
// see CMakeLists.txt here.
// expect: cupp: the arguments mix host and device arrays
// x(idx), x(mask) and x(mask) = v are members defined in detail/, which
// still say it in their own words:
// case 25 expect: an expression mixes host and device arrays
// case 26 expect: a device index array cannot index a host array
// case 27 expect: a mask must live where the array does
#include <cupp/cupp.hpp>

#include <cstdint>
#include <tuple>
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
using HB = cupp::host::ndarray<bool>;
using DB = cupp::ndarray<bool>;
using DJ = cupp::ndarray<std::int32_t>;

// Every case is a template over these arrays, called from a plain
// function: nvcc then instantiates all the cases at the end of the unit and
// reports each one's error (an error reported earlier, while the unit is
// read, would make it skip the instantiations still pending).
struct arrays {
  H h;
  D d;
  HI hi;
  DI di;
  HB hb;
  DB db;
  DJ dj;
};

#if CUPP_CF(0)
void control(const D& d, const DI& di, const DB& db, const HI& hi, const H& h, const HB& hb) {
  (void)cupp::take(d, di);
  (void)cupp::take(d, hi);  // host indices are uploaded
  (void)cupp::take_along_axis(d, di, 0);
  cupp::put_along_axis(d, di, d, 0);
  cupp::put(d, di, d);
  (void)cupp::choose(di, std::vector<D>{d, d});
  cupp::scatter_add(d, di, d);
  cupp::scatter_max(d, hi, d);
  (void)cupp::compress(db, d);
  (void)cupp::extract(db, d);
  cupp::place(d, db, d);
  cupp::putmask(d, db, d);
  (void)cupp::select(std::vector<DB>{db}, std::vector<D>{d});
  cupp::copyto(d, d);
  D w = cupp::where(db, d, d);
  d(di) = d;
  d(di) += d;
  D c = d(db);
  d(db) = d;
  (void)cupp::concatenate(std::tuple{d, di});
  (void)cupp::concatenate(std::vector<D>{d}, 0, cupp::out(d));
  (void)cupp::append(d, d);
  (void)cupp::insert(d, 0, d);
  (void)cupp::broadcast_arrays(d, di);
  (void)cupp::atleast_1d(d, di);
  cupp::fill_diagonal(d, d);
  (void)cupp::meshgrid(d, d);
  (void)cupp::take(h, hi);
  (void)cupp::compress(hb, h);
  h(hb) = h;
}
#endif

#if CUPP_CF(1)
template <class A>
void case1(const A& a) {
  (void)cupp::take(a.h, a.di);
}
void run1(const arrays& a) {
  case1(a);
}
#endif
#if CUPP_CF(2)
template <class A>
void case2(const A& a) {
  (void)cupp::take_along_axis(a.h, a.di, 0);
}
void run2(const arrays& a) {
  case2(a);
}
#endif
#if CUPP_CF(3)
template <class A>
void case3(const A& a) {
  cupp::put_along_axis(a.d, a.di, a.h, 0);
}
void run3(const arrays& a) {
  case3(a);
}
#endif
#if CUPP_CF(4)
template <class A>
void case4(const A& a) {
  cupp::put(a.d, a.di, a.h);
}
void run4(const arrays& a) {
  case4(a);
}
#endif
#if CUPP_CF(5)
template <class A>
void case5(const A& a) {
  (void)cupp::choose(a.di, std::vector<H>{a.h});
}
void run5(const arrays& a) {
  case5(a);
}
#endif
#if CUPP_CF(6)
template <class A>
void case6(const A& a) {
  cupp::scatter_add(a.d, a.di, a.h);
}
void run6(const arrays& a) {
  case6(a);
}
#endif
#if CUPP_CF(7)
template <class A>
void case7(const A& a) {
  (void)cupp::compress(a.db, a.h);
}
void run7(const arrays& a) {
  case7(a);
}
#endif
#if CUPP_CF(8)
template <class A>
void case8(const A& a) {
  (void)cupp::extract(a.db, a.h);
}
void run8(const arrays& a) {
  case8(a);
}
#endif
#if CUPP_CF(9)
template <class A>
void case9(const A& a) {
  cupp::place(a.d, a.hb, a.d);
}
void run9(const arrays& a) {
  case9(a);
}
#endif
#if CUPP_CF(10)
template <class A>
void case10(const A& a) {
  cupp::putmask(a.d, a.db, a.h);
}
void run10(const arrays& a) {
  case10(a);
}
#endif
#if CUPP_CF(11)
template <class A>
void case11(const A& a) {
  (void)cupp::select(std::vector<HB>{a.hb}, std::vector<D>{a.d});
}
void run11(const arrays& a) {
  case11(a);
}
#endif
#if CUPP_CF(12)
template <class A>
void case12(const A& a) {
  cupp::copyto(a.h, a.d + 1);
}
void run12(const arrays& a) {
  case12(a);
}
#endif
#if CUPP_CF(13)
template <class A>
void case13(const A& a) {
  (void)cupp::where(a.db, a.d, a.h);
}
void run13(const arrays& a) {
  case13(a);
}
#endif
#if CUPP_CF(14)
template <class A>
void case14(const A& a) {
  a.d(a.di) = a.hi;
}
void run14(const arrays& a) {
  case14(a);
}
#endif
#if CUPP_CF(15)
template <class A>
void case15(const A& a) {
  (void)cupp::concatenate(std::tuple{a.d, a.h});
}
void run15(const arrays& a) {
  case15(a);
}
#endif
#if CUPP_CF(16)
template <class A>
void case16(const A& a) {
  (void)cupp::concatenate(std::vector<D>{a.d}, 0, cupp::out(a.h));
}
void run16(const arrays& a) {
  case16(a);
}
#endif
#if CUPP_CF(17)
template <class A>
void case17(const A& a) {
  (void)cupp::append(a.h, a.d);
}
void run17(const arrays& a) {
  case17(a);
}
#endif
#if CUPP_CF(18)
template <class A>
void case18(const A& a) {
  (void)cupp::insert(a.d, 0, a.h);
}
void run18(const arrays& a) {
  case18(a);
}
#endif
#if CUPP_CF(19)
template <class A>
void case19(const A& a) {
  (void)cupp::broadcast_arrays(a.d, a.h);
}
void run19(const arrays& a) {
  case19(a);
}
#endif
#if CUPP_CF(20)
template <class A>
void case20(const A& a) {
  (void)cupp::atleast_2d(a.h, a.d);
}
void run20(const arrays& a) {
  case20(a);
}
#endif
#if CUPP_CF(21)
template <class A>
void case21(const A& a) {
  cupp::fill_diagonal(a.d, a.h);
}
void run21(const arrays& a) {
  case21(a);
}
#endif
#if CUPP_CF(22)
template <class A>
void case22(const A& a) {
  (void)cupp::meshgrid(a.h, a.d);
}
void run22(const arrays& a) {
  case22(a);
}
#endif
#if CUPP_CF(23)
template <class A>
void case23(const A& a) {
  cupp::scatter_max(a.d, a.hi, a.h);
}
void run23(const arrays& a) {
  case23(a);
}
#endif
#if CUPP_CF(24)
template <class A>
void case24(const A& a) {
  a.d(a.di) += a.h;
}
void run24(const arrays& a) {
  case24(a);
}
#endif
#if CUPP_CF(25)
template <class A>
void case25(const A& a) {
  a.d(a.db) = a.hi;
}
void run25(const arrays& a) {
  case25(a);
}
#endif
#if CUPP_CF(26)
template <class A>
void case26(const A& a) {
  H r = a.h(a.dj);
}
void run26(const arrays& a) {
  case26(a);
}
#endif
#if CUPP_CF(27)
template <class A>
void case27(const A& a) {
  H r = a.h(a.db);
}
void run27(const arrays& a) {
  case27(a);
}
#endif
