// User-defined element-wise functions (cupp::elementwise), cupp::fuse and
// cupp::get_array_module. Built twice: elementwise_host_test runs on host
// arrays, elementwise_gpu_test (CUPP_TEST_DEVICE=1) on device arrays, so
// that both evaluation paths see the same checks.
#include <cupp/creation.hpp>
#include <cupp/elementwise.hpp>
#include <cupp/module.hpp>
#include <cupp/ufunc.hpp>
#include <cupp/ufunc/math.hpp>
#include <cupp/ufunc/misc.hpp>

#include <cmath>
#include <complex>
#include <tuple>
#include <vector>

#include "cupp_test.hpp"
#include "test_space.hpp"

using cupp::index_t;
using cupp_test::array;
using cupp_test::space;

namespace {

template <class T>
array<T> make(const std::vector<T>& v, const cupp::shape_t& shape) {
  auto h = cupp::host::empty<T>(shape);
  for (std::size_t i = 0; i < v.size(); ++i) h.data()[i] = v[i];
  if constexpr (std::is_same_v<space, cupp::device_space>)
    return cupp::asarray(h);
  else
    return h;
}
template <class T>
array<T> make(const std::vector<T>& v) {
  return make(v, cupp::shape_t{static_cast<index_t>(v.size())});
}

template <class T, class S>
std::vector<T> values(const cupp::ndarray<T, S>& a) {
  const auto h = cupp::asnumpy(a).copy();
  return std::vector<T>(h.data(), h.data() + h.size());
}

// Relative error against a float64 reference, scaled for the result type.
template <class T>
void check_close(const std::vector<T>& got, const std::vector<double>& want, double rtol) {
  BOOST_TEST_REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = static_cast<double>(got[i]);
    BOOST_TEST(std::abs(g - want[i]) <= rtol * std::max(1.0, std::abs(want[i])),
               "element " << i << ": " << g << " vs " << want[i]);
  }
}

// a * b - 2 * a + 1 in whatever type the loop resolved to.
struct poly {
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    return a * b - T(2) * a + T(1);
  }
};

// A function of four operands.
struct dot2 {
  template <class T>
  CUPP_HD T operator()(T a, T b, T c, T d) const {
    return a * b + c * d;
  }
};

// A stateful operation: the state travels with the node into the kernel.
struct affine {
  double scale;
  double shift;
  template <class T>
  CUPP_HD double operator()(T a) const {
    return scale * static_cast<double>(a) + shift;
  }
};

// Returns a dtype different from its operands: bool.
struct in_range {
  template <class T>
  CUPP_HD bool operator()(T a, T lo, T hi) const {
    return lo <= a && a < hi;
  }
};

// Returns `long long`, which the result type spells as std::int64_t.
struct widen {
  template <class T>
  CUPP_HD long long operator()(T a) const {
    return static_cast<long long>(a) * 3;
  }
};

// Arithmetic of 16-bit floats through float (what NumPy does).
struct half_poly {
  template <class T>
  CUPP_HD T operator()(T a, T b) const {
    const float x = static_cast<float>(a), y = static_cast<float>(b);
    return T(x * y + 0.5f);
  }
};

// Fixed parameter types (used with elementwise<Out(In...)>).
struct times {
  CUPP_HD float operator()(float x, std::int32_t n) const { return x * n; }
};
struct increment {
  CUPP_HD int operator()(std::int8_t v) const { return v + 1; }
};

// The argument type it is called with, as a dtype-valued result: lets the
// tests see the promoted type.
struct identity {
  template <class T>
  CUPP_HD T operator()(T a, T) const {
    return a;
  }
};

// softplus(x) = log(1 + exp(x)), written once for host and device arrays,
// in the stable form max(0, x) + log1p(exp(-|x|)).
template <class A>
auto softplus(const A& x) {
  return cupp::maximum(0, x) + cupp::log1p(cupp::exp(-cupp::abs(x)));
}

// Allocation through the module of the operand: same code for host and
// device arrays.
template <class A>
auto shifted_copy(const A& x, double by) {
  auto xp = cupp::get_array_module(x);
  auto out = xp.template zeros<typename A::value_type>(x.shape());
  cupp::copyto(out, x + by);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(elementwise)

BOOST_AUTO_TEST_CASE(values_against_float64_reference) {
  const std::vector<float> xv{-3.5f, -1.f, 0.f, 0.25f, 2.f, 7.5f};
  const std::vector<float> yv{2.f, -4.f, 1.5f, 8.f, -0.5f, 3.f};
  const auto x = make(xv), y = make(yv);
  const auto k = cupp::elementwise(poly{});
  array<float> z = k(x, y);
  std::vector<double> want;
  for (std::size_t i = 0; i < xv.size(); ++i) {
    const double a = xv[i], b = yv[i];
    want.push_back(a * b - 2 * a + 1);
  }
  check_close(values(z), want, 1e-6);

  // Integers: exact, with NumPy's wrap-around in the promoted type.
  const auto xi = make(std::vector<std::int8_t>{100, -7, 3});
  const auto yi = make(std::vector<std::int8_t>{2, 5, -128});
  const auto zi = k(xi, yi).eval();
  static_assert(std::is_same_v<decltype(zi)::value_type, std::int8_t>);
  const std::vector<std::int8_t> zv = values(zi);
  for (int i = 0; i < 3; ++i) {
    const int a = values(xi)[i], b = values(yi)[i];
    BOOST_TEST(zv[i] == static_cast<std::int8_t>(static_cast<std::uint8_t>(a * b - 2 * a + 1)));
  }
}

BOOST_AUTO_TEST_CASE(any_arity_and_broadcasting) {
  const auto a = make(std::vector<double>{1, 2, 3}, {3, 1});
  const auto b = make(std::vector<double>{10, 20, 30, 40}, {4});
  const auto k = cupp::elementwise(dot2{});
  array<double> z = k(a, b, 0.5, a);
  BOOST_TEST(z.shape() == (cupp::shape_t{3, 4}));
  std::vector<double> want;
  for (double av : {1., 2., 3.})
    for (double bv : {10., 20., 30., 40.}) want.push_back(av * bv + 0.5 * av);
  check_close(values(z), want, 0.0);

  const auto one = cupp::elementwise(affine{2.0, -1.0});
  check_close(values(one(a).eval()), {1, 3, 5}, 0.0);
}

BOOST_AUTO_TEST_CASE(weak_scalar_typing) {
  const auto f32 = make(std::vector<float>{1, 2});
  const auto f16 = make(std::vector<__half>{__float2half(1.f), __float2half(2.f)});
  const auto i8 = make(std::vector<std::int8_t>{1, 2});
  const auto u8 = make(std::vector<std::uint8_t>{1, 2});
  const auto i32 = make(std::vector<std::int32_t>{1, 2});
  const auto b = make(std::vector<bool>{true, false});
  const auto k = cupp::elementwise(identity{});
  // NEP 50: a C++ number adopts the array's type unless its kind is higher.
  static_assert(std::is_same_v<decltype(k(f32, 2))::value_type, float>);
  static_assert(std::is_same_v<decltype(k(f32, 2.0))::value_type, float>);
  static_assert(std::is_same_v<decltype(k(f16, 2.0))::value_type, __half>);
  static_assert(std::is_same_v<decltype(k(i8, 2))::value_type, std::int8_t>);
  static_assert(std::is_same_v<decltype(k(u8, 2))::value_type, std::uint8_t>);
  static_assert(std::is_same_v<decltype(k(i8, 2.5))::value_type, double>);
  static_assert(std::is_same_v<decltype(k(b, true))::value_type, bool>);
  static_assert(std::is_same_v<decltype(k(b, 1))::value_type, std::int64_t>);
  static_assert(
      std::is_same_v<decltype(k(f32, std::complex<double>(1, 1)))::value_type, cupp::complex64>);
  static_assert(std::is_same_v<decltype(k(i8, u8))::value_type, std::int16_t>);
  static_assert(std::is_same_v<decltype(k(i32, f32))::value_type, double>);
  // Only scalars: Python's defaults.
  static_assert(std::is_same_v<decltype(k(2, 3))::value_type, std::int64_t>);
  static_assert(std::is_same_v<decltype(k(2, 3.0))::value_type, double>);
  // The result type is what f returns.
  static_assert(
      std::is_same_v<decltype(cupp::elementwise(in_range{})(f32, 0, 1.5))::value_type, bool>);
  static_assert(std::is_same_v<decltype(cupp::elementwise(widen{})(i8))::value_type, std::int64_t>);
  static_assert(std::is_same_v<decltype(cupp::elementwise(affine{})(i8))::value_type, double>);

  // NumPy 2 raises OverflowError for a Python int that does not fit.
  BOOST_CHECK_THROW(k(i8, 300), cupp::overflow_error);
  // The weak float is rounded to float16 before f sees it.
  const std::vector<__half> h = values(k(f16, 0.1).eval());
  BOOST_TEST(__half2float(h[0]) == 1.f);
  const std::vector<__half> g = values(cupp::elementwise(identity{})(0.1, f16).eval());
  BOOST_TEST(__half2float(g[0]) == __half2float(__float2half(0.1f)));
}

BOOST_AUTO_TEST_CASE(result_dtypes_and_values) {
  const auto x = make(std::vector<float>{-1, 0, 0.5f, 1, 2});
  const std::vector<bool> r = values(cupp::elementwise(in_range{})(x, 0, 1.5).eval());
  BOOST_TEST((r == std::vector<bool>{false, true, true, true, false}));
  const auto w = cupp::elementwise(widen{})(make(std::vector<std::int32_t>{1 << 30, -5})).eval();
  static_assert(std::is_same_v<decltype(w), const array<std::int64_t>>);
  BOOST_TEST((values(w) == std::vector<std::int64_t>{3LL << 30, -15}));

  const auto h = make(std::vector<__half>{__float2half(1.5f), __float2half(-2.f)});
  const std::vector<__half> hv = values(cupp::elementwise(half_poly{})(h, h).eval());
  BOOST_TEST(__half2float(hv[0]) == 2.75f);
  BOOST_TEST(__half2float(hv[1]) == 4.5f);

  const auto c = make(std::vector<cupp::complex64>{{1, 2}, {0, -1}});
  const auto cz = cupp::elementwise(poly{})(c, cupp::complex64(0, 1)).eval();
  static_assert(std::is_same_v<decltype(cz)::value_type, cupp::complex64>);
  const std::vector<cupp::complex64> cv = values(cz);
  for (int i = 0; i < 2; ++i) {
    const std::complex<double> a(values(c)[i].real(), values(c)[i].imag()), b(0, 1);
    const std::complex<double> want = a * b - 2.0 * a + 1.0;
    BOOST_TEST(std::abs(std::complex<double>(cv[i].real(), cv[i].imag()) - want) < 1e-6);
  }
}

BOOST_AUTO_TEST_CASE(fixed_types) {
  // CuPy's ElementwiseKernel('float32 x, int32 n', 'float64 y'): operands
  // are cast to the declared types, whatever theirs are.
  const auto k = cupp::elementwise<double(float, std::int32_t)>(times{});
  const auto x = make(std::vector<double>{0.1, 1.5, -2.25});
  const auto n = make(std::vector<std::int16_t>{3, -2, 4});
  const auto y = k(x, n).eval();
  static_assert(std::is_same_v<decltype(y)::value_type, double>);
  std::vector<double> want;
  for (int i = 0; i < 3; ++i)
    want.push_back(static_cast<double>(static_cast<float>(values(x)[i]) * values(n)[i]));
  check_close(values(y), want, 0.0);
  // Python ints are checked against the declared type.
  const auto narrow = cupp::elementwise<std::int8_t(std::int8_t)>(increment{});
  BOOST_CHECK_THROW(narrow(300), cupp::overflow_error);
  BOOST_TEST(values(narrow(make(std::vector<std::int8_t>{127})).eval())[0] == -128);
}

BOOST_AUTO_TEST_CASE(fuses_with_other_expressions) {
  const auto x = make(std::vector<float>{1, 2, 3, 4});
  const auto y = make(std::vector<float>{0.5f, -1, 2, 0});
  const auto k = cupp::elementwise(poly{});
  // One lazy tree: the user node is an operand of the others and the other
  // way round.
  const auto e = k(x * 2, y) + k(k(x, y), 1) * y;
  static_assert(cupp::detail::expression_node<std::remove_cvref_t<decltype(e)>>);
  const array<float> fused = e;
  const array<float> a = x * 2;
  const array<float> b = k(a, y);
  const array<float> c = k(x, y);
  const array<float> d = k(c, 1);
  const array<float> stepwise = b + d * y;
  BOOST_TEST((values(fused) == values(stepwise)));
  std::vector<double> want;
  auto p = [](double u, double v) { return u * v - 2 * u + 1; };
  for (int i = 0; i < 4; ++i) {
    const double xi = values(x)[i], yi = values(y)[i];
    want.push_back(p(2 * xi, yi) + p(p(xi, yi), 1) * yi);
  }
  check_close(values(fused), want, 1e-6);
}

BOOST_AUTO_TEST_CASE(out_argument) {
  const auto x = make(std::vector<float>{1, 2, 3});
  auto z = make(std::vector<double>{0, 0, 0});
  const auto k = cupp::elementwise(poly{});
  const auto r = k(x, 2, cupp::out(z));
  BOOST_TEST(r.data() == z.data());
  check_close(values(z), {1, 1, 1}, 0.0);
  // The out= array may be an operand (in place).
  k(x, x, cupp::out(z));
  check_close(values(z), {0, 1, 4}, 0.0);
}

#if defined(__CUDACC_EXTENDED_LAMBDA__)
BOOST_AUTO_TEST_CASE(extended_lambda) {
  const float s = 0.5f;
  const auto k = cupp::elementwise([s] __host__ __device__(float a, float b) { return s * a + b; });
  const auto x = make(std::vector<float>{1, 2, 3});
  const array<float> z = k(x, 10) * 2;
  check_close(values(z), {21, 22, 23}, 0.0);
  // An int32 operand promotes with float32 to float64; the lambda takes
  // float, so C++ converts and the result is the lambda's float.
  const auto i = make(std::vector<std::int32_t>{4, 6});
  static_assert(std::is_same_v<decltype(k(i, x))::value_type, float>);
}
#endif

BOOST_AUTO_TEST_CASE(softplus_on_this_space) {
  const std::vector<double> xv{-800, -20, -1, -0.0, 0.5, 3, 40, 800};
  const auto x = make(xv);
  const array<double> z = softplus(x);
  std::vector<double> want;
  for (double v : xv) want.push_back(std::max(0.0, v) + std::log1p(std::exp(-std::abs(v))));
  check_close(values(z), want, 1e-15);
  BOOST_TEST(values(z)[0] == 0.0);
  BOOST_TEST(values(z)[7] == 800.0);
  // float32 stays float32: 0 is a weak scalar.
  const auto zf = softplus(make(std::vector<float>{-1, 0, 1})).eval();
  static_assert(std::is_same_v<decltype(zf)::value_type, float>);
  check_close(values(zf),
              {std::log1p(std::exp(-1.0)), std::log(2.0), 1 + std::log1p(std::exp(-1.0))}, 1e-6);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(fuse)

BOOST_AUTO_TEST_CASE(one_result) {
  const auto f = cupp::fuse([](auto x, auto y) { return x * y + cupp::exp(x); });
  const auto x = make(std::vector<float>{0, 1, -2});
  const auto y = make(std::vector<float>{3, 4, 5});
  const auto z = f(x, y);
  static_assert(std::is_same_v<decltype(z), const array<float>>);
  std::vector<double> want;
  for (int i = 0; i < 3; ++i) want.push_back(values(x)[i] * values(y)[i] + std::exp(values(x)[i]));
  check_close(values(z), want, 1e-6);
  // C++ numbers stay weak inside f.
  static_assert(std::is_same_v<decltype(f(x, 2.0))::value_type, float>);
  // Returning an operand gives a new array, not the operand.
  const auto same = cupp::fuse([](auto a) { return a; })(x);
  BOOST_TEST(same.data() != x.data());
  BOOST_TEST((values(same) == values(x)));
}

BOOST_AUTO_TEST_CASE(tuple_results) {
  const auto x = make(std::vector<double>{1, 2, 3});
  const auto col = make(std::vector<double>{10, 20}, {2, 1});
  // Two results of one shape share one kernel.
  const auto [s, p] = cupp::fuse(
      [](auto a, auto b) { return std::make_tuple(a + b, cupp::astype<float>(a * b)); })(x, 2);
  static_assert(std::is_same_v<decltype(s), const array<double>>);
  static_assert(std::is_same_v<decltype(p), const array<float>>);
  check_close(values(s), {3, 4, 5}, 0.0);
  check_close(values(p), {2, 4, 6}, 0.0);
  // Different shapes, and more than two results: one kernel each.
  const auto [u, v, w] =
      cupp::fuse([](auto a, auto b) { return std::make_tuple(a - 1, a * b, b); })(x, col);
  BOOST_TEST(u.shape() == (cupp::shape_t{3}));
  BOOST_TEST(v.shape() == (cupp::shape_t{2, 3}));
  check_close(values(v), {10, 20, 30, 20, 40, 60}, 0.0);
  check_close(values(w), {10, 20}, 0.0);
  BOOST_TEST(w.data() != col.data());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(array_module)

BOOST_AUTO_TEST_CASE(module_follows_the_arguments) {
  const auto x = make(std::vector<float>{1, 2, 3});
  using expected = std::conditional_t<std::is_same_v<space, cupp::device_space>,
                                      cupp::device_module, cupp::host_module>;
  static_assert(std::is_same_v<decltype(cupp::get_array_module(x)), expected>);
  static_assert(std::is_same_v<decltype(cupp::get_array_module(x * 2, 1.0)), expected>);
  static_assert(std::is_same_v<decltype(cupp::get_array_module(1.0)), cupp::host_module>);
  static_assert(std::is_same_v<decltype(cupp::get_array_module()), cupp::host_module>);
  static_assert(
      std::is_same_v<decltype(cupp::get_array_module(cupp::host::ndarray<int>{}, x)), expected>);

  auto xp = cupp::get_array_module(x);
  const auto z = xp.zeros<std::int16_t>({2, 3});
  static_assert(std::is_same_v<decltype(z), const array<std::int16_t>>);
  BOOST_TEST((values(z) == std::vector<std::int16_t>(6, 0)));
  BOOST_TEST((values(xp.ones<double>({2})) == std::vector<double>{1, 1}));
  BOOST_TEST((values(xp.full<std::uint8_t>({3}, 7)) == std::vector<std::uint8_t>{7, 7, 7}));
  static_assert(std::is_same_v<decltype(xp.full({3}, 7)), array<std::int64_t>>);
  static_assert(std::is_same_v<decltype(xp.zeros({3})), array<double>>);
  BOOST_TEST(xp.empty<float>({4}, cupp::order::F).size() == 4);
  BOOST_TEST(xp.empty_like(x).shape() == x.shape());
  BOOST_TEST((values(xp.array<int>({{1, 2}, {3, 4}})) == std::vector<int>{1, 2, 3, 4}));
  BOOST_TEST(xp.asarray(x).data() == x.data());
  const auto from_host = xp.asarray(cupp::host::asarray(std::vector<int>{5, 6}));
  static_assert(std::is_same_v<decltype(from_host), const array<int>>);
  BOOST_TEST((values(xp.asarray(std::vector<int>{5, 6})) == values(from_host)));
  BOOST_TEST((values(xp.asarray(x + 1)) == std::vector<float>{2, 3, 4}));
  // The host module gives host arrays whatever the operand.
  const auto h = cupp::host_module{}.asarray(x);
  BOOST_TEST((values(h) == values(x)));

  check_close(values(shifted_copy(x, 0.5)), {1.5, 2.5, 3.5}, 0.0);
}

BOOST_AUTO_TEST_SUITE_END()

// The messages of the errors NumPy raises for the same calls, to the
// character (NumPy 2.4; its C code writes shapes without spaces and ends
// the list of operands with a space).
BOOST_AUTO_TEST_SUITE(numpy_messages)

using cupp_test::message_of;

array<double> filled(const cupp::shape_t& shape) {
  return cupp_test::on_space(cupp::host::ones<double>(shape).eval());
}

BOOST_AUTO_TEST_CASE(broadcasting) {
  const auto a = filled({3, 4}), b = filled({4, 3});
  // np.ones((3, 4)) + np.ones((4, 3))
  BOOST_TEST(message_of([&] { (void)(a + b); }) ==
             "operands could not be broadcast together with shapes (3,4) (4,3) ");
  // np.where(np.ones(2, bool), np.ones(3), np.ones(4)); scalars are ().
  BOOST_TEST(message_of([&] { (void)cupp::where(filled({2}) > 0, filled({3}), filled({4})); }) ==
             "operands could not be broadcast together with shapes (2,) (3,) (4,) ");
  BOOST_TEST(message_of([&] { (void)cupp::where(filled({3}) > 0, filled({4}), 0); }) ==
             "operands could not be broadcast together with shapes (3,) (4,) () ");
  // np.copyto(np.ones(3), np.ones((2, 3)))
  BOOST_TEST(message_of([&] {
               cupp::copyto(filled({3}), filled({2, 3}));
             }) == "could not broadcast input array from shape (2,3) into shape (3,)");
  BOOST_TEST(message_of([&] { cupp::copyto(a, b * 2); }) ==
             "could not broadcast input array from shape (4,3) into shape (3,4)");
}

BOOST_AUTO_TEST_CASE(out_and_in_place) {
  // np.add(np.ones(3), 1, out=np.ones(4)): the operands and the output.
  BOOST_TEST(message_of([&] { cupp::add(filled({3}), 1, cupp::out(filled({4}))); }) ==
             "operands could not be broadcast together with shapes (3,) () (4,) ");
  BOOST_TEST(message_of([&] { cupp::add(filled({3}), filled({4}), cupp::out(filled({3}))); }) ==
             "operands could not be broadcast together with shapes (3,) (4,) (3,) ");
  // np.negative(np.ones((2, 3)), out=np.ones(3)): outputs are not broadcast.
  BOOST_TEST(message_of([&] {
               cupp::negative(filled({2, 3}), cupp::out(filled({3})));
             }) ==
             "non-broadcastable output operand with shape (3,) doesn't match the broadcast "
             "shape (2,3)");
  BOOST_TEST(message_of([&] { cupp::clip(filled({3}), 0, 1, cupp::out(filled({4}))); }) ==
             "operands could not be broadcast together with shapes (3,) () () (4,) ");
  BOOST_TEST(message_of([&] {
               cupp::divmod(filled({3}), 1, cupp::out(filled({3})), cupp::out(filled({4})));
             }) == "operands could not be broadcast together with shapes (3,) () (3,) (4,) ");
  const auto k = cupp::elementwise(poly{});
  BOOST_TEST(message_of([&] { k(filled({3}), 2, cupp::out(filled({2}))); }) ==
             "operands could not be broadcast together with shapes (3,) () (2,) ");
  // x += y: x is an operand and the output.
  auto x = filled({3});
  BOOST_TEST(message_of([&] { x += filled({4}); }) ==
             "operands could not be broadcast together with shapes (3,) (4,) (3,) ");
  BOOST_TEST(message_of([&] {
               x *= filled({2, 3});
             }) ==
             "non-broadcastable output operand with shape (3,) doesn't match the broadcast "
             "shape (2,3)");
  BOOST_TEST(values(x) == (std::vector<double>{1, 1, 1}));
  // Read-only outputs: ufuncs and in-place operators say "output array",
  // copyto and views "assignment destination".
  auto ro = filled({3});
  ro.setflags(false);
  BOOST_TEST(message_of([&] { ro += 1; }) == "output array is read-only");
  BOOST_TEST(message_of([&] { cupp::add(filled({3}), filled({4}), cupp::out(ro)); }) ==
             "output array is read-only");
  BOOST_TEST(message_of([&] { cupp::copyto(ro, filled({4})); }) ==
             "assignment destination is read-only");
}

BOOST_AUTO_TEST_SUITE_END()
