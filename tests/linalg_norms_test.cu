// numpy.linalg.norm, vector_norm, matrix_norm, cond, matrix_rank, pinv,
// lstsq, tensorsolve and tensorinv on host arrays and, with
// CUPP_TEST_DEVICE=1, on device arrays, against the NumPy results in
// tests/fixtures/linalg/norms (tests/generate_linalg_norms_fixtures.py):
// float32, float64, complex64, complex128 and int32 inputs, every order,
// axes and keepdims, C, F, transposed, strided and lazy-expression
// operands, empty inputs, NumPy's result dtypes and error messages; and
// the properties that hold where the SVD leaves a choice (pinv's Penrose
// conditions, lstsq's normal equations).
#if CUPP_NORMS_TEST_SOLVE_STUB
// While solve.hpp is being written: inv and solve that throw, declared
// before the headers that call them; the cases needing them are skipped.
#include <stdexcept>

#include <cupp/ndarray.hpp>
namespace cupp::linalg {
struct solve_unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};
template <class T, class S>
ndarray<T, S> inv(const ndarray<T, S>&) {
  throw solve_unavailable("inv");
}
template <class T, class S>
ndarray<T, S> solve(const ndarray<T, S>&, const ndarray<T, S>&) {
  throw solve_unavailable("solve");
}
}  // namespace cupp::linalg
#endif

#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/linalg.hpp>
#include <cupp/linalg/lstsq.hpp>
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

namespace {

std::vector<std::string> split(const std::string& s, const std::string& sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at - start));
    if (at == std::string::npos) return out;
    start = at + sep.size();
  }
}

struct case_line {
  std::string func, dtype, ord, axis, expect;
  std::vector<std::string> inputs;
  bool keepdims = false;
};

case_line parse(const std::string& line) {
  const auto f = split(line, "\t");
  BOOST_TEST_REQUIRE(f.size() == 7u, line);
  return {f[0], f[2], f[3], f[4], f[6], split(f[1], "+"), f[5] == "1"};
}

cupp::linalg::norm_ord ord_of(const std::string& s) {
  if (s == "none") return {};
  if (s.rfind("s:", 0) == 0) return cupp::linalg::norm_ord(s.substr(2).c_str());
  return cupp::linalg::norm_ord(std::stod(s));
}

cupp::axis_arg axis_of(const std::string& s) {
  if (s == "none") return {};
  const auto parts = split(s, ",");
  if (parts.size() == 1) return std::stoi(parts[0]);
  if (parts.size() == 2) return {std::stoi(parts[0]), std::stoi(parts[1])};
  return {std::stoi(parts[0]), std::stoi(parts[1]), std::stoi(parts[2])};
}

// One expected array: "dtype shape=a,b v v ..." (complex values as pairs).
struct expected_array {
  std::string dtype;
  shape_t shape = shape_t::filled(0, 0);
  std::vector<double> values;
};

expected_array expected_of(const std::string& text) {
  std::istringstream in(text);
  expected_array e;
  std::string shape;
  in >> e.dtype >> shape;
  for (const auto& d : split(shape.substr(6), ","))
    if (!d.empty()) e.shape.push_back(std::stol(d));
  for (std::string v; in >> v;) e.values.push_back(std::stod(v));
  return e;
}

// Layouts of the same values: C order, F order, transposed storage, every
// other element of a larger array, and a lazy expression (0 - (0 - x)).
enum class layout { c, f, transposed, strided, expression };
constexpr layout all_layouts[] = {layout::c, layout::f, layout::transposed, layout::strided,
                                  layout::expression};

template <class T>
array<T> laid_out(const cupp::host::ndarray<T>& x, layout l) {
  if (l == layout::f) return on_space(x.copy(cupp::order::F));
  if (l == layout::transposed) return on_space(x.T().copy()).T();
  if (l == layout::strided && x.ndim() > 0) {
    shape_t big = x.shape();
    big[big.size() - 1] *= 2;
    cupp::host::ndarray<T> h = cupp::host::zeros<T>(big);
    h(cupp::ellipsis, cupp::slice(cupp::_, cupp::_, 2)) = x;
    return on_space(h)(cupp::ellipsis, cupp::slice(cupp::_, cupp::_, 2));
  }
  return on_space(x);
}

template <class T>
cupp::host::ndarray<T> input(const std::string& name) {
  return cupp::host::load<T>(cupp_test::fixture("linalg/norms/" + name));
}

double tolerance(const std::string& dtype) {
  return dtype == "float32" || dtype == "complex64" ? 2e-5 : 1e-12;
}

// Compares a result with NumPy's: dtype, shape and values (relative to the
// largest expected magnitude, NaN and inf exactly).
template <class R, class S>
void check_array(const cupp::ndarray<R, S>& got, const expected_array& want, double tol,
                 bool huge_is_inf = false) {
  double scale = 0;
  BOOST_TEST(std::string(cupp::dtype_of<R>().name) == want.dtype);
  BOOST_TEST_REQUIRE(got.shape() == want.shape, cupp::detail::np_shape(got.shape()));
  cupp::host::ndarray<R> h;
  if constexpr (std::is_same_v<S, cupp::device_space>)
    h = got.get();
  else
    h = got.copy();
  std::vector<double> g;
  for (index_t i = 0; i < h.size(); ++i) {
    if constexpr (cupp::detail::is_complex_type_v<R>) {
      g.push_back(h.data()[i].real());
      g.push_back(h.data()[i].imag());
    } else {
      g.push_back(cupp::detail::convert<double>(h.data()[i]));
    }
  }
  BOOST_TEST_REQUIRE(g.size() == want.values.size());
  for (double w : want.values)
    if (std::isfinite(w)) scale = std::max(scale, std::abs(w));
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double w = want.values[i];
    // A singular matrix's condition number is inf or 1/rounding: which one
    // depends on the order of the LU's operations.
    if (huge_is_inf && (std::isinf(w) || std::abs(w) > 1e15)) {
      BOOST_TEST((std::isinf(g[i]) || std::abs(g[i]) > 1e15), "element " << i << ": " << g[i]);
      continue;
    }
    if (std::isnan(w))
      BOOST_TEST(std::isnan(g[i]), "element " << i);
    else if (std::isinf(w))
      BOOST_TEST(g[i] == w, "element " << i);
    else
      BOOST_TEST(std::abs(g[i] - w) <= tol * std::max(scale, 1.0),
                 "element " << i << ": " << g[i] << " != " << w);
  }
}

bool expects_error(const case_line& c) {
  return c.expect.rfind("err ", 0) == 0;
}

// Runs `call` and compares with the case's result or error. A call that
// returns where NumPy raises is reported here; it must then not parse the
// error text as a result.
template <class F>
void check_outcome(const case_line& c, F&& call) {
  if (expects_error(c)) {
    const std::string rest = c.expect.substr(4);
    const std::string kind = rest.substr(0, rest.find(' '));
    const std::string message = rest.substr(rest.find(' ') + 1);
    try {
      call();
      BOOST_ERROR("no error; NumPy: " << message);
    } catch (const cupp::linalg_error& e) {
      BOOST_TEST(kind == "linalg_error");
      BOOST_TEST(std::string(e.what()) == message);
    } catch (const cupp::axis_error& e) {
      BOOST_TEST(kind == "axis_error");
      BOOST_TEST(std::string(e.what()) == message);
    } catch (const cupp::value_error& e) {
      BOOST_TEST(kind == "value_error");
      BOOST_TEST(std::string(e.what()) == message);
    } catch (const std::logic_error& e) {
      BOOST_ERROR("NumPy: " << message << "; cupp: " << e.what());
    }
  } else {
    try {
      call();
    } catch (const std::exception& e) {
      BOOST_ERROR("NumPy gives a result; cupp throws: " << e.what());
    }
  }
}

template <class T>
void run_norm_case(const case_line& c) {
  const auto x = input<T>(c.inputs[0]);
  const double tol = tolerance(c.dtype);
  for (const layout l : all_layouts) {
    if (l == layout::transposed && x.ndim() < 2) continue;
    if (l == layout::expression && !std::is_same_v<T, double> &&
        !std::is_same_v<T, cupp::complex64>)
      continue;
    BOOST_TEST_CONTEXT("layout " << static_cast<int>(l)) {
      const array<T> a = laid_out(x, l);
      check_outcome(c, [&] {
        const auto compute = [&](const auto& operand) {
          if (c.func == "norm")
            return cupp::linalg::norm(operand, ord_of(c.ord), axis_of(c.axis), c.keepdims);
          if (c.func == "vector_norm")
            return cupp::linalg::vector_norm(operand, axis_of(c.axis), c.keepdims, ord_of(c.ord));
          return cupp::linalg::matrix_norm(operand, c.keepdims, ord_of(c.ord));
        };
        // (Two dtypes only: each expression compiles its own kernels.)
        if constexpr (std::is_same_v<T, double> || std::is_same_v<T, cupp::complex64>) {
          if (l == layout::expression) {
            const auto r = compute(T(0) - (T(0) - a));
            if (!expects_error(c)) check_array(r, expected_of(c.expect.substr(3)), tol);
            return;
          }
        }
        const auto r = compute(a);
        if (!expects_error(c)) check_array(r, expected_of(c.expect.substr(3)), tol);
      });
    }
  }
}

template <class T>
void run_solver_case(const case_line& c) {
  const double tol = tolerance(c.dtype) * 1e3;  // condition numbers up to ~1e3
  const array<T> a = on_space(input<T>(c.inputs[0]));
  const auto parts = split(c.expect.substr(3), " ; ");
  const bool compare = !expects_error(c);
  check_outcome(c, [&] {
    if (c.func == "cond") {
      const auto r = cupp::linalg::cond(a, ord_of(c.ord));
      if (compare) check_array(r, expected_of(parts[0]), tol, true);
    } else if (c.func == "matrix_rank") {
      const auto r = cupp::linalg::matrix_rank(a);
      if (compare) check_array(r, expected_of(parts[0]), 0);
    } else if (c.func == "pinv_rtol") {
      const auto r = cupp::linalg::pinv(a, cupp::linalg::rtol{});
      if (compare) check_array(r, expected_of(parts[0]), tol);
    } else if (c.func == "pinv") {
      const auto r = cupp::linalg::pinv(a);
      if (compare) check_array(r, expected_of(parts[0]), tol);
    } else if (c.func == "lstsq") {
      const array<T> b = on_space(input<T>(c.inputs[1]));
      const auto [x, residuals, rank, s] = cupp::linalg::lstsq(a, b);
      if (compare) check_array(x, expected_of(parts[0]), tol);
      if (compare) check_array(residuals, expected_of(parts[1]), tol);
      if (compare) BOOST_TEST(rank == static_cast<index_t>(expected_of(parts[2]).values.at(0)));
      if (compare) check_array(s, expected_of(parts[3]), tol);
    } else if (c.func == "tensorsolve") {
      const array<T> b = on_space(input<T>(c.inputs[1]));
      const auto r = cupp::linalg::tensorsolve(a, b, axis_of(c.axis));
      if (compare) check_array(r, expected_of(parts[0]), tol);
    } else if (c.func == "tensorinv") {
      const auto r = cupp::linalg::tensorinv(a, static_cast<int>(std::stod(c.ord)));
      if (compare) check_array(r, expected_of(parts[0]), tol);
    }
  });
}

template <class F>
void for_cases(F&& f) {
  for (const auto& line : cupp_test::fixture_lines("linalg/norms/cases.txt")) {
    const case_line c = parse(line);
    BOOST_TEST_CONTEXT(line.substr(0, 160)) {
      if (c.dtype == "float32")
        f(c, float{});
      else if (c.dtype == "float64")
        f(c, double{});
      else if (c.dtype == "complex64")
        f(c, cupp::complex64{});
      else if (c.dtype == "complex128")
        f(c, cupp::complex128{});
      else
        f(c, std::int32_t{});
    }
  }
}

bool is_norm(const case_line& c) {
  return c.func == "norm" || c.func == "vector_norm" || c.func == "matrix_norm";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(linalg_norms)

BOOST_AUTO_TEST_CASE(norms_as_numpy) {
  for_cases([](const case_line& c, auto t) {
    if (is_norm(c)) run_norm_case<decltype(t)>(c);
  });
}

BOOST_AUTO_TEST_CASE(solvers_as_numpy) {
  for_cases([](const case_line& c, auto t) {
#if CUPP_NORMS_TEST_SOLVE_STUB
    try {
      if (!is_norm(c)) run_solver_case<decltype(t)>(c);
    } catch (const cupp::linalg::solve_unavailable&) {
    }
#else
    if (!is_norm(c)) run_solver_case<decltype(t)>(c);
#endif
  });
}

// One pass over x: a vector norm of an expression stores nothing but its
// result, and NumPy's 2-norm is not scaled (so large values overflow as
// NumPy's do).
BOOST_AUTO_TEST_CASE(unscaled_two_norm) {
  cupp::host::ndarray<float> h = cupp::host::zeros<float>(shape_t{2});
  h.data()[0] = 3e20f;
  h.data()[1] = 4e20f;
  const float r = to_host(array<float>(cupp::linalg::norm(on_space(h)))).data()[0];
  BOOST_TEST(std::isinf(r));
}

// pinv's Penrose conditions and lstsq's normal equations on a stack of
// rank-deficient complex matrices, where the SVD's factors are not unique.
BOOST_AUTO_TEST_CASE(pinv_properties) {
  using C = cupp::complex128;
  const auto x = on_space(input<C>("lowrank_2x5x4_complex128_3.npy"));
  const array<C> p = cupp::linalg::pinv(x);
  BOOST_TEST_REQUIRE(p.shape() == (shape_t{2, 4, 5}));
  const array<C> xpx = cupp::matmul(cupp::matmul(x, p), x);
  const array<C> pxp = cupp::matmul(cupp::matmul(p, x), p);
  BOOST_TEST(cupp::allclose(xpx, x, 1e-10, 1e-10));
  BOOST_TEST(cupp::allclose(pxp, p, 1e-10, 1e-10));
  const array<C> xp = cupp::matmul(x, p);
  BOOST_TEST(cupp::allclose(xp, cupp::conj(xp.swapaxes(-1, -2)), 1e-10, 1e-10));
  // pinv(a, rtol=...) and rtol{}: the tolerance relative to the largest
  // singular value.
  const array<C> p2 = cupp::linalg::pinv(x, cupp::linalg::rtol{});
  BOOST_TEST(cupp::allclose(p2, p, 1e-10, 1e-10));
  const auto r =
      to_host(array<std::int64_t>(cupp::linalg::matrix_rank(x, cupp::linalg::rtol{0.5})));
  BOOST_TEST(r.data()[0] <= 2);
}

BOOST_AUTO_TEST_CASE(lstsq_normal_equations) {
  const auto a = on_space(input<double>("lowrank_6x4_float64_9.npy"));
  const auto b = on_space(input<double>("plain_6x2_float64_10.npy"));
  const auto [x, residuals, rank, s] = cupp::linalg::lstsq(a, b);
  BOOST_TEST(rank == 2);
  BOOST_TEST(residuals.size() == 0);
  // a^T (a x - b) = 0 for the least-squares solution.
  const array<double> ax = cupp::matmul(a, x);
  const array<double> g = cupp::matmul(a.T(), array<double>(ax - b));
  BOOST_TEST(cupp::allclose(g, cupp::zeros_like(g), 1e-9, 1e-9));
}

BOOST_AUTO_TEST_CASE(argument_forms) {
  const auto x = on_space(input<double>("plain_2x3x4_float64_0.npy"));
  const double inf = std::numeric_limits<double>::infinity();
  // ord as an int, a double, "f" and cupp::none; axis as cupp::none.
  const auto a = to_host(array<double>(cupp::linalg::norm(x, cupp::none, cupp::none)));
  const auto b = to_host(array<double>(cupp::linalg::vector_norm(x)));
  BOOST_TEST(a.data()[0] == b.data()[0]);
  const auto c = to_host(array<double>(cupp::linalg::matrix_norm(x, true, "f")));
  BOOST_TEST(c.shape() == (shape_t{2, 1, 1}));
  const auto d = to_host(array<double>(cupp::linalg::norm(x, inf, {1, 2})));
  const auto e = to_host(array<double>(cupp::linalg::norm(x, 1, {2, 1})));
  BOOST_TEST(d.data()[1] == e.data()[1]);
  // Integer inputs and results in float64; complex64 in float32.
  const array<std::int32_t> i = on_space(input<std::int32_t>("plain_7_int32_0.npy"));
  static_assert(std::is_same_v<decltype(cupp::linalg::norm(i))::value_type, double>);
  const array<cupp::complex64> z = on_space(input<cupp::complex64>("plain_7_complex64_0.npy"));
  static_assert(std::is_same_v<decltype(cupp::linalg::norm(z))::value_type, float>);
}

BOOST_AUTO_TEST_SUITE_END()
