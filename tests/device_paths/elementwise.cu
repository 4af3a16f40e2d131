// Device paths of the element-wise layer: arithmetic, comparison, logic and
// bitwise ufuncs with their operators, in-place and out= forms, the
// two-output ufuncs, evaluation and casting (eval, astype, copyto, scalar),
// and user functions (cupp::elementwise, cupp::fuse), on float32 device
// arrays (int32 where a ufunc takes integers, bool masks for the logic).
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
// The math ufuncs are in math.cu.
#include <cupp/creation.hpp>
#include <cupp/elementwise.hpp>
#include <cupp/generators.hpp>
#include <cupp/ufunc.hpp>

#include <tuple>

#include "checks.hpp"

using device_paths::expect;
using device_paths::expect_at;
using device_paths::expect_values;

namespace {

// a * b - 2 * a + 1 in the operands' common type (cupp::elementwise(f)).
struct poly {
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return a * b - T(2) * a + T(1);
  }
};

// Fixed types (cupp::elementwise<double(float, std::int32_t)>(f)).
struct times {
  CUPP_HD double operator()(float x, std::int32_t n) const { return static_cast<double>(x) * n; }
};

void arithmetic(const cupp::ndarray<float>& a, const cupp::ndarray<float>& s) {
  // Element 13: a = 14, s = 1.5; element 2: a = 3, s = -9.5.
  expect_at(cupp::add(a, s), 13, 15.5, "add");
  expect_at(cupp::subtract(a, s), 13, 12.5, "subtract");
  expect_at(cupp::multiply(a, s), 13, 21.0, "multiply");
  expect_at(cupp::true_divide(a, 4), 13, 3.5, "true_divide");
  expect_at(cupp::divide(a, s), 13, 14.0 / 1.5, "divide");
  expect_at(cupp::negative(a), 13, -14.0, "negative");
  expect_at(cupp::positive(a), 13, 14.0, "positive");
  expect_at(cupp::reciprocal(a), 13, 1.0 / 14.0, "reciprocal");
  expect_at(cupp::floor_divide(a, 4), 13, 3.0, "floor_divide");
  expect_at(cupp::remainder(s, 4), 2, 2.5, "remainder");
  expect_at(cupp::mod(s, 4), 2, 2.5, "mod");
  expect_at(cupp::fmod(s, 4), 2, -1.5, "fmod");
  const cupp::ndarray<double> fp = cupp::float_power(a, 2);
  expect_at(fp, 13, 196.0, "float_power");
  expect_at(cupp::power(a, 2), 13, 196.0, "power");
  expect_at(cupp::power(a, 0.5), 13, 3.7416573867739413, "power(a, 0.5)");

  // Operators.
  expect_at(a + s, 13, 15.5, "operator+");
  expect_at(a - s, 13, 12.5, "operator-");
  expect_at(a * s, 13, 21.0, "operator*");
  expect_at(a / s, 13, 14.0 / 1.5, "operator/");
  expect_at(s % 4, 2, 2.5, "operator%");
  expect_at(-a, 13, -14.0, "unary -");
  expect_at(+a, 13, 14.0, "unary +");
  // Fused: one kernel for the whole tree.
  expect_at(a * s + a / 2 - 1, 13, 21.0 + 7.0 - 1.0, "fused tree");

  // Two-output ufuncs.
  {
    auto [q, r] = cupp::divmod(s, 4);
    expect_at(q, 2, -3.0, "divmod quotient");
    expect_at(r, 2, 2.5, "divmod remainder");
    cupp::ndarray<float> q2(a.shape()), r2(a.shape());
    cupp::divmod(s, 4, cupp::out(q2), cupp::out(r2));
    expect_at(q2, 2, -3.0, "divmod out quotient");
    expect_at(r2, 2, 2.5, "divmod out remainder");
  }
  {
    auto [m, e] = cupp::frexp(a);
    expect_at(m, 13, 0.875, "frexp mantissa");
    expect_at(e, 13, 4.0, "frexp exponent");
    cupp::ndarray<float> m2(a.shape());
    cupp::ndarray<std::int32_t> e2(a.shape());
    cupp::frexp(a, cupp::out(m2), cupp::out(e2));
    expect_at(e2, 13, 4.0, "frexp out exponent");
  }
  {
    auto [f, w] = cupp::modf(s);
    expect_at(f, 2, -0.5, "modf fraction");
    expect_at(w, 2, -9.0, "modf whole");
    cupp::ndarray<float> f2(a.shape()), w2(a.shape());
    cupp::modf(s, cupp::out(f2), cupp::out(w2));
    expect_at(w2, 2, -9.0, "modf out whole");
  }

  // In place, and the out= forms of // and **.
  const cupp::ndarray<float> c = a.copy();
  c += 1;  // 15
  c -= 2;  // 13
  c *= 2;  // 26
  c /= 4;  // 6.5
  c %= 4;  // 2.5
  expect_at(c, 13, 2.5, "in-place + - * / %");
  c += s;  // 4
  expect_at(c, 13, 4.0, "in-place += array");
  cupp::floor_divide(c, 3, cupp::out(c));  // 1
  cupp::power(c, 2, cupp::out(c));         // 1
  expect_at(c, 13, 1.0, "floor_divide/power out=");
  cupp::add(a, s, cupp::out(c));
  expect_at(c, 13, 15.5, "add out=");
}

void comparisons(const cupp::ndarray<float>& a, const cupp::ndarray<std::int32_t>& n) {
  expect_at(cupp::equal(a, 14), 13, 1, "equal");
  expect_at(cupp::not_equal(a, 14), 13, 0, "not_equal");
  expect_at(cupp::less(a, 14), 13, 0, "less");
  expect_at(cupp::less_equal(a, 14), 13, 1, "less_equal");
  expect_at(cupp::greater(a, 13), 13, 1, "greater");
  expect_at(cupp::greater_equal(a, 15), 13, 0, "greater_equal");
  expect_at(a == a, 13, 1, "operator==");
  expect_at(a != 14.0f, 13, 0, "operator!=");
  expect_at(a < 15, 13, 1, "operator<");
  expect_at(a <= 13, 13, 0, "operator<=");
  expect_at(a > 13.5, 13, 1, "operator>");
  expect_at(a >= 14, 13, 1, "operator>=");
  // A C++ integer beside an integer array compares by value.
  expect_at(n < 300, 13, 1, "int32 < 300");
  expect_at(300 > n, 13, 1, "300 > int32");
  cupp::ndarray<bool> o(a.shape());
  cupp::less(a, 10, cupp::out(o));
  expect_values(o(1), {1, 1, 1, 0, 0, 0}, "less out=");
}

void logic(const cupp::ndarray<float>& a, const cupp::ndarray<float>& s,
           const cupp::ndarray<std::int32_t>& n) {
  expect_at(cupp::logical_and(a > 10, a < 20), 13, 1, "logical_and");
  expect_at(cupp::logical_and(a, s), 13, 1, "logical_and of floats");
  expect_at(cupp::logical_or(a<2, a> 20), 13, 0, "logical_or");
  expect_at(cupp::logical_xor(a > 10, a > 12), 13, 0, "logical_xor");
  expect_at(cupp::logical_not(a > 10), 13, 0, "logical_not");
  // n = 14 = 0b1110 at element 13.
  expect_at(cupp::bitwise_and(n, 6), 13, 6, "bitwise_and");
  expect_at(cupp::bitwise_or(n, 1), 13, 15, "bitwise_or");
  expect_at(cupp::bitwise_xor(n, 7), 13, 9, "bitwise_xor");
  expect_at(cupp::invert(n), 13, -15, "invert");
  expect_at(cupp::bitwise_not(n), 13, -15, "bitwise_not");
  expect_at(cupp::bitwise_invert(n), 13, -15, "bitwise_invert");
  expect_at(cupp::left_shift(n, 2), 13, 56, "left_shift");
  expect_at(cupp::right_shift(n, 1), 13, 7, "right_shift");
  expect_at(cupp::bitwise_left_shift(n, 1), 13, 28, "bitwise_left_shift");
  expect_at(cupp::bitwise_right_shift(n, 2), 13, 3, "bitwise_right_shift");
  expect_at(cupp::gcd(n, 21), 13, 7, "gcd");
  expect_at(cupp::lcm(n, 4), 13, 28, "lcm");
  expect_at(n & 6, 13, 6, "operator&");
  expect_at(n | 1, 13, 15, "operator|");
  expect_at(n ^ 7, 13, 9, "operator^");
  expect_at(~n, 13, -15, "operator~");
  expect_at(n << 2, 13, 56, "operator<<");
  expect_at(n >> 1, 13, 7, "operator>>");
  expect_at((a > 10) & (a < 20), 13, 1, "bool &");
  expect_at(~(a > 10), 13, 0, "bool ~");
  const cupp::ndarray<std::int32_t> c = n.copy();
  c &= 7;   // 6
  c |= 8;   // 14
  c ^= 1;   // 15
  c <<= 2;  // 60
  c >>= 3;  // 7
  expect_at(c, 13, 7, "in-place & | ^ << >>");
  cupp::bitwise_and(n, n, cupp::out(c));
  expect_at(c, 13, 14, "bitwise_and out=");
}

void evaluation(const cupp::ndarray<float>& a, const cupp::ndarray<float>& s) {
  // Shape and dtype before evaluation; eval(); assignment rebinds.
  const auto e = a * s;
  expect(e.shape() == cupp::shape_t{4, 6} && e.ndim() == 2 && e.size() == 24, "expression shape");
  expect(e.dtype() == cupp::dtype_of<float>(), "expression dtype");
  cupp::ndarray<float> r = e.eval();
  expect_at(r, 13, 21.0, "eval()");
  r = a + 1;
  expect_at(r, 13, 15.0, "assignment from an expression");
  // Broadcasting (4, 6) with (6,) and (4, 1).
  const cupp::ndarray<float> row = a(0);
  const cupp::ndarray<float> col = a(cupp::_, cupp::slice(0, 1));
  expect_at(a + row, 13, 16.0, "broadcast row");
  expect_at(a - col, 13, 1.0, "broadcast column");
  // Casts: array copy, lazy cast of an expression, numpy.astype.
  const cupp::ndarray<std::int32_t> i = s.astype<std::int32_t>();
  expect_at(i, 2, -9, "astype<int32> (array)");
  const cupp::ndarray<double> d = (a * 2).astype<double>();
  expect_at(d, 13, 28.0, "astype<double> (expression)");
  expect_at(cupp::astype<std::int64_t>(s * 2), 2, -19, "cupp::astype");
  // copyto: an expression, a scalar, an array.
  const cupp::ndarray<float> c(a.shape());
  cupp::copyto(c, a * 2);
  expect_at(c, 13, 28.0, "copyto expression");
  cupp::copyto(c, 3);
  expect_at(c, 13, 3.0, "copyto scalar");
  cupp::copyto(c, a);
  expect_at(c, 13, 14.0, "copyto array");
  cupp::copyto(c, row);  // broadcast
  expect_at(c, 13, 2.0, "copyto broadcast");
  // A strong scalar keeps its dtype: float32 * float64(2) is float64.
  const auto strong = a * cupp::scalar<double>(2);
  static_assert(std::is_same_v<typename decltype(strong)::value_type, double>);
  expect_at(strong, 13, 28.0, "cupp::scalar");
  // A different layout: a transposed operand.
  const cupp::ndarray<float> t = a.T() + 0;
  expect_at(t, 1, 7.0, "transposed operand");
}

void user_functions(const cupp::ndarray<float>& a, const cupp::ndarray<std::int32_t>& n) {
  const auto k = cupp::elementwise(poly{});
  expect_at(k(a, 3), 13, 14.0 * 3 - 28 + 1, "elementwise(f)");
  expect_at(k(a, 3) * 2, 13, 2.0 * 15, "elementwise(f) fused");
  const cupp::ndarray<float> o(a.shape());
  k(a, a, cupp::out(o));
  expect_at(o, 13, 196.0 - 28 + 1, "elementwise(f) out=");
  const auto t = cupp::elementwise<double(float, std::int32_t)>(times{});
  const cupp::ndarray<double> td = t(a, n);
  expect_at(td, 13, 196.0, "elementwise<Out(In...)>(f)");

  // cupp::fuse: C++ over expressions, one kernel per result.
  const auto f = cupp::fuse([](const auto& x, const auto& y) { return x * y + 1; });
  expect_at(f(a, a), 13, 197.0, "fuse");
  const auto g = cupp::fuse([](const auto& x) { return std::make_tuple(x + 1, x * x); });
  auto [p, q] = g(a);
  expect_at(p, 13, 15.0, "fuse tuple first");
  expect_at(q, 13, 196.0, "fuse tuple second");
  // Results of two shapes: one kernel each.
  const auto h = cupp::fuse([](const auto& x) { return std::make_tuple(x + 1, x(0) * 2); });
  auto [p2, q2] = h(a);
  expect_at(p2, 13, 15.0, "fuse tuple, two shapes (first)");
  expect_values(q2, {2, 4, 6, 8, 10, 12}, "fuse tuple, two shapes (second)");
}

}  // namespace

void device_paths_elementwise() {
  // a = 1 .. 24 in C order, shape (4, 6); s = a - 12.5; n = a as int32.
  const cupp::ndarray<float> a = cupp::arange<float>(1, 25).reshape({4, 6});
  const cupp::ndarray<float> s = a - 12.5f;
  const cupp::ndarray<std::int32_t> n = cupp::arange<std::int32_t>(1, 25).reshape({4, 6});
  arithmetic(a, s);
  comparisons(a, n);
  logic(a, s, n);
  evaluation(a, s);
  user_functions(a, n);
}
