// numpy.linalg.svd and svdvals on host arrays (LAPACKE ?gesdd, ?syevd) and,
// with CUPP_TEST_DEVICE=1, on device arrays (cuSOLVER gesvdjBatched for the
// stacks of small matrices, gesvdp / gesvd for the larger ones, syevd):
// singular values against NumPy's (tests/generate_linalg_svd_fixtures.py),
// and, since singular vectors are unique only up to a phase, the factors by
// their properties: reconstruction, orthonormal columns, descending order,
// rank-one pieces u_l vh_l equal to NumPy's where the singular values are
// distinct. Every dtype, C, F, transposed, strided and broadcast layouts,
// full_matrices, compute_uv, hermitian, empty and 1x1 matrices, errors.
#include <cupp/creation.hpp>
#include <cupp/linalg/svd.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/npy.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cupp_test.hpp"
#include "test_space.hpp"

using cupp::index_t;
using cupp::shape_t;
using cupp_test::array;
using cupp_test::on_space;
using cupp_test::to_host;

namespace {

using c128 = std::complex<double>;

template <class T>
std::vector<c128> values_of(const cupp::host::ndarray<T>& x) {
  std::vector<c128> out;
  for (const T& v : x.to_vector()) {
    if constexpr (cupp::detail::is_complex_type_v<T>)
      out.emplace_back(static_cast<double>(v.real()), static_cast<double>(v.imag()));
    else
      out.emplace_back(cupp::detail::convert<double>(v), 0.0);
  }
  return out;
}

template <class T>
cupp::host::ndarray<T> load(const std::string& name) {
  return cupp::host::load<T>(cupp_test::fixture("linalg/svd/" + name + ".npy"));
}

// The factors of one call, on the host in complex128, C order.
struct factors {
  shape_t ushape, sshape, vshape;
  std::vector<c128> u, s, vh;
};

template <class R, class Re>
factors host_factors(const cupp::linalg::svd_result<R, cupp_test::space>& r) {
  return {r.U.shape(),
          r.S.shape(),
          r.Vh.shape(),
          values_of(to_host(r.U)),
          values_of(to_host(r.S)),
          values_of(to_host(r.Vh))};
}

// Every property of a decomposition of `a` (C-order values, stack of m x n).
// `expect_s`: NumPy's singular values; `numpy` (optional): NumPy's reduced
// factors, compared by their rank-one pieces where singular values are
// distinct.
void check_decomposition(const std::vector<c128>& a, const shape_t& ashape, const factors& f,
                         const std::vector<c128>& expect_s, double eps, bool full,
                         const factors* numpy = nullptr) {
  const int nd = ashape.size();
  const index_t m = ashape[nd - 2], n = ashape[nd - 1], k = std::min(m, n);
  const index_t count = cupp::detail::stack_count(ashape);
  const index_t uc = full ? m : k, vr = full ? n : k;
  const shape_t stack = cupp::detail::svd_stack_shape(ashape);
  auto with = [&](std::initializer_list<index_t> t) {
    shape_t s = stack;
    for (index_t x : t) s.push_back(x);
    return s;
  };
  BOOST_TEST_REQUIRE(f.ushape == with({m, uc}), cupp::detail::np_shape(f.ushape));
  BOOST_TEST_REQUIRE(f.sshape == with({k}), cupp::detail::np_shape(f.sshape));
  BOOST_TEST_REQUIRE(f.vshape == with({vr, n}), cupp::detail::np_shape(f.vshape));
  const double tol = 30 * eps * static_cast<double>(std::max<index_t>(m, n));
  for (index_t b = 0; b < count; ++b) {
    const c128* A = a.data() + b * m * n;
    const c128* U = f.u.data() + b * m * uc;
    const c128* S = f.s.data() + b * k;
    const c128* V = f.vh.data() + b * vr * n;
    const double s0 = std::abs(expect_s[b * k]);
    for (index_t l = 0; l < k; ++l) {
      BOOST_TEST(S[l].imag() == 0.0);
      BOOST_TEST(std::abs(S[l] - expect_s[b * k + l]) <= s0 * tol,
                 "matrix " << b << " S[" << l << "] " << S[l].real() << " numpy "
                           << expect_s[b * k + l].real());
      if (l > 0) BOOST_TEST(S[l].real() <= S[l - 1].real(), "descending at " << l);
      BOOST_TEST(S[l].real() >= 0.0);
    }
    double err = 0, norm = 0;
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) {
        c128 acc = 0;
        for (index_t l = 0; l < k; ++l) acc += U[i * uc + l] * S[l] * V[l * n + j];
        err += std::norm(acc - A[i * n + j]);
        norm += std::norm(A[i * n + j]);
      }
    BOOST_TEST(std::sqrt(err) <= tol * std::sqrt(norm), "reconstruction of matrix " << b);
    double ortho = 0;
    for (index_t x = 0; x < uc; ++x)
      for (index_t y = 0; y < uc; ++y) {
        c128 acc = 0;
        for (index_t i = 0; i < m; ++i) acc += std::conj(U[i * uc + x]) * U[i * uc + y];
        ortho = std::max(ortho, std::abs(acc - c128(x == y ? 1.0 : 0.0)));
      }
    for (index_t x = 0; x < vr; ++x)
      for (index_t y = 0; y < vr; ++y) {
        c128 acc = 0;
        for (index_t j = 0; j < n; ++j) acc += V[x * n + j] * std::conj(V[y * n + j]);
        ortho = std::max(ortho, std::abs(acc - c128(x == y ? 1.0 : 0.0)));
      }
    BOOST_TEST(ortho <= tol, "orthonormality of matrix " << b << ": " << ortho);
    if (!numpy) continue;
    const c128* NU = numpy->u.data() + b * m * k;
    const c128* NV = numpy->vh.data() + b * k * n;
    for (index_t l = 0; l < k; ++l) {
      const double gap = std::min(l > 0 ? S[l - 1].real() - S[l].real() : s0,
                                  l + 1 < k ? S[l].real() - S[l + 1].real() : s0);
      if (gap < 1e-3 * s0) continue;
      double diff = 0;
      for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j)
          diff = std::max(diff,
                          std::abs(U[i * uc + l] * V[l * n + j] - NU[i * k + l] * NV[l * n + j]));
      BOOST_TEST(diff <= tol * s0 / gap, "singular vectors " << l << " of matrix " << b);
    }
  }
}

const char* const cases[] = {"square4",      "tall5x3",    "wide3x5",          "one",
                             "stack2x3x4x3", "large40x33", "largewide2x33x40", "large48"};

template <class T>
double eps_of() {
  using R = cupp::detail::linalg_type_t<T>;
  return std::numeric_limits<cupp::detail::lapack_real_t<R>>::epsilon();
}

// The layouts one fixture is tried in: C, F, transposed (an F-ordered copy
// read through .swapaxes), strided (every other column of a wider array).
template <class T>
std::vector<array<T>> layouts(const cupp::host::ndarray<T>& h) {
  std::vector<array<T>> out;
  const array<T> c = on_space(h);
  out.push_back(c);
  out.push_back(c.copy(cupp::order::F));
  out.push_back(c.swapaxes(-1, -2).copy().swapaxes(-1, -2));
  shape_t wide = h.shape();
  wide[wide.size() - 1] *= 2;
  array<T> w = on_space(cupp::host::zeros<T>(wide).eval());
  w(cupp::ellipsis, cupp::slice(cupp::_, cupp::_, 2)) = c;
  out.push_back(w(cupp::ellipsis, cupp::slice(cupp::_, cupp::_, 2)));
  return out;
}

template <class T>
void check_fixtures() {
  using R = cupp::detail::linalg_type_t<T>;
  using Re = cupp::detail::lapack_real_t<R>;
  const std::string dtype(cupp::dtype_of<T>().name);
  for (const char* name : cases) {
    BOOST_TEST_CONTEXT(name << " " << dtype) {
      const auto h = load<T>(std::string(name) + "_" + dtype + "_a");
      const auto expect = values_of(load<Re>(std::string(name) + "_" + dtype + "_s"));
      const auto a = values_of(h);
      const auto before = a;
      // NumPy's reduced factors, for the float64 and complex128 cases.
      std::optional<factors> numpy;
      if constexpr (std::is_same_v<T, double> || std::is_same_v<T, cupp::complex128>)
        numpy = factors{{},     {},
                        {},     values_of(load<T>(std::string(name) + "_" + dtype + "_u")),
                        expect, values_of(load<T>(std::string(name) + "_" + dtype + "_vh"))};
      int layout = 0;
      for (const array<T>& x : layouts(h)) {
        BOOST_TEST_CONTEXT("layout " << layout++) {
          for (bool full : {true, false}) {
            const auto r = cupp::linalg::svd(x, full);
            const factors f = host_factors<R, Re>(r);
            check_decomposition(a, h.shape(), f, expect, eps_of<T>(), full,
                                numpy ? &*numpy : nullptr);
          }
          const auto r = cupp::linalg::svd(x, true, false);
          BOOST_TEST(r.U.shape() == shape_t{0});
          BOOST_TEST(r.Vh.shape() == shape_t{0});
          const auto s = values_of(to_host(r.S));
          const auto s2 = values_of(to_host(cupp::linalg::svdvals(x)));
          BOOST_TEST_REQUIRE(s.size() == expect.size());
          BOOST_TEST_REQUIRE(s2.size() == expect.size());
          const double tol = 30 * eps_of<T>() * 64 * std::abs(expect[0]);
          for (std::size_t i = 0; i < s.size(); ++i) {
            BOOST_TEST(std::abs(s[i] - expect[i]) <= tol, "S[" << i << "]");
            BOOST_TEST(std::abs(s2[i] - expect[i]) <= tol, "svdvals[" << i << "]");
          }
          BOOST_TEST(values_of(to_host(x)) == before, "the input was written");
        }
      }
      // Hermitian inputs (square cases): NumPy's values, U's and Vh's
      // properties, U S Vh == h.
      const shape_t& hs = h.shape();
      if (hs[hs.size() - 1] == hs[hs.size() - 2]) {
        const auto hh = load<T>(std::string(name) + "_" + dtype + "_h");
        const auto hexp = values_of(load<Re>(std::string(name) + "_" + dtype + "_sh"));
        const auto r = cupp::linalg::svd(on_space(hh), true, true, true);
        check_decomposition(values_of(hh), hh.shape(), host_factors<R, Re>(r), hexp, eps_of<T>(),
                            true);
        const auto s = values_of(to_host(cupp::linalg::svd(on_space(hh), false, false, true).S));
        BOOST_TEST_REQUIRE(s.size() == hexp.size());
        for (std::size_t i = 0; i < s.size(); ++i)
          BOOST_TEST(std::abs(s[i] - hexp[i]) <= 30 * eps_of<T>() * 64 * std::abs(hexp[0]));
      }
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(linalg_svd)

BOOST_AUTO_TEST_CASE(float32_fixtures) {
  check_fixtures<float>();
}
BOOST_AUTO_TEST_CASE(float64_fixtures) {
  check_fixtures<double>();
}
BOOST_AUTO_TEST_CASE(complex64_fixtures) {
  check_fixtures<cupp::complex64>();
}
BOOST_AUTO_TEST_CASE(complex128_fixtures) {
  check_fixtures<cupp::complex128>();
}
BOOST_AUTO_TEST_CASE(int32_fixtures) {
  check_fixtures<std::int32_t>();
}

BOOST_AUTO_TEST_CASE(result_dtypes) {
  auto i = on_space(cupp::host::ones<std::int32_t>(shape_t{2, 2}).eval());
  auto r = cupp::linalg::svd(i);
  static_assert(std::is_same_v<decltype(r.U)::value_type, double>);
  static_assert(std::is_same_v<decltype(r.S)::value_type, double>);
  auto c = on_space(cupp::host::ones<cupp::complex64>(shape_t{2, 2}).eval());
  auto rc = cupp::linalg::svd(c);
  static_assert(std::is_same_v<decltype(rc.U)::value_type, cupp::complex64>);
  static_assert(std::is_same_v<decltype(rc.S)::value_type, float>);
  auto [U, S, Vh] = cupp::linalg::svd(c, false);  // an aggregate
  BOOST_TEST(S.shape() == shape_t{2});
}

BOOST_AUTO_TEST_CASE(broadcast_stack_and_expression) {
  const auto h = load<double>("tall5x3_float64_a");
  const auto expect = values_of(load<double>("tall5x3_float64_s"));
  const array<double> a = on_space(h);
  const array<double> b = cupp::broadcast_to(a, shape_t{3, 5, 3});
  const auto s = values_of(to_host(cupp::linalg::svdvals(b)));
  BOOST_TEST_REQUIRE(s.size() == 9u);
  for (std::size_t i = 0; i < 9; ++i) BOOST_TEST(std::abs(s[i] - expect[i % 3]) <= 1e-13 * 5);
  const auto s2 = values_of(to_host(cupp::linalg::svdvals(a * 2.0)));
  for (std::size_t i = 0; i < 3; ++i) BOOST_TEST(std::abs(s2[i] - 2.0 * expect[i]) <= 1e-13 * 10);
}

BOOST_AUTO_TEST_CASE(one_by_one) {
  auto h = cupp::host::empty<double>(shape_t{1, 1});
  h.data()[0] = -2.0;
  const auto [U, S, Vh] = cupp::linalg::svd(on_space(h));
  const auto u = to_host(U).to_vector(), s = to_host(S).to_vector(), v = to_host(Vh).to_vector();
  BOOST_TEST(s[0] == 2.0);
  BOOST_TEST(u[0] * v[0] == -1.0);
  const auto [Uh, Sh, Vhh] = cupp::linalg::svd(on_space(h), true, true, true);
  BOOST_TEST(to_host(Sh).to_vector()[0] == 2.0);
  BOOST_TEST(to_host(Uh).to_vector()[0] == 1.0);  // NumPy: U = eigenvector, sign in Vh
  BOOST_TEST(to_host(Vhh).to_vector()[0] == -1.0);
}

// NumPy 2.4's shapes (and identities) for matrices with no rows or columns
// and for empty stacks.
BOOST_AUTO_TEST_CASE(empty_matrices) {
  struct row {
    shape_t a;
    bool full;
    shape_t u, s, vh;
    bool u_eye, vh_eye;
  };
  const row rows[] = {
      {{0, 3}, true, {0, 0}, {0}, {3, 3}, false, true},
      {{0, 3}, false, {0, 0}, {0}, {0, 3}, false, false},
      {{3, 0}, true, {3, 3}, {0}, {0, 0}, true, false},
      {{3, 0}, false, {3, 0}, {0}, {0, 0}, false, false},
      {{2, 0, 3}, true, {2, 0, 0}, {2, 0}, {2, 3, 3}, false, true},
      {{2, 3, 0}, false, {2, 3, 0}, {2, 0}, {2, 0, 0}, false, false},
      {{0, 2, 3}, true, {0, 2, 2}, {0, 2}, {0, 3, 3}, false, false},
      {{0, 2, 3}, false, {0, 2, 2}, {0, 2}, {0, 2, 3}, false, false},
  };
  for (const row& r : rows) {
    BOOST_TEST_CONTEXT(cupp::detail::np_shape(r.a) << " full " << r.full) {
      const array<float> a = on_space(cupp::host::zeros<float>(r.a).eval());
      const auto res = cupp::linalg::svd(a, r.full);
      BOOST_TEST(res.U.shape() == r.u);
      BOOST_TEST(res.S.shape() == r.s);
      BOOST_TEST(res.Vh.shape() == r.vh);
      const auto check_eye = [](const array<float>& x) {
        const auto v = to_host(x).to_vector();
        const index_t n = x.shape()[x.ndim() - 1];
        for (std::size_t i = 0; i < v.size(); ++i)
          BOOST_TEST(v[i] == ((i % (n * n)) % (n + 1) == 0 ? 1.f : 0.f));
      };
      if (r.u_eye) check_eye(res.U);
      if (r.vh_eye) check_eye(res.Vh);
      BOOST_TEST(cupp::linalg::svdvals(a).shape() == r.s);
    }
  }
  const array<double> e = on_space(cupp::host::zeros<double>(shape_t{0, 0}).eval());
  const auto h = cupp::linalg::svd(e, true, true, true);
  BOOST_TEST(h.U.shape() == (shape_t{0, 0}));
  BOOST_TEST(h.S.shape() == shape_t{0});
}

// NumPy's gesdd fails on a NaN input: svd and svdvals raise "SVD did not
// converge" (cuSOLVER reports nothing: cupp checks the singular values),
// for the batched and the one-at-a-time device paths alike; an unchecked
// scope returns without an error.
template <class T>
void check_nan_input() {
  const auto message = [](auto&& call) -> std::string {
    try {
      call();
    } catch (const cupp::linalg_error& e) {
      return e.what();
    }
    return "(no linalg_error)";
  };
  const shape_t shapes[] = {{1, 1}, {2, 2}, {3, 4}, {4, 3}, {3, 2, 3}, {40, 36}};
  for (const shape_t& sh : shapes) {
    BOOST_TEST_CONTEXT(cupp::detail::np_shape(sh)) {
      auto h = cupp::host::ones<T>(sh).eval();
      for (index_t i = 0; i < h.size(); ++i) h.data()[i] = T(static_cast<double>(i % 7) + 1.0);
      h.data()[h.size() - 1] = T(std::numeric_limits<double>::quiet_NaN());
      const array<T> a = on_space(h);
      BOOST_TEST(message([&] { cupp::linalg::svd(a); }) == "SVD did not converge");
      BOOST_TEST(message([&] { cupp::linalg::svd(a, false); }) == "SVD did not converge");
      BOOST_TEST(message([&] { cupp::linalg::svdvals(a); }) == "SVD did not converge");
      {
        cupp::linalg::unchecked scope;
        BOOST_TEST(message([&] { cupp::linalg::svdvals(a); }) == "(no linalg_error)");
        const auto [U, S, Vh] = cupp::linalg::svd(a);
        if constexpr (std::is_same_v<cupp_test::space, cupp::host_space>) {
          // gesdd writes nothing for a NaN matrix: NumPy's NaN results.
          const auto s = values_of(to_host(S));
          BOOST_TEST(std::isnan(s.back().real()));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(nan_input) {
  check_nan_input<float>();
  check_nan_input<double>();
  check_nan_input<cupp::complex64>();
  check_nan_input<cupp::complex128>();
}

BOOST_AUTO_TEST_CASE(errors) {
  const array<double> v = on_space(cupp::host::ones<double>(shape_t{3}).eval());
  const auto message = [](auto&& call) -> std::string {
    try {
      call();
    } catch (const cupp::linalg_error& e) {
      return e.what();
    }
    return "(no linalg_error)";
  };
  BOOST_TEST(message([&] { cupp::linalg::svd(v); }) ==
             "1-dimensional array given. Array must be at least two-dimensional");
  BOOST_TEST(message([&] { cupp::linalg::svdvals(v); }) ==
             "1-dimensional array given. Array must be at least two-dimensional");
  BOOST_TEST(message([&] { cupp::linalg::svd(v, true, true, true); }) ==
             "1-dimensional array given. Array must be at least two-dimensional");
  const array<double> r = on_space(cupp::host::ones<double>(shape_t{2, 3}).eval());
  BOOST_TEST(message([&] { cupp::linalg::svd(r, true, true, true); }) ==
             "Last 2 dimensions of the array must be square");
}

BOOST_AUTO_TEST_SUITE_END()
