// numpy.linalg.qr (every mode), eigh/eigvalsh and eig/eigvals on host
// arrays (LAPACKE) and, with CUPP_TEST_DEVICE=1, on device arrays
// (cuSOLVER, cuBLAS's batched QR): against NumPy's results
// (tests/generate_linalg_decomp_fixtures.py) where they are unique (QR's
// Householder factors, eigenvalues), and by properties where they are not
// (eigenvectors): Q^H Q = I, R upper-triangular, QR = A, A V = V diag(w),
// V^H V = I, A v = l v, bounds scaled by the dtype's epsilon and the
// matrix's size. Every dtype, C, F, transposed, strided and broadcast
// layouts, stacks, empty and 1x1 matrices, NumPy's messages.
#include <cupp/creation.hpp>
#include <cupp/linalg/eigen.hpp>
#include <cupp/linalg/qr.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/npy.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
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
using c128 = cupp::complex128;

namespace {

template <class T>
c128 to_c(const T& x) {
  if constexpr (cupp::detail::is_complex_type_v<T>)
    return c128(x.real(), x.imag());
  else
    return c128(static_cast<double>(x), 0.0);
}

// The epsilon of the dtype a result is computed in.
template <class R>
double eps_of() {
  return std::numeric_limits<cupp::detail::lapack_real_t<R>>::epsilon();
}

// A stack of matrices on the host as complex128, C order: matrix b,
// element (i, j) at at(b, i, j).
struct cmat {
  index_t count = 0, rows = 0, cols = 0;
  std::vector<c128> v;
  c128 at(index_t b, index_t i, index_t j) const { return v[(b * rows + i) * cols + j]; }
  double max_abs() const {
    double m = 0;
    for (const auto& x : v) m = std::max(m, cuda::std::abs(x));
    return m;
  }
};

template <class T, class S>
cmat as_cmat(const cupp::ndarray<T, S>& x) {
  cupp::host::ndarray<T> h;
  if constexpr (std::is_same_v<S, cupp::device_space>)
    h = x.get();
  else
    h = x;
  h = h.copy();
  cmat m;
  const int nd = h.ndim();
  m.rows = nd >= 2 ? h.shape()[nd - 2] : 1;
  m.cols = nd >= 1 ? h.shape()[nd - 1] : 1;
  m.count = m.rows * m.cols == 0 ? 0 : h.size() / (m.rows * m.cols);
  for (const auto& e : h.to_vector()) m.v.push_back(to_c(e));
  return m;
}

template <class T>
cupp::host::ndarray<T> load(const std::string& name) {
  return cupp::host::load<T>(cupp_test::fixture("linalg/decomp/" + name + ".npy"));
}

// The layouts every function is called with: 0 C order, 1 F order, 2 the
// swapped axes of a C-order array of the transposed shape, 3 every other
// element of a last axis twice as long.
constexpr int layouts = 4;

template <class T>
array<T> in_layout(const cupp::host::ndarray<T>& h, int layout) {
  if (layout == 1) {
    auto f = cupp::host::empty<T>(h.shape(), cupp::order::F);
    cupp::copyto(f, h);
    return on_space(f);
  }
  if (layout == 2) return on_space(h.swapaxes(-1, -2).copy()).swapaxes(-1, -2);
  if (layout == 3) {
    const int last = h.ndim() - 1;
    shape_t big = h.shape();
    big[last] = 2 * h.shape()[last];
    cupp::host::ndarray<T> g = cupp::host::zeros<T>(big);
    cupp::copyto(g(cupp::ellipsis, cupp::slice(0, cupp::_, 2)), h);
    return on_space(g)(cupp::ellipsis, cupp::slice(0, cupp::_, 2));
  }
  return on_space(h.copy());
}

void expect_close(const cmat& got, const cmat& want, double tol, const char* what) {
  BOOST_TEST_REQUIRE(got.v.size() == want.v.size(), what);
  double worst = 0;
  for (std::size_t i = 0; i < got.v.size(); ++i)
    worst = std::max(worst, cuda::std::abs(got.v[i] - want.v[i]));
  BOOST_TEST(worst <= tol, what << ": max error " << worst << " > " << tol);
}

// max |X^H X - I| over the stack, for X's columns.
double orthonormality_error(const cmat& x) {
  double worst = 0;
  for (index_t b = 0; b < x.count; ++b)
    for (index_t i = 0; i < x.cols; ++i)
      for (index_t j = 0; j < x.cols; ++j) {
        c128 s = 0;
        for (index_t r = 0; r < x.rows; ++r) s += cuda::std::conj(x.at(b, r, i)) * x.at(b, r, j);
        worst = std::max(worst, cuda::std::abs(s - c128(i == j ? 1.0 : 0.0)));
      }
  return worst;
}

// max |X Y - A| over the stack.
double product_error(const cmat& x, const cmat& y, const cmat& a) {
  double worst = 0;
  for (index_t b = 0; b < a.count; ++b)
    for (index_t i = 0; i < a.rows; ++i)
      for (index_t j = 0; j < a.cols; ++j) {
        c128 s = 0;
        for (index_t l = 0; l < x.cols; ++l) s += x.at(b, i, l) * y.at(b, l, j);
        worst = std::max(worst, cuda::std::abs(s - a.at(b, i, j)));
      }
  return worst;
}

// ---------------------------------------------------------------- qr

template <class T>
void check_qr_case(const std::string& dtype, const std::string& name, int layout) {
  using R = cupp::detail::linalg_type_t<T>;
  const std::string p = "qr_" + dtype + "_" + name + "_";
  BOOST_TEST_CONTEXT(p << " layout " << layout) {
    const auto ha = load<T>(p + "a");
    const auto a = in_layout(ha, layout);
    const cmat ca = as_cmat(ha);
    const index_t n = std::max(ca.rows, ca.cols);
    const double tol = 30 * eps_of<R>() * n * std::max(1.0, ca.max_abs());

    auto [h, tau] = cupp::linalg::qr_raw(a);
    static_assert(std::is_same_v<typename decltype(h)::value_type, R>);
    BOOST_TEST(h.shape() == load<R>(p + "h").shape());
    BOOST_TEST(tau.shape() == load<R>(p + "tau").shape());
    expect_close(as_cmat(h), as_cmat(load<R>(p + "h")), tol, "raw h");
    expect_close(as_cmat(tau), as_cmat(load<R>(p + "tau")), tol, "raw tau");
    auto raw = cupp::linalg::qr(a, "raw");
    expect_close(as_cmat(raw.Q), as_cmat(h), 0, "qr(a, \"raw\").Q is h");
    expect_close(as_cmat(raw.R), as_cmat(tau), 0, "qr(a, \"raw\").R is tau");

    for (const char* mode : {"reduced", "complete"}) {
      const std::string suffix = std::string(mode) == "complete" ? "c" : "";
      auto [q, r] = cupp::linalg::qr(a, mode);
      BOOST_TEST_CONTEXT("mode " << mode) {
        const auto wq = load<R>(p + "q" + suffix), wr = load<R>(p + "r" + suffix);
        BOOST_TEST_REQUIRE(q.shape() == wq.shape(), cupp::detail::np_shape(q.shape()));
        BOOST_TEST_REQUIRE(r.shape() == wr.shape(), cupp::detail::np_shape(r.shape()));
        const cmat cq = as_cmat(q), cr = as_cmat(r);
        expect_close(cq, as_cmat(wq), tol, "Q");
        expect_close(cr, as_cmat(wr), tol, "R");
        BOOST_TEST(orthonormality_error(cq) <= tol);
        BOOST_TEST(product_error(cq, cr, ca) <= tol);
        for (index_t b = 0; b < cr.count; ++b)
          for (index_t i = 0; i < cr.rows; ++i)
            for (index_t j = 0; j < std::min(i, cr.cols); ++j)
              BOOST_TEST((cr.at(b, i, j) == c128(0)), "R below the diagonal");
      }
    }
    auto only_r = cupp::linalg::qr(a, "r");
    BOOST_TEST(only_r.Q.shape() == shape_t{0});
    expect_close(as_cmat(only_r.R), as_cmat(load<R>(p + "r")), tol, "mode r");
    // The input is not written.
    expect_close(as_cmat(a), ca, 0, "input unchanged");
  }
}

template <class T>
void check_qr_dtype(const std::string& dtype) {
  for (int layout = 0; layout < layouts; ++layout)
    for (const char* name : {"tall", "wide", "square", "stack", "stackwide"})
      check_qr_case<T>(dtype, name, layout);
}

// Properties of QR for a stack of shape s (values from a fixed formula).
template <class R>
void check_qr_properties(const shape_t& s, const array<R>& a) {
  const cmat ca = as_cmat(a);
  const index_t m = s[s.size() - 2], n = s[s.size() - 1];
  const double tol = 30 * eps_of<R>() * std::max(m, n) * std::max(1.0, ca.max_abs());
  for (const char* mode : {"reduced", "complete"}) {
    auto [q, r] = cupp::linalg::qr(a, mode);
    const cmat cq = as_cmat(q), cr = as_cmat(r);
    BOOST_TEST(orthonormality_error(cq) <= tol, mode);
    BOOST_TEST(product_error(cq, cr, ca) <= tol, mode);
    for (index_t b = 0; b < cr.count; ++b)
      for (index_t i = 0; i < cr.rows; ++i)
        for (index_t j = 0; j < std::min(i, cr.cols); ++j) BOOST_TEST((cr.at(b, i, j) == c128(0)));
  }
}

template <class R>
array<R> formula(const shape_t& s) {
  auto h = cupp::host::empty<R>(s);
  for (index_t i = 0; i < h.size(); ++i) {
    const double v = std::sin(0.7 * static_cast<double>(i) + 0.3) * 3;
    if constexpr (cupp::detail::is_complex_type_v<R>)
      h.data()[i] = R(v, std::cos(1.3 * static_cast<double>(i)));
    else
      h.data()[i] = static_cast<R>(v);
  }
  return on_space(h);
}

// ---------------------------------------------------------------- eigh

template <class T>
void check_eigh_case(const std::string& dtype, const std::string& name, int layout) {
  using R = cupp::detail::linalg_type_t<T>;
  using Re = cupp::detail::lapack_real_t<R>;
  const std::string p = "eigh_" + dtype + "_" + name + "_";
  BOOST_TEST_CONTEXT(p << " layout " << layout) {
    const auto ha = load<T>(p + "a");
    const cmat ca = as_cmat(ha), want = as_cmat(load<Re>(p + "w"));
    const double tol = 30 * eps_of<R>() * ca.rows * std::max(1.0, ca.max_abs());
    // The other triangle holds junk that must not be read.
    for (char uplo : {'L', 'U', 'l', 'u'}) {
      auto junk = ha.copy();
      const index_t k = ca.rows;
      for (index_t b = 0; b < ca.count; ++b)
        for (index_t i = 0; i < k; ++i)
          for (index_t j = 0; j < k; ++j) {
            const bool unread = (uplo == 'L' || uplo == 'l') ? j > i : j < i;
            if (unread) junk.data()[(b * k + i) * k + j] = static_cast<T>(97);
          }
      const auto a = in_layout(junk, layout);
      auto [w, v] = cupp::linalg::eigh(a, uplo);
      static_assert(std::is_same_v<typename decltype(w)::value_type, Re>);
      static_assert(std::is_same_v<typename decltype(v)::value_type, R>);
      BOOST_TEST_REQUIRE(w.shape() == load<Re>(p + "w").shape());
      BOOST_TEST_REQUIRE(v.shape() == ha.shape());
      const cmat cw = as_cmat(w), cv = as_cmat(v);
      expect_close(cw, want, tol, "eigenvalues");
      for (std::size_t i = 1; i < cw.v.size(); ++i)
        if (i % ca.rows != 0) BOOST_TEST(cw.v[i].real() >= cw.v[i - 1].real(), "ascending");
      BOOST_TEST(orthonormality_error(cv) <= tol);
      // A V = V diag(w), A the Hermitian matrix the fixture holds.
      double worst = 0;
      for (index_t b = 0; b < ca.count; ++b)
        for (index_t i = 0; i < k; ++i)
          for (index_t j = 0; j < k; ++j) {
            c128 s = 0;
            for (index_t l = 0; l < k; ++l) s += ca.at(b, i, l) * cv.at(b, l, j);
            worst = std::max(worst, cuda::std::abs(s - cv.at(b, i, j) * cw.v[b * k + j]));
          }
      BOOST_TEST(worst <= tol, "A V - V diag(w) " << worst);
      expect_close(as_cmat(cupp::linalg::eigvalsh(a, uplo)), want, tol, "eigvalsh");
      expect_close(as_cmat(a), as_cmat(junk), 0, "input unchanged");
    }
  }
}

template <class T>
void check_eigh_dtype(const std::string& dtype) {
  for (int layout = 0; layout < layouts; ++layout)
    for (const char* name : {"n4", "stack", "n1"}) check_eigh_case<T>(dtype, name, layout);
}

// ---------------------------------------------------------------- eig

// Each wanted eigenvalue matched to the nearest unused computed one.
void expect_same_set(const cmat& got, const cmat& want, index_t count, index_t n, double tol) {
  BOOST_TEST_REQUIRE(got.v.size() == want.v.size());
  for (index_t b = 0; b < count; ++b) {
    std::vector<bool> used(static_cast<std::size_t>(n), false);
    for (index_t i = 0; i < n; ++i) {
      double best = std::numeric_limits<double>::infinity();
      index_t at = 0;
      for (index_t j = 0; j < n; ++j)
        if (!used[j] && cuda::std::abs(got.v[b * n + j] - want.v[b * n + i]) < best) {
          best = cuda::std::abs(got.v[b * n + j] - want.v[b * n + i]);
          at = j;
        }
      used[at] = true;
      BOOST_TEST(best <= tol, "eigenvalue " << i << " of matrix " << b << " off by " << best);
    }
  }
}

template <class T>
void check_eig(const cupp::host::ndarray<T>& ha, const cmat& want, const std::string& what,
               int layout) {
  using R = cupp::detail::linalg_type_t<T>;
  using C = cupp::detail::eig_complex_t<R>;
  BOOST_TEST_CONTEXT(what << " layout " << layout) {
    const auto a = in_layout(ha, layout);
    const cmat ca = as_cmat(ha);
    const index_t n = ca.rows;
    const double tol = 300 * eps_of<R>() * n * std::max(1.0, ca.max_abs());
    auto [w, v] = cupp::linalg::eig(a);
    static_assert(std::is_same_v<typename decltype(w)::value_type, C>);
    static_assert(std::is_same_v<typename decltype(v)::value_type, C>);
    BOOST_TEST_REQUIRE(v.shape() == ha.shape());
    const cmat cw = as_cmat(w), cv = as_cmat(v);
    expect_same_set(cw, want, ca.count, n, tol);
    expect_same_set(as_cmat(cupp::linalg::eigvals(a)), want, ca.count, n, tol);
    double worst = 0, norm_error = 0;
    for (index_t b = 0; b < ca.count; ++b)
      for (index_t j = 0; j < n; ++j) {
        double norm2 = 0;
        for (index_t i = 0; i < n; ++i) {
          c128 s = 0;
          for (index_t l = 0; l < n; ++l) s += ca.at(b, i, l) * cv.at(b, l, j);
          worst = std::max(worst, cuda::std::abs(s - cw.v[b * n + j] * cv.at(b, i, j)));
          norm2 += cuda::std::norm(cv.at(b, i, j));
        }
        norm_error = std::max(norm_error, std::abs(std::sqrt(norm2) - 1));
      }
    BOOST_TEST(worst <= tol, "A v - l v " << worst);
    BOOST_TEST(norm_error <= tol, "unit 2-norm " << norm_error);
  }
}

template <class T>
void check_eig_dtype(const std::string& dtype) {
  for (int layout = 0; layout < layouts; ++layout)
    for (const char* name : {"n4", "stack", "n1"}) {
      const std::string p = "eig_" + dtype + "_" + name + "_";
      check_eig(load<T>(p + "a"), as_cmat(load<c128>(p + "w")), p, layout);
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(linalg_decomp)

BOOST_AUTO_TEST_CASE(qr_against_numpy) {
  check_qr_dtype<float>("float32");
  check_qr_dtype<double>("float64");
  check_qr_dtype<cupp::complex64>("complex64");
  check_qr_dtype<cupp::complex128>("complex128");
  check_qr_dtype<std::int64_t>("int64");
}

BOOST_AUTO_TEST_CASE(qr_stacks_and_sizes) {
  // Small stacks (cuBLAS's batched QR and cupp's Q kernel on the device),
  // matrices past its size limit (cuSOLVER per matrix), wide stacks.
  for (const shape_t& s : {shape_t{40, 6, 4}, shape_t{2, 3, 5, 5}, shape_t{3, 1, 1},
                           shape_t{2, 150, 20}, shape_t{2, 20, 150}, shape_t{70, 70}}) {
    BOOST_TEST_CONTEXT(cupp::detail::np_shape(s)) {
      check_qr_properties<double>(s, formula<double>(s));
      check_qr_properties<cupp::complex64>(s, formula<cupp::complex64>(s));
    }
  }
  // A broadcast stack: every matrix the fixture's, so every result NumPy's.
  const auto ha = load<double>("qr_float64_tall_a");
  const auto a = cupp::broadcast_to(on_space(ha), shape_t{3, 5, 3});
  auto [q, r] = cupp::linalg::qr(a);
  const cmat cq = as_cmat(q), cr = as_cmat(r), wq = as_cmat(load<double>("qr_float64_tall_q")),
             wr = as_cmat(load<double>("qr_float64_tall_r"));
  for (index_t b = 0; b < 3; ++b)
    for (index_t i = 0; i < 15; ++i)
      BOOST_TEST(cuda::std::abs(cq.v[b * 15 + i] - wq.v[i]) <= 1e-12);
  for (index_t b = 0; b < 3; ++b)
    for (index_t i = 0; i < 9; ++i) BOOST_TEST(cuda::std::abs(cr.v[b * 9 + i] - wr.v[i]) <= 1e-12);
  // An expression as the operand: evaluated once, then factored.
  auto [q2, r2] = cupp::linalg::qr(on_space(ha) * 2.0);
  const cmat c2 = as_cmat(r2);
  for (index_t i = 0; i < 9; ++i) BOOST_TEST(cuda::std::abs(c2.v[i] - 2.0 * wr.v[i]) <= 1e-12);
  (void)q2;
  // 1x1: Q = [[1]] (LAPACK's tau = 0 for a real 1x1), R = a.
  const auto one = on_space(cupp::host::full<float>({1, 1}, -3.0f).eval());
  auto [q1, r1] = cupp::linalg::qr(one);
  BOOST_TEST(as_cmat(q1).v[0] == c128(1.0));
  BOOST_TEST(as_cmat(r1).v[0] == c128(-3.0));
}

BOOST_AUTO_TEST_CASE(qr_empty) {
  // NumPy's shapes; mode "complete" of an M x 0 matrix gives Q = I.
  struct expect {
    shape_t a, q, r, qc, rc, h, tau;
  };
  for (const expect& e :
       {expect{{3, 0}, {3, 0}, {0, 0}, {3, 3}, {3, 0}, {0, 3}, {0}},
        expect{{0, 3}, {0, 0}, {0, 3}, {0, 0}, {0, 3}, {3, 0}, {0}},
        expect{{2, 0, 0}, {2, 0, 0}, {2, 0, 0}, {2, 0, 0}, {2, 0, 0}, {2, 0, 0}, {2, 0}},
        expect{{0, 3, 2}, {0, 3, 2}, {0, 2, 2}, {0, 3, 3}, {0, 3, 2}, {0, 2, 3}, {0, 2}}}) {
    BOOST_TEST_CONTEXT(cupp::detail::np_shape(e.a)) {
      const auto a = on_space(cupp::host::zeros<double>(e.a).eval());
      auto [q, r] = cupp::linalg::qr(a);
      BOOST_TEST(q.shape() == e.q);
      BOOST_TEST(r.shape() == e.r);
      auto [qc, rc] = cupp::linalg::qr(a, "complete");
      BOOST_TEST(qc.shape() == e.qc);
      BOOST_TEST(rc.shape() == e.rc);
      auto [h, tau] = cupp::linalg::qr_raw(a);
      BOOST_TEST(h.shape() == e.h);
      BOOST_TEST(tau.shape() == e.tau);
      BOOST_TEST(cupp::linalg::qr(a, "r").R.shape() == e.r);
      if (e.a == shape_t{3, 0}) {
        const cmat c = as_cmat(qc);
        for (index_t i = 0; i < 3; ++i)
          for (index_t j = 0; j < 3; ++j) BOOST_TEST((c.at(0, i, j) == c128(i == j ? 1.0 : 0.0)));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(qr_errors) {
  const auto a = on_space(cupp::host::ones<float>({2, 3}).eval());
  BOOST_TEST(message_of([&] { cupp::linalg::qr(a, "xyz"); }) == "Unrecognized mode 'xyz'");
  BOOST_TEST(message_of([&] { cupp::linalg::qr(a, "economic"); }) ==
             "Unrecognized mode 'economic'");
  BOOST_TEST(message_of([&] { cupp::linalg::qr(a(0)); }) ==
             "1-dimensional array given. Array must be at least two-dimensional");
  BOOST_CHECK_THROW(cupp::linalg::qr(a(0)), cupp::linalg_error);
  BOOST_CHECK_THROW(cupp::linalg::qr_raw(a(0)), cupp::linalg_error);
  // NumPy's deprecated alias of "reduced".
  BOOST_TEST(cupp::linalg::qr(a, "full").Q.shape() == (shape_t{2, 2}));
}

BOOST_AUTO_TEST_CASE(eigh_against_numpy) {
  check_eigh_dtype<float>("float32");
  check_eigh_dtype<double>("float64");
  check_eigh_dtype<cupp::complex64>("complex64");
  check_eigh_dtype<cupp::complex128>("complex128");
  check_eigh_dtype<std::int64_t>("int64");
  // Past the batched routine's size on the device: cusolverDnXsyevd.
  check_eigh_case<double>("float64", "n40", 0);
  check_eigh_case<cupp::complex64>("complex64", "n40", 2);
}

BOOST_AUTO_TEST_CASE(eigh_broadcast_empty_errors) {
  const auto ha = load<double>("eigh_float64_n4_a");
  const cmat want = as_cmat(load<double>("eigh_float64_n4_w"));
  const auto w = as_cmat(cupp::linalg::eigvalsh(cupp::broadcast_to(on_space(ha), {5, 4, 4})));
  for (index_t b = 0; b < 5; ++b)
    for (index_t i = 0; i < 4; ++i) BOOST_TEST(cuda::std::abs(w.v[b * 4 + i] - want.v[i]) <= 1e-12);

  for (const shape_t& s : {shape_t{0, 0}, shape_t{2, 0, 0}, shape_t{0, 3, 3}}) {
    const auto a = on_space(cupp::host::zeros<float>(s).eval());
    auto [ew, ev] = cupp::linalg::eigh(a);
    shape_t ws = s;
    ws.resize(s.size() - 1);
    BOOST_TEST(ew.shape() == ws);
    BOOST_TEST(ev.shape() == s);
    BOOST_TEST(cupp::linalg::eigvalsh(a).shape() == ws);
  }

  const auto sq = on_space(cupp::host::ones<double>({2, 2}).eval());
  const auto rect = on_space(cupp::host::ones<double>({2, 3}).eval());
  BOOST_TEST(message_of([&] { cupp::linalg::eigh(sq, 'X'); }) ==
             "UPLO argument must be 'L' or 'U'");
  BOOST_TEST(message_of([&] { cupp::linalg::eigvalsh(sq, 'X'); }) ==
             "UPLO argument must be 'L' or 'U'");
  BOOST_CHECK_THROW(cupp::linalg::eigh(sq, 'X'), cupp::value_error);
  BOOST_TEST(message_of([&] { cupp::linalg::eigh(rect); }) ==
             "Last 2 dimensions of the array must be square");
  BOOST_CHECK_THROW(cupp::linalg::eigvalsh(rect), cupp::linalg_error);
  BOOST_TEST(message_of([&] { cupp::linalg::eigh(sq(0)); }) ==
             "1-dimensional array given. Array must be at least two-dimensional");
}

BOOST_AUTO_TEST_CASE(eig_against_numpy) {
  check_eig_dtype<float>("float32");
  check_eig_dtype<double>("float64");
  check_eig_dtype<cupp::complex64>("complex64");
  check_eig_dtype<cupp::complex128>("complex128");
  check_eig_dtype<std::int64_t>("int64");
  // A complex pair and a real eigenvalue of a real matrix: i, -i and 2.
  check_eig(load<double>("eig_rotation_a"), as_cmat(load<c128>("eig_rotation_w")), "rotation", 0);
  const auto w = as_cmat(cupp::linalg::eigvals(on_space(load<double>("eig_rotation_a"))));
  expect_same_set(w, as_cmat(load<c128>("eig_rotation_w")), 1, 3, 1e-14);
}

BOOST_AUTO_TEST_CASE(eig_broadcast_empty_errors) {
  const auto ha = load<double>("eig_float64_n4_a");
  const cmat want = as_cmat(load<c128>("eig_float64_n4_w"));
  cmat stacked;
  for (index_t b = 0; b < 3; ++b) stacked.v.insert(stacked.v.end(), want.v.begin(), want.v.end());
  const auto w = as_cmat(cupp::linalg::eigvals(cupp::broadcast_to(on_space(ha), {3, 4, 4})));
  expect_same_set(w, stacked, 3, 4, 1e-12);

  for (const shape_t& s : {shape_t{0, 0}, shape_t{2, 0, 0}, shape_t{0, 3, 3}}) {
    const auto a = on_space(cupp::host::zeros<float>(s).eval());
    auto [ew, ev] = cupp::linalg::eig(a);
    static_assert(std::is_same_v<decltype(ew)::value_type, cupp::complex64>);
    shape_t ws = s;
    ws.resize(s.size() - 1);
    BOOST_TEST(ew.shape() == ws);
    BOOST_TEST(ev.shape() == s);
    BOOST_TEST(cupp::linalg::eigvals(a).shape() == ws);
  }

  const auto rect = on_space(cupp::host::ones<double>({2, 3}).eval());
  BOOST_TEST(message_of([&] { cupp::linalg::eig(rect); }) ==
             "Last 2 dimensions of the array must be square");
  BOOST_CHECK_THROW(cupp::linalg::eigvals(rect), cupp::linalg_error);
  auto hn = cupp::host::ones<double>({2, 2}).eval();
  hn.data()[1] = std::numeric_limits<double>::quiet_NaN();
  const auto with_nan = on_space(hn);
  BOOST_TEST(message_of([&] { cupp::linalg::eig(with_nan); }) ==
             "Array must not contain infs or NaNs");
  hn.data()[1] = std::numeric_limits<double>::infinity();
  const auto with_inf = on_space(hn);
  BOOST_TEST(message_of([&] { cupp::linalg::eigvals(with_inf); }) ==
             "Array must not contain infs or NaNs");
}

BOOST_AUTO_TEST_SUITE_END()
