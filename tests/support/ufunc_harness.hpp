// Checks cupp's ufuncs against NumPy's outputs (tests/fixtures/ufunc/*.bin,
// written by tests/generate_ufunc_fixtures.py).
//
// The same test sources build two executables: host arrays (the default)
// and device arrays (CUPP_UFUNC_TEST_DEVICE). Each generated test case names
// a ufunc, its input dtypes and a lambda calling cupp; the checks here
// evaluate it on the fixture's inputs in every layout (C, F, strided,
// reversed, broadcast, 0-d, empty) and through its out= form, and compare
// dtype and values with NumPy's.
//
// To keep compile time down, the code that depends on the lambda is only
// the call itself (two small functions per case); everything else is
// instantiated once per dtype signature.
#pragma once

#include <cupp/creation.hpp>
#include <cupp/ufunc.hpp>

#include "../fixtures/ufunc/headers.inc"
#include "cupp_test.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <bit>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ufunc_test {

#if defined(CUPP_UFUNC_TEST_DEVICE)
using space = cupp::device_space;
#else
using space = cupp::host_space;
#endif
template <class T>
using arr = cupp::ndarray<T, space>;
template <class T>
using harr = cupp::host::ndarray<T>;
using cupp::index_t;
using cupp::shape_t;
using cupp::strides_t;

// ---------------------------------------------------------------------------
// Tolerances. Exact unless listed: bit equality, every NaN equal to every
// other, -0.0 distinct from 0.0. The bounds of the listed ufuncs are those
// of docs/accuracy.md (host and
// device columns): ulps of the result's type for float32, float64 and
// (after rounding) float16/bfloat16; for complex results normwise, the
// larger of the two parts' differences in ulps of max(|re|, |im|) of
// NumPy's value. NaN must meet NaN, infinities and the sign of zero must
// match exactly.
struct tolerance {
  int f32 = 0, f64 = 0, f16 = 0, c64 = 0, c128 = 0;
  // logaddexp: ulps of max(|result|, |x|, |y|), the scale its cancellation
  // works at
  bool of_inputs = false;
  // maximum(-0.0, 0.0) and friends: NumPy's SIMD loops leave the sign open
  bool zero_sign_free = false;
  // the bounds hold for complex inputs only (absolute, angle: exact for
  // real ones)
  bool complex_inputs_only = false;
};

struct tolerance_row {
  std::string_view ufunc;
  tolerance host, device;
};

#if defined(CUPP_UFUNC_TEST_DEVICE)
inline constexpr bool on_device = true;
#else
inline constexpr bool on_device = false;
#endif

inline tolerance tolerance_of(std::string_view ufunc) {
  //                       host: f32 f64 f16 c64 c128     device: f32 f64 f16 c64 c128
  static const tolerance_row table[] = {
      {"cbrt", {3, 4, 1}, {4, 5, 1}},
      {"exp", {3, 2, 1, 3, 2}, {5, 3, 1, 7, 5}},
      {"exp2", {3, 2, 1, 3, 2}, {5, 3, 1, 7, 5}},
      {"expm1", {3, 2, 1, 1, 1}, {4, 3, 1, 7, 5}},
      {"log", {5, 2, 1, 5, 4}, {6, 3, 1, 8, 6}},
      {"log2", {3, 2, 1, 5, 4}, {4, 3, 1, 8, 6}},
      {"log10", {4, 3, 1, 5, 5}, {6, 4, 1, 9, 7}},
      {"log1p", {3, 2, 1, 1, 1}, {4, 3, 1, 6, 5}},
      {"logaddexp", {1, 1, 1, 0, 0, true}, {4, 3, 1, 0, 0, true}},
      {"logaddexp2", {1, 1, 1, 0, 0, true}, {4, 3, 1, 0, 0, true}},
      {"sin", {2, 1, 1, 3, 3}, {4, 3, 1, 8, 6}},
      {"cos", {2, 1, 1, 3, 3}, {4, 3, 1, 8, 6}},
      {"tan", {4, 2, 1, 7, 7}, {8, 4, 1, 20, 12}},
      {"arcsin", {4, 2, 1, 6, 7}, {6, 4, 1, 16, 12}},
      {"arccos", {3, 2, 1, 6, 7}, {5, 4, 1, 16, 12}},
      {"arctan", {3, 2, 1, 5, 5}, {5, 4, 1, 10, 8}},
      {"arctan2", {4, 2, 1}, {7, 4, 1}},
      {"hypot", {1, 1, 1}, {4, 1, 1}},
      {"sinh", {3, 3, 1, 3, 3}, {6, 5, 1, 8, 6}},
      {"cosh", {3, 3, 1, 3, 3}, {5, 4, 1, 8, 6}},
      {"tanh", {4, 4, 1, 7, 7}, {6, 5, 1, 20, 12}},
      {"arcsinh", {3, 3, 1, 6, 7}, {6, 6, 1, 16, 12}},
      {"arccosh", {3, 3, 1, 6, 7}, {7, 6, 1, 16, 12}},
      {"arctanh", {3, 3, 1, 5, 5}, {6, 5, 1, 10, 8}},
      {"sinc", {3, 1, 1, 4, 3}, {6, 4, 1, 12, 8}},  // bfloat16 in: float32 out
      {"sqrt", {0, 0, 0, 2, 2}, {0, 0, 0, 5, 4}},
      // |z| is hypot(re, im), arg z is arctan2(im, re): their rows, applied
      // to complex inputs only
      {"absolute", {1, 1, 0, 0, 0, false, false, true}, {4, 3, 0, 0, 0, false, false, true}},
      {"abs", {1, 1, 0, 0, 0, false, false, true}, {4, 3, 0, 0, 0, false, false, true}},
      {"angle", {4, 2, 1, 0, 0, false, false, true}, {7, 4, 1, 0, 0, false, false, true}},
      // power of floats: the C library's pow on the host, CUDA's on the
      // device ("a few ulp"); complex: libcu++'s exp(b log a), up to about
      // 100 ulp for exponents near 100
      {"power", {1, 1, 1, 100, 100}, {4, 4, 1, 100, 100}},
      {"float_power", {1, 1, 1, 100, 100}, {4, 4, 1, 100, 100}},
      {"pow", {1, 1, 1, 100, 100}, {4, 4, 1, 100, 100}},
      {"maximum", {0, 0, 0, 0, 0, false, true}, {0, 0, 0, 0, 0, false, true}},
      {"minimum", {0, 0, 0, 0, 0, false, true}, {0, 0, 0, 0, 0, false, true}},
      {"fmax", {0, 0, 0, 0, 0, false, true}, {0, 0, 0, 0, 0, false, true}},
      {"fmin", {0, 0, 0, 0, 0, false, true}, {0, 0, 0, 0, 0, false, true}},
      {"clip", {0, 0, 0, 0, 0, false, true}, {0, 0, 0, 0, 0, false, true}},
  };
  // NumPy's array-API names share their ufunc's row.
  static const std::pair<std::string_view, std::string_view> aliases[] = {
      {"asin", "arcsin"},   {"acos", "arccos"},   {"atan", "arctan"},  {"atan2", "arctan2"},
      {"asinh", "arcsinh"}, {"acosh", "arccosh"}, {"atanh", "arctanh"}};
  for (const auto& [alias, name] : aliases)
    if (ufunc == alias) ufunc = name;
  for (const auto& row : table)
    if (row.ufunc == ufunc) return on_device ? row.device : row.host;
  return {};
}

// ---------------------------------------------------------------------------
// Fixture records.

struct blob {
  std::string dtype;
  shape_t shape;
  std::string bytes;
};

struct record {
  std::string key;
  std::vector<std::pair<std::string, std::string>> params;
  std::vector<blob> in, out;
  std::string error;

  const std::string* param(std::string_view name) const {
    for (const auto& [k, v] : params)
      if (k == name) return &v;
    return nullptr;
  }
};

// Parameters some ufuncs take besides their arrays.
struct params {
  int decimals = 0;
};

inline params params_of(const record& r) {
  params p;
  if (const auto* d = r.param("decimals")) p.decimals = std::stoi(*d);
  return p;
}

inline std::vector<record> parse_records(const std::string& text, const std::string& file) {
  std::vector<record> out;
  std::size_t pos = 0;
  auto line = [&] {
    const std::size_t e = text.find('\n', pos);
    if (e == std::string::npos) throw std::runtime_error("truncated fixture " + file);
    std::string l = text.substr(pos, e - pos);
    pos = e + 1;
    return l;
  };
  while (pos < text.size()) {
    std::string l = line();
    if (l.rfind("case ", 0) != 0) throw std::runtime_error("bad record in " + file + ": " + l);
    record r;
    r.key = l.substr(5);
    for (;;) {
      l = line();
      if (l == "end") break;
      std::istringstream in(l);
      std::string tag;
      in >> tag;
      if (tag == "param") {
        std::string k, v;
        in >> k;
        std::getline(in, v);
        r.params.emplace_back(k, v.substr(v.find_first_not_of(' ')));
      } else if (tag == "error") {
        in >> r.error;
      } else if (tag == "in" || tag == "out") {
        blob b;
        int ndim;
        in >> b.dtype >> ndim;
        b.shape = shape_t::filled(ndim, 0);
        for (int i = 0; i < ndim; ++i) in >> b.shape[i];
        std::size_t nbytes;
        in >> nbytes;
        b.bytes = text.substr(pos, nbytes);
        pos += nbytes;
        (tag == "in" ? r.in : r.out).push_back(std::move(b));
      } else {
        throw std::runtime_error("bad line in " + file + ": " + l);
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

// The records of a fixture file whose key is `key` (files are read once).
inline std::vector<const record*> find_records(const std::string& file, const std::string& key) {
  static std::map<std::string, std::vector<record>> cache;
  auto it = cache.find(file);
  if (it == cache.end()) {
    std::ifstream in(cupp_test::fixture("ufunc/" + file), std::ios::binary);
    BOOST_TEST_REQUIRE(in.good(), "missing fixture " << file);
    std::ostringstream s;
    s << in.rdbuf();
    it = cache.emplace(file, parse_records(s.str(), file)).first;
  }
  std::vector<const record*> found;
  for (const auto& r : it->second)
    if (r.key == key) found.push_back(&r);
  BOOST_TEST_REQUIRE(!found.empty(), "no record `" << key << "` in " << file);
  return found;
}

// ---------------------------------------------------------------------------
// Values: printing and comparing any dtype.

template <class T>
inline constexpr bool is_complex_v = cupp::is_complex_v<T>;

template <class T>
double as_double(T v) {
  if constexpr (std::is_same_v<T, __half>)
    return static_cast<double>(__half2float(v));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return static_cast<double>(__bfloat162float(v));
  else
    return static_cast<double>(v);
}

template <class T>
std::string show(const T& v) {
  char buf[96];
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "True" : "False";
  } else if constexpr (is_complex_v<T>) {
    return "(" + show(v.real()) + (std::signbit(as_double(v.imag())) ? "" : "+") + show(v.imag()) +
           "j)";
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(v);
  } else {
    std::snprintf(buf, sizeof buf, "%.17g", as_double(v));
    return buf;
  }
}

// Bits of a real floating value, mapped so that consecutive floats are
// consecutive integers (-0.0 and 0.0 both 0).
template <class T>
std::int64_t ordered_bits(T v) {
  if constexpr (sizeof(T) == 2) {
    std::int16_t b;
    std::memcpy(&b, &v, 2);
    return b < 0 ? -static_cast<std::int64_t>(b & 0x7fff) : b;
  } else if constexpr (sizeof(T) == 4) {
    std::int32_t b;
    std::memcpy(&b, &v, 4);
    return b < 0 ? -static_cast<std::int64_t>(b & 0x7fffffff) : b;
  } else {
    std::int64_t b;
    std::memcpy(&b, &v, 8);
    return b < 0 ? -(b & 0x7fffffffffffffff) : b;
  }
}

template <class T>
bool real_close(T got, T want, int ulps, bool zero_sign_free, double scale = 0) {
  const double g = as_double(got), w = as_double(want);
  if (std::isnan(g) || std::isnan(w)) return std::isnan(g) && std::isnan(w);
  if (g == 0 && w == 0 && zero_sign_free) return true;
  if (ulps == 0 || std::isinf(g) || std::isinf(w) || (g == 0 && w == 0))
    return cupp_test::same_bits(got, want);
  if (scale > 0) return std::fabs(g - w) <= ulps * scale;
  const std::int64_t d = ordered_bits(got) - ordered_bits(want);
  return (d < 0 ? -d : d) <= ulps;
}

// One unit in the last place at magnitude |x| for the real type R (float
// for the 16-bit types' own units: see ulp16).
template <class R>
double ulp_at(double x) {
  x = std::fabs(x);
  if (x >= static_cast<double>(std::numeric_limits<R>::max())) x = std::numeric_limits<R>::max();
  const R r = static_cast<R>(x);
  return static_cast<double>(std::nextafter(r, std::numeric_limits<R>::infinity()) - r);
}

// The unit of a 16-bit float's last place at magnitude |x|.
template <class T>
double ulp16_at(double x) {
  const int mant = std::is_same_v<T, __half> ? 10 : 7;
  const int min_exp = std::is_same_v<T, __half> ? -14 : -126;
  int e;
  std::frexp(std::fabs(x), &e);
  return std::ldexp(1.0, std::max(e - 1, min_exp) - mant);
}

template <class T>
int ulps_for(const tolerance& tol) {
  if constexpr (sizeof(T) == 2)
    return tol.f16;
  else if constexpr (std::is_same_v<T, float>)
    return tol.f32;
  else
    return tol.f64;
}

// `magnitude`: where the tolerance is measured in ulps of something other
// than the result (tolerance::of_inputs), that thing's magnitude.
template <class T>
bool close(const T& got, const T& want, const tolerance& tol, double magnitude = 0) {
  if constexpr (std::is_same_v<T, bool> || std::is_integral_v<T>) {
    return got == want;
  } else if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    const int ulps = std::is_same_v<R, float> ? tol.c64 : tol.c128;
    if (ulps == 0 || !std::isfinite(want.real()) || !std::isfinite(want.imag()) ||
        !std::isfinite(got.real()) || !std::isfinite(got.imag()))
      return real_close(got.real(), want.real(), 0, tol.zero_sign_free) &&
             real_close(got.imag(), want.imag(), 0, tol.zero_sign_free);
    const double scale = ulps * ulp_at<R>(std::max(std::fabs(want.real()), std::fabs(want.imag())));
    auto part = [&](R g, R w) {
      if (g == 0 && w == 0) return cupp_test::same_bits(g, w);
      return std::fabs(static_cast<double>(g) - w) <= scale;
    };
    return part(got.real(), want.real()) && part(got.imag(), want.imag());
  } else {
    double scale = 0;
    if (tol.of_inputs) {
      const double m = std::max(magnitude, std::fabs(as_double(want)));
      if constexpr (sizeof(T) == 2)
        scale = ulp16_at<T>(m);
      else
        scale = ulp_at<T>(m);
    }
    return real_close(got, want, ulps_for<T>(tol), tol.zero_sign_free, scale);
  }
}

// ---------------------------------------------------------------------------
// Arrays in every layout.

template <class T>
harr<T> host_from(const blob& b) {
  const std::string_view want = cupp::dtype_of<T>().name;
  BOOST_TEST_REQUIRE(b.dtype == want, "fixture holds " << b.dtype << ", the test reads " << want);
  harr<T> h(b.shape);
  BOOST_TEST_REQUIRE(b.bytes.size() == static_cast<std::size_t>(h.nbytes()));
  if (h.size()) std::memcpy(h.data(), b.bytes.data(), b.bytes.size());
  return h;
}

template <class T>
const T* values_of(const blob& b) {
  return reinterpret_cast<const T*>(b.bytes.data());
}

// A 2-d host array broadcast to `s` (materialised, C order).
template <class T>
harr<T> broadcast_full(const harr<T>& a, const shape_t& s) {
  harr<T> f(s);
  const index_t r = s[0], c = s[1];
  for (index_t i = 0; i < r; ++i)
    for (index_t j = 0; j < c; ++j)
      f.at(i, j) = a.at(a.shape()[0] == 1 ? 0 : i, a.shape()[1] == 1 ? 0 : j);
  return f;
}

template <class T>
arr<T> to_space(const harr<T>& h) {
  if constexpr (std::is_same_v<space, cupp::device_space>)
    return cupp::asarray(h);
  else
    return h.copy(h.is_f_contiguous() && !h.is_c_contiguous() ? cupp::order::F : cupp::order::C);
}

template <class T>
harr<T> to_host(const arr<T>& a) {
  if constexpr (std::is_same_v<space, cupp::device_space>)
    return a.get();
  else
    return a;
}

enum class layout { c, f, strided, reversed };
inline const char* name_of(layout l) {
  switch (l) {
    case layout::c:
      return "C-contiguous";
    case layout::f:
      return "F-ordered";
    case layout::strided:
      return "strided (step 2)";
    default:
      return "reversed (negative strides)";
  }
}

// A byte pattern the views' neighbours are filled with, to catch writes
// outside an out= view.
template <class T>
T sentinel() {
  unsigned char bytes[sizeof(T)];
  std::memset(bytes, 0x5a, sizeof bytes);
  return std::bit_cast<T>(bytes);
}

// `full` (2-d, C order) as an array of layout `l` in the tested space.
template <class T>
arr<T> place(const harr<T>& full, layout l) {
  const shape_t& s = full.shape();
  const index_t r = s[0], c = s[1], isz = sizeof(T);
  if (l == layout::c) return to_space(full);
  if (l == layout::f) {
    harr<T> f(s, cupp::order::F);
    for (index_t i = 0; i < r; ++i)
      for (index_t j = 0; j < c; ++j) f.at(i, j) = full.at(i, j);
    return to_space(f);
  }
  if (l == layout::strided) {
    harr<T> buf({2 * r + 1, 2 * c + 1});
    std::fill(buf.data(), buf.data() + buf.size(), sentinel<T>());
    for (index_t i = 0; i < r; ++i)
      for (index_t j = 0; j < c; ++j) buf.at(2 * i, 2 * j) = full.at(i, j);
    arr<T> b = to_space(buf);
    return arr<T>::from_pointer(b.data(), s, strides_t{2 * (2 * c + 1) * isz, 2 * isz}, b.memory());
  }
  harr<T> buf(s);
  for (index_t i = 0; i < r; ++i)
    for (index_t j = 0; j < c; ++j) buf.at(r - 1 - i, c - 1 - j) = full.at(i, j);
  arr<T> b = to_space(buf);
  if (r * c == 0) return b;
  return arr<T>::from_pointer(b.data() + (r * c - 1), s, strides_t{-c * isz, -isz}, b.memory());
}

// A 0-d array holding one value.
template <class T>
arr<T> zero_d(const T& v) {
  harr<T> h(shape_t{});
  *h.data() = v;
  return to_space(h);
}

// ---------------------------------------------------------------------------
// Checking results.

// What a failure message says about the element at a flat (C order)
// position: the inputs there.
using describer = std::function<std::string(index_t)>;
// The largest magnitude among the inputs at a flat position (for
// tolerance::of_inputs).
using magnitudes = std::function<double(index_t)>;

template <class T>
double magnitude_of(const T& v) {
  double m;
  if constexpr (is_complex_v<T>)
    m = std::hypot(static_cast<double>(v.real()), static_cast<double>(v.imag()));
  else if constexpr (std::is_same_v<T, bool>)
    m = v ? 1 : 0;
  else
    m = std::fabs(as_double(v));
  return std::isfinite(m) ? m : 0;  // an infinite input gives no scale
}

// How many mismatching elements a failure lists: 4, or $UFUNC_TEST_SHOW.
inline int shown_mismatches() {
  static const int n = [] {
    const char* e = std::getenv("UFUNC_TEST_SHOW");
    return e ? std::atoi(e) : 4;
  }();
  return n;
}

// Compares `got` (any layout, the tested space) with NumPy's values `want`
// (C order, broadcast over rows when `want_rows` is 1); at most a few
// mismatches are listed.
template <class R>
void compare(const std::string& what, const arr<R>& got_arr, const R* want, index_t want_rows,
             const shape_t& shape, const tolerance& tol, const describer& describe,
             const magnitudes& magnitude = {}) {
  BOOST_TEST(got_arr.shape() == shape, what << ": shape " << cupp::to_string(got_arr.shape())
                                            << ", NumPy's " << cupp::to_string(shape));
  if (got_arr.shape() != shape) return;
  const std::vector<R> got = to_host(got_arr).to_vector();
  const index_t n = static_cast<index_t>(got.size());
  const index_t cols = shape.size() == 2 ? shape[1] : n;
  int bad = 0;
  std::string detail;
  for (index_t k = 0; k < n; ++k) {
    const index_t wk = want_rows == 1 ? k % std::max<index_t>(cols, 1) : k;
    if (close(got[k], want[wk], tol, magnitude ? magnitude(wk) : 0.0)) continue;
    if (++bad <= shown_mismatches())
      detail += "\n    at " + std::to_string(k) + ": " + describe(wk) + " -> cupp " + show(got[k]) +
                ", NumPy " + show(want[wk]);
  }
  BOOST_TEST(bad == 0,
             what << ": " << bad << " of " << n << " values differ from NumPy's" << detail);
}

template <class T>
std::string describe_value(const harr<T>& full, index_t k) {
  return show(full.data()[k]);
}

// ---------------------------------------------------------------------------
// ufunc(x, ...) on the fixture's inputs.

template <class... R>
struct out_list {};

// f(seq): what a pack expansion over indices is written with here.
template <class Seq, class F>
decltype(auto) unpack(Seq seq, F&& f) {
  return f(seq);
}

template <class X>
struct results_of {
  using type = out_list<typename X::value_type>;
};
template <class A, class B>
struct results_of<std::pair<A, B>> {
  using type = out_list<typename A::value_type, typename B::value_type>;
};

// The two functions a test case's lambda F becomes: the lazy form,
// evaluated into new arrays, and the out= form.
template <class Outs, class... In>
struct call_fns;
template <class... R, class... In>
struct call_fns<out_list<R...>, In...> {
  std::tuple<arr<R>...> (*lazy)(const params&, const arr<In>&...) = nullptr;
  void (*out)(const params&, const arr<In>&..., const arr<R>&...) = nullptr;
};

template <class F, class Outs, class... In>
struct caller;
template <class F, class... R, class... In>
struct caller<F, out_list<R...>, In...> {
  static std::tuple<arr<R>...> lazy(const params& p, const arr<In>&... a) {
    auto r = F{}(p, a...);
    if constexpr (sizeof...(R) == 1)
      return std::tuple<arr<R>...>(arr<R>(r)...);
    else
      return std::tuple<arr<R>...>(r.first, r.second);
  }
  static void out(const params& p, const arr<In>&... a, const arr<R>&... z) {
    F{}(p, a..., cupp::out(z)...);
  }
};

inline std::string sig_context(const std::string& ufunc, const std::string& sig, const record& r) {
  std::string c = ufunc + "(" + sig + ")";
  for (const auto& [k, v] : r.params) c += " " + k + "=" + v;
  return c;
}

template <class Tuple, std::size_t... I>
describer describe_inputs(const Tuple& full, std::index_sequence<I...>) {
  return [&full](index_t k) {
    std::string s;
    ((s += (I ? ", " : "") + describe_value(std::get<I>(full), k)), ...);
    return s;
  };
}

// A buffer twice the size of `shape` in each dimension, filled with the
// sentinel, and the step-2 view into it that an out= form writes.
template <class T>
struct strided_out {
  arr<T> buffer, view;
  explicit strided_out(const shape_t& shape) {
    harr<T> b(shape_t{2 * shape[0] + 1, 2 * shape[1] + 1});
    std::fill(b.data(), b.data() + b.size(), sentinel<T>());
    buffer = to_space(b);
    view = arr<T>::from_pointer(
        buffer.data(), shape,
        strides_t{2 * (2 * shape[1] + 1) * index_t(sizeof(T)), 2 * index_t(sizeof(T))},
        buffer.memory());
  }
  // Elements of the buffer outside the view that changed.
  int touched() const {
    const harr<T> h = to_host(buffer);
    int n = 0;
    for (index_t i = 0; i < h.shape()[0]; ++i)
      for (index_t j = 0; j < h.shape()[1]; ++j)
        if ((i % 2 || j % 2) && !cupp_test::same_bits(h.at(i, j), sentinel<T>())) ++n;
    return n;
  }
};

// One record through every layout. Instantiated once per dtype signature
// (In... -> R...), shared by every ufunc that has it.
template <class... R, class... In>
void run_call(const std::string& ufunc, const std::string& ctx, const record& rec,
              const call_fns<out_list<R...>, In...>& fn) {
  constexpr std::size_t nin = sizeof...(In), nout = sizeof...(R);
  using I = std::index_sequence_for<In...>;
  using K = std::index_sequence_for<R...>;
  BOOST_TEST_REQUIRE(rec.in.size() == nin);
  if (rec.error == "TypeError") {
    // NumPy raises for this parameter (round(bool array, decimals=1)).
    const params p = params_of(rec);
    unpack(
        I{}, [&]<std::size_t... i>(std::index_sequence<i...>) {
          BOOST_CHECK_THROW(fn.lazy(p, to_space(host_from<In>(rec.in[i]))...), cupp::type_error);
        });
    return;
  }
  BOOST_TEST_REQUIRE(rec.out.size() == nout);
  {
    const std::string_view got[] = {cupp::dtype_of<R>().name...};
    bool ok = true;
    for (std::size_t k = 0; k < nout; ++k) {
      BOOST_TEST(got[k] == rec.out[k].dtype,
                 ctx << ": result dtype " << got[k] << ", NumPy's " << rec.out[k].dtype);
      ok = ok && got[k] == rec.out[k].dtype;
    }
    if (!ok) return;  // values of another type cannot be compared
  }
  const tolerance tol = (tolerance_of(ufunc).complex_inputs_only && !(is_complex_v<In> || ...))
                            ? tolerance{}
                            : tolerance_of(ufunc);
  const params p = params_of(rec);
  const shape_t shape = rec.out[0].shape;
  const auto given = unpack(
      I{}, [&]<std::size_t... i>(std::index_sequence<i...>) {
        return std::tuple<harr<In>...>{host_from<In>(rec.in[i])...};
      });
  const auto full = unpack(
      I{}, [&]<std::size_t... i>(std::index_sequence<i...>) {
        return std::tuple<harr<In>...>{broadcast_full(std::get<i>(given), shape)...};
      });
  const describer describe = describe_inputs(full, I{});
  const magnitudes magnitude = [&full](index_t k) {
    return unpack(
        I{}, [&]<std::size_t... i>(std::index_sequence<i...>) {
          return std::max({magnitude_of(std::get<i>(full).data()[k])...});
        });
  };
  const std::tuple<const R*...> want = unpack(
      K{}, [&]<std::size_t... k>(std::index_sequence<k...>) {
        return std::tuple<const R*...>{values_of<R>(rec.out[k])...};
      });

  auto check_all = [&](const std::string& what, const std::tuple<arr<R>...>& got, index_t rows) {
    unpack(
        K{}, [&]<std::size_t... k>(std::index_sequence<k...>) {
          (compare(what + (nout > 1 ? " output " + std::to_string(k) : ""), std::get<k>(got),
                   std::get<k>(want), rows, shape, tol, describe, magnitude),
           ...);
        });
  };
  auto run = [&](const std::string& what, const arr<In>&... a) {
    try {
      return std::optional(fn.lazy(p, a...));
    } catch (const std::exception& e) {
      BOOST_ERROR(what << ": threw " << e.what());
      return std::optional<std::tuple<arr<R>...>>();
    }
  };

  // Full-size operands in every layout.
  for (layout l : {layout::c, layout::f, layout::strided, layout::reversed}) {
    const std::string what = ctx + " [" + name_of(l) + "]";
    const auto got = unpack(
        I{}, [&]<std::size_t... i>(std::index_sequence<i...>) {
          return run(what, place(std::get<i>(full), l)...);
        });
    if (!got) continue;
    check_all(what, *got, 0);
    // NumPy's K order: F-ordered operands give an F-ordered result
    if (l == layout::f && shape[0] > 1 && shape[1] > 1)
      BOOST_TEST(std::get<0>(*got).is_f_contiguous(), what << ": result is not F-ordered");
  }

  // The fixture's own shapes, (n, 1) against (1, m).
  const bool broadcasts = unpack(
      I{}, [&]<std::size_t... i>(std::index_sequence<i...>) {
        return ((std::get<i>(given).shape() != shape) || ...);
      });
  if (broadcasts) {
    const std::string what = ctx + " [broadcast]";
    const auto got = unpack(
        I{}, [&]<std::size_t... i>(std::index_sequence<i...>) {
          return run(what, to_space(std::get<i>(given))...);
        });
    if (got) check_all(what, *got, 0);
  }

  // 0-d operands, a few elements.
  const index_t n = shape[0] * shape[1];
  for (index_t e : {index_t{0}, n / 3, n / 2, n - 1}) {
    if (e < 0 || e >= n) continue;
    const std::string what = ctx + " [0-d, element " + std::to_string(e) + "]";
    const auto got = unpack(
        I{}, [&]<std::size_t... i>(std::index_sequence<i...>) {
          return run(what, zero_d(std::get<i>(full).data()[e])...);
        });
    if (!got) continue;
    unpack(
        K{}, [&]<std::size_t... k>(std::index_sequence<k...>) {
          (compare(
               what, std::get<k>(*got), std::get<k>(want) + e, 0, shape_t{}, tol,
               [&](index_t) { return describe(e); }, [&](index_t) { return magnitude(e); }),
           ...);
        });
  }

  // Empty operands: (0, m), and (0, 1) broadcast against (1, m).
  {
    const shape_t es{0, shape[1]};
    const auto got = run(ctx + " [empty]", arr<In>(es)...);
    if (got)
      BOOST_TEST(std::get<0>(*got).shape() == es,
                 ctx << " [empty]: shape " << cupp::to_string(std::get<0>(*got).shape()));
    if (broadcasts) {
      const auto got2 = unpack(
          I{}, [&]<std::size_t... i>(std::index_sequence<i...>) {
            return run(ctx + " [empty, broadcast]",
                       arr<In>(std::get<i>(given).shape()[0] == 1 ? std::get<i>(given).shape()
                                                                  : shape_t{0, 1})...);
          });
      if (got2)
        BOOST_TEST(
            std::get<0>(*got2).shape() == es,
            ctx << " [empty, broadcast]: shape " << cupp::to_string(std::get<0>(*got2).shape()));
    }
  }

  if (!fn.out) return;
  // out= into step-2 views, whose neighbours must stay untouched.
  for (layout in_layout : {layout::f, layout::c}) {
    const std::string what = ctx + " [out= strided view, " + name_of(in_layout) + " inputs]";
    std::tuple<strided_out<R>...> outs{strided_out<R>(shape)...};
    try {
      [&]<std::size_t... i, std::size_t... k>(std::index_sequence<i...>,
                                              std::index_sequence<k...>) {
        fn.out(p, place(std::get<i>(full), in_layout)..., std::get<k>(outs).view...);
      }
      (I{}, K{});
    } catch (const std::exception& e) {
      BOOST_ERROR(what << ": threw " << e.what());
      continue;
    }
    unpack(
        K{}, [&]<std::size_t... k>(std::index_sequence<k...>) {
          check_all(what, std::tuple<arr<R>...>{std::get<k>(outs).view...}, 0);
          const int touched[] = {std::get<k>(outs).touched()...};
          for (int t : touched)
            BOOST_TEST(t == 0, what << ": wrote " << t << " elements outside the view");
        });
  }
  if constexpr (nin == 1) {
    // out= broadcasts a (1, m) operand over every row of the output.
    const std::string what = ctx + " [out=, one row broadcast]";
    using In0 = std::tuple_element_t<0, std::tuple<In...>>;
    const harr<In0>& f = std::get<0>(full);
    harr<In0> row(shape_t{1, shape[1]});
    for (index_t j = 0; j < shape[1]; ++j) row.at(0, j) = f.at(0, j);
    const std::tuple<arr<R>...> z{arr<R>(shape)...};
    try {
      std::apply([&](const auto&... zz) { fn.out(p, to_space(row), zz...); }, z);
      check_all(what, z, 1);
    } catch (const std::exception& e) {
      BOOST_ERROR(what << ": threw " << e.what());
    }
  }
}

template <bool WithOut, class F, class... In, class... R>
void run_calls(const std::string& ufunc, const std::string& data, const std::string& sig,
               out_list<R...>) {
  using C = caller<F, out_list<R...>, In...>;
  call_fns<out_list<R...>, In...> fn;
  fn.lazy = &C::lazy;
  if constexpr (WithOut) fn.out = &C::out;
  for (const record* r : find_records(data + ".bin", "call " + sig))
    run_call(ufunc, sig_context(ufunc, sig, *r), *r, fn);
}

// The test of one ufunc and input signature: F is a captureless lambda
// (params, arrays...) calling the ufunc; WithOut when it has an out= form.
template <bool WithOut, class... In, class F>
void check_call(const std::string& ufunc, const std::string& data, const std::string& sig, F) {
  using X = decltype(F{}(params{}, std::declval<const arr<In>&>()...));
  run_calls<WithOut, F, In...>(ufunc, data, sig, typename results_of<X>::type{});
}

// ---------------------------------------------------------------------------
// Operators: the same fixture through `a + b`, `-a` ... (the same kernel as
// the named ufunc, reached through the operator overloads).

template <class F, class Outs, class... In>
struct op_caller;
template <class F, class R, class... In>
struct op_caller<F, out_list<R>, In...> {
  static std::tuple<arr<R>> lazy(const params&, const arr<In>&... a) {
    return std::tuple<arr<R>>(arr<R>(F{}(a...)));
  }
};

template <class... In, class F>
void check_operator(const std::string& ufunc, const std::string& data, const std::string& sig,
                    const std::string& op, F) {
  using R = typename decltype(F{}(std::declval<const arr<In>&>()...))::value_type;
  call_fns<out_list<R>, In...> fn;
  fn.lazy = &op_caller<F, out_list<R>, In...>::lazy;
  for (const record* r : find_records(data + ".bin", "call " + sig))
    run_call(ufunc, "operator " + op + " " + sig_context(ufunc, sig, *r), *r, fn);
}

// x op= y, writing into x (C-contiguous, a strided view), y full-size or
// broadcast. Only generated where NumPy's result casts back to x's dtype.
template <class T, class U>
void run_inplace(const std::string& ufunc, const std::string& ctx, const record& rec,
                 void (*apply)(const arr<T>&, const arr<U>&)) {
  BOOST_TEST_REQUIRE(rec.out.size() == 1u);
  BOOST_TEST_REQUIRE(rec.out[0].dtype == cupp::dtype_of<T>().name);
  const shape_t shape = rec.out[0].shape;
  const harr<T> x0 = broadcast_full(host_from<T>(rec.in[0]), shape);
  const harr<U> y0 = host_from<U>(rec.in[1]);
  const harr<U> y_full = broadcast_full(y0, shape);
  const T* want = values_of<T>(rec.out[0]);
  const describer describe = [&](index_t k) {
    return show(x0.data()[k]) + ", " + show(y_full.data()[k]);
  };
  const tolerance tol = tolerance_of(ufunc);
  struct variant {
    const char* what;
    layout xl;
    bool broadcast_y;
  };
  for (const variant v :
       {variant{"C-contiguous", layout::c, false}, variant{"strided", layout::strided, false},
        variant{"y broadcast", layout::c, true}}) {
    const std::string what = ctx + " [" + v.what + "]";
    const arr<T> x = place(x0, v.xl);
    try {
      apply(x, v.broadcast_y ? to_space(y0) : place(y_full, layout::f));
    } catch (const std::exception& e) {
      BOOST_ERROR(what << ": threw " << e.what());
      continue;
    }
    compare(what, x, want, 0, shape, tol, describe);
  }
}

template <class F, class T, class U>
struct inplace_caller {
  static void apply(const arr<T>& x, const arr<U>& y) { F{}(x, y); }
};

template <class T, class U, class F>
void check_inplace(const std::string& ufunc, const std::string& data, const std::string& sig,
                   const std::string& op, F) {
  for (const record* r : find_records(data + ".bin", "call " + sig))
    run_inplace<T, U>(ufunc, "operator " + op + " " + sig_context(ufunc, sig, *r), *r,
                      &inplace_caller<F, T, U>::apply);
}

// ---------------------------------------------------------------------------
// Weak scalars: x op s and s op x with C++ scalars, NumPy's Python scalars.

template <class S>
S parse_scalar(const std::string& text) {
  if constexpr (std::is_same_v<S, bool>) {
    return text == "1";
  } else if constexpr (std::is_integral_v<S>) {
    return static_cast<S>(std::stoll(text));
  } else if constexpr (std::is_floating_point_v<S>) {
    return std::strtod(text.c_str(), nullptr);
  } else {
    char* end = nullptr;
    const double re = std::strtod(text.c_str(), &end);
    return S(re, std::strtod(end, nullptr));
  }
}

// The record's first output is NumPy's x op s (or s op x); the second, when
// there is one, x after x op= s.
template <class T, class S, class R>
void run_scalar(const std::string& ufunc, const std::string& key, const record& rec,
                arr<R> (*eval)(const arr<T>&, const S&), void (*inplace)(const arr<T>&, const S&)) {
  const std::string& text = *rec.param("value");
  const std::string ctx = ufunc + " " + key + " " + text;
  const S s = parse_scalar<S>(text);
  const harr<T> x0 = host_from<T>(rec.in[0]);
  const describer describe = [&](index_t k) { return show(x0.data()[k]); };
  const tolerance tol = tolerance_of(ufunc);
  if (!rec.error.empty()) {
    // NumPy raises OverflowError: the Python int does not fit the loop's type.
    if (eval) BOOST_CHECK_THROW(eval(to_space(x0), s), cupp::overflow_error);
    if (inplace) BOOST_CHECK_THROW(inplace(to_space(x0), s), cupp::overflow_error);
    return;
  }
  if (inplace && rec.out.size() < 2) return;  // NumPy's in-place form raised
  const blob& out = rec.out[inplace ? 1 : 0];
  BOOST_TEST(cupp::dtype_of<R>().name == out.dtype,
             ctx << ": result dtype " << cupp::dtype_of<R>().name << ", NumPy's " << out.dtype);
  if (cupp::dtype_of<R>().name != out.dtype) return;
  const R* want = values_of<R>(out);
  for (layout l : {layout::c, layout::strided}) {
    const std::string what = ctx + " [" + name_of(l) + "]";
    try {
      if (eval) {
        compare(what, eval(place(x0, l), s), want, 0, out.shape, tol, describe);
      } else if constexpr (std::is_same_v<T, R>) {
        const arr<T> x = place(x0, l);
        inplace(x, s);
        compare(what, x, want, 0, out.shape, tol, describe);
      }
    } catch (const std::exception& e) {
      BOOST_ERROR(what << ": threw " << e.what());
    }
  }
}

template <class F, class T, class S>
struct scalar_caller {
  using R = typename decltype(F{}(std::declval<const arr<T>&>(),
                                  std::declval<const S&>()))::value_type;
  static arr<R> eval(const arr<T>& x, const S& s) { return F{}(x, s); }
  static void inplace(const arr<T>& x, const S& s) { F{}(x, s); }
};

template <class T, class S, class F>
void check_scalar(const std::string& ufunc, const std::string& key, F) {
  using C = scalar_caller<F, T, S>;
  for (const record* r : find_records(ufunc + ".bin", "scalar " + key))
    run_scalar<T, S, typename C::R>(ufunc, key, *r, &C::eval, nullptr);
}

template <class T, class S, class F>
void check_scalar_inplace(const std::string& ufunc, const std::string& key, F) {
  for (const record* r : find_records(ufunc + ".bin", "scalar " + key))
    run_scalar<T, S, T>(ufunc, key + " in-place", *r, nullptr,
                        [](const arr<T>& x, const S& s) { F{}(x, s); });
}

// ---------------------------------------------------------------------------
// ndarray.astype<D>() against numpy's astype.

template <class S, class D>
void check_astype(const std::string& key) {
  for (const record* r : find_records("astype.bin", "astype " + key)) {
    const harr<S> x0 = host_from<S>(r->in[0]);
    const std::string_view want_name = r->out[0].dtype;
    BOOST_TEST_REQUIRE(cupp::dtype_of<D>().name == want_name);
    const D* want = values_of<D>(r->out[0]);
    const describer describe = [&](index_t k) { return show(x0.data()[k]); };
    for (layout l : {layout::c, layout::strided, layout::reversed}) {
      const std::string what = "astype " + key + " [" + name_of(l) + "]";
      const arr<S> x = place(x0, l);
      compare(what, x.template astype<D>(), want, 0, x0.shape(), tolerance{}, describe);
      if (l == layout::c) {
        const arr<D> lazy = cupp::astype<D>(x);
        compare(what + " lazy", lazy, want, 0, x0.shape(), tolerance{}, describe);
      }
    }
  }
}

}  // namespace ufunc_test
