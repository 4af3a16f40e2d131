// numpy.median, percentile, quantile and their nan-variants on host arrays
// and, with CUPP_TEST_DEVICE=1, on device arrays, against NumPy
// (tests/generate_sort_quantile_fixtures.py): every real dtype, all 13
// methods, scalar and list q (0 and 1 included), int, negative, tuple and
// None axes with keepdims, inputs in C, F, strided, reversed, broadcast and
// lazy layouts; ties, NaN (plain and nan-variant, all-NaN rows), inf, -0.0,
// all-equal, sorted, odd and even lengths, length 1, empty and 0-d inputs;
// weighted inverted_cdf; a 2^17-element row (the selection path) also
// checked against the same row sorted as one of two rows; NumPy's
// exception types and messages, with the result dtypes as documented.
#include <cupp/creation.hpp>
#include <cupp/npy.hpp>
#include <cupp/sort/quantile.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "cupp_test.hpp"
#include "sort_harness.hpp"
#include "test_space.hpp"

using cupp::index_t;
using cupp::shape_t;
using cupp::strides_t;
using cupp_test::array;
using cupp_test::on_space;
using cupp_test::to_host;

namespace {

namespace hana = boost::hana;

constexpr auto real_dtypes = hana::tuple_t<bool, std::int8_t, std::int16_t, std::int32_t,
                                           std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t,
                                           std::uint64_t, __half, __nv_bfloat16, float, double>;

template <class F>
void dispatch(const std::string& name, F&& f) {
  bool found = false;
  hana::for_each(real_dtypes, [&](auto t) {
    using T = typename decltype(t)::type;
    if (cupp::dtype_of<T>().name == name) {
      found = true;
      f(t);
    }
  });
  BOOST_TEST_REQUIRE(found, "no dtype " << name);
}

std::string path(const std::string& name) {
  return cupp_test::fixture("sort/quantile/" + name + ".npy");
}

const cupp::host::ndarray<double>& results() {
  static const auto r = cupp::host::load<double>(path("results"));
  return r;
}

// The test's 2^17-element rows, as the generator's long_row() builds them.
constexpr index_t long_n = index_t(1) << 17;

template <class T>
cupp::host::ndarray<T> long_row(const std::string& kind) {
  cupp::host::ndarray<T> x(shape_t{long_n});
  for (index_t i = 0; i < long_n; ++i) {
    const std::int64_t v = (i * 7919) % 65521;
    double d = kind == "@longint" ? double(v - 30000) : double(v) * 0.25 - 4000;
    if (kind == "@longnan" && i % 1000 == 7) d = NAN;
    x.data()[i] = cupp::detail::convert<T>(d);
  }
  return x;
}

// A fixture input of dtype T (bfloat16 inputs are stored as float32).
template <class T>
cupp::host::ndarray<T> load_input(const std::string& name) {
  if (name[0] == '@') return long_row<T>(name);
  if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    const auto f = cupp::host::load<float>(path("in_" + name));
    cupp::host::ndarray<T> x(f.shape());
    for (index_t i = 0; i < f.size(); ++i) x.data()[i] = __float2bfloat16(f.data()[i]);
    return x;
  } else {
    return cupp::host::load<T>(path("in_" + name));
  }
}

using sort_harness::in_layout;

std::vector<double> numbers(const std::string& text) {
  std::vector<double> v;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) v.push_back(std::stod(item));
  return v;
}

cupp::axis_arg parse_axis(const std::string& text) {
  if (text == "none") return cupp::none;
  const auto v = numbers(text);
  const int a = int(v[0]);
  if (v.size() == 1) return a;
  if (v.size() == 2) return {a, int(v[1])};
  return {a, int(v[1]), int(v[2])};
}

template <class T>
double as_double(const T& v) {
  return cupp::detail::convert<double>(v);
}

struct expectation {
  std::string numpy_dtype;  // NumPy's result dtype
  shape_t shape;
  index_t offset = 0;
  bool bfloat = false;  // compared to float32 NumPy within a bfloat16 step
};

expectation parse_result(const std::string& dtype, const std::string& text, bool bfloat) {
  expectation e{dtype, {}, 0, bfloat};
  const auto colon = text.find(':');
  e.offset = std::stoll(text.substr(0, colon));
  const std::string dims = text.substr(colon + 1);
  if (dims != "-") {
    std::stringstream in(dims);
    for (std::string d; std::getline(in, d, 'x');) e.shape.push_back(std::stoll(d));
  }
  return e;
}

template <class R>
void check_result(const array<R>& got, const expectation& want, const std::string& cupp_dtype,
                  const std::string& what) {
  BOOST_TEST(std::string(cupp::dtype_of<R>().name) == cupp_dtype,
             what << ": dtype " << cupp::dtype_of<R>().name << ", want " << cupp_dtype);
  const auto h = to_host(got);
  BOOST_TEST((h.shape() == want.shape), what << ": shape");
  if (h.shape() != want.shape) return;
  const double* w = results().data() + want.offset;
  for (index_t i = 0; i < h.size(); ++i) {
    const double g = as_double(h.data()[i]), x = w[i];
    const bool same =
        g == x || (std::isnan(g) && std::isnan(x)) ||
        (want.bfloat && std::isfinite(x) && std::abs(g - x) <= std::ldexp(std::abs(x) + 1, -7));
    BOOST_TEST(same, what << " [" << i << "]: " << g << " != " << x);
    if (!same) return;  // one message a case
  }
}

struct call_args {
  std::string func, method;
  cupp::axis_arg axis;
  bool keepdims = false;
  bool scalar = false;  // q a number
  std::vector<double> q;
};

// The call `c` on `a` (and weights `w` when given), its result checked.
template <class A, class W>
void run_call(const A& a, const W* w, const call_args& c, const expectation& want,
              const std::string& cupp_dtype, const std::string& what) {
  const cupp::quantile_options o{.method = c.method, .keepdims = c.keepdims};
  const auto check = [&](const auto& r) { check_result(r, want, cupp_dtype, what); };
  const auto family = [&](auto scalar_call, auto vector_call) {
    if (c.scalar)
      check(scalar_call(c.q[0]));
    else
      check(vector_call(c.q));
  };
#define QUANTILE_CASE(NAME)                                                                   \
  if (c.func == #NAME) {                                                                      \
    if (w)                                                                                    \
      return family(                                                                          \
          [&](double q) { return cupp::NAME(a, q, c.axis, *w, o); },                          \
          [&](const std::vector<double>& q) { return cupp::NAME(a, q, c.axis, *w, o); });     \
    return family([&](double q) { return cupp::NAME(a, q, c.axis, o); },                      \
                  [&](const std::vector<double>& q) { return cupp::NAME(a, q, c.axis, o); }); \
  }
  QUANTILE_CASE(quantile)
  QUANTILE_CASE(percentile)
  QUANTILE_CASE(nanquantile)
  QUANTILE_CASE(nanpercentile)
#undef QUANTILE_CASE
  if (c.func == "median") return check(cupp::median(a, c.axis, {.keepdims = c.keepdims}));
  if (c.func == "nanmedian") return check(cupp::nanmedian(a, c.axis, {.keepdims = c.keepdims}));
  BOOST_FAIL("unknown function " << c.func);
}

bool is_discrete(const std::string& m) {
  return m == "inverted_cdf" || m == "closest_observation" || m == "lower" || m == "higher" ||
         m == "nearest";
}

template <class T>
void run_case(const std::string& line) {
  std::istringstream in(line);
  std::string func, input, dtype, axis, keepdims, method, q, weights, rdtype, result;
  in >> func >> input >> dtype >> axis >> keepdims >> method >> q >> weights >> rdtype >> result;
  call_args c{func, method, parse_axis(axis), keepdims == "1", q.rfind("s:", 0) == 0, {}};
  if (q != "-") c.q = numbers(q.substr(2));
  const auto hx = load_input<T>(input);
  const bool weighted = weights != "-";
  const array<double> w =
      weighted ? on_space(cupp::host::load<double>(path(weights))) : array<double>();
  const array<double>* wp = weighted ? &w : nullptr;

  std::vector<std::string> layouts = {"C", "lazy"};
  if (input[0] != '@' && hx.shape().size() > 0 && hx.size() > 0)
    for (const char* l : {"F", "strided", "reversed"}) layouts.push_back(l);
  if (input.find("bcast") != std::string::npos) layouts.push_back("broadcast");

  if (result.rfind("raise:", 0) == 0) {
    const std::string type = result.substr(6);
    for (const auto& layout : layouts) {
      const auto a = in_layout(hx, layout == "lazy" ? "C" : layout);
      bool raised = false;
      try {
        run_call(a, wp, c, expectation{}, "", line);
      } catch (const cupp::index_error&) {
        raised = type == "IndexError";
      } catch (const cupp::type_error&) {
        raised = type == "TypeError";
      } catch (const cupp::value_error&) {
        raised = type == "ValueError";
      }
      BOOST_TEST(raised, line << " " << layout << ": no " << type);
    }
    return;
  }
  const bool bfloat = std::is_same_v<T, __nv_bfloat16>;
  const expectation want = parse_result(rdtype, result, bfloat);
  // cupp's dtype: NumPy's, except float64 where NumPy's depends on the
  // method (docs/sorting.md, differences).
  std::string cupp_dtype = bfloat && rdtype == "float32" ? "bfloat16" : rdtype;
  const bool int_like =
      rdtype.rfind("int", 0) == 0 || rdtype.rfind("uint", 0) == 0 || rdtype == "bool";
  if (!weighted && is_discrete(method) && func.find("median") == std::string::npos &&
      (int_like || !c.scalar))
    cupp_dtype = "float64";

  for (const auto& layout : layouts) {
    const std::string what = line + " [" + layout + "]";
    const auto a = in_layout(hx, layout == "lazy" ? "C" : layout);
    if (layout == "lazy")
      run_call(cupp::astype<T>(a), wp, c, want, cupp_dtype, what);  // a lazy node
    else
      run_call(a, wp, c, want, cupp_dtype, what);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sort_quantile)

BOOST_AUTO_TEST_CASE(fixtures) {
  int cases = 0;
  for (const auto& line : cupp_test::fixture_lines("sort/quantile/cases.txt")) {
    std::istringstream in(line);
    std::string func, input, dtype;
    in >> func >> input >> dtype;
    BOOST_TEST_CONTEXT(line) {
      dispatch(dtype, [&](auto t) { run_case<typename decltype(t)::type>(line); });
    }
    ++cases;
  }
  BOOST_TEST(cases > 2000);
}

// The long row's selection path against the same row sorted as one of two
// equal rows (the many-rows path), for every method.
BOOST_AUTO_TEST_CASE(select_matches_sort) {
  for (const std::string kind : {"@long", "@longnan"}) {
    const auto hx = long_row<float>(kind);
    const array<float> x = on_space(hx);
    cupp::host::ndarray<float> h2(shape_t{2, long_n});
    for (index_t i = 0; i < long_n; ++i) h2.data()[i] = h2.data()[long_n + i] = hx.data()[i];
    const array<float> x2 = on_space(h2);
    const std::vector<double> q = {0.0, 0.001, 0.25, 0.5, 0.999, 1.0};
    for (const auto& name : cupp::detail::quantiles::method_names) {
      const cupp::quantile_options o{.method = name};
      const auto one = to_host(cupp::nanquantile(x, q, cupp::none, o));
      const auto two = to_host(cupp::nanquantile(x2, q, 1, o));
      for (std::size_t j = 0; j < q.size(); ++j)
        BOOST_TEST(one.data()[j] == two.data()[2 * j], kind << " " << name << " q " << q[j]);
    }
    const float m1 = to_host(cupp::median(x)).data()[0];
    const float m2 = to_host(cupp::median(x2, 1)).data()[1];
    BOOST_TEST((m1 == m2 || (std::isnan(m1) && std::isnan(m2))), kind << " median");
  }
}

BOOST_AUTO_TEST_CASE(errors) {
  using cupp_test::message_of;
  cupp::host::ndarray<double> h(shape_t{2, 3});
  for (int i = 0; i < 6; ++i) h.data()[i] = i;
  const array<double> a = on_space(h);
  const array<double> keep = on_space(h.copy());
  BOOST_TEST(message_of([&] { cupp::quantile(a, 1.5); }) ==
             "Quantiles must be in the range [0, 1]");
  BOOST_TEST(message_of([&] {
               cupp::nanquantile(a, {0.5, -0.1});
             }) == "Quantiles must be in the range [0, 1]");
  BOOST_TEST(message_of([&] { cupp::quantile(a, NAN); }) ==
             "Quantiles must be in the range [0, 1]");
  BOOST_TEST(message_of([&] { cupp::percentile(a, 101); }) ==
             "Percentiles must be in the range [0, 100]");
  BOOST_TEST(message_of([&] { cupp::nanpercentile(a, {-1.0}); }) ==
             "Percentiles must be in the range [0, 100]");
  BOOST_TEST(message_of([&] { cupp::quantile(a, 0.5, cupp::none, {.method = "foo"}); }) ==
             "'foo' is not a valid method. Use one of: dict_keys(['inverted_cdf', "
             "'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', "
             "'hazen', 'weibull', 'linear', 'median_unbiased', 'normal_unbiased', 'lower', "
             "'higher', 'midpoint', 'nearest'])");
  const array<double> w23 = on_space(cupp::host::ndarray<double>(shape_t{2, 3}));
  BOOST_TEST(message_of([&] { cupp::quantile(a, 0.5, cupp::none, w23, {}); }) ==
             "Only method 'inverted_cdf' supports weights. Got: linear.");
  const cupp::quantile_options inv{.method = "inverted_cdf"};
  const array<double> w4 = on_space(cupp::host::ndarray<double>(shape_t{4}));
  BOOST_TEST(message_of([&] { cupp::quantile(a, 0.5, 1, w4, inv); }) ==
             "Shape of weights must be consistent with shape of a along specified axis.");
  cupp::host::ndarray<double> hw(shape_t{3});
  for (int i = 0; i < 3; ++i) hw.data()[i] = i == 1 ? -1.0 : 1.0;
  BOOST_TEST(message_of([&] { cupp::quantile(a, 0.5, 1, on_space(hw), inv); }) ==
             "Weights must be non-negative.");
  for (int i = 0; i < 3; ++i) hw.data()[i] = 0;
  BOOST_TEST(message_of([&] { cupp::percentile(a, 50, 1, on_space(hw), inv); }) ==
             "Weights included NaN, inf or were all zero.");
  hw.data()[0] = INFINITY;
  BOOST_TEST(message_of([&] { cupp::quantile(a, {0.5}, 1, on_space(hw), inv); }) ==
             "Weights included NaN, inf or were all zero.");
  std::string type_message;
  try {
    cupp::quantile(a, 0.5, cupp::none, on_space(hw), inv);
  } catch (const cupp::type_error& e) {
    type_message = e.what();
  }
  BOOST_TEST(type_message == "Axis must be specified when shapes of a and weights differ.");

  const auto axis_message = [](auto&& call) {
    try {
      call();
    } catch (const cupp::axis_error& e) {
      return std::string(e.what());
    }
    return std::string("(no axis_error)");
  };
  BOOST_TEST(axis_message([&] { cupp::quantile(a, 0.5, 2); }) ==
             "axis 2 is out of bounds for array of dimension 2");
  BOOST_TEST(axis_message([&] { cupp::median(a, -3); }) ==
             "axis -3 is out of bounds for array of dimension 2");
  BOOST_TEST(axis_message([&] {
               cupp::nanmedian(a, {0, 2});
             }) == "axis 2 is out of bounds for array of dimension 2");
  BOOST_TEST(message_of([&] { cupp::quantile(a, 0.5, {0, 0}); }) == "repeated axis");
  BOOST_TEST(message_of([&] { cupp::median(a, {0, -2}); }) == "repeated axis");

  const auto type_of = [](auto&& call) {
    try {
      call();
    } catch (const cupp::type_error& e) {
      return std::string(e.what());
    }
    return std::string("(no type_error)");
  };
  using C = cuda::std::complex<double>;
  const array<C> z = on_space(cupp::host::ndarray<C>(shape_t{2, 3}));
  BOOST_TEST(type_of([&] { cupp::quantile(z, 0.5); }) == "a must be an array of real numbers");
  BOOST_TEST(type_of([&] { cupp::nanpercentile(z, {50.0}); }) ==
             "a must be an array of real numbers");
  const array<bool> b = on_space(cupp::host::ndarray<bool>(shape_t{3}));
  BOOST_TEST(type_of([&] { cupp::quantile(b, 0.5); }) ==
             "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
             "the `^` operator, or the logical_xor function instead.");
  const auto index_message = [](auto&& call) {
    try {
      call();
    } catch (const cupp::index_error& e) {
      return std::string(e.what());
    }
    return std::string("(no index_error)");
  };
  const array<double> empty_f = on_space(cupp::host::ndarray<double>(shape_t{3, 0}));
  const array<std::int32_t> empty_i = on_space(cupp::host::ndarray<std::int32_t>(shape_t{3, 0}));
  BOOST_TEST(index_message([&] { cupp::quantile(empty_f, 0.5, 1); }) ==
             "index -1 is out of bounds for axis 0 with size 0");
  BOOST_TEST(index_message([&] { cupp::percentile(empty_i, {50.0}, 1); }) ==
             "index 0 is out of bounds for axis 0 with size 0");
  BOOST_TEST(index_message([&] { cupp::quantile(empty_i, 0.5, 1, {.method = "lower"}); }) ==
             "cannot do a non-empty take from an empty axes.");
  // Nothing written.
  BOOST_TEST(to_host(a).to_vector() == to_host(keep).to_vector());
}

// numpy.median of complex values: the mean of the middle pair in
// lexicographic order; nanmedian skips NaNs.
BOOST_AUTO_TEST_CASE(complex_median) {
  using C = cuda::std::complex<double>;
  cupp::host::ndarray<C> h(shape_t{4});
  h.data()[0] = C(3, 1);
  h.data()[1] = C(1, 2);
  h.data()[2] = C(1, 5);
  h.data()[3] = C(NAN, 0);
  const auto m = to_host(cupp::median(on_space(h)));
  BOOST_TEST(std::isnan(m.data()[0].real()));
  const auto n = to_host(cupp::nanmedian(on_space(h)));
  BOOST_TEST((n.data()[0] == C(1, 5)));
  const auto e = to_host(cupp::median(cupp::astype<C>(on_space(h)), cupp::none));
  BOOST_TEST(std::isnan(e.data()[0].real()));
}

BOOST_AUTO_TEST_SUITE_END()
