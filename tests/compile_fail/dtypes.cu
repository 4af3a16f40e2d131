// Calls that NumPy rejects for their dtypes (TypeError, UFuncTypeError,
// DTypePromotionError) and cupp at compile time, each with a message of
// its own. The control makes the valid neighbours of the same calls.
// Format: see CMakeLists.txt here.
// case 1 expect: cupp::arctan2:
// case 2 expect: cupp::astype: cast an array or an expression, not a scalar
// case 3 expect: cupp::result_type_t: NumPy has no common dtype for these two types
// case 4 expect: cupp::bitwise_and:
// case 5 expect: cupp::bitwise_or:
// case 6 expect: cupp::bitwise_xor:
// case 7 expect: cupp::cbrt:
// case 8 expect: cupp::elementwise: the function must return a cupp dtype
// case 9 expect: cupp::elementwise: the function cannot be called with the operands' common dtype
// case 10 expect: cupp::elementwise: the function object must be trivially copyable
// case 11 expect: Cannot cast ufunc output to the out= array
// case 12 expect: in-place add: Cannot cast ufunc 'add' output
// case 13 expect: in-place add: Cannot cast ufunc 'add' output
// case 14 expect: in-place multiply: Cannot cast ufunc 'multiply' output
// case 15 expect: cupp::invert:
// case 16 expect: cupp::left_shift:
// case 17 expect: ordering comparisons of complex
// case 18 expect: cupp::negative:
// case 19 expect: Cannot cast ufunc output to the out= array
// case 20 expect: cupp::right_shift:
// case 21 expect: cupp::scatter_max/scatter_min: complex dtypes have no order
// case 22 expect: cupp::subtract: numpy boolean subtract
#include <cupp/cupp.hpp>
#include <cupp/elementwise.hpp>
#include <cupp/ufunc/logic.hpp>
#include <cupp/ufunc/math.hpp>

#include <cstdint>
#include <vector>

// One case: -DCUPP_CF_CASE=N (0: the control). run_cases.cmake defines
// CUPP_CF itself to compile a set of cases at once.
#ifndef CUPP_CF
#define CUPP_CF(n) (CUPP_CF_CASE == (n))
#endif

using F = cupp::ndarray<float>;
using HF = cupp::host::ndarray<float>;

// Every case is a template over these arrays, called from a plain
// function: nvcc then instantiates all the cases at the end of the unit and
// reports each one's error (an error reported earlier, while the unit is
// read, would make it skip the instantiations still pending).
struct arrays {
  F f;
  cupp::ndarray<double> f64;
  cupp::ndarray<std::int32_t> i32;
  cupp::ndarray<std::int64_t> i64;
  cupp::host::ndarray<std::int64_t> hi64;
  cupp::ndarray<int> i;
  cupp::ndarray<__half> half;
  cupp::ndarray<bool> b;
  cupp::ndarray<cupp::complex64> c64;
  cupp::ndarray<cupp::complex128> c128;
  HF hf;
  using int16 = std::int16_t;
};

struct twice {
  template <class T>
  CUPP_HD T operator()(T a) const {
    return a + a;
  }
};
struct name_of {
  template <class T>
  CUPP_HD const char* operator()(T) const {
    return "x";
  }
};
struct float_twice {
  CUPP_HD float operator()(float a) const { return 2 * a; }
};
struct lookup {
  std::vector<float> table;
  template <class T>
  CUPP_HD T operator()(T a) const {
    return a;
  }
};
struct half_of {
  template <class T>
  CUPP_HD double operator()(T a) const {
    return a / 2.0;
  }
};

#if CUPP_CF(0)
void control(const F& f, const cupp::ndarray<std::int32_t>& i, const cupp::ndarray<bool>& b,
             const cupp::ndarray<cupp::complex64>& c, const HF& h,
             const cupp::ndarray<cupp::bfloat16>& bf, const cupp::ndarray<std::int64_t>& i64) {
  cupp::ndarray<std::int32_t> r = (i & 3) | (i ^ i) | ~i | (i << 1) | (i >> 1);
  cupp::ndarray<bool> e = (c == c) & (f < 1) & ~b & (b ^ b) & (-f < 0) & (b + b);
  F s = f + f * 2 - f / 2 + cupp::astype<float>(i) + cupp::astype<float>(bf);
  f += 1.5;
  c *= f;
  i += 2;
  cupp::add(f, f, cupp::out(c));
  HF g = h * 2;
  cupp::ndarray<double> m = cupp::cbrt(f) + cupp::arctan2(f, 2.0) + cupp::maximum(0, f);
  [[maybe_unused]] cupp::result_type_t<cupp::bfloat16, std::int8_t> rv{};
  F u = cupp::elementwise(twice{})(f, cupp::out(f)) * 2;
  cupp::ndarray<double> k = cupp::elementwise(half_of{})(i64);
  F v = cupp::elementwise(float_twice{})(f);
  cupp::scatter_max(f, std::vector<int>{0, 1}, 1.0f);
}
#endif

// arctan2 has no complex loop (NumPy raises TypeError).
#if CUPP_CF(1)
template <class A>
void case1(const A& a) {
  (void)cupp::arctan2(a.f, a.c64);
}
void run1(const arrays& a) {
  case1(a);
}
#endif

// astype of a C++ number (a weak scalar has no dtype to cast from).
#if CUPP_CF(2)
template <class A>
void case2(const A& a) {
  (void)cupp::astype<float>(a.f.size() + 2.5);
}
void run2(const arrays& a) {
  case2(a);
}
#endif

// bfloat16 and int16 have no common dtype (ml_dtypes: numpy.result_type
// raises DTypePromotionError, a TypeError).
#if CUPP_CF(3)
template <class A>
void case3(const A& a) {
  using R = cupp::result_type_t<cupp::bfloat16, typename A::int16>;
  [[maybe_unused]] R value{};
}
void run3(const arrays& a) {
  case3(a);
}
#endif

// Bitwise operators need integers or bools (NumPy raises TypeError for floats).
#if CUPP_CF(4)
template <class A>
void case4(const A& a) {
  (void)(a.f & a.f);
}
void run4(const arrays& a) {
  case4(a);
}
#endif

// The same for | with a double array and an int.
#if CUPP_CF(5)
template <class A>
void case5(const A& a) {
  (void)(a.f64 | 1);
}
void run5(const arrays& a) {
  case5(a);
}
#endif

// The same for ^ with an int and a float16 array.
#if CUPP_CF(6)
template <class A>
void case6(const A& a) {
  (void)(a.i ^ a.half);
}
void run6(const arrays& a) {
  case6(a);
}
#endif

// cbrt has no complex loop (NumPy raises TypeError).
#if CUPP_CF(7)
template <class A>
void case7(const A& a) {
  (void)cupp::cbrt(a.c128);
}
void run7(const arrays& a) {
  case7(a);
}
#endif

// A user function whose result is not one of the 15 dtypes.
#if CUPP_CF(8)
template <class A>
void case8(const A& a) {
  (void)cupp::elementwise(name_of{})(a.f);
}
void run8(const arrays& a) {
  case8(a);
}
#endif

// A user function taking float, called with complex operands.
#if CUPP_CF(9)
template <class A>
void case9(const A& a) {
  (void)cupp::elementwise(float_twice{})(a.c64);
}
void run9(const arrays& a) {
  case9(a);
}
#endif

// A function object that cannot be copied into kernel parameters.
#if CUPP_CF(10)
template <class A>
void case10(const A& a) {
  (void)cupp::elementwise(lookup{std::vector<float>(a.f.size())});
}
void run10(const arrays& a) {
  case10(a);
}
#endif

// out= of a user function: float64 result into an int64 array.
#if CUPP_CF(11)
template <class A>
void case11(const A& a) {
  cupp::elementwise(half_of{})(a.i64, cupp::out(a.i64));
}
void run11(const arrays& a) {
  case11(a);
}
#endif

// int32 += float32 array: float64 does not cast to int32 with casting same_kind.
#if CUPP_CF(12)
template <class A>
void case12(const A& a) {
  a.i32 += a.f;
}
void run12(const arrays& a) {
  case12(a);
}
#endif

// int64 += 1.5: the weak float makes the result float64, which does not cast back.
#if CUPP_CF(13)
template <class A>
void case13(const A& a) {
  a.hi64 += 1.5;
}
void run13(const arrays& a) {
  case13(a);
}
#endif

// float32 *= complex64: complex does not cast to float with casting same_kind.
#if CUPP_CF(14)
template <class A>
void case14(const A& a) {
  a.f *= a.c64;
}
void run14(const arrays& a) {
  case14(a);
}
#endif

// Bitwise operators need integers or bools (NumPy raises TypeError for floats).
#if CUPP_CF(15)
template <class A>
void case15(const A& a) {
  (void)~a.hf;
}
void run15(const arrays& a) {
  case15(a);
}
#endif

// Shifts need integers (NumPy raises TypeError for floats).
#if CUPP_CF(16)
template <class A>
void case16(const A& a) {
  (void)(a.i32 << 1.5);
}
void run16(const arrays& a) {
  case16(a);
}
#endif

// Ordering comparisons of complex numbers (CuPy raises TypeError).
#if CUPP_CF(17)
template <class A>
void case17(const A& a) {
  cupp::ndarray<bool> r = a.c64 < a.c64;
}
void run17(const arrays& a) {
  case17(a);
}
#endif

// NumPy raises TypeError for the boolean negative.
#if CUPP_CF(18)
template <class A>
void case18(const A& a) {
  (void)-a.b;
}
void run18(const arrays& a) {
  case18(a);
}
#endif

// out= an int32 array for a float32 result (casting same_kind).
#if CUPP_CF(19)
template <class A>
void case19(const A& a) {
  cupp::add(a.f, a.f, cupp::out(a.i32));
}
void run19(const arrays& a) {
  case19(a);
}
#endif

// Shifts need integers (NumPy raises TypeError for floats).
#if CUPP_CF(20)
template <class A>
void case20(const A& a) {
  (void)(a.f >> a.i64);
}
void run20(const arrays& a) {
  case20(a);
}
#endif

// scatter_max needs an order of the values; complex numbers have none.
#if CUPP_CF(21)
template <class A>
void case21(const A& a) {
  cupp::scatter_max(a.c64, std::vector<int>{0, 1}, 1.0f);
}
void run21(const arrays& a) {
  case21(a);
}
#endif

// NumPy raises TypeError for boolean subtraction.
#if CUPP_CF(22)
template <class A>
void case22(const A& a) {
  (void)(a.b - a.b);
}
void run22(const arrays& a) {
  case22(a);
}
#endif
