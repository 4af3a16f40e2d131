// numpy.cov, corrcoef, correlate and convolve on host arrays and, with
// CUPP_TEST_DEVICE=1, on device arrays, against the NumPy results in
// tests/fixtures/linalg/correlation
// (tests/generate_linalg_correlation_fixtures.py): int32, int64, float16,
// float32, float64, complex64 and complex128 (and bool for correlate and
// convolve) inputs, rowvar, bias, ddof (up to N and past it), fweights and
// aweights, y given, a single variable, the modes with either operand the
// longer, C, F, transposed, strided, reversed and lazy-expression
// operands, NumPy's result dtypes and its errors and messages.
#include <cupp/correlation.hpp>
#include <cupp/creation.hpp>
#include <cupp/npy.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <map>
#include <sstream>
#include <stdexcept>
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
  std::string func, dtype, expect;
  std::vector<std::string> inputs;  // m or a, y or v, fweights, aweights ("-": none)
  std::map<std::string, std::string> opts;
  bool has(const std::string& k) const { return opts.count(k) != 0; }
  bool given(int i) const { return inputs[i] != "-"; }
};

case_line parse(const std::string& line) {
  const auto f = split(line, "\t");
  BOOST_TEST_REQUIRE(f.size() == 5u, line);
  case_line c{f[0], f[1], f[4], split(f[2], "+"), {}};
  if (f[3] != "-")
    for (const auto& kv : split(f[3], ";")) {
      const auto p = split(kv, "=");
      c.opts[p[0]] = p[1];
    }
  return c;
}

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

double tolerance(const std::string& result_dtype) {
  if (result_dtype == "float64" || result_dtype == "complex128") return 1e-12;
  if (result_dtype == "float32" || result_dtype == "complex64") return 1e-6;
  if (result_dtype == "float16") return 1e-3;
  return 0;  // integers and bool: exact
}

// A result against NumPy's: dtype, shape, values (NaN and inf exactly).
template <class R, class S>
void check_array(const cupp::ndarray<R, S>& got, const expected_array& want) {
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
  double scale = 1;
  for (double w : want.values)
    if (std::isfinite(w)) scale = std::max(scale, std::abs(w));
  const double tol = tolerance(want.dtype) * scale;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double w = want.values[i];
    if (std::isnan(w))
      BOOST_TEST(std::isnan(g[i]), "element " << i << ": " << g[i] << " != nan");
    else if (std::isinf(w))
      BOOST_TEST(g[i] == w, "element " << i << ": " << g[i] << " != " << w);
    else
      BOOST_TEST(std::abs(g[i] - w) <= tol, "element " << i << ": " << g[i] << " != " << w);
  }
}

bool expects_error(const case_line& c) {
  return c.expect.rfind("err ", 0) == 0;
}

// Runs `call`, which returns the result, and compares it with NumPy's
// result or error.
template <class F>
void check_outcome(const case_line& c, F&& call) {
  if (!expects_error(c)) {
    try {
      check_array(call(), expected_of(c.expect.substr(3)));
    } catch (const std::exception& e) {
      BOOST_ERROR("NumPy gives a result; cupp throws: " << e.what());
    }
    return;
  }
  const std::string rest = c.expect.substr(4);
  const std::string kind = rest.substr(0, rest.find(' '));
  const std::string message = rest.substr(rest.find(' ') + 1);
  const auto same = [&](const char* k, const std::exception& e) {
    BOOST_TEST(kind == k);
    BOOST_TEST(std::string(e.what()) == message);
  };
  try {
    call();
    BOOST_ERROR("no error; NumPy: " << message);
  } catch (const cupp::type_error& e) {
    same("type_error", e);
  } catch (const cupp::value_error& e) {
    same("value_error", e);
  } catch (const cupp::zero_division_error& e) {
    same("zero_division_error", e);
  } catch (const std::runtime_error& e) {
    same("runtime_error", e);
  }
}

// Layouts of the same values: C order, F order, transposed storage, every
// other element along the last axis of a larger array, a reversed view of
// reversed storage, and a lazy expression.
enum class layout { c, f, transposed, strided, reversed, expression };
constexpr layout all_layouts[] = {layout::c,       layout::f,        layout::transposed,
                                  layout::strided, layout::reversed, layout::expression};

template <class T>
array<T> laid_out(const cupp::host::ndarray<T>& x, layout l) {
  using cupp::_;
  using cupp::slice;
  if (l == layout::f) return on_space(x.copy(cupp::order::F));
  if (l == layout::transposed) return on_space(x.T().copy()).T();
  if (l == layout::strided && x.ndim() > 0) {
    shape_t big = x.shape();
    big[big.size() - 1] *= 2;
    cupp::host::ndarray<T> h = cupp::host::zeros<T>(big);
    h(cupp::ellipsis, slice(_, _, 2)) = x;
    return on_space(h)(cupp::ellipsis, slice(_, _, 2));
  }
  if (l == layout::reversed && x.ndim() > 0) {
    const cupp::host::ndarray<T> h = x(cupp::ellipsis, slice(_, _, -1)).copy();
    return on_space(h)(cupp::ellipsis, slice(_, _, -1));
  }
  return on_space(x);
}

// Whether layout l is a distinct case for an operand of this many axes.
bool applies(layout l, int ndim) {
  if (ndim == 0) return l == layout::c || l == layout::expression;
  if (ndim == 1) return l != layout::f && l != layout::transposed;
  return true;
}

template <class T>
cupp::host::ndarray<T> input(const std::string& name) {
  return cupp::host::load<T>(cupp_test::fixture("linalg/correlation/" + name));
}

cupp::cov_options cov_options_of(const case_line& c) {
  cupp::cov_options o;
  if (c.has("rowvar")) o.rowvar = c.opts.at("rowvar") == "1";
  if (c.has("bias")) o.bias = c.opts.at("bias") == "1";
  if (c.has("ddof")) o.ddof = std::stoi(c.opts.at("ddof"));
  return o;
}

// The weighted forms, compiled for two dtypes only (each form instantiates
// its own kernels).
template <class T, class M>
auto weighted_cov(const case_line& c, const M& m) {
  const cupp::cov_options o = cov_options_of(c);
  using W = array<double>;
  using F = array<std::int64_t>;
  if (c.given(2) && c.inputs[2].find("float64") != std::string::npos) {
    // Non-integral weights of a floating dtype: NumPy's TypeError.
    const W fw = on_space(input<double>(c.inputs[2]));
    return W(cupp::cov(m, cupp::none, o, fw));
  }
  if (c.given(2) && c.given(3))
    return W(cupp::cov(m, cupp::none, o, on_space(input<std::int64_t>(c.inputs[2])),
                       on_space(input<double>(c.inputs[3]))));
  if (c.given(2))
    return W(cupp::cov(m, cupp::none, o, F(on_space(input<std::int64_t>(c.inputs[2])))));
  return W(cupp::cov(m, cupp::none, o, cupp::none, on_space(input<double>(c.inputs[3]))));
}

template <class T, class M>
void run_cov(const case_line& c, const M& m, const array<T>& y) {
  using R = typename decltype(cupp::cov(m))::value_type;
  const cupp::cov_options o = cov_options_of(c);
  if (c.given(2) || c.given(3)) {
    if constexpr (std::is_same_v<T, double>) {
      check_outcome(c, [&] { return weighted_cov<T>(c, m); });
    } else if constexpr (std::is_same_v<T, cupp::complex128>) {
      check_outcome(c, [&] {
        const cupp::cov_options oc = o;
        if (c.given(2) && c.given(3))
          return array<R>(cupp::cov(m, cupp::none, oc, on_space(input<std::int64_t>(c.inputs[2])),
                                    on_space(input<double>(c.inputs[3]))));
        if (c.given(2))
          return array<R>(cupp::cov(m, cupp::none, oc, on_space(input<std::int64_t>(c.inputs[2]))));
        return array<R>(
            cupp::cov(m, cupp::none, oc, cupp::none, on_space(input<double>(c.inputs[3]))));
      });
    } else {
      BOOST_ERROR("weighted cases are float64 and complex128 only");
    }
    return;
  }
  if (c.has("dtype")) {
    if constexpr (std::is_same_v<T, double>)
      check_outcome(c, [&] { return array<float>(cupp::cov<float>(m, o)); });
    return;
  }
  check_outcome(c, [&] {
    if (c.given(1)) return array<R>(cupp::cov(m, y, o));
    return array<R>(cupp::cov(m, o));
  });
}

template <class T, class M>
void run_corrcoef(const case_line& c, const M& m, const array<T>& y) {
  using R = typename decltype(cupp::corrcoef(m))::value_type;
  const bool rowvar = !c.has("rowvar") || c.opts.at("rowvar") == "1";
  check_outcome(c, [&] {
    if (c.given(1)) return array<R>(cupp::corrcoef(m, y, rowvar));
    return array<R>(cupp::corrcoef(m, rowvar));
  });
}

template <class T, class A>
void run_correlate(const case_line& c, const A& a, const array<T>& v) {
  const bool conv = c.func == "convolve";
  check_outcome(c, [&] {
    if (!c.has("mode")) return array<T>(conv ? cupp::convolve(a, v) : cupp::correlate(a, v));
    const std::string mode = c.opts.at("mode");
    return array<T>(conv ? cupp::convolve(a, v, mode) : cupp::correlate(a, v, mode));
  });
}

template <class T, class X>
void run_with(const case_line& c, const X& first, const array<T>& second) {
  if (c.func == "cov")
    run_cov<T>(c, first, second);
  else if (c.func == "corrcoef")
    run_corrcoef<T>(c, first, second);
  else
    run_correlate<T>(c, first, second);
}

template <class T>
void run_case(const case_line& c) {
  const auto x = input<T>(c.inputs[0]);
  const cupp::host::ndarray<T> y = c.given(1) ? input<T>(c.inputs[1]) : x;
  for (const layout l : all_layouts) {
    if (!applies(l, x.ndim())) continue;
    BOOST_TEST_CONTEXT("layout " << static_cast<int>(l)) {
      const array<T> second =
          applies(l, y.ndim()) && l != layout::expression ? laid_out(y, l) : on_space(y);
      if (l == layout::expression) {
        // (Two dtypes only: each expression compiles its own kernels.)
        if constexpr (std::is_same_v<T, double> || std::is_same_v<T, cupp::complex64>)
          run_with<T>(c, T(0) - (T(0) - on_space(x)), second);
        continue;
      }
      run_with<T>(c, laid_out(x, l), second);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(linalg_correlation)

BOOST_AUTO_TEST_CASE(as_numpy) {
  for (const auto& line : cupp_test::fixture_lines("linalg/correlation/cases.txt")) {
    const case_line c = parse(line);
    BOOST_TEST_CONTEXT(line.substr(0, 160)) {
      const std::string& d = c.dtype;
      if (d == "int32")
        run_case<std::int32_t>(c);
      else if (d == "int64")
        run_case<std::int64_t>(c);
      else if (d == "float16")
        run_case<cupp::float16>(c);
      else if (d == "float32")
        run_case<float>(c);
      else if (d == "float64")
        run_case<double>(c);
      else if (d == "complex64")
        run_case<cupp::complex64>(c);
      else if (d == "complex128")
        run_case<cupp::complex128>(c);
      else if (c.func == "correlate" || c.func == "convolve")
        run_case<bool>(c);
      else
        BOOST_ERROR("no dtype " << d);
    }
  }
}

// Result dtypes decided at compile time as NumPy's.
BOOST_AUTO_TEST_CASE(result_dtypes) {
  const array<std::int32_t> i =
      on_space(cupp::host::ndarray<std::int32_t>(cupp::host::zeros<std::int32_t>(shape_t{2, 3})));
  const array<cupp::complex64> z = on_space(
      cupp::host::ndarray<cupp::complex64>(cupp::host::zeros<cupp::complex64>(shape_t{2, 3})));
  static_assert(std::is_same_v<decltype(cupp::cov(i))::value_type, double>);
  static_assert(std::is_same_v<decltype(cupp::cov(z))::value_type, cupp::complex128>);
  static_assert(std::is_same_v<decltype(cupp::corrcoef(i))::value_type, double>);
  static_assert(std::is_same_v<decltype(cupp::correlate(i(0), i(1)))::value_type, std::int32_t>);
  // int32 with complex64: complex128, as NumPy promotes.
  static_assert(std::is_same_v<decltype(cupp::convolve(i(0), z(1)))::value_type, cupp::complex128>);
  BOOST_TEST(cupp::cov(i).shape() == (shape_t{2, 2}));
}

// The kernel's tiles: operands longer than a block, of which NumPy's
// float64 results are exact (small integers).
BOOST_AUTO_TEST_CASE(long_operands) {
  const index_t n = 1500, m = 700;
  cupp::host::ndarray<double> a(shape_t{n}), v(shape_t{m});
  for (index_t k = 0; k < n; ++k) a.data()[k] = static_cast<double>((k * 7) % 11) - 5;
  for (index_t k = 0; k < m; ++k) v.data()[k] = static_cast<double>((k * 5) % 13) - 6;
  for (const char* mode : {"full", "same", "valid"}) {
    const auto got = to_host(array<double>(cupp::correlate(on_space(a), on_space(v), mode)));
    const auto swapped = to_host(array<double>(cupp::correlate(on_space(v), on_space(a), mode)));
    const index_t n_left = std::string(mode) == "full"   ? m - 1
                           : std::string(mode) == "same" ? m / 2
                                                         : 0;
    BOOST_TEST_REQUIRE(got.size() == swapped.size());
    bool same = true, reversed = true;
    for (index_t k = 0; k < got.size(); ++k) {
      double want = 0;
      for (index_t j = 0; j < m; ++j) {
        const index_t i = k - n_left + j;
        if (i >= 0 && i < n) want += a.data()[i] * v.data()[j];
      }
      same = same && got.data()[k] == want;
      reversed = reversed && swapped.data()[got.size() - 1 - k] == want;
    }
    BOOST_TEST(same, mode);
    BOOST_TEST(reversed, mode);
  }
}

BOOST_AUTO_TEST_SUITE_END()
