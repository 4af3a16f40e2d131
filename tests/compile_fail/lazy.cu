// Lazy values (expressions, generators, the x(mask) proxy) used where
// memory is needed, and C++'s logical operators on arrays: compile errors
// that say what to write instead. The control makes the valid neighbours.
// Format: see CMakeLists.txt here.
// case 1 expect: expression must be a modifiable lvalue
// case 2 expect: no operator .=. matches these operands
// case 3 expect: x\.data\(\) needs an array.*Write cupp::ndarray<T> x = \.\.\..*call x\.eval\(\)
// case 4 expect: indexing x\(\.\.\.\) needs an array, but x is a lazy expression or generator
// case 5 expect: x \+= y needs an array, but x is a lazy expression or generator
// case 6 expect: x\.item\(\) needs an array, but x is a lazy expression or generator
// case 7 expect: && is not an element-wise operator of arrays.*cupp::logical_and\(a, b\), or a & b
// case 8 expect: ! is not an element-wise operator of arrays.*cupp::logical_not\(a\), or ~a
// case 9 expect: \|\| is not an element-wise operator of arrays.*cupp::logical_or\(a, b\)
// case 10 expect: cupp::out needs an array to write into, and this is a lazy expression
#include <cupp/cupp.hpp>
#include <cupp/iterator.hpp>
#include <cupp/module.hpp>
#include <cupp/ufunc/logic.hpp>

#include <iostream>
#include <vector>

// One case: -DCUPP_CF_CASE=N (0: the control). run_cases.cmake defines
// CUPP_CF itself to compile a set of cases at once.
#ifndef CUPP_CF
#define CUPP_CF(n) (CUPP_CF_CASE == (n))
#endif

using F = cupp::ndarray<float>;

// Every case is a template over these arrays, called from a plain
// function: nvcc then instantiates all the cases at the end of the unit and
// reports each one's error (an error reported earlier, while the unit is
// read, would make it skip the instantiations still pending).
struct arrays {
  F f;
  cupp::ndarray<cupp::float16> half;
  cupp::ndarray<bool> b;
};

#if CUPP_CF(0)
void control(const F& f, const cupp::ndarray<bool>& b, const cupp::ndarray<std::int32_t>& i) {
  // Lazy values keep the members they have, and print as arrays.
  auto gen = cupp::host::arange<float>(12);
  cupp::host::ndarray<float> gv = gen.reshape(3, 4).T().transpose(1, 0) * 2;
  const auto ex = f * 2;
  const cupp::index_t n = ex.size() + ex.ndim() + ex.shape()[0] + gen.reshape({2, 6}).size();
  F ev = ex.eval() + ex.astype<double>().sum().item();
  gv(gv > 5) = 0;
  gv(gv > 5) += 1;
  std::cout << gv(gv > 5) << gen << ex << gv(std::vector<int>{0, 1}) << n << '\n';
  cupp::ndarray<bool> l =
      cupp::logical_and(f > 0, f < 5) | cupp::logical_or(b, ~b) | cupp::logical_not(b);
  i(std::vector<int>{0}) <<= 1;
  auto xp = cupp::get_array_module(f);
  auto z = xp.zeros<float>({2});
  cupp::add(f, 1, cupp::out(f));
  F m = f(f > 0);
  (void)m.item();
  // Iterators: arrays' are written through, expressions' read.
  *cupp::begin(f) = *cupp::begin(f * 2) + *cupp::cbegin(f);
  const cupp::ndarray<cupp::float16> hf = cupp::astype<cupp::float16>(f);
  cupp::begin(hf)[1] = cupp::begin(hf * 2)[1];
}
#endif

// An expression's iterator computes its elements; there is no memory to
// write into (evaluate it into an array and take that array's iterator).
#if CUPP_CF(1)
template <class A>
void case1(const A& a) {
  *cupp::begin(a.f * 2) = 1.0f;
}
void run1(const arrays& a) {
  case1(a);
}
#endif

// The same for a class-type dtype (float16, bfloat16, complex), whose
// values an expression's iterator returns as const.
#if CUPP_CF(2)
template <class A>
void case2(const A& a) {
  cupp::begin(a.half * 2)[1] = cupp::float16(1.0f);
}
void run2(const arrays& a) {
  case2(a);
}
#endif

// An expression has none of the members of arrays that need memory.
#if CUPP_CF(3)
template <class A>
void case3(const A& a) {
  auto x = a.f * 2;
  (void)x.data();
}
void run3(const arrays& a) {
  case3(a);
}
#endif

// A generator held in `auto` is not an array: x(x > 5) = 0 (NumPy's
// x[x > 5] = 0) needs `cupp::host::ndarray<float> x = ...`.
#if CUPP_CF(4)
template <class A>
void case4(const A& a) {
  auto x = cupp::host::arange<float>(a.f.size());
  x(x > 5) = 0;
}
void run4(const arrays& a) {
  case4(a);
}
#endif

// In-place operators write into memory, which a generator has none of.
#if CUPP_CF(5)
template <class A>
void case5(const A& a) {
  auto x = cupp::zeros<float>({a.f.size(), 4});
  x += 1;
}
void run5(const arrays& a) {
  case5(a);
}
#endif

// x(mask) is a proxy: it converts to the selected array.
#if CUPP_CF(6)
template <class A>
void case6(const A& a) {
  auto x = a.f(a.f > 0);
  (void)x.item();
}
void run6(const arrays& a) {
  case6(a);
}
#endif

// C++'s && cannot be element-wise (NumPy raises for `a and b` on arrays).
#if CUPP_CF(7)
template <class A>
void case7(const A& a) {
  (void)((a.f > 0) && (a.f < 5));
}
void run7(const arrays& a) {
  case7(a);
}
#endif

// The same for !.
#if CUPP_CF(8)
template <class A>
void case8(const A& a) {
  (void)!a.b;
}
void run8(const arrays& a) {
  case8(a);
}
#endif

// The same for ||.
#if CUPP_CF(9)
template <class A>
void case9(const A& a) {
  (void)(a.f < 0 || a.f > 5);
}
void run9(const arrays& a) {
  case9(a);
}
#endif

// out= needs memory: zeros() is lazy.
#if CUPP_CF(10)
template <class A>
void case10(const A& a) {
  cupp::add(a.f, 1, cupp::out(cupp::zeros<float>({a.f.size()})));
}
void run10(const arrays& a) {
  case10(a);
}
#endif
