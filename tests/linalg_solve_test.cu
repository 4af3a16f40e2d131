// numpy.linalg.solve, inv, det, slogdet and cholesky on host arrays
// (LAPACKE) and, with CUPP_TEST_DEVICE=1, on device arrays (cupp's register
// kernels up to 8 x 8, cuBLAS's batched routines for stacks, cuSOLVER for
// single matrices): NumPy's values (tests/generate_linalg_solve_fixtures.py)
// for every dtype in C, F, transposed and strided layouts, broadcast stacks,
// 0 x 0 matrices and empty stacks; residual properties on larger matrices
// (40, a stack of 40, 130); NumPy's messages; the unchecked scope.
#include <cupp/creation.hpp>
#include <cupp/linalg/solve.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/npy.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "cupp_test.hpp"
#include "test_space.hpp"

using cupp::index_t;
using cupp::shape_t;
using cupp_test::array;
using cupp_test::on_space;
using cupp_test::to_host;
namespace la = cupp::linalg;

namespace {

using cplx = std::complex<double>;

template <class T>
cupp::host::ndarray<T> load(const std::string& name) {
  return cupp::host::load<T>(cupp_test::fixture("linalg/solve/" + name + ".npy"));
}

template <class T>
cplx as_cplx(const T& v) {
  if constexpr (cupp::detail::is_complex_type_v<T>)
    return {static_cast<double>(v.real()), static_cast<double>(v.imag())};
  else
    return {cupp::detail::convert<double>(v), 0.0};
}

template <class T>
std::vector<cplx> values_of(const cupp::host::ndarray<T>& h) {
  std::vector<cplx> r;
  for (const T& v : h.to_vector()) r.push_back(as_cplx(v));
  return r;
}

template <class R>
double eps() {
  return std::numeric_limits<cupp::detail::lapack_real_t<R>>::epsilon();
}

// Every element within tol times the largest |want| (or 1), and the shapes
// equal.
template <class R>
void expect_close(const array<R>& got, const cupp::host::ndarray<R>& want, double tol,
                  const std::string& what) {
  BOOST_TEST_REQUIRE(got.shape() == want.shape(),
                     what << ": shape " << cupp::detail::np_shape(got.shape())
                          << " != " << cupp::detail::np_shape(want.shape()));
  const auto g = values_of(to_host(got)), w = values_of(want);
  double scale = 1;
  for (const cplx& v : w) scale = std::max(scale, std::abs(v));
  for (std::size_t i = 0; i < g.size(); ++i)
    BOOST_TEST(std::abs(g[i] - w[i]) <= tol * scale,
               what << " element " << i << ": " << g[i] << " != " << w[i]);
}

// h in layout 0 C order, 1 F order, 2 the matrices' transposes stored in
// C order and viewed transposed, 3 every other element of a larger array.
template <class T>
array<T> in_layout(const cupp::host::ndarray<T>& h, int layout) {
  if (layout == 1) {
    auto f = cupp::host::empty<T>(h.shape(), cupp::order::F);
    cupp::copyto(f, h);
    return on_space(f);
  }
  if (layout == 2 && h.ndim() >= 2)
    return on_space(cupp::host::ndarray<T>(h.swapaxes(-1, -2).copy())).swapaxes(-1, -2);
  if (layout == 3) {
    shape_t big = h.shape();
    for (int i = 0; i < big.size(); ++i) big[i] *= 2;
    const auto g = on_space(cupp::host::ndarray<T>(cupp::host::zeros<T>(big)));
    cupp::strides_t st = g.strides();
    for (int i = 0; i < st.size(); ++i) st[i] *= 2;
    const array<T> v(g.data(), h.shape(), st, g.memory(), g.device_id(), false);
    cupp::copyto(v, on_space(h));
    return v;
  }
  return on_space(h);
}

template <class T>
void check_case(const std::string& dtype, const std::string& name) {
  using R = cupp::detail::linalg_type_t<T>;
  using Re = cupp::detail::lapack_real_t<R>;
  const std::string p = dtype + "_" + name + "_";
  const auto ha = load<T>(p + "a"), hb = load<T>(p + "b"), hspd = load<T>(p + "spd");
  const double tol = 2e3 * eps<R>();
  for (int layout : {0, 1, 2, 3}) {
    BOOST_TEST_CONTEXT(p << " layout " << layout) {
      const array<T> a = in_layout(ha, layout), b = in_layout(hb, layout);
      expect_close(la::solve(a, b), load<R>(p + "x"), tol, "solve");
      expect_close(la::inv(a), load<R>(p + "inv"), tol, "inv");
      const auto d = la::det(a);
      static_assert(std::is_same_v<decltype(d), const array<R>>);
      expect_close(d, load<R>(p + "det"), tol, "det");
      const auto [sign, logabs] = la::slogdet(a);
      static_assert(std::is_same_v<decltype(logabs), const array<Re>>);
      expect_close(sign, load<R>(p + "sign"), tol, "sign");
      expect_close(logabs, load<Re>(p + "logabs"), tol, "logabsdet");
      // NumPy reads one triangle: garbage in the other changes nothing.
      auto lower_only = hspd.copy(), upper_only = hspd.copy();
      const index_t n = ha.shape()[ha.ndim() - 1];
      for (index_t e = 0; e < hspd.size(); ++e) {
        const index_t i = (e / n) % n, j = e % n;
        if (j > i) lower_only.data()[e] = cupp::detail::convert<T>(777.0);
        if (j < i) upper_only.data()[e] = cupp::detail::convert<T>(-555.0);
      }
      expect_close(la::cholesky(in_layout(lower_only, layout)), load<R>(p + "l"), tol, "cholesky");
      expect_close(la::cholesky(in_layout(upper_only, layout), true), load<R>(p + "u"), tol,
                   "cholesky upper");
      // The operands are left as they were.
      BOOST_TEST((values_of(to_host(a)) == values_of(ha)));
      BOOST_TEST((values_of(to_host(b)) == values_of(hb)));
    }
  }
}

// A deterministic matrix of normal-ish values (no diagonal boost, so that
// pivoting happens).
template <class T>
cupp::host::ndarray<T> noise(const shape_t& s, unsigned seed) {
  auto h = cupp::host::empty<T>(s);
  std::uint64_t x = 0x9e3779b97f4a7c15ull * (seed + 1);
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return static_cast<double>(x % 20001) / 10000.0 - 1.0;
  };
  for (index_t i = 0; i < h.size(); ++i) {
    if constexpr (cupp::detail::is_complex_type_v<T>) {
      const double re = next(), im = next();
      h.data()[i] = T(re, im);
    } else {
      h.data()[i] = static_cast<T>(next());
    }
  }
  return h;
}

// max |x| of a stack as complex doubles.
inline double max_abs(const std::vector<cplx>& v) {
  double m = 0;
  for (const cplx& x : v) m = std::max(m, std::abs(x));
  return m;
}

// Backward errors of solve, inv and cholesky on (count, n, n) stacks:
// |A x - b|, |A X - I| and |L L^H - A| against n eps |A| |x|.
template <class R>
void check_properties(index_t count, index_t n, index_t k) {
  BOOST_TEST_CONTEXT("properties " << count << " x " << n << " x " << n << ", k " << k) {
    const double bound = 100.0 * static_cast<double>(n) * eps<R>();
    const auto ha = noise<R>({count, n, n}, static_cast<unsigned>(n)),
               hb = noise<R>({count, n, k}, 7);
    const auto av = values_of(ha), bv = values_of(hb);
    const auto xv = values_of(to_host(la::solve(on_space(ha), on_space(hb))));
    const auto iv = values_of(to_host(la::inv(on_space(ha))));
    const double amax = max_abs(av), xmax = max_abs(xv), imax = max_abs(iv);
    for (index_t m = 0; m < count; ++m)
      for (index_t i = 0; i < n; ++i) {
        for (index_t c = 0; c < k; ++c) {
          cplx r = -bv[(m * n + i) * k + c];
          for (index_t j = 0; j < n; ++j) r += av[(m * n + i) * n + j] * xv[(m * n + j) * k + c];
          BOOST_TEST(std::abs(r) <= bound * amax * xmax, "solve residual " << std::abs(r));
        }
        for (index_t c = 0; c < n; ++c) {
          cplx r = i == c ? -1.0 : 0.0;
          for (index_t j = 0; j < n; ++j) r += av[(m * n + i) * n + j] * iv[(m * n + j) * n + c];
          BOOST_TEST(std::abs(r) <= bound * amax * imax, "inv residual " << std::abs(r));
        }
      }
    // A Hermitian positive definite stack: B B^H + n I.
    auto hs = cupp::host::empty<R>({count, n, n});
    for (index_t m = 0; m < count; ++m)
      for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j) {
          cplx s = i == j ? static_cast<double>(n) : 0.0;
          for (index_t l = 0; l < n; ++l)
            s += av[(m * n + i) * n + l] * std::conj(av[(m * n + j) * n + l]);
          if constexpr (cupp::detail::is_complex_type_v<R>)
            hs.data()[(m * n + i) * n + j] = R(s.real(), s.imag());
          else
            hs.data()[(m * n + i) * n + j] = static_cast<R>(s.real());
        }
    const auto sv = values_of(hs);
    const auto lv = values_of(to_host(la::cholesky(on_space(hs))));
    const double smax = max_abs(sv);
    for (index_t m = 0; m < count; ++m)
      for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j) {
          if (j > i) BOOST_TEST(lv[(m * n + i) * n + j] == cplx(0), "L not lower");
          cplx s = -sv[(m * n + i) * n + j];
          for (index_t l = 0; l < n; ++l)
            s += lv[(m * n + i) * n + l] * std::conj(lv[(m * n + j) * n + l]);
          BOOST_TEST(std::abs(s) <= bound * smax, "L L^H residual " << std::abs(s));
        }
  }
}

template <class T>
array<T> constant(const shape_t& s, double v) {
  return on_space(cupp::host::ndarray<T>(cupp::host::full<T>(s, static_cast<T>(v))));
}

template <class T>
array<T> eye_of(index_t n) {
  return on_space(cupp::host::ndarray<T>(cupp::host::eye<T>(n)));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(linalg_solve)

BOOST_AUTO_TEST_CASE(numpy_values) {
  for (const std::string& line : cupp_test::fixture_lines("linalg/solve/cases.txt")) {
    std::istringstream in(line);
    std::string dtype, name;
    in >> dtype >> name;
    if (dtype == "float32") check_case<float>(dtype, name);
    if (dtype == "float64") check_case<double>(dtype, name);
    if (dtype == "complex64") check_case<cupp::complex64>(dtype, name);
    if (dtype == "complex128") check_case<cupp::complex128>(dtype, name);
    if (dtype == "int64") check_case<std::int64_t>(dtype, name);
  }
}

BOOST_AUTO_TEST_CASE(larger_matrices) {
  check_properties<float>(1, 40, 3);
  check_properties<double>(1, 40, 1);
  check_properties<cupp::complex64>(3, 40, 2);
  check_properties<cupp::complex128>(3, 40, 1);
  check_properties<double>(2, 130, 2);
  check_properties<float>(300, 3, 2);
  check_properties<double>(1, 3, 300);  // many right-hand sides: getrs on the device
}

BOOST_AUTO_TEST_CASE(result_dtypes) {
  const array<float> f = eye_of<float>(2);
  static_assert(std::is_same_v<decltype(la::solve(f, constant<float>({2}, 1))), array<float>>);
  static_assert(std::is_same_v<decltype(la::solve(f, constant<cupp::complex64>({2}, 1))),
                               array<cupp::complex64>>);
  static_assert(
      std::is_same_v<decltype(la::solve(f, constant<std::int32_t>({2}, 1))), array<double>>);
  static_assert(
      std::is_same_v<decltype(la::solve(eye_of<double>(2), constant<cupp::complex64>({2}, 1))),
                     array<cupp::complex128>>);
  static_assert(std::is_same_v<decltype(la::inv(constant<std::int8_t>({2, 2}, 1))), array<double>>);
  // bool and integers compute in float64; expressions are evaluated once.
  const auto id = eye_of<bool>(3);
  const auto r = to_host(la::inv(id)).to_vector();
  BOOST_TEST((r == std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
  const auto x = to_host(la::solve(eye_of<float>(3) * 2.0f, constant<float>({3}, 4))).to_vector();
  BOOST_TEST((x == std::vector<float>{2, 2, 2}));
  BOOST_TEST(to_host(la::det(id)).item() == 1.0);
  const auto l = to_host(la::cholesky(eye_of<std::int32_t>(2) * 4)).to_vector();
  BOOST_TEST((l == std::vector<double>{2, 0, 0, 2}));
}

BOOST_AUTO_TEST_CASE(shape_errors) {
  using cupp_test::message_of;
  const auto m33 = constant<double>({3, 3}, 1), m233 = constant<double>({2, 3, 3}, 1);
  BOOST_TEST(message_of([&] { la::solve(m33, constant<double>({2}, 1)); }) ==
             "solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
             "signature (m,m),(m)->(m) (size 2 is different from 3)");
  BOOST_TEST(message_of([&] {
               la::solve(m33, constant<double>({2, 3}, 1));
             }) ==
             "solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
             "signature (m,m),(m,n)->(m,n) (size 2 is different from 3)");
  BOOST_TEST(message_of([&] {
               la::solve(m233, constant<double>({4, 3, 1}, 1));
             }) ==
             "operands could not be broadcast together with remapped shapes "
             "[original->remapped]: (2,3,3)->(2,newaxis,newaxis) (4,3,1)->(4,newaxis,newaxis)  "
             "and requested shape (3,1)");
  BOOST_TEST(message_of([&] { la::solve(m33, constant<double>({}, 1)); }) ==
             "solve: Input operand 1 does not have enough dimensions (has 0, gufunc core with "
             "signature (m,m),(m,n)->(m,n) requires 2)");
  const auto v3 = constant<double>({3}, 1), m23 = constant<double>({2, 3}, 1);
  const std::string one_d = "1-dimensional array given. Array must be at least two-dimensional";
  const std::string square = "Last 2 dimensions of the array must be square";
  BOOST_CHECK_THROW(la::solve(v3, v3), cupp::linalg_error);
  BOOST_TEST(message_of([&] { la::solve(v3, v3); }) == one_d);
  BOOST_TEST(message_of([&] { la::solve(m23, constant<double>({2}, 1)); }) == square);
  BOOST_TEST(message_of([&] { la::inv(v3); }) == one_d);
  BOOST_TEST(message_of([&] { la::inv(m23); }) == square);
  BOOST_TEST(message_of([&] { la::det(m23); }) == square);
  BOOST_TEST(message_of([&] { la::slogdet(v3); }) == one_d);
  BOOST_TEST(message_of([&] { la::cholesky(m23); }) == square);
  BOOST_CHECK_THROW(la::cholesky(m23), cupp::linalg_error);
  // Shapes NumPy accepts: a broadcast vector stack and empty ones.
  BOOST_TEST(la::solve(constant<double>({0, 2, 2}, 1), constant<double>({2}, 1)).shape() ==
             shape_t({0, 2}));
  BOOST_TEST(la::solve(constant<double>({0, 0}, 1), constant<double>({0, 5}, 1)).shape() ==
             shape_t({0, 5}));
  BOOST_TEST(la::solve(eye_of<double>(2), constant<double>({2, 0}, 1)).shape() == shape_t({2, 0}));
  // NumPy factors a even with no right-hand side.
  BOOST_TEST(message_of([&] {
               la::solve(constant<double>({2, 2}, 1), constant<double>({2, 0}, 1));
             }) == "Singular matrix");
  BOOST_TEST(la::det(constant<double>({0, 3, 3}, 1)).shape() == shape_t({0}));
  BOOST_TEST(la::det(constant<float>({2, 0, 0}, 1)).shape() == shape_t({2}));
  BOOST_TEST(
      (to_host(la::det(constant<float>({2, 0, 0}, 1))).to_vector() == std::vector<float>{1, 1}));
}

BOOST_AUTO_TEST_CASE(numerical_errors) {
  using cupp_test::message_of;
  for (index_t n : {2, 3, 12}) {
    BOOST_TEST_CONTEXT("n " << n) {
      // A stack whose second matrix is singular (all ones).
      auto h = cupp::host::ndarray<double>(cupp::host::eye<double>(n) * 2.0 +
                                           cupp::host::zeros<double>({3, n, n}));
      for (index_t e = n * n; e < 2 * n * n; ++e) h.data()[e] = 1;
      const auto a = on_space(h), a1 = on_space(cupp::host::ndarray<double>(h(1)));
      const auto b = constant<double>({n}, 1);
      for (const auto& m : {a, a1}) {
        BOOST_CHECK_THROW(la::solve(m, b), cupp::linalg_error);
        BOOST_TEST(message_of([&] { la::solve(m, b); }) == "Singular matrix");
        BOOST_TEST(message_of([&] { la::inv(m); }) == "Singular matrix");
        BOOST_TEST(message_of([&] { la::cholesky(m); }) == "Matrix is not positive definite");
      }
      // det and slogdet of a singular matrix are NumPy's 0 and (0, -inf).
      const auto d = to_host(la::det(a)).to_vector();
      BOOST_TEST(d[1] == 0.0);
      BOOST_TEST(std::abs(d[0] - std::pow(2.0, static_cast<double>(n))) < 1e-9 * d[0]);
      const auto [sign, logabs] = la::slogdet(a);
      BOOST_TEST(to_host(sign).to_vector()[1] == 0.0);
      BOOST_TEST(to_host(logabs).to_vector()[1] == -std::numeric_limits<double>::infinity());
      const auto [csign, clog] = la::slogdet(array<cupp::complex64>(a.astype<cupp::complex64>()));
      BOOST_TEST((to_host(csign).to_vector()[1] == cupp::complex64(0)));
      BOOST_TEST(to_host(clog).to_vector()[1] == -std::numeric_limits<float>::infinity());
      // Unchecked: no exception, nothing waited for.
      {
        la::unchecked scope;
        BOOST_CHECK_NO_THROW(la::solve(a, b));
        BOOST_CHECK_NO_THROW(la::solve(a1, b));
        BOOST_CHECK_NO_THROW(la::inv(a));
        BOOST_CHECK_NO_THROW(la::cholesky(a1));
        const auto x = to_host(la::solve(a, b));
        BOOST_TEST(x.to_vector()[0] == 0.5);  // the regular matrices solved as ever
        bool finite = true;
        for (double v : to_host(la::inv(a1)).to_vector()) finite = finite && std::isfinite(v);
        BOOST_TEST(!finite, "a singular matrix's inverse holds Inf or NaN");
      }
      BOOST_CHECK_THROW(la::inv(a1), cupp::linalg_error);
    }
  }
  // A negative pivot is not positive definite either.
  BOOST_TEST(message_of([&] {
               la::cholesky(constant<float>({1, 1}, -1));
             }) == "Matrix is not positive definite");
}

// NumPy's LU and Cholesky routines take a NaN matrix without an error: its
// inverse, solution and determinant are NaN (the inverse's entries as the
// BLAS kernels propagate it),
// the other matrices of the stack untouched; cholesky of a NaN pivot gives
// NaN factors, not "Matrix is not positive definite".
template <class T>
void check_nan_input() {
  const auto nan = std::numeric_limits<double>::quiet_NaN();
  auto h = cupp::host::zeros<T>(shape_t{2, 2, 2}).eval();
  const double values[] = {2, 0, 0, 2, 1, nan, 2, 3};
  for (index_t i = 0; i < 8; ++i) h.data()[i] = T(values[i]);
  const auto a = on_space(h);
  const auto is_nan = [](const cplx& v) { return std::isnan(v.real()) || std::isnan(v.imag()); };
  const auto inv = values_of(to_host(la::inv(a)));
  for (index_t i = 0; i < 4; ++i) BOOST_TEST(inv[i] == (i % 3 == 0 ? cplx(0.5) : cplx(0)));
  // Which entries of the NaN matrix's inverse come out NaN is the BLAS
  // kernel's affair: OpenBLAS's generic kernels (chosen where it does not
  // recognise the CPU) leave one of the four finite, as NumPy's would.
  int nan_entries = 0;
  for (index_t i = 4; i < 8; ++i) nan_entries += is_nan(inv[i]);
  BOOST_TEST(nan_entries >= 3);
  const auto x = values_of(to_host(la::solve(a, constant<T>({2}, 1))));
  BOOST_TEST(x[0] == cplx(0.5));
  BOOST_TEST(x[1] == cplx(0.5));
  BOOST_TEST(is_nan(x[2]));
  BOOST_TEST(is_nan(x[3]));
  const auto d = values_of(to_host(la::det(a)));
  BOOST_TEST(d[0] == cplx(4));
  BOOST_TEST(is_nan(d[1]));
  const auto [sign, logabs] = la::slogdet(a);
  BOOST_TEST(std::isnan(static_cast<double>(to_host(logabs).to_vector()[1])));
  for (index_t i = 0; i < 8; ++i) h.data()[i] = T(i == 4 ? nan : values[i % 4]);
  const auto c = values_of(to_host(la::cholesky(on_space(h))));
  BOOST_TEST(std::abs(c[0] - std::sqrt(2.0)) < 1e-6);
  BOOST_TEST(is_nan(c[4]));
  BOOST_TEST(c[5] == cplx(0));
}

BOOST_AUTO_TEST_CASE(nan_input) {
  check_nan_input<double>();
  check_nan_input<cupp::complex64>();
}

// The small-matrix kernels' branches against LAPACK on host arrays: a read
// through the staged tile (C-order and transposed dense stacks), in place
// (F order, strided, broadcast), several blocks with a partial last one,
// orders whose tile does not fit (8 x 8 complex128).
template <class R>
void check_small_paths(index_t count, index_t n) {
  BOOST_TEST_CONTEXT("small paths " << count << " x " << n << " x " << n) {
    const double tol = 2000.0 * static_cast<double>(n) * eps<R>();
    auto h = noise<R>({count, n, n}, 11);
    for (index_t m = 0; m < count; ++m)
      for (index_t i = 0; i < n; ++i) h.data()[(m * n + i) * n + i] += R(1);
    const auto hb = noise<R>({count, n, 2}, 5);
    const cupp::host::ndarray<R> want_inv = la::inv(h), want_x = la::solve(h, hb),
                                 want_det = la::det(h);
    for (int layout = 0; layout < 4; ++layout) {
      BOOST_TEST_CONTEXT("layout " << layout) {
        const auto a = in_layout(h, layout);
        expect_close(la::inv(a), want_inv, tol, "inv");
        expect_close(la::solve(a, on_space(hb)), want_x, tol, "solve");
        expect_close(la::det(a), want_det, tol, "det");
        cupp::linalg::unchecked scope;
        expect_close(la::inv(a), want_inv, tol, "inv unchecked");
      }
    }
    // One matrix for the whole stack.
    auto one = noise<R>({n, n}, 13);
    for (index_t i = 0; i < n; ++i) one.data()[i * n + i] += R(2);
    const auto wide = cupp::broadcast_to(on_space(one), shape_t{count, n, n});
    expect_close(
        la::inv(wide),
        cupp::host::ndarray<R>(cupp::broadcast_to(la::inv(one), shape_t{count, n, n}).copy()), tol,
        "inv broadcast");
    // A singular matrix in the last, partial block.
    auto hs = h.copy();
    for (index_t i = 0; i < n * n; ++i) hs.data()[(count - 1) * n * n + i] = R(0);
    BOOST_TEST(cupp_test::message_of([&] { la::inv(on_space(hs)); }) == "Singular matrix");
    BOOST_CHECK_NO_THROW(la::inv(on_space(h)));  // the status word is cleared again
  }
}

// cholesky's copies (tiled from n = 32, transposing or not, else element by
// element; batched potrf up to 128, a loop beyond), lower and upper, on
// inputs whose other triangle is garbage that must not be read.
template <class R>
void check_cholesky_paths(index_t count, index_t n) {
  BOOST_TEST_CONTEXT("cholesky paths " << count << " x " << n << " x " << n) {
    const double tol = 200.0 * static_cast<double>(n) * eps<R>();
    const auto b = noise<R>({count, n, n}, 3);
    const auto bv = values_of(b);
    auto lower = cupp::host::empty<R>({count, n, n}), upper = lower.copy();
    for (index_t m = 0; m < count; ++m)
      for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j) {
          cplx s = i == j ? static_cast<double>(n) : 0.0;
          for (index_t l = 0; l < n; ++l)
            s += bv[(m * n + i) * n + l] * std::conj(bv[(m * n + j) * n + l]);
          const index_t e = (m * n + i) * n + j;
          const cplx junk(1e3 + static_cast<double>(e), -7.0);
          const cplx lo = j <= i ? s : junk, up = j >= i ? s : junk;
          if constexpr (cupp::detail::is_complex_type_v<R>) {
            lower.data()[e] = R(lo.real(), lo.imag());
            upper.data()[e] = R(up.real(), up.imag());
          } else {
            lower.data()[e] = static_cast<R>(lo.real());
            upper.data()[e] = static_cast<R>(up.real());
          }
        }
    const cupp::host::ndarray<R> want_l = la::cholesky(lower), want_u = la::cholesky(upper, true);
    for (int layout = 0; layout < 4; ++layout) {
      BOOST_TEST_CONTEXT("layout " << layout) {
        const auto a = in_layout(lower, layout);
        const auto l = la::cholesky(a);
        expect_close(l, want_l, tol, "cholesky");
        const auto lv = values_of(to_host(l));
        for (index_t e = 0; e < l.size(); ++e)
          if (e % n > e / n % n) BOOST_TEST(lv[e] == cplx(0), "L element " << e);
        BOOST_TEST((values_of(to_host(a)) == values_of(lower)));
        const auto u = la::cholesky(in_layout(upper, layout), true);
        expect_close(u, want_u, tol, "cholesky upper");
        const auto uv = values_of(to_host(u));
        for (index_t e = 0; e < u.size(); ++e)
          if (e % n < e / n % n) BOOST_TEST(uv[e] == cplx(0), "U element " << e);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(device_paths) {
  check_small_paths<float>(300, 4);
  check_small_paths<double>(300, 3);
  check_small_paths<float>(300, 8);
  check_small_paths<cupp::complex128>(130, 8);
  check_small_paths<double>(5, 1);
  check_cholesky_paths<double>(1, 40);
  check_cholesky_paths<cupp::complex64>(1, 33);
  check_cholesky_paths<float>(3, 5);
  check_cholesky_paths<cupp::complex128>(2, 64);
  check_cholesky_paths<double>(2, 130);
}

BOOST_AUTO_TEST_SUITE_END()
