// matmul's lazy product on host arrays (OpenBLAS, exact loops) and, with
// CUPP_TEST_DEVICE=1, on device arrays (cuBLAS, cupp's small-product and
// exact kernels):
// every pattern that folds into one gemm (alpha, beta, the conjugate-
// transpose op) and every one that does not, against a float64 reference
// computed here by loops; matmul's and dot's out=, with NumPy's messages
// and nothing written on an error; on the device, that the folded patterns
// allocate nothing but their result.
#include <cupp/creation.hpp>
#include <cupp/linalg/matmul.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cupp_test.hpp"
#include "test_space.hpp"

using cupp::index_t;
using cupp::shape_t;
using cupp_test::array;
using cupp_test::message_of;
using cupp_test::on_space;
using cupp_test::to_host;

namespace {

template <class T>
using ref_t = std::conditional_t<cupp::detail::is_complex_type_v<T>, cupp::complex128, double>;

template <class X>
inline constexpr bool is_product_v = false;
template <class R, class S, bool A>
inline constexpr bool is_product_v<cupp::detail::matmul_expr<R, S, A>> = true;

// Small integers: every float sum below is exact, so folded and unfolded
// orders of rounding agree and the values can be compared exactly.
template <class T>
cupp::host::ndarray<T> filled(const shape_t& s, int seed) {
  auto h = cupp::host::empty<T>(s);
  for (index_t i = 0; i < h.size(); ++i) {
    const int v = static_cast<int>((i * 7 + seed * 13) % 11) - 5;
    if constexpr (std::is_integral_v<T>)
      h.data()[i] = static_cast<T>(v);
    else if constexpr (cupp::detail::is_complex_type_v<T>)
      h.data()[i] = T(static_cast<float>(v), static_cast<float>((v * 3 + seed) % 4));
    else
      h.data()[i] = cupp::detail::convert<T>(static_cast<float>(v));
  }
  return h;
}

// The product of two host matrices (any strides) in V, by its definition.
template <class V>
cupp::host::ndarray<V> reference(const cupp::host::ndarray<V>& a, const cupp::host::ndarray<V>& b) {
  const index_t m = a.shape()[0], k = a.shape()[1], n = b.shape()[1];
  auto r = cupp::host::empty<V>({m, n});
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j) {
      V acc = 0;
      for (index_t l = 0; l < k; ++l) acc += a.at(i, l) * b.at(l, j);
      r.at(i, j) = acc;
    }
  return r;
}

template <class V>
double magnitude(V v) {
  if constexpr (cupp::detail::is_complex_type_v<V>)
    return std::abs(std::complex<double>(v.real(), v.imag()));
  else
    return std::abs(cupp::detail::convert<double>(v));
}

// `got` (an array, an expression or a product, any dtype) against the
// reference values `want`.
template <class G, class V>
void expect_close(const G& got, const cupp::host::ndarray<V>& want, double tol = 0) {
  using GT = typename G::value_type;
  const array<GT> g = got;
  const cupp::host::ndarray<GT> h = to_host(g);
  BOOST_TEST_REQUIRE(h.shape() == want.shape(), cupp::detail::np_shape(h.shape())
                                                    << " != "
                                                    << cupp::detail::np_shape(want.shape()));
  const auto gv = h.to_vector();
  const auto wv = want.to_vector();
  for (std::size_t i = 0; i < gv.size(); ++i) {
    const auto gc = cupp::detail::convert<cupp::complex128>(gv[i]);
    const auto wc = cupp::detail::convert<cupp::complex128>(wv[i]);
    const bool both_nan = std::isnan(gc.real()) && std::isnan(wc.real());
    BOOST_TEST((both_nan || magnitude(gc - wc) <= tol * (1 + magnitude(wc))),
               "element " << i << ": " << gc.real() << "+" << gc.imag() << "j, want " << wc.real()
                          << "+" << wc.imag() << "j");
  }
}

// The operands of the patterns: a (M, K) in `layout` (0 C order, 1 the
// transpose of a (K, M) array, 2 F order), b (K, N), c (M, N), d (N,)
// (broadcast to the result) and e (2, M, N) (the result broadcast to it),
// and their float64 values. Small (5, 7, 3) products go through cupp's
// small-product kernel on the device, large ones (40, 33, 24) through
// cuBLAS, and with an addend through cuBLASLt, which reads c in place.
template <class T>
struct operands {
  array<T> a, b, c, d, e;
  cupp::host::ndarray<ref_t<T>> A, B, C, D, E, P;
};

template <class T>
operands<T> make_operands(int layout, bool large = false) {
  const index_t m = large ? 40 : 5, k = large ? 33 : 7, n = large ? 24 : 3;
  operands<T> o;
  const auto ha = filled<T>({m, k}, 1);
  if (layout == 1) {
    o.a = on_space(cupp::host::ndarray<T>(cupp::ascontiguousarray(ha.T()))).T();
  } else if (layout == 2) {
    auto f = cupp::host::empty<T>({m, k}, cupp::order::F);
    cupp::copyto(f, ha);
    o.a = on_space(f);
  } else {
    o.a = on_space(ha);
  }
  o.b = on_space(filled<T>({k, n}, 2));
  o.c = on_space(filled<T>({m, n}, 3));
  o.d = on_space(filled<T>({n}, 4));
  o.e = on_space(filled<T>({2, m, n}, 5));
  using V = ref_t<T>;
  o.A = ha.template astype<V>();
  o.B = to_host(o.b).template astype<V>();
  o.C = to_host(o.c).template astype<V>();
  o.D = to_host(o.d).template astype<V>();
  o.E = to_host(o.e).template astype<V>();
  o.P = reference(o.A, o.B);
  return o;
}

template <class T>
double tolerance() {
  if constexpr (std::is_same_v<T, cupp::float16>)
    return 1e-3;
  else if constexpr (std::is_integral_v<T>)
    return 0;
  else
    return 1e-6;
}

// One pattern f(p, c, d, e): on matmul(a, b) and the operands, and on the
// reference product and values; Folds says whether f returns the lazy
// product (one gemm; the device test below counts its allocations).
template <class T, bool Folds, class F>
void check_pattern(const operands<T>& o, const char* name, F f) {
  BOOST_TEST_CONTEXT(name) {
    const auto got = f(cupp::matmul(o.a, o.b), o.c, o.d, o.e);
    static_assert(is_product_v<std::remove_cvref_t<decltype(got)>> == Folds);
    const auto want = f(o.P, o.C, o.D, o.E);
    using W = typename std::remove_cvref_t<decltype(want)>::value_type;
    expect_close(got, cupp::host::ndarray<W>(want), tolerance<T>());
  }
}

#define FOLDS(NAME, EXPR)                                                                          \
  check_pattern<T, true>(o, NAME, [](const auto& p, const auto& c, const auto& d, const auto& e) { \
    (void)c, (void)d, (void)e;                                                                     \
    return EXPR;                                                                                   \
  })
#define EVALUATES(NAME, EXPR)                                                              \
  check_pattern<T, false>(o, NAME,                                                         \
                          [](const auto& p, const auto& c, const auto& d, const auto& e) { \
                            (void)c, (void)d, (void)e;                                     \
                            return EXPR;                                                   \
                          })

template <class T>
void folded_patterns() {
  for (int layout : {0, 1, 2})
    for (bool large : {false, true}) {
      BOOST_TEST_CONTEXT("layout " << layout << (large ? ", large" : "")) {
        const operands<T> o = make_operands<T>(layout, large);
        FOLDS("p", p);
        FOLDS("2 * p", 2 * p);
        FOLDS("p * 3", p * 3);
        FOLDS("-p", -p);
        FOLDS("+p", +p);
        FOLDS("p + c", p + c);
        FOLDS("c + p", c + p);
        FOLDS("p - c", p - c);
        FOLDS("c - p", c - p);
        FOLDS("2 * p + c", 2 * p + c);
        FOLDS("c - 2 * p", c - 2 * p);
        FOLDS("p * 2 + c * 3", p * 2 + c * 3);
        FOLDS("2 * p - 3 * c", 2 * p - 3 * c);
        FOLDS("(p + c) * 2", (p + c) * 2);
        FOLDS("-(p - c)", -(p - c));
        FOLDS("p + d (broadcast to the result)", p + d);
        // The product broadcast to a larger addend: the same node, evaluated
        // as the product and one element-wise kernel.
        FOLDS("p + e (the result broadcast)", p + e);
        FOLDS("e - 2 * p", e - 2 * p);
        if constexpr (!std::is_integral_v<T>) {
          FOLDS("p / 4", p / 4);
          FOLDS("2.5 * p", 2.5 * p);
        }
        // The addend is read, never written.
        expect_close(o.c, o.C, 0);
      }
    }
}

// Patterns that leave the lazy product: the product is evaluated once and
// the rest runs element-wise.
template <class T>
void evaluated_patterns() {
  const operands<T> o = make_operands<T>(0);
  EVALUATES("p + 1", p + 1);
  EVALUATES("p * c", p * c);
  EVALUATES("p * p", p * p);
  EVALUATES("(p + c) + c", (p + c) + c);
  EVALUATES("p + c.astype<double>()", p + c.template astype<double>());
  if constexpr (std::is_integral_v<T>) EVALUATES("2.5 * p (float64)", 2.5 * p);
  EVALUATES("p * 1j", p * std::complex<double>(0, 1));
  EVALUATES("p + c * c", p + c * c);
  EVALUATES("p + 2 * (c + c)", p + 2 * (c + c));
  EVALUATES("cupp::abs(p)", cupp::abs(p));
  if constexpr (std::is_integral_v<T>) EVALUATES("p / 4", p / 4);
}

// The patterns on stacks of small products (cupp's small-product kernel on
// the device): a (S, M, K) in `layout` (0 C order, 1 each matrix the
// transpose of a C-order stack, 2 one matrix broadcast against a stacked
// b), b (K, N) broadcast to every product (or (S, K, N) in layout 2),
// c (S, M, N), d (N,) and e (2, S, M, N). S is more than 4 products per SM,
// so that the device's blocks take groups of several products.
template <class T>
operands<T> make_stack_operands(int layout) {
  constexpr index_t s = 601, m = 3, k = 5, n = 7;
  operands<T> o;
  const auto ha = filled<T>({layout == 2 ? 1 : s, m, k}, 1);
  const auto hb = filled<T>({layout == 2 ? s : 1, k, n}, 2);
  if (layout == 1) {
    const cupp::host::ndarray<T> t(cupp::ascontiguousarray(cupp::linalg::matrix_transpose(ha)));
    o.a = cupp::linalg::matrix_transpose(on_space(t));
  } else {
    o.a = on_space(layout == 2 ? cupp::host::ndarray<T>(ha.reshape({m, k})) : ha);
  }
  o.b = on_space(layout == 2 ? hb : cupp::host::ndarray<T>(hb.reshape({k, n})));
  o.c = on_space(filled<T>({s, m, n}, 3));
  o.d = on_space(filled<T>({n}, 4));
  o.e = on_space(filled<T>({2, s, m, n}, 5));
  using V = ref_t<T>;
  o.A = ha.template astype<V>();
  o.B = hb.template astype<V>();
  o.C = to_host(o.c).template astype<V>();
  o.D = to_host(o.d).template astype<V>();
  o.E = to_host(o.e).template astype<V>();
  o.P = cupp::host::zeros<V>({s, m, n});
  for (index_t q = 0; q < s; ++q)
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) {
        V acc = 0;
        for (index_t l = 0; l < k; ++l)
          acc += o.A.at(layout == 2 ? 0 : q, i, l) * o.B.at(layout == 2 ? q : 0, l, j);
        o.P.at(q, i, j) = acc;
      }
  return o;
}

template <class T>
void folded_stack_patterns() {
  for (int layout : {0, 1, 2}) {
    BOOST_TEST_CONTEXT("stack layout " << layout) {
      const operands<T> o = make_stack_operands<T>(layout);
      FOLDS("p", p);
      FOLDS("-p", -p);
      FOLDS("p + c", p + c);
      FOLDS("c - p", c - p);
      FOLDS("2 * p + c", 2 * p + c);
      FOLDS("p * 2 + c * 3", p * 2 + c * 3);
      FOLDS("2 * p - 3 * c", 2 * p - 3 * c);
      FOLDS("p + d (broadcast to the result)", p + d);
      FOLDS("e - 2 * p", e - 2 * p);
      if constexpr (!std::is_integral_v<T>) FOLDS("2.5 * p", 2.5 * p);
      expect_close(o.c, o.C, 0);
    }
  }
}

// Conjugated operands of stacks of small products: each matrix read
// conjugate-transposed (the transpose of a C-order stack, conjugated), as
// the first operand and, with alpha and an addend, as the second.
template <class T>
void conjugate_stacks() {
  constexpr index_t s = 700, m = 4, k = 6, n = 3;
  using V = ref_t<T>;
  const auto conj_of = [](const V& v) { return V(v.real(), -v.imag()); };
  const auto ht = filled<T>({s, k, m}, 1), hb = filled<T>({s, k, n}, 2), hx = filled<T>({n, k}, 3),
             hu = filled<T>({s, m, k}, 4), hc = filled<T>({s, n, m}, 5);
  const auto t = on_space(ht), b = on_space(hb), x = on_space(hx), u = on_space(hu),
             c = on_space(hc);
  const cupp::host::ndarray<V> T3 = ht.template astype<V>(), B3 = hb.template astype<V>(),
                               X = hx.template astype<V>(), U3 = hu.template astype<V>(),
                               C3 = hc.template astype<V>();
  // conj(t)^T @ b and 2 * x @ conj(u)^T + c, by their definitions.
  cupp::host::ndarray<V> first = cupp::host::zeros<V>({s, m, n}),
                         second = cupp::host::zeros<V>({s, n, m});
  for (index_t q = 0; q < s; ++q) {
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) {
        V acc = 0;
        for (index_t l = 0; l < k; ++l) acc += conj_of(T3.at(q, l, i)) * B3.at(q, l, j);
        first.at(q, i, j) = acc;
      }
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < m; ++j) {
        V acc = 0;
        for (index_t l = 0; l < k; ++l) acc += X.at(i, l) * conj_of(U3.at(q, j, l));
        second.at(q, i, j) = V(2) * acc + C3.at(q, i, j);
      }
  }
  const double tol = tolerance<T>();
  expect_close(cupp::matmul(cupp::linalg::matrix_transpose(cupp::conj(t)), b), first, tol);
  expect_close(cupp::matmul(cupp::conj(cupp::linalg::matrix_transpose(t)), b), first, tol);
  expect_close(2 * cupp::matmul(x, cupp::linalg::matrix_transpose(cupp::conj(u))) + c, second, tol);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(linalg_fusion)

BOOST_AUTO_TEST_CASE(folded_float32) {
  folded_patterns<float>();
}
BOOST_AUTO_TEST_CASE(folded_float64) {
  folded_patterns<double>();
}
BOOST_AUTO_TEST_CASE(folded_complex64) {
  folded_patterns<cupp::complex64>();
}
BOOST_AUTO_TEST_CASE(folded_complex128) {
  folded_patterns<cupp::complex128>();
}
BOOST_AUTO_TEST_CASE(folded_float16) {
  folded_patterns<cupp::float16>();
}
BOOST_AUTO_TEST_CASE(folded_int32) {
  folded_patterns<std::int32_t>();
}

BOOST_AUTO_TEST_CASE(folded_stacks_float32) {
  folded_stack_patterns<float>();
}
BOOST_AUTO_TEST_CASE(folded_stacks_float64) {
  folded_stack_patterns<double>();
}
BOOST_AUTO_TEST_CASE(folded_stacks_complex64) {
  folded_stack_patterns<cupp::complex64>();
}
BOOST_AUTO_TEST_CASE(folded_stacks_complex128) {
  folded_stack_patterns<cupp::complex128>();
}
BOOST_AUTO_TEST_CASE(folded_stacks_float16) {
  folded_stack_patterns<cupp::float16>();
}

BOOST_AUTO_TEST_CASE(evaluated_float32) {
  evaluated_patterns<float>();
}
BOOST_AUTO_TEST_CASE(evaluated_int32) {
  evaluated_patterns<std::int32_t>();
}

// Integers fold through the exact kernel and wrap as NumPy's separate
// multiply and subtract do; a Python int the dtype cannot hold raises.
BOOST_AUTO_TEST_CASE(integer_wrapping) {
  const auto ha = cupp::host::full<std::uint8_t>({2, 2}, 200).eval();
  const auto hc = cupp::host::full<std::uint8_t>({2, 2}, 7).eval();
  const auto a = on_space(ha), c = on_space(hc);
  // a @ a = 2 * 200 * 200 = 80000 = 128 (mod 256); 3 * 128 - 7 = 377 = 121.
  const array<std::uint8_t> r = 3 * cupp::matmul(a, a) - c;
  for (std::uint8_t v : to_host(r).to_vector()) BOOST_TEST(int(v) == 121);
  // a @ c = 2 * 200 * 7 = 2800 = 240 (mod 256); -240 = 16.
  const array<std::uint8_t> n = -cupp::matmul(a, c);
  for (std::uint8_t v : to_host(n).to_vector()) BOOST_TEST(int(v) == 16);
  const auto i8 = on_space(cupp::host::ones<std::int8_t>({2, 2}).eval());
  std::string overflow;
  try {
    (void)(1000 * cupp::matmul(i8, i8));
  } catch (const cupp::overflow_error& e) {
    overflow = e.what();
  }
  BOOST_TEST(overflow == "Python integer 1000 out of bounds for int8");
}

// What BLAS would skip and NumPy reads: alpha 0 (0 * inf is nan), beta 0,
// k 0 (the addend is all there is).
BOOST_AUTO_TEST_CASE(scalars_blas_would_skip) {
  auto ha = cupp::host::ones<double>({2, 2}).eval();
  ha.at(0, 0) = std::numeric_limits<double>::infinity();
  const auto a = on_space(ha);
  const auto z = to_host(array<double>(0 * cupp::matmul(a, a)));
  BOOST_TEST(std::isnan(z.at(0, 0)));
  BOOST_TEST(std::isnan(z.at(0, 1)));
  BOOST_TEST(z.at(1, 1) == 0.0);
  auto hc = cupp::host::ones<double>({2, 2}).eval();
  hc.at(1, 0) = std::numeric_limits<double>::quiet_NaN();
  const auto c = on_space(hc), one = on_space(cupp::host::ones<double>({2, 2}).eval());
  const auto w = to_host(array<double>(cupp::matmul(one, one) + 0 * c));
  BOOST_TEST(std::isnan(w.at(1, 0)));
  BOOST_TEST(w.at(0, 0) == 2.0);
  const auto e0 = on_space(cupp::host::ones<double>({3, 0}).eval());
  const auto e1 = on_space(cupp::host::ones<double>({0, 2}).eval());
  const auto c32 = on_space(cupp::host::full<double>({3, 2}, 4.0).eval());
  const auto k0 = to_host(array<double>(2 * cupp::matmul(e0, e1) - 3 * c32));
  for (double v : k0.to_vector()) BOOST_TEST(v == -12.0);
  // Empty results, with and without an addend.
  const auto empty = on_space(cupp::host::ones<double>({0, 3}).eval());
  const array<double> er =
      cupp::matmul(empty, c32) + on_space(cupp::host::ones<double>({2}).eval());
  BOOST_TEST(er.shape() == (shape_t{0, 2}));
}

BOOST_AUTO_TEST_CASE(convenience) {
  const auto a = on_space(cupp::host::arange<float>(6).reshape({2, 3}).eval());
  const auto b = on_space(cupp::host::arange<float>(12).reshape({3, 4}).eval());
  auto p = cupp::matmul(a, b);
  BOOST_TEST(p.shape() == (shape_t{2, 4}));
  BOOST_TEST(p.ndim() == 2);
  BOOST_TEST(p.size() == 8);
  BOOST_TEST(p.dtype() == cupp::dtype_of<float>());
  const array<float> c = p;
  const auto takes_array = [](const array<float>& x) { return x.size(); };
  BOOST_TEST(takes_array(cupp::matmul(a, b)) == 8);
  BOOST_TEST(to_host(p.eval()).to_vector() == (std::vector<float>{20, 23, 26, 29, 56, 68, 80, 92}));
  const array<double> d = cupp::matmul(a, b);  // a cast 'same_kind' allows
  BOOST_TEST(to_host(d).at(1, 3) == 92.0);
  // A product of a product, reductions, printing go through the array.
  const array<float> q = cupp::matmul(cupp::matmul(a, b), b.T());
  BOOST_TEST(q.shape() == (shape_t{2, 3}));
  BOOST_TEST(to_host(array<float>(cupp::sum(cupp::matmul(a, b)))).item() == 394.0f);
  // The shape errors are raised where NumPy raises them, at the call.
  BOOST_TEST(message_of([&] { (void)cupp::matmul(a, a); }) ==
             "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
             "signature (n?,k),(k,m?)->(n?,m?) (size 2 is different from 3)");
  const auto bad = on_space(cupp::host::ones<float>({3}).eval());
  BOOST_TEST(message_of([&] { (void)(cupp::matmul(a, b) + bad); }) ==
             "operands could not be broadcast together with shapes (2,4) (3,) ");
}

// conj(a) of a complex array is read by BLAS's conjugate-transpose op when
// its rows have unit stride (conj(a.T()), conj of an F-order array,
// linalg.matrix_transpose(conj(a))); a C-order conj(a) is written out once.
template <class T>
void conjugate_operands() {
  const auto ha = filled<T>({4, 5}, 1), hb = filled<T>({4, 3}, 2), hx = filled<T>({5, 4}, 3);
  using V = ref_t<T>;
  const cupp::host::ndarray<V> A = ha.template astype<V>(), B = hb.template astype<V>(),
                               X = hx.template astype<V>();
  const cupp::host::ndarray<V> AH = cupp::ascontiguousarray(cupp::conj(A).eval().T());
  const auto a = on_space(ha), b = on_space(hb), x = on_space(hx);
  const double tol = tolerance<T>();
  expect_close(cupp::matmul(cupp::conj(a.T()), b), reference(AH, B), tol);
  expect_close(cupp::matmul(cupp::conj(a).T(), b), reference(AH, B), tol);
  expect_close(cupp::matmul(cupp::linalg::matrix_transpose(cupp::conj(a)), b), reference(AH, B),
               tol);
  // conj of an F-order (5, 4) copy of a^T, and a C-order conj: written out.
  auto f = cupp::host::empty<T>({5, 4}, cupp::order::F);
  cupp::copyto(f, ha.T());
  expect_close(cupp::matmul(cupp::conj(on_space(f)), b), reference(AH, B), tol);
  const cupp::host::ndarray<V> XC = cupp::conj(X);
  expect_close(cupp::matmul(cupp::conj(x), b), reference(XC, B), tol);
  // As the second operand, with alpha and an addend folded as well.
  const auto c = on_space(filled<T>({5, 5}, 4));
  const cupp::host::ndarray<V> C = to_host(c).template astype<V>();
  const cupp::host::ndarray<V> want = 2.0 * reference(X, cupp::conj(A).eval()) + C;
  expect_close(2 * cupp::matmul(x, cupp::conj(a)) + c, want, tol);
  // Larger than the small-product kernel takes: cuBLAS's op C, the addend
  // copied into the result first (and left as it was).
  {
    const auto hl = filled<T>({24, 20}, 5), hy = filled<T>({18, 20}, 6),
               hd = filled<T>({18, 24}, 7);
    const auto l = on_space(hl), y = on_space(hy), d = on_space(hd);
    const cupp::host::ndarray<V> L = hl.template astype<V>(), Y = hy.template astype<V>(),
                                 D = hd.template astype<V>();
    const cupp::host::ndarray<V> LH = cupp::conj(L.T()).eval();
    const cupp::host::ndarray<V> expected = 2.0 * reference(Y, LH) + D;
    expect_close(2 * cupp::matmul(y, cupp::conj(l.T())) + d, expected, tol);
    expect_close(d, D, 0);
  }
  // vdot conjugates its first operand through the same op.
  const cupp::host::ndarray<V> v1 = cupp::conj(A.reshape({20})).eval().reshape({1, 20});
  expect_close(cupp::vdot(a, x.T()),
               reference(v1, cupp::ascontiguousarray(X.T()).reshape({20, 1})).reshape(shape_t{}),
               tol);
  // With out=.
  array<T> out = on_space(cupp::host::zeros<T>({5, 3}).eval());
  cupp::matmul(cupp::conj(a.T()), b, out);
  expect_close(out, reference(AH, B), tol);
}

BOOST_AUTO_TEST_CASE(conjugate_complex64) {
  conjugate_operands<cupp::complex64>();
}
BOOST_AUTO_TEST_CASE(conjugate_complex128) {
  conjugate_operands<cupp::complex128>();
}
BOOST_AUTO_TEST_CASE(conjugate_stacks_complex64) {
  conjugate_stacks<cupp::complex64>();
}
BOOST_AUTO_TEST_CASE(conjugate_stacks_complex128) {
  conjugate_stacks<cupp::complex128>();
}
BOOST_AUTO_TEST_CASE(conjugate_real) {
  conjugate_operands<double>();
}

// numpy.matmul(a, b, out=): straight into a C-order out, through a
// temporary for other layouts, dtypes, leading axes and overlaps.
BOOST_AUTO_TEST_CASE(matmul_out) {
  const auto ha = filled<double>({2, 3}, 1), hb = filled<double>({3, 4}, 2);
  const auto a = on_space(ha), b = on_space(hb);
  const auto P = reference(ha, hb);
  array<double> out = on_space(cupp::host::zeros<double>({2, 4}).eval());
  BOOST_TEST(cupp::matmul(a, b, out).data() == out.data());
  expect_close(out, P);
  array<double> f = on_space(cupp::host::zeros<double>({2, 4}, cupp::order::F).eval());
  cupp::matmul(a, b, cupp::out(f));
  expect_close(f, P);
  array<float> single = on_space(cupp::host::zeros<float>({2, 4}).eval());
  cupp::matmul(a, b, single);
  expect_close(single, P);
  array<double> stacked = on_space(cupp::host::zeros<double>({3, 2, 4}).eval());
  cupp::matmul(a, b, stacked);
  for (index_t i = 0; i < 3; ++i) expect_close(array<double>(stacked(i)), P);
  // out is an operand: a @ s into s.
  const auto hs = filled<double>({3, 3}, 3);
  const auto square = reference(hs, hs);
  array<double> s = on_space(hs.copy());
  cupp::matmul(s, s, s);
  expect_close(s, square);
  // NumPy's errors; nothing written.
  array<double> guard = on_space(cupp::host::full<double>({4, 4}, 7.0).eval());
  const std::string sig = "(n?,k),(k,m?)->(n?,m?)";
  const auto message = [&](const shape_t& shape) {
    return message_of([&] {
      cupp::matmul(
          a, b,
          array<double>(
              guard.reshape({16})(cupp::slice(0, cupp::detail::size_of(shape))).reshape(shape)));
    });
  };
  BOOST_TEST(message({3, 4}) ==
             "matmul: Output operand 0 has a mismatch in its core dimension 0, "
             "with gufunc signature " +
                 sig + " (size 3 is different from 2)");
  BOOST_TEST(message({2, 5}) ==
             "matmul: Output operand 0 has a mismatch in its core dimension 1, "
             "with gufunc signature " +
                 sig + " (size 5 is different from 4)");
  BOOST_TEST(message({4}) ==
             "output operand requires a reduction along dimension -1, but the "
             "reduction is not enabled. The dimension size of 1 does not match "
             "the expected output shape.");
  BOOST_TEST(message({2}) ==
             "matmul: Output operand 0 has a mismatch in its core dimension 0, "
             "with gufunc signature " +
                 sig + " (size 2 is different from 4)");
  const auto s3 = on_space(cupp::host::ones<double>({3, 2, 3}).eval());
  const auto message3 = [&](const shape_t& shape) {
    return message_of([&] {
      cupp::matmul(
          s3, b,
          array<double>(
              guard.reshape({16})(cupp::slice(0, cupp::detail::size_of(shape))).reshape(shape)));
    });
  };
  BOOST_TEST(message3({1, 2, 4}) ==
             "non-broadcastable output operand with shape (1,2,4) [remapped to (4,2,1)] doesn't "
             "match the broadcast shape (3,2,4)");
  BOOST_TEST(message3({2, 2, 4}) ==
             "operands could not be broadcast together with remapped shapes [original->remapped]: "
             "(3,2,3)->(3,newaxis,newaxis) (3,4)->() (2,2,4)->(2,2,4)  and requested shape (2,4)");
  array<double> readonly = on_space(cupp::host::zeros<double>({2, 4}).eval());
  readonly.setflags(false);
  BOOST_TEST(message_of([&] { cupp::matmul(a, b, readonly); }) == "output array is read-only");
  for (double v : to_host(guard).to_vector()) BOOST_TEST(v == 7.0);
}

// numpy.dot(a, b, out=): exactly the result's dtype, shape and a C-array.
BOOST_AUTO_TEST_CASE(dot_out) {
  const auto ha = filled<double>({2, 3}, 1), hb = filled<double>({3, 4}, 2);
  const auto a = on_space(ha), b = on_space(hb);
  array<double> out = on_space(cupp::host::zeros<double>({2, 4}).eval());
  BOOST_TEST(cupp::dot(a, b, out).data() == out.data());
  expect_close(out, reference(ha, hb));
  // More axes: dot(x, y)[i, j, p, q] = sum_l x[i, j, l] * y[p, l, q].
  const auto hx = filled<double>({2, 3, 4}, 3), hy = filled<double>({5, 4, 6}, 4);
  array<double> big = on_space(cupp::host::zeros<double>({2, 3, 5, 6}).eval());
  cupp::dot(on_space(hx), on_space(hy), cupp::out(big));
  expect_close(big, to_host(cupp::dot(on_space(hx), on_space(hy))));
  const auto hb_big = to_host(big);
  double w = 0;
  for (index_t l = 0; l < 4; ++l) w += hx.at(1, 2, l) * hy.at(3, l, 5);
  BOOST_TEST(hb_big.at(1, 2, 3, 5) == w);
  // A 0-d operand, and an out that is an operand.
  const auto two = on_space(cupp::host::full<double>({}, 2.0).eval());
  array<double> scaled = on_space(cupp::host::zeros<double>({2, 3}).eval());
  cupp::dot(two, a, scaled);
  expect_close(scaled, (2.0 * ha).eval());
  const auto hs = filled<double>({3, 3}, 5);
  const auto square = reference(hs, hs);
  array<double> s = on_space(hs.copy());
  cupp::dot(s, s, s);
  expect_close(s, square);
  // NumPy's messages; nothing written.
  const std::string bad =
      "output array is not acceptable (must have the right datatype, number of dimensions, and "
      "be a C-Array)";
  array<double> guard = on_space(cupp::host::full<double>({4, 4}, 7.0).eval());
  BOOST_TEST(message_of([&] { cupp::dot(a, b, array<double>(guard(cupp::slice(0, 3)))); }) == bad);
  BOOST_TEST(message_of([&] {
               cupp::dot(a, b, array<double>(guard.reshape({16})(cupp::slice(0, 8))));
             }) == bad);
  BOOST_TEST(message_of([&] {
               cupp::dot(a, b, array<double>(guard(cupp::_, cupp::slice(0, 2)).T()));
             }) == bad);
  BOOST_TEST(message_of([&] { cupp::dot(a, a, out); }) ==
             "shapes (2,3) and (2,3) not aligned: 3 (dim 1) != 2 (dim 0)");
  BOOST_TEST(message_of([&] {
               cupp::dot(two, a, array<double>(guard(cupp::slice(0, 3), cupp::slice(0, 3))));
             }) == bad);
  BOOST_TEST(
      message_of([&] {
        cupp::dot(two, a, array<double>(guard.reshape({16})(cupp::slice(0, 9)).reshape({3, 3})));
      }) == "output array has wrong dimensions");
  array<double> readonly = on_space(cupp::host::zeros<double>({2, 4}).eval());
  readonly.setflags(false);
  BOOST_TEST(message_of([&] { cupp::dot(a, b, readonly); }) == bad);
  for (double v : to_host(guard).to_vector()) BOOST_TEST(v == 7.0);
}

#if CUPP_TEST_DEVICE
namespace {
// The most the pool had in use while `make` ran and its result lived,
// beyond what was in use before: everything allocated, temporaries
// included. (Not the bytes reserved: the pool may serve a request from a
// free part of a segment that another allocation keeps.)
template <class F>
std::size_t reserved_by(F make) {
  auto& pool = cupp::cuda::get_default_memory_pool();
  cupp::cuda::runtime::deviceSynchronize();
  pool.reset_peak();
  const std::size_t before = pool.used_bytes();
  const auto result = make();
  cupp::cuda::runtime::deviceSynchronize();
  (void)result;
  return pool.peak_used_bytes() - before;
}
}  // namespace

// One gemm and no temporary: the pool hands out the result's bytes and
// nothing more (a copy of an operand would be another 4 or 8 MiB).
BOOST_AUTO_TEST_CASE(folded_patterns_allocate_only_the_result) {
  constexpr index_t n = 1024;
  const auto a = cupp::asarray(filled<float>({n, n}, 1));
  const auto b = cupp::asarray(filled<float>({n, n}, 2));
  const auto c = cupp::asarray(filled<float>({n, n}, 3));
  const std::size_t bytes = n * n * sizeof(float);
  (void)cupp::matmul(a, b).eval();  // the handle's workspace, once per thread
  BOOST_TEST(reserved_by([&] { return cupp::ndarray<float>(cupp::matmul(a, b)); }) == bytes);
  BOOST_TEST(reserved_by([&] { return cupp::ndarray<float>(cupp::matmul(a.T(), b)); }) == bytes);
  BOOST_TEST(reserved_by([&] { return cupp::ndarray<float>(cupp::matmul(a.T(), b.T())); }) ==
             bytes);
  BOOST_TEST(reserved_by([&] { return cupp::ndarray<float>(2 * cupp::matmul(a, b) + c); }) ==
             bytes);
  BOOST_TEST(reserved_by([&] { return cupp::ndarray<float>(c - cupp::matmul(a, b) / 2); }) ==
             bytes);
  BOOST_TEST(reserved_by([&] { return cupp::ndarray<float>(cupp::matmul(a, b) * 3 - 2 * c); }) ==
             bytes);
  const auto ac = cupp::asarray(filled<cupp::complex64>({n, n}, 1));
  const auto bc = cupp::asarray(filled<cupp::complex64>({n, n}, 2));
  const std::size_t cbytes = n * n * sizeof(cupp::complex64);
  (void)cupp::matmul(ac, bc).eval();
  BOOST_TEST(reserved_by([&] {
               return cupp::ndarray<cupp::complex64>(cupp::matmul(ac.T(), bc));
             }) == cbytes);
  BOOST_TEST(reserved_by([&] {
               return cupp::ndarray<cupp::complex64>(cupp::matmul(cupp::conj(ac.T()), bc));
             }) == cbytes);
  BOOST_TEST(reserved_by([&] {
               return cupp::ndarray<cupp::complex64>(cupp::matmul(cupp::conj(ac).T(), bc));
             }) == cbytes);
  BOOST_TEST(reserved_by([&] {
               return cupp::ndarray<cupp::complex64>(
                   cupp::matmul(cupp::linalg::matrix_transpose(cupp::conj(ac)), bc));
             }) == cbytes);
  // out= straight from the gemm: nothing at all.
  cupp::ndarray<float> out(shape_t{n, n});
  BOOST_TEST(reserved_by([&] { return cupp::matmul(a.T(), b, out).size(); }) == 0u);
  BOOST_TEST(reserved_by([&] { return cupp::dot(a, b, out).size(); }) == 0u);
  // The test can fail: a C-order conj(a) is written out first.
  BOOST_TEST(reserved_by([&] {
               return cupp::ndarray<cupp::complex64>(cupp::matmul(cupp::conj(ac), bc));
             }) == 2 * cbytes);
}
#endif

BOOST_AUTO_TEST_SUITE_END()
