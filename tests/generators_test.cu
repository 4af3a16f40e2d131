// Generators (arange, linspace, logspace, geomspace, full, zeros, ones, eye,
// identity, tri, indices, meshgrid) against NumPy's values, and their views
// (reshape, transpose) inside fused expressions. Built twice:
// generators_host_test evaluates into host arrays, generators_gpu_test
// (CUPP_TEST_DEVICE=1) into device arrays, so that both evaluation paths
// must reproduce NumPy bit for bit. The expected values come from
// tests/generate_generator_fixtures.py.
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/npy.hpp>
#include <cupp/ufunc.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cupp_test.hpp"

using cupp::index_t;

#if CUPP_TEST_DEVICE
namespace gen = cupp;
using space = cupp::device_space;
#else
namespace gen = cupp::host;
using space = cupp::host_space;
#endif

template <class T>
using array = cupp::ndarray<T, space>;

using from_args = cupp::detail::dtype_from_args;

namespace {

// The value of an expression, computed in the space under test, on the host.
template <class E>
cupp::host::ndarray<typename E::value_type> computed(const E& e) {
  array<typename E::value_type> a = e;
  if constexpr (std::is_same_v<space, cupp::device_space>)
    return a.get({.ord = cupp::order::K});  // keeps an F layout
  else
    return a;
}

template <class T>
array<T> make(const std::vector<T>& v) {
  auto h = cupp::host::empty<T>({static_cast<index_t>(v.size())});
  for (std::size_t i = 0; i < v.size(); ++i) h.data()[i] = v[i];
  if constexpr (std::is_same_v<space, cupp::device_space>)
    return cupp::asarray(h);
  else
    return h;
}

// ---------------------------------------------------------------------------
// The fixture: cases.txt and the arrays of results.npys, located by offset.

struct fixture_case {
  std::string name, func, dtype, sig;
  std::vector<std::string> args;
  std::string error_type, error_message;  // empty when NumPy returns a value
  std::streamoff offset = -1, step_offset = -1;
};

std::string results_path() {
  return cupp_test::fixture("generators/results.npys");
}

std::streamoff skip_array(std::istream& is) {
  const std::streamoff at = is.tellg();
  const cupp::npy_header h = cupp::read_npy_header(is);
  is.seekg(static_cast<std::streamoff>(cupp::detail::size_of(h.shape) * h.dtype.itemsize),
           std::ios::cur);
  return at;
}

const std::vector<fixture_case>& cases() {
  static const std::vector<fixture_case> all = [] {
    std::vector<fixture_case> out;
    std::ifstream results(results_path(), std::ios::binary);
    BOOST_TEST_REQUIRE(results.good(), "missing fixture " << results_path());
    for (const auto& line : cupp_test::fixture_lines("generators/cases.txt")) {
      fixture_case c;
      std::string head = line;
      if (const auto bang = line.find(" ! "); bang != std::string::npos) {
        head = line.substr(0, bang);
        const std::string err = line.substr(bang + 3);
        const auto bar = err.find('|');
        c.error_type = err.substr(0, bar);
        c.error_message = err.substr(bar + 1);
      }
      std::istringstream in(head);
      in >> c.name >> c.func >> c.dtype >> c.sig;
      for (std::string t; in >> t;) c.args.push_back(t);
      if (c.error_type.empty()) {
        c.offset = skip_array(results);
        if (c.func == "linspace") c.step_offset = skip_array(results);
      }
      out.push_back(c);
    }
    return out;
  }();
  return all;
}

const fixture_case& named(const std::string& name) {
  for (const auto& c : cases())
    if (c.name == name) return c;
  BOOST_FAIL("no fixture case " << name);
  throw;
}

template <class T>
cupp::host::ndarray<T> expected_at(std::streamoff offset, const std::string& what) {
  std::ifstream is(results_path(), std::ios::binary);
  is.seekg(offset);
  const cupp::npy_header h = cupp::read_npy_header(is);
  BOOST_TEST_REQUIRE(
      std::string(h.dtype.name) == std::string(cupp::dtype_of<T>().name),
      what << ": NumPy's dtype is " << h.dtype.name << ", cupp's " << cupp::dtype_of<T>().name);
  is.seekg(offset);
  return cupp::host::load<T>(is);
}

// Distance in units in the last place (0 for equal bits, both NaN included).
template <class T>
long long ulps(T a, T b) {
  if constexpr (cupp::is_complex_v<T>) {
    return std::max(ulps(a.real(), b.real()), ulps(a.imag(), b.imag()));
  } else if constexpr (cupp::is_floating_v<T>) {
    using U = std::conditional_t<sizeof(T) == 2, std::int16_t,
                                 std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>>;
    const double x = cupp::detail::convert<double>(a), y = cupp::detail::convert<double>(b);
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y) ? 0 : 1LL << 40;
    U ia, ib;
    std::memcpy(&ia, &a, sizeof(T));
    std::memcpy(&ib, &b, sizeof(T));
    const auto key = [](U v) -> long long {
      return v < 0 ? -static_cast<long long>(v & std::numeric_limits<U>::max()) : v;
    };
    return std::llabs(key(ia) - key(ib));
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // Modulo 2^bits: casts wrap (int8(128.0) is -128, int8(127.99) 127).
    using U = std::make_unsigned_t<T>;
    const U up = static_cast<U>(static_cast<U>(a) - static_cast<U>(b)),
            down = static_cast<U>(static_cast<U>(b) - static_cast<U>(a));
    return static_cast<long long>(std::min(up, down));
  } else {
    return cupp_test::same_bits(a, b) ? 0 : 1LL << 40;
  }
}

// The tolerance of a generator built on pow (logspace, geomspace): `ulp`
// for float results on the host, twice that on the device, whose pow may
// differ from the host's by up to 2 ulp; integer results truncate such a
// value, so one landing next to an integer may be one lower on the device.
template <class T>
long long pow_tolerance(long long ulp) {
  constexpr bool device = std::is_same_v<space, cupp::device_space>;
  if constexpr (std::is_integral_v<T>)
    return device ? 1 : 0;
  else
    return device ? 2 * ulp : ulp;
}

template <class T>
void compare(const cupp::host::ndarray<T>& got, const cupp::host::ndarray<T>& want,
             const std::string& what, long long tolerance = 0, bool layout = true) {
  BOOST_TEST_REQUIRE(cupp::to_string(got.shape()) == cupp::to_string(want.shape()), what);
  // NumPy's layout (order='F', transposed views) is what eval() reproduces;
  // .npy files keep only C and F, so other layouts are not compared.
  if (layout) {
    BOOST_TEST(got.is_c_contiguous() == want.is_c_contiguous(), what << " C-contiguity");
    BOOST_TEST(got.is_f_contiguous() == want.is_f_contiguous(), what << " F-contiguity");
  }
  const auto g = got.copy(), w = want.copy();
  int shown = 0;
  for (index_t i = 0; i < g.size(); ++i) {
    const long long d = ulps(g.data()[i], w.data()[i]);
    if (d > tolerance && shown++ < 3)
      BOOST_ERROR(what << ": element " << i << " differs from NumPy's by " << d << " ulp");
  }
}

// Runs a case: the call must produce NumPy's array (or its exception).
template <class Make>
void check_case(const fixture_case& c, Make&& make, long long tolerance = 0) {
  if (!c.error_type.empty()) {
    try {
      (void)computed(make());
      BOOST_ERROR(c.name << ": no exception; NumPy raises " << c.error_type << ": "
                         << c.error_message);
    } catch (const cupp::overflow_error& e) {
      BOOST_TEST(c.error_type == "OverflowError", c.name << ": " << e.what());
      BOOST_TEST(std::string(e.what()) == c.error_message, c.name);
    } catch (const cupp::type_error& e) {
      BOOST_TEST(c.error_type == "TypeError", c.name << ": " << e.what());
      BOOST_TEST(std::string(e.what()) == c.error_message, c.name);
    } catch (const cupp::value_error& e) {
      BOOST_TEST(c.error_type == "ValueError", c.name << ": " << e.what());
      BOOST_TEST(std::string(e.what()) == c.error_message, c.name);
    } catch (const cupp::zero_division_error& e) {
      BOOST_TEST(c.error_type == "ZeroDivisionError", c.name << ": " << e.what());
      BOOST_TEST(std::string(e.what()) == c.error_message, c.name);
    }
    return;
  }
  const auto g = make();
  using V = typename std::remove_cvref_t<decltype(g)>::value_type;
  compare(computed(g), expected_at<V>(c.offset, c.name), c.name, tolerance);
}

std::int64_t I(const std::string& s) {
  return std::stoll(s);
}
double F(const std::string& s) {
  return std::strtod(s.c_str(), nullptr);  // float.hex, inf, nan
}
cupp::complex128 C(const std::string& s) {
  const auto colon = s.find(':');
  return {F(s.substr(0, colon)), F(s.substr(colon + 1))};
}
__half H(const std::string& s) {
  return __double2half(F(s));
}
std::optional<index_t> M(const std::string& s) {
  if (s == "none") return std::nullopt;
  return I(s);
}
cupp::order O(const std::string& s) {
  return s == "F" ? cupp::order::F : cupp::order::C;
}
cupp::shape_t shape_arg(const std::vector<std::string>& a, std::size_t& i) {
  const int nd = static_cast<int>(I(a[i++]));
  cupp::shape_t s = cupp::shape_t::filled(nd, 0);
  for (int k = 0; k < nd; ++k) s[k] = I(a[i++]);
  return s;
}

template <class T>
inline constexpr bool is_default_v = std::is_same_v<T, from_args>;

// True for from_args or a dtype satisfying P.
template <class T, template <class> class P>
constexpr bool default_or() {
  if constexpr (is_default_v<T>)
    return true;
  else
    return P<T>::value;
}
template <class T>
struct is_complex_dtype : std::bool_constant<cupp::is_complex_v<T>> {};
template <class T>
struct is_complex_or_double
    : std::bool_constant<cupp::is_complex_v<T> || std::is_same_v<T, double>> {};

// Calls every generator a case of dtype T can name; T is a dtype or
// from_args (dtype=None). Signatures with fewer dtypes in the fixture are
// only instantiated for those.
template <class T>
void run_case(const fixture_case& c) {
  const auto& a = c.args;
  const std::string& s = c.sig;
  constexpr bool dflt = is_default_v<T>;
  constexpr bool complex_t = default_or<T, is_complex_dtype>();
  if (c.func == "arange") {
    if (s == "iii") return check_case(c, [&] { return gen::arange<T>(I(a[0]), I(a[1]), I(a[2])); });
    if (s == "fff") return check_case(c, [&] { return gen::arange<T>(F(a[0]), F(a[1]), F(a[2])); });
    if constexpr (complex_t)
      if (s == "ccc")
        return check_case(c, [&] { return gen::arange<T>(C(a[0]), C(a[1]), C(a[2])); });
    if constexpr (dflt) {
      if (s == "i") return check_case(c, [&] { return gen::arange(I(a[0])); });
      if (s == "ii") return check_case(c, [&] { return gen::arange(I(a[0]), I(a[1])); });
      if (s == "f") return check_case(c, [&] { return gen::arange(F(a[0])); });
      if (s == "ifi") return check_case(c, [&] { return gen::arange(I(a[0]), F(a[1]), I(a[2])); });
    }
  } else if (c.func == "linspace") {
    const index_t num = I(a[2]);
    const bool endpoint = a[3] == "1";
    auto check = [&](auto start, auto stop) {
      check_case(c, [&] { return gen::linspace<T>(start, stop, num, endpoint); });
      if (c.error_type.empty()) {
        const auto [samples, step] = gen::linspace_retstep<T>(start, stop, num, endpoint);
        using D = std::remove_cvref_t<decltype(step)>;
        const auto want = expected_at<D>(c.step_offset, c.name + " step");
        BOOST_TEST(ulps(step, want.item()) == 0, c.name << " step");
        compare(computed(samples),
                expected_at<typename std::remove_cvref_t<decltype(samples)>::value_type>(c.offset,
                                                                                         c.name),
                c.name + " (retstep)");
      }
    };
    if (s == "ff") return check(F(a[0]), F(a[1]));
    if constexpr (default_or<T, is_complex_or_double>())
      if (s == "cc") return check(C(a[0]), C(a[1]));
    if constexpr (dflt) {
      if (s == "ii") return check(I(a[0]), I(a[1]));
      if (s == "hh") return check(H(a[0]), H(a[1]));
      if (s == "hi") return check(H(a[0]), I(a[1]));
    }
  } else if (c.func == "logspace") {
    const index_t num = I(a[2]);
    const bool endpoint = a[3] == "1";
    // pow in NumPy's libm (AVX-512 SVML where the CPU has it), glibc's and
    // CUDA's (up to 2 ulp) may differ in the last places.
    const long long tol = pow_tolerance<T>(4);
    if (s == "fff")
      return check_case(
          c, [&] { return gen::logspace<T>(F(a[0]), F(a[1]), num, endpoint, F(a[4])); }, tol);
    if constexpr (dflt) {
      if (s == "iii")
        return check_case(
            c, [&] { return gen::logspace(I(a[0]), I(a[1]), num, endpoint, I(a[4])); }, tol);
      if (s == "hhf")
        return check_case(
            c, [&] { return gen::logspace(H(a[0]), H(a[1]), num, endpoint, F(a[4])); }, tol);
      if (s == "ffc")
        return check_case(
            c, [&] { return gen::logspace(F(a[0]), F(a[1]), num, endpoint, C(a[4])); }, tol);
    }
  } else if (c.func == "geomspace") {
    const index_t num = I(a[2]);
    const bool endpoint = a[3] == "1";
    const long long tol = pow_tolerance<T>(8);  // log10, pow, and for complex dtypes exp and log
    if (s == "ff")
      return check_case(
          c, [&] { return gen::geomspace<T>(F(a[0]), F(a[1]), num, endpoint); }, tol);
    if constexpr (complex_t)
      if (s == "cc")
        return check_case(
            c, [&] { return gen::geomspace<T>(C(a[0]), C(a[1]), num, endpoint); }, tol);
    if constexpr (dflt)
      if (s == "ii")
        return check_case(
            c, [&] { return gen::geomspace(I(a[0]), I(a[1]), num, endpoint); }, tol);
  } else if (c.func == "full") {
    std::size_t i = 0;
    const cupp::shape_t shape = shape_arg(a, i);
    const std::string& v = a[i];
    const cupp::order o = O(a[i + 1]);
    if (s == "i") return check_case(c, [&] { return gen::full<T>(shape, I(v), o); });
    if (s == "f") return check_case(c, [&] { return gen::full<T>(shape, F(v), o); });
    if (s == "b") return check_case(c, [&] { return gen::full<T>(shape, I(v) != 0, o); });
    if (s == "c") return check_case(c, [&] { return gen::full<T>(shape, C(v), o); });
    if (s == "h") return check_case(c, [&] { return gen::full<T>(shape, H(v), o); });
  } else {
    using R = std::conditional_t<dflt, double, T>;  // these default to float64 ...
    if (c.func == "eye")
      return check_case(c, [&] { return gen::eye<R>(I(a[0]), M(a[1]), I(a[2]), O(a[3])); });
    if (c.func == "identity") return check_case(c, [&] { return gen::identity<R>(I(a[0])); });
    if (c.func == "tri")
      return check_case(c, [&] { return gen::tri<R>(I(a[0]), M(a[1]), I(a[2])); });
    std::size_t i = 0;
    const cupp::shape_t shape = shape_arg(a, i);
    if (c.func == "zeros") return check_case(c, [&] { return gen::zeros<R>(shape, O(a[i])); });
    if (c.func == "ones") return check_case(c, [&] { return gen::ones<R>(shape, O(a[i])); });
    using N = std::conditional_t<dflt, std::int64_t, T>;  // ... and indices to int64
    if (c.func == "indices") return check_case(c, [&] { return gen::indices<N>(shape); });
  }
  BOOST_ERROR(c.name << ": no C++ call for " << c.func << " with signature " << s << " and dtype "
                     << c.dtype);
}

void run_cases(const std::string& func) {
  int n = 0;
  for (const auto& c : cases()) {
    if (c.func != func) continue;
    // NumPy's TypeError for flooring complex samples is a static_assert here.
    if (c.func == "linspace" && c.sig == "cc" && c.dtype == "int32") continue;
    if (c.name == "full_i_big") continue;  // see full_value_dtypes
    BOOST_TEST_CONTEXT(c.name) {
      if (c.dtype == "-")
        run_case<from_args>(c);
      else
        cupp_test::with_dtype(c.dtype, [&](auto t) { run_case<typename decltype(t)::type>(c); });
    }
    ++n;
  }
  BOOST_TEST(n > 0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(numpy_values)

BOOST_AUTO_TEST_CASE(arange) {
  run_cases("arange");
}
BOOST_AUTO_TEST_CASE(linspace) {
  run_cases("linspace");
}
BOOST_AUTO_TEST_CASE(logspace) {
  run_cases("logspace");
}
BOOST_AUTO_TEST_CASE(geomspace) {
  run_cases("geomspace");
}
BOOST_AUTO_TEST_CASE(full) {
  run_cases("full");
}
BOOST_AUTO_TEST_CASE(zeros) {
  run_cases("zeros");
}
BOOST_AUTO_TEST_CASE(ones) {
  run_cases("ones");
}
BOOST_AUTO_TEST_CASE(eye) {
  run_cases("eye");
}
BOOST_AUTO_TEST_CASE(identity) {
  run_cases("identity");
}
BOOST_AUTO_TEST_CASE(tri) {
  run_cases("tri");
}
BOOST_AUTO_TEST_CASE(indices) {
  run_cases("indices");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(dtypes_and_values)

BOOST_AUTO_TEST_CASE(default_dtypes) {
  BOOST_TEST(gen::arange(3).dtype().name == "int64");
  BOOST_TEST(gen::arange(true).dtype().name == "int64");
  BOOST_TEST(gen::arange(0, 3.0).dtype().name == "float64");
  BOOST_TEST(gen::arange(__float2half(3.0f)).dtype().name == "float64");
  BOOST_TEST(gen::arange(cupp::complex64(3, 0)).dtype().name == "complex128");
  BOOST_TEST(gen::full({2}, 1).dtype().name == "int64");
  BOOST_TEST(gen::full({2}, 1.0f).dtype().name == "float64");  // a weak float
  BOOST_TEST(gen::full({2}, cupp::scalar<float>(1)).dtype().name == "float32");
  BOOST_TEST(gen::full({2}, false).dtype().name == "bool");
  BOOST_TEST(gen::zeros({2}).dtype().name == "float64");
  BOOST_TEST(gen::ones<std::int8_t>({2}).dtype().name == "int8");
  BOOST_TEST(gen::linspace(0, 1).dtype().name == "float64");
  BOOST_TEST(gen::linspace(0, 1).size() == 50);
  BOOST_TEST(gen::linspace(__float2half(0.f), 1).dtype().name == "float16");
  BOOST_TEST(gen::linspace(cupp::scalar<float>(0), 1.0).dtype().name == "float32");
  BOOST_TEST(gen::logspace(0, 1, 3, true, 2).dtype().name == "float64");
  BOOST_TEST(gen::geomspace(1, 2).dtype().name == "float64");
  BOOST_TEST(gen::geomspace<float>(1, 2).dtype().name == "float32");
  BOOST_TEST(gen::eye(2).dtype().name == "float64");
  BOOST_TEST(gen::indices({2}).dtype().name == "int64");
}

BOOST_AUTO_TEST_CASE(full_value_dtypes) {
  // NumPy gives uint64 for a Python int above INT64_MAX; a C++ call's dtype
  // is known before the value, so cupp asks for the dtype instead.
  BOOST_CHECK_THROW(gen::full({2}, std::uint64_t{1} << 63), cupp::overflow_error);
  const auto u = computed(gen::full<std::uint64_t>({2}, std::uint64_t{1} << 63));
  BOOST_TEST(u.at(1) == std::uint64_t{1} << 63);
  const auto h = computed(gen::full({3}, __float2half(2.5f)));
  BOOST_TEST(h.dtype().name == "float16");
  BOOST_TEST(__half2float(h.at(2)) == 2.5f);
}

BOOST_AUTO_TEST_CASE(like_functions_keep_shape_dtype_and_layout) {
  const array<float> f = gen::arange<float>(12).reshape({3, 4}, cupp::order::F);
  BOOST_TEST(f.is_f_contiguous());
  const auto z = computed(gen::zeros_like(f));
  BOOST_TEST(z.dtype().name == "float32");
  BOOST_TEST(z.is_f_contiguous());
  BOOST_TEST(!z.is_c_contiguous());
  BOOST_TEST(cupp::to_string(z.shape()) == "(3, 4)");
  const auto o = computed(gen::ones_like<std::int16_t>(f));
  BOOST_TEST(o.dtype().name == "int16");
  BOOST_TEST(o.at(2, 3) == 1);
  const auto v = computed(gen::full_like(f, 2.5));
  BOOST_TEST(v.at(1, 1) == 2.5f);
  BOOST_CHECK_THROW(gen::full_like(gen::arange<std::uint8_t>(3), -1), cupp::overflow_error);
  // Of an expression: the layout its eval() would have.
  const auto e = computed(gen::zeros_like(f * 2));
  BOOST_TEST(e.is_f_contiguous());
  BOOST_TEST(computed(gen::zeros_like(gen::eye(3))).is_c_contiguous());
}

BOOST_AUTO_TEST_CASE(zeros_into_arrays) {
  array<float> z = gen::zeros<float>({3, 4});
  BOOST_TEST(cupp::to_string(z.shape()) == "(3, 4)");
  BOOST_TEST(z.is_c_contiguous());
  array<double> f = gen::zeros({2, 5}, cupp::order::F);
  BOOST_TEST(f.is_f_contiguous());
  BOOST_TEST(!f.is_c_contiguous());
  const auto e = gen::zeros<int>({0, 5}).eval();
  BOOST_TEST(e.size() == 0);
  const auto s = computed(gen::ones<cupp::complex64>({}));
  BOOST_TEST(s.ndim() == 0);
  BOOST_TEST((s.item() == cupp::complex64(1, 0)));
  BOOST_CHECK_THROW(gen::zeros<float>({3, -2}), cupp::value_error);
  // Evaluated alone, a cupp:: generator is a device array; a host one a host array.
  static_assert(std::is_same_v<decltype(cupp::zeros({1}).eval()), cupp::ndarray<double>>);
  static_assert(
      std::is_same_v<decltype(cupp::host::zeros({1}).eval()), cupp::host::ndarray<double>>);
  // A cupp:: generator also assigns to host arrays.
  cupp::host::ndarray<std::int64_t> h = cupp::arange(4);
  BOOST_TEST(h.at(3) == 3);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(views_and_expressions)

template <class E>
void check_expr(const std::string& name, const E& e, bool layout = true) {
  using V = typename E::value_type;
  compare(computed(e), expected_at<V>(named(name).offset, name), name, 0, layout);
}

BOOST_AUTO_TEST_CASE(fused_expressions_equal_numpy) {
  // One kernel: the generator's positions follow the reshape and transpose.
  const auto e = gen::arange(12).reshape({3, -1}).T() * 2;
  static_assert(
      std::is_same_v<std::tuple_element_t<0, std::remove_cvref_t<decltype(e.args())>>,
                     cupp::generator<cupp::detail::reshaped<cupp::detail::arange_fn<std::int64_t>>,
                                     typename decltype(gen::arange(1))::space>>);
  BOOST_TEST(std::get<0>(e.args()).functor().nd == 0);  // positions stayed affine
  check_expr("expr_arange_T", e);
  check_expr("expr_lin_eye", gen::linspace(0, 1, 12).reshape({3, 4}) + gen::eye(3, 4));
  check_expr("expr_ones_bcast", gen::ones({3, 4}) * gen::arange(4) + gen::full({3, 1}, 0.5));
  check_expr("expr_f32_lin", gen::arange<float>(10) * gen::linspace(0, 1, 10));
  check_expr("expr_tri_mul", gen::tri(4) * gen::arange(16).reshape({4, 4}));
  check_expr("expr_transpose_axes", gen::arange(24).reshape({2, 3, 4}).transpose({1, 2, 0}) - 1,
             false);
  check_expr("expr_reshape_F", gen::arange(12).reshape({3, 4}, cupp::order::F) + 0);
  check_expr("expr_ravel_F", gen::arange(6).reshape({2, 3}).ravel(cupp::order::F));
  // Order A follows the positions' layout; ravel K their memory order.
  check_expr("expr_ravel_A", gen::arange(6).reshape({3, 2}).T().ravel(cupp::order::A));
  check_expr("expr_ravel_K", gen::arange(6).reshape({3, 2}).T().ravel(cupp::order::K));
  check_expr("expr_reshape_A", gen::arange(6).reshape({3, 2}).T().reshape({3, 2}, cupp::order::A));
  check_expr("expr_unit_axes", gen::arange(6).reshape({1, 2, 1, 3, 1}).reshape({3, 1, 2}) + 0);
  check_expr("expr_eye_split", gen::eye(4).reshape({2, 2, 4}));
  check_expr("expr_eye_flat_pow2", gen::eye(4).reshape({-1}));
}

BOOST_AUTO_TEST_CASE(reshapes_that_numpy_would_copy) {
  const auto g = gen::arange(24).reshape({4, 6}).T().reshape({3, 8});
  BOOST_TEST(g.functor().nd != 0);  // elements decompose their index
  // A transposed view NumPy can reshape without copying stays affine.
  const auto v = gen::arange(24).reshape({2, 3, 4}).transpose({2, 0, 1}).reshape({4, 6});
  BOOST_TEST(v.functor().nd == 0);
  check_expr("expr_gather", v * 1);
  check_expr("expr_indices_flat", gen::indices({3, 4}).reshape({2, -1}));
  check_expr("expr_eye_flat", gen::eye(5).reshape({-1}));
  check_expr("expr_double_gather",
             gen::arange(24).reshape({4, 6}).T().reshape({3, 8}).T().reshape({2, 12}) * 3);
  check_expr("expr_eye_T_reshape", gen::eye(3, 5, 1).T().reshape({3, 5}) * 2);
}

BOOST_AUTO_TEST_CASE(reshape_and_transpose_errors) {
  const auto a = gen::arange(12);
  auto message = [](auto f) {
    try {
      f();
    } catch (const cupp::value_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BOOST_TEST(message([&] {
               a.reshape({5, -1});
             }) == "cannot reshape array of size 12 into shape (5,newaxis)");
  BOOST_TEST(message([&] {
               a.reshape({-1, 5});
             }) == "cannot reshape array of size 12 into shape (5)");
  BOOST_TEST(message([&] { a.reshape({5}); }) == "cannot reshape array of size 12 into shape (5,)");
  BOOST_TEST(message([&] { a.reshape({-1, -1}); }) == "can only specify one unknown dimension");
  BOOST_TEST(message([&] { a.reshape({}); }) == "cannot reshape array of size 12 into shape ()");
  BOOST_TEST(message([&] {
               gen::arange(0).reshape({0, -1});
             }) == "cannot reshape array of size 0 into shape (0,newaxis)");
  BOOST_TEST((a.reshape({3, -2}).shape() == cupp::shape_t{3, 4}));
  BOOST_TEST(gen::arange(1).reshape({}).ndim() == 0);
  const auto m = a.reshape({3, 4});
  BOOST_TEST(message([&] { m.transpose({0, 0}); }) == "repeated axis in transpose");
  BOOST_TEST(message([&] { m.transpose({0}); }) == "axes don't match array");
  BOOST_TEST(message([&] {
               m.transpose({0, 2});
             }) == "axis 2 is out of bounds for array of dimension 2");
  BOOST_CHECK_THROW(m.transpose({-3, 0}), cupp::axis_error);
  BOOST_TEST((m.transpose({-1, -2}).shape() == cupp::shape_t{4, 3}));
  BOOST_TEST(message([&] { m.reshape({-1}, cupp::order::K); }) ==
             "order 'K' is not permitted for reshaping");
  BOOST_TEST(message([&] { gen::zeros({2}, cupp::order::A); }) ==
             "only 'C' or 'F' order is permitted");
  BOOST_TEST(message([&] { gen::eye(2, 2, 0, cupp::order::K); }) ==
             "only 'C' or 'F' order is permitted");
}

BOOST_AUTO_TEST_CASE(meshgrid_of_arrays_and_generators) {
  const auto x = make<double>({1.5, 2.5, 3.5});
  const auto y = make<double>({-1.0, 0.0, 1.0, 2.0});
  const auto z = make<double>({10.0, 20.0});
  for (const auto idx : {cupp::indexing::xy, cupp::indexing::ij}) {
    const std::string tag = idx == cupp::indexing::xy ? "xy" : "ij";
    auto [X, Y, Z] = cupp::meshgrid(x, y, z, idx);
    static_assert(std::is_same_v<decltype(X), array<double>>);
    BOOST_TEST(X.data() == x.data());  // views, no copies
    check_expr("mesh_" + tag + "_0", X + 0.0);
    check_expr("mesh_" + tag + "_1", Y + 0.0);
    check_expr("mesh_" + tag + "_2", Z + 0.0);
    auto [Xs, Ys] = cupp::meshgrid(x, y, cupp::meshgrid_options{.indexing = idx, .sparse = true});
    check_expr("mesh_sparse_" + tag + "_0", Xs + 0.0);
    check_expr("mesh_sparse_" + tag + "_1", Ys + 0.0);
  }
  auto [X, Y] = cupp::meshgrid(gen::arange(3), gen::linspace(0, 1, 4));
  check_expr("mesh_gen_sum", X + Y);
  BOOST_CHECK_THROW(cupp::meshgrid(gen::arange(4).reshape({2, 2})), cupp::value_error);
  static_assert(std::tuple_size_v<decltype(cupp::meshgrid())> == 0);
}

BOOST_AUTO_TEST_CASE(sparse_indices) {
  const auto s = gen::sparse_indices({2, 3, 4});
  BOOST_TEST(s.size() == 3u);
  BOOST_TEST((s[1].shape() == cupp::shape_t{1, 3, 1}));
  check_expr("sparse_indices_sum", s[0] + s[1] + s[2]);
}

BOOST_AUTO_TEST_CASE(positions_past_62_bits_use_divisions) {
  // Three axes needing 2 + 32 + 29 bits: the position is the flat index.
  cupp::strides_t st;
  const index_t big = (index_t{1} << 31) + 1, c = index_t{1} << 29;
  const auto d = cupp::detail::make_decoder<3>({3, big, c}, cupp::order::C, st);
  BOOST_TEST(!d.packed);
  BOOST_TEST((st == cupp::strides_t{big * c, c, 1}));
  const index_t p = 2 * big * c + 5 * c + 7;
  BOOST_TEST(d.coord(p, 0) == 2);
  BOOST_TEST(d.coord(p, 1) == 5);
  BOOST_TEST(d.coord(p, 2) == 7);
  const auto small = cupp::detail::make_decoder<2>({3, 5}, cupp::order::F, st);
  BOOST_TEST(small.packed);
  BOOST_TEST((st == cupp::strides_t{1, 4}));
  BOOST_TEST(small.coord(2 + 4 * 3, 0) == 2);
  BOOST_TEST(small.coord(2 + 4 * 3, 1) == 3);
}

BOOST_AUTO_TEST_CASE(generators_fuse_with_arrays) {
  const auto x = make<float>({1, 2, 3, 4});
  const auto r = computed(x * gen::arange(4) + gen::full({4}, 0.5));
  BOOST_TEST(r.dtype().name == "float64");  // float32 * int64 -> float64
  BOOST_TEST(r.at(3) == 12.5);
  const auto t = computed(x + gen::ones<float>({2, 4}));
  BOOST_TEST(t.dtype().name == "float32");
  BOOST_TEST(t.at(1, 2) == 4.0f);
}

BOOST_AUTO_TEST_SUITE_END()
