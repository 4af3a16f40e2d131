// Result dtypes against NumPy 2 (NEP 50), decided at compile time:
// - for every pair of the 15 dtypes, cupp::promote_t is numpy.result_type
//   (and cupp::Promotable is false where it raises), and the operators
//   + - / % & << == < on arrays give the dtype of the NumPy ufunc
//   behind them;
// - for every dtype with a C++ bool, integer, floating-point or complex
//   scalar (NumPy's weak Python scalars) on either side, x + s, s + x,
//   x == s and x < s.
// (* | ^ >> resolve their loops as + & & << do and are left out: each check
// costs the compiler about as much as a small function.)
// Expectations: tests/fixtures/ufunc/promotion.inc, written by
// tests/generate_ufunc_fixtures.py. Needs no GPU.
//
// The checks are run-time tests of compile-time answers, so a wrong dtype
// fails a test rather than the build; the templates only compute dtype
// names, the comparing is done once, outside them (which keeps the build
// of some two thousand combinations short).
#include <cupp/ufunc.hpp>

#include <complex>
#include <string>
#include <string_view>
#include <type_traits>

#include "fixtures/ufunc/headers.inc"
#include "cupp_test.hpp"

// CUPP_TEST_REJECTIONS=1: also check that what NumPy rejects does not
// compile, through requires-expressions. Off by default: cupp rejects with
// static_asserts inside a ufunc's loop resolution, which stop the build
// instead of making a requires-expression false.
#ifndef CUPP_TEST_REJECTIONS
#define CUPP_TEST_REJECTIONS 0
#endif

namespace {

template <class T>
using H = cupp::host::ndarray<T>;

template <class T>
constexpr std::string_view name_of() {
  return cupp::dtype_of<T>().name;
}

void expect(std::string_view got, std::string_view want, const std::string& what) {
  BOOST_TEST(got == want, what << " is " << got << ", NumPy's " << want);
}

[[maybe_unused]] void expect_rejected(bool compiles, const std::string& what) {
  BOOST_TEST(!compiles, what << " compiles; NumPy raises TypeError");
}

template <class A, class B>
constexpr std::string_view promoted() {
  if constexpr (cupp::Promotable<A, B>)
    return name_of<cupp::promote_t<A, B>>();
  else
    return "none";
}

std::string pair_name(std::string_view a, const char* op, std::string_view b) {
  return std::string(a) + " array " + op + " " + std::string(b) + " array";
}

// The dtype of f(x, y), or `none` when it does not compile (only asked where
// a requires-expression can tell).
template <class F, class X, class Y>
constexpr std::string_view result_of() {
  if constexpr (std::is_invocable_v<F, const X&, const Y&>)
    return name_of<typename std::invoke_result_t<F, const X&, const Y&>::value_type>();
  else
    return "none";
}

const bool weak_bool_v = true;
const std::int64_t weak_int_v = 1;
const double weak_float_v = 1.0;
const std::complex<double> weak_complex_v{1.0, 0.0};

template <class S>
const char* scalar_name() {
  if constexpr (std::is_same_v<S, bool>)
    return "C++ bool";
  else if constexpr (std::is_integral_v<S>)
    return "C++ int64_t";
  else if constexpr (std::is_floating_point_v<S>)
    return "C++ double";
  else
    return "C++ std::complex<double>";
}

struct plus {
  template <class X, class Y>
  auto operator()(const X& x, const Y& y) const -> decltype(x + y) {
    return x + y;
  }
};
struct eq {
  template <class X, class Y>
  auto operator()(const X& x, const Y& y) const -> decltype(x == y) {
    return x == y;
  }
};
struct lt {
  template <class X, class Y>
  auto operator()(const X& x, const Y& y) const -> decltype(x < y) {
    return x < y;
  }
};

// What the fixture says of x < s: NumPy raises (false), gives bool (true),
// or gives bool where cupp does not compile it, not yet (known) or on
// purpose (deliberate, documented in docs/numpy-differences.md).
constexpr int known = 2;
constexpr int deliberate = 3;

// x + s, s + x, x == s, x < s for an array of T and a scalar of type S.
template <class T, class S, bool RightOk, bool LeftOk, bool EqOk, int LtOk>
void check_weak_operators(std::string_view right, std::string_view left) {
  const std::string t = std::string(name_of<T>()) + " array", s = scalar_name<S>();
  if constexpr (RightOk)
    expect(result_of<plus, H<T>, S>(), right, t + " + " + s);
  else if constexpr (CUPP_TEST_REJECTIONS)
    expect_rejected(std::is_invocable_v<plus, const H<T>&, const S&>, t + " + " + s);
  if constexpr (LeftOk)
    expect(result_of<plus, S, H<T>>(), left, s + " + " + t);
  else if constexpr (CUPP_TEST_REJECTIONS)
    expect_rejected(std::is_invocable_v<plus, const S&, const H<T>&>, s + " + " + t);
  if constexpr (EqOk) {
    expect(result_of<eq, H<T>, S>(), "bool", t + " == " + s);
    expect(result_of<eq, S, H<T>>(), "bool", s + " == " + t);
  }
  if constexpr (LtOk == known) {
    BOOST_ERROR(t << " < " << s << " does not compile in cupp; NumPy gives bool");
  } else if constexpr (LtOk == deliberate) {
    if constexpr (CUPP_TEST_REJECTIONS) {
      expect_rejected(std::is_invocable_v<lt, const H<T>&, const S&>, t + " < " + s);
      expect_rejected(std::is_invocable_v<lt, const S&, const H<T>&>, s + " < " + t);
    }
  } else if constexpr (LtOk) {
    expect(result_of<lt, H<T>, S>(), "bool", t + " < " + s);
    expect(result_of<lt, S, H<T>>(), "bool", s + " < " + t);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(promotion)

#define CUPP_NO_PAIR(...)
#define CUPP_NO_OP(...)
#define CUPP_NO_WEAK(...)

BOOST_AUTO_TEST_CASE(result_type_of_dtype_pairs) {
#define CUPP_PAIR(A, B, RT_OK, RT) expect(promoted<A, B>(), #RT, "promote_t<" #A ", " #B ">");
#define CUPP_OP CUPP_NO_OP
#define CUPP_OP_REJECTED CUPP_NO_OP
#define CUPP_OP_NOT_COMPILED CUPP_NO_OP
#define CUPP_OP_DELIBERATE CUPP_NO_OP
#define CUPP_WEAK CUPP_NO_WEAK
#include "fixtures/ufunc/promotion.inc"
#undef CUPP_PAIR
#undef CUPP_OP
#undef CUPP_OP_REJECTED
#undef CUPP_OP_NOT_COMPILED
#undef CUPP_OP_DELIBERATE
#undef CUPP_WEAK
}

BOOST_AUTO_TEST_CASE(operators_on_dtype_pairs) {
#define CUPP_PAIR CUPP_NO_PAIR
#define CUPP_OP(OP, A, B, R)                                                                     \
  expect(result_of<decltype([](const auto& x, const auto& y) { return x OP y; }), H<A>, H<B>>(), \
         #R, pair_name(name_of<A>(), #OP, name_of<B>()));
#if CUPP_TEST_REJECTIONS
#define CUPP_OP_REJECTED(OP, A, B)                        \
  expect_rejected(                                        \
      requires(const H<A>& x, const H<B>& y) { x OP y; }, \
      pair_name(name_of<A>(), #OP, name_of<B>()));
#else
#define CUPP_OP_REJECTED CUPP_NO_OP
#endif
// NumPy evaluates these and cupp does not compile them: each is an error
// until cupp does (or the difference is documented and the pair leaves the
// generator's KNOWN_REJECTED_PAIRS).
#define CUPP_OP_NOT_COMPILED(OP, A, B, R)                \
  BOOST_ERROR(pair_name(name_of<A>(), #OP, name_of<B>()) \
              << " does not compile in cupp; NumPy gives " #R);
// Rejected on purpose: checked like NumPy's rejections.
#define CUPP_OP_DELIBERATE(OP, A, B, R) CUPP_OP_REJECTED(OP, A, B)
#define CUPP_WEAK CUPP_NO_WEAK
#include "fixtures/ufunc/promotion.inc"
#undef CUPP_PAIR
#undef CUPP_OP
#undef CUPP_OP_REJECTED
#undef CUPP_OP_NOT_COMPILED
#undef CUPP_OP_DELIBERATE
#undef CUPP_WEAK
}

BOOST_AUTO_TEST_CASE(dtypes_with_cpp_scalars) {
#define CUPP_PAIR CUPP_NO_PAIR
#define CUPP_OP CUPP_NO_OP
#define CUPP_OP_REJECTED CUPP_NO_OP
#define CUPP_OP_NOT_COMPILED CUPP_NO_OP
#define CUPP_OP_DELIBERATE CUPP_NO_OP
#define CUPP_WEAK(T, S, KIND, RT_OK, RT, R_OK, R, L_OK, L, EQ_OK, LT_OK)            \
  expect(name_of<cupp::promote_t<T, KIND>>(), #RT, "promote_t<" #T ", " #KIND ">"); \
  check_weak_operators<T, std::remove_cv_t<decltype(S)>, R_OK, L_OK, EQ_OK, LT_OK>(#R, #L);
#include "fixtures/ufunc/promotion.inc"
#undef CUPP_PAIR
#undef CUPP_OP
#undef CUPP_OP_REJECTED
#undef CUPP_OP_NOT_COMPILED
#undef CUPP_OP_DELIBERATE
#undef CUPP_WEAK
}

BOOST_AUTO_TEST_SUITE_END()
