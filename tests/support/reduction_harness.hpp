// Checks cupp's reductions and scans against NumPy's results
// (tests/fixtures/reduction/, written by tests/generate_reduction_fixtures.py).
//
// The same sources build two executables: host arrays (the default) and
// device arrays (CUPP_TEST_DEVICE). A fixture record names a function, the
// operand's dtype, the operand (a pattern both sides compute, or a stored
// array), the axis, keepdims and options, and NumPy's result or exception.
// The checks here evaluate each record on the operand in every layout (C,
// F, axes permuted, strided, reversed; a stride-0 view for broadcast
// operands) and as a lazy expression, and compare dtype, shape and values.
//
// Compile time: each test instantiates its function once per dtype for an
// array operand (and, where asked, once for a lazy one). The layouts are
// strides of the same array type, chosen at run time. The device build
// compiles fewer dtypes for most functions (device_dtype_v below).
#pragma once

#include <cupp/creation.hpp>
#include <cupp/reductions.hpp>

#include "cupp_test.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace reduction_test {

#if CUPP_TEST_DEVICE
using space = cupp::device_space;
inline constexpr bool on_device = true;
#else
using space = cupp::host_space;
inline constexpr bool on_device = false;
#endif
template <class T>
using arr = cupp::ndarray<T, space>;
template <class T>
using harr = cupp::host::ndarray<T>;
using cupp::index_t;
using cupp::shape_t;
using cupp::strides_t;

template <class T>
inline std::string dtype_name() {
  return std::string(cupp::dtype_of<T>().name);
}

// ---------------------------------------------------------------------------
// Fixture records.

struct result_ref {
  std::string dtype;
  shape_t shape;
  std::size_t offset = 0;
};

struct record {
  std::string line;  // the fixture line, for messages
  std::string tag, func, dtype, input, axis;
  bool keepdims = false;
  std::vector<std::pair<std::string, std::string>> opts;
  double rtol = 0, atol = 0;
  std::vector<result_ref> results;
  std::string error_type, error_message;  // empty when NumPy returns a value

  const std::string* opt(std::string_view k) const {
    for (const auto& [key, v] : opts)
      if (key == k) return &v;
    return nullptr;
  }
  bool is_error() const { return !error_type.empty(); }
};

inline shape_t parse_shape(const std::string& s) {
  // "(3,4,5)", "(7,)", "()"
  shape_t r = shape_t::filled(0, 0);
  std::string body = s.substr(1, s.size() - 2);
  std::stringstream in(body);
  for (std::string t; std::getline(in, t, ',');)
    if (!t.empty()) r.push_back(std::stoll(t));
  return r;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.good()) throw std::runtime_error("missing fixture " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct fixture_data {
  std::vector<record> records;
  std::multimap<std::string, std::size_t> index;  // "tag func dtype" -> record
  std::string results;                            // results.bin
  std::string inputs;                             // inputs.bin
  std::vector<result_ref> special;                // inputs.txt
};

inline record parse_record(const std::string& line) {
  record r;
  r.line = line;
  std::string head = line, tail;
  if (const auto bang = line.find(" ! "); bang != std::string::npos) {
    head = line.substr(0, bang);
    const std::string err = line.substr(bang + 3);
    const auto bar = err.find('|');
    r.error_type = err.substr(0, bar);
    r.error_message = err.substr(bar + 1);
  } else if (const auto arrow = line.find(" -> "); arrow != std::string::npos) {
    head = line.substr(0, arrow);
    tail = line.substr(arrow + 4);
  }
  std::istringstream in(head);
  int kd = 0;
  in >> r.tag >> r.func >> r.dtype >> r.input >> r.axis >> kd;
  r.keepdims = kd != 0;
  for (std::string t; in >> t;) {
    const auto eq = t.find('=');
    const std::string k = t.substr(0, eq), v = t.substr(eq + 1);
    if (k == "rtol")
      r.rtol = std::stod(v);
    else if (k == "atol")
      r.atol = std::stod(v);
    else
      r.opts.emplace_back(k, v);
  }
  std::stringstream res(tail);
  for (std::string part; std::getline(res, part, ';');) {
    std::istringstream p(part);
    result_ref rr;
    std::string shape;
    p >> rr.dtype >> shape >> rr.offset;
    if (rr.dtype.empty()) continue;
    rr.shape = parse_shape(shape);
    r.results.push_back(rr);
  }
  return r;
}

inline const fixture_data& fixtures() {
  static const fixture_data data = [] {
    fixture_data d;
    d.results = read_file(cupp_test::fixture("reduction/results.bin"));
    d.inputs = read_file(cupp_test::fixture("reduction/inputs.bin"));
    for (const auto& line : cupp_test::fixture_lines("reduction/inputs.txt")) {
      std::istringstream in(line);
      std::size_t k;
      result_ref rr;
      std::string shape;
      in >> k >> rr.dtype >> shape >> rr.offset;
      rr.shape = parse_shape(shape);
      if (d.special.size() <= k) d.special.resize(k + 1);
      d.special[k] = rr;
    }
    for (const auto& line : cupp_test::fixture_lines("reduction/cases.txt")) {
      d.records.push_back(parse_record(line));
      const record& r = d.records.back();
      d.index.emplace(r.tag + " " + r.func + " " + r.dtype, d.records.size() - 1);
    }
    return d;
  }();
  return data;
}

// The records of one function on one dtype, in the fixture's order.
inline std::vector<const record*> records_of(const std::string& tag, const std::string& func,
                                             const std::string& dtype, bool required = true) {
  const auto& d = fixtures();
  std::vector<const record*> out;
  auto [b, e] = d.index.equal_range(tag + " " + func + " " + dtype);
  for (auto it = b; it != e; ++it) {
    // `sequential`: NumPy's answer depends on multiplying in sequence
    // (complex products through infinities are not associative); the device
    // combines in a tree (docs/numpy-differences.md).
    if (on_device && d.records[it->second].opt("sequential")) continue;
    out.push_back(&d.records[it->second]);
  }
  std::sort(out.begin(), out.end());
  if (required)
    BOOST_TEST_REQUIRE(!out.empty(), "no fixture record " << tag << " " << func << " " << dtype);
  return out;
}

// ---------------------------------------------------------------------------
// Values.

template <class T>
double to_double(const T& v) {
  if constexpr (std::is_same_v<T, bool>)
    return v ? 1.0 : 0.0;
  else
    return cupp::detail::convert<double>(v);
}

template <class T>
std::string show(const T& v) {
  char buf[128];
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "True" : "False";
  } else if constexpr (cupp::is_complex_v<T>) {
    std::snprintf(buf, sizeof buf, "(%.17g%+.17gj)", static_cast<double>(v.real()),
                  static_cast<double>(v.imag()));
    return buf;
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(v);
  } else {
    std::snprintf(buf, sizeof buf, "%.17g", to_double(v));
    return buf;
  }
}

// `mag`: the magnitude rtol applies to (of the finite parts).
inline bool close_real(double g, double w, double rtol, double atol, double mag) {
  if (std::isnan(w) || std::isnan(g)) return std::isnan(w) && std::isnan(g);
  if (std::isinf(w) || std::isinf(g)) return g == w;
  return std::fabs(g - w) <= atol + rtol * mag;
}
inline double finite_abs(double v) {
  return std::isfinite(v) ? std::fabs(v) : 0.0;
}

// NaN meets NaN, infinities must match, zeros of either sign are equal;
// integers and bools exactly; floats within atol + rtol * |NumPy's| (per
// part of a complex, with the larger part's magnitude).
template <class T>
bool close(const T& g, const T& w, double rtol, double atol) {
  if constexpr (std::is_same_v<T, bool> || std::is_integral_v<T>) {
    return g == w;
  } else if constexpr (cupp::is_complex_v<T>) {
    const double wr = w.real(), wi = w.imag();
    // A complex NaN (numpy.isnan: either part) meets any complex NaN. NumPy
    // divides complex sums by a complex count (mean, var), which spreads NaN
    // to both parts, and turns (inf + bj) / n into (inf + nanj): there only
    // the infinite part is compared (cupp divides each part by n).
    const double gr = static_cast<double>(g.real()), gi = static_cast<double>(g.imag());
    if (std::isnan(wr) != std::isnan(wi) && (std::isinf(wr) || std::isinf(wi)))
      return std::isinf(wr) ? gr == wr : gi == wi;
    const bool gnan = std::isnan(gr) || std::isnan(gi);
    if (gnan || std::isnan(wr) || std::isnan(wi)) return gnan && (std::isnan(wr) || std::isnan(wi));
    const double mag = std::max(finite_abs(wr), finite_abs(wi));
    return close_real(g.real(), wr, rtol, atol, mag) && close_real(g.imag(), wi, rtol, atol, mag);
  } else {
    const double gd = to_double(g), wd = to_double(w);
    return close_real(gd, wd, rtol, atol, std::fabs(wd));
  }
}

// ---------------------------------------------------------------------------
// Operands: the patterns of generate_reduction_fixtures.py.

template <class T>
T from_double(double v) {
  if constexpr (std::is_same_v<T, bool>)
    return v != 0;
  else if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<std::int64_t>(v));
  else
    return cupp::detail::convert<T>(v);
}

// Element i of pattern `kind` (g general, q near one, t mostly nonzero, z
// mostly zero, m a mask, r fractions).
template <class T>
T pattern_value(char kind, std::int64_t i) {
  static constexpr double q_real[10] = {1, -1, 2, -1, 0.5, 1, -1, 1, 2, 0.5};
  static constexpr std::int64_t q_int[10] = {1, -1, 2, 1, 3, 1, -1, 1, 2, 1};
  static constexpr double q_imag[4] = {0, 0, 0.5, -0.5};
  const std::int64_t h1 = (i * 7919 + 13) % 1009;
  const std::int64_t h2 = (i * 104729 + 7) % 997;
  std::int64_t v = 0;
  const bool tz = kind == 't' || kind == 'z';
  if (kind == 't') v = h1 % 23 != 0 ? h2 % 5 + 1 : 0;
  if (kind == 'z') v = h1 % 23 == 0 ? h2 % 5 + 1 : 0;
  if (kind == 'r') {  // fractions: sums that round
    const double f = static_cast<double>(h1 % 1000 + 1) / 1000.0 + 0.1;
    if constexpr (cupp::is_complex_v<T>)
      return T(static_cast<typename T::value_type>(f), 0);
    else
      return from_double<T>(f);
  }
  if constexpr (std::is_same_v<T, bool>) {
    if (kind == 'g') return h1 % 3 == 0;
    if (kind == 'm') return h2 % 3 != 0;
    if (kind == 'q') return h1 % 23 != 0;
    return v != 0;
  } else if constexpr (std::is_integral_v<T>) {
    if (tz) return static_cast<T>(v);
    if (kind == 'q') {
      const std::int64_t q = q_int[h1 % 10];
      return static_cast<T>(std::is_signed_v<T> ? q : (q < 0 ? -q : q));
    }
    if constexpr (sizeof(T) == 1)
      return static_cast<T>(std::is_signed_v<T> ? h1 % 101 - 50 : h1 % 101);
    else
      return static_cast<T>(std::is_signed_v<T> ? h1 - 504 : h1);
  } else if constexpr (cupp::is_complex_v<T>) {
    using R = typename T::value_type;
    if (tz) return T(static_cast<R>(v), R(0));
    if (kind == 'q') return T(static_cast<R>(q_real[h1 % 10]), static_cast<R>(q_imag[h2 % 4]));
    return T(static_cast<R>((h1 % 61 - 30) * 0.5), static_cast<R>((h2 % 41 - 20) * 0.25));
  } else {
    if (tz) return from_double<T>(static_cast<double>(v));
    if (kind == 'q') return from_double<T>(q_real[h1 % 10]);
    return from_double<T>((h1 % 61 - 30) * 0.5);
  }
}

template <class T>
harr<T> pattern(char kind, const shape_t& shape) {
  harr<T> h(shape);
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = pattern_value<T>(kind, i);
  return h;
}

// A stored array of inputs.bin or a result of results.bin, as a host array.
template <class T>
harr<T> stored(const std::string& bytes, const result_ref& r, const std::string& what) {
  BOOST_TEST_REQUIRE(r.dtype == dtype_name<T>(), what << ": the fixture holds " << r.dtype
                                                      << ", the test reads " << dtype_name<T>());
  harr<T> h(r.shape);
  const std::size_t n = static_cast<std::size_t>(h.size()) * sizeof(T);
  BOOST_TEST_REQUIRE(r.offset + n <= bytes.size());
  if (n) std::memcpy(h.data(), bytes.data() + r.offset, n);
  return h;
}

// An operand: its values (C order) and, for a broadcast one, the smaller
// array it is a stride-0 view of.
template <class T>
struct operand {
  harr<T> values;  // the logical values (C-contiguous)
  harr<T> base;    // broadcast operands: the array viewed
  bool broadcast = false;
};

template <class T>
operand<T> make_operand(const std::string& spec) {
  operand<T> op;
  if (spec[0] == 'n') {
    const auto& d = fixtures();
    op.values = stored<T>(d.inputs, d.special.at(std::stoul(spec.substr(1))), spec);
    return op;
  }
  const char kind = spec[0];
  const auto gt = spec.find('>');
  if (gt == std::string::npos) {
    op.values = pattern<T>(kind, parse_shape(spec.substr(1)));
    return op;
  }
  op.broadcast = true;
  op.base = pattern<T>(kind, parse_shape(spec.substr(1, gt - 1)));
  const shape_t shape = parse_shape(spec.substr(gt + 1));
  op.values = harr<T>(shape);
  // Expand the base (same number of dimensions, extent 1 where broadcast).
  const int nd = shape.size();
  for (index_t k = 0; k < op.values.size(); ++k) {
    index_t rem = k, off = 0, step = 1;
    std::vector<index_t> idx(nd);
    for (int a = nd - 1; a >= 0; --a) {
      idx[a] = rem % shape[a];
      rem /= shape[a];
    }
    for (int a = nd - 1; a >= 0; --a) {
      off += (op.base.shape()[a] == 1 ? 0 : idx[a]) * step;
      step *= op.base.shape()[a];
    }
    op.values.data()[k] = op.base.data()[off];
  }
  return op;
}

template <class T>
arr<T> to_space(const harr<T>& h) {
  if constexpr (on_device)
    return cupp::asarray(h);
  else
    return h;
}

template <class T, class S>
harr<T> to_host(const cupp::ndarray<T, S>& a) {
  if constexpr (std::is_same_v<S, cupp::device_space>)
    return a.get().copy();
  else
    return a.copy();
}

// What a wrong read would pick up between the elements of strided layouts.
template <class T>
T poison() {
  if constexpr (std::is_same_v<T, bool>)
    return true;
  else if constexpr (std::is_integral_v<T>)
    return static_cast<T>(sizeof(T) == 1 ? 123 : 12345);
  else if constexpr (cupp::is_complex_v<T>)
    return T(std::numeric_limits<typename T::value_type>::quiet_NaN(), 0);
  else
    return from_double<T>(std::numeric_limits<double>::quiet_NaN());
}

enum class layout { c, f, permuted, strided, reversed, broadcast };

inline const char* name_of(layout l) {
  switch (l) {
    case layout::c:
      return "C";
    case layout::f:
      return "F";
    case layout::permuted:
      return "axis 0 fastest";
    case layout::strided:
      return "strided (step 2 on every axis)";
    case layout::reversed:
      return "reversed (negative strides)";
    default:
      return "broadcast (stride 0)";
  }
}

// The values of h in a buffer of its own: `order` lists the axes from
// slowest to fastest in memory, every axis steps by `step` elements (the
// gaps hold poison()), `flip` gives every axis a negative stride.
template <class T>
arr<T> build(const harr<T>& h, const std::vector<int>& order, index_t step, bool flip) {
  const shape_t& s = h.shape();
  const int nd = s.size();
  if (h.size() == 0) return to_space(h);
  std::vector<index_t> est(nd);
  index_t total = 1;
  for (int k = nd - 1; k >= 0; --k) {
    const int a = order[k];
    est[a] = total * step;
    total *= s[a] * step;
  }
  harr<T> buf(shape_t{total});
  std::fill(buf.data(), buf.data() + total, poison<T>());
  std::vector<index_t> idx(nd, 0);
  for (index_t k = 0; k < h.size(); ++k) {
    index_t off = 0;
    for (int a = 0; a < nd; ++a) off += (flip ? s[a] - 1 - idx[a] : idx[a]) * est[a];
    buf.data()[off] = h.data()[k];
    for (int a = nd - 1; a >= 0; --a) {
      if (++idx[a] < s[a]) break;
      idx[a] = 0;
    }
  }
  const arr<T> mem = to_space(buf);
  index_t base = 0;
  strides_t st = strides_t::filled(nd, 0);
  for (int a = 0; a < nd; ++a) {
    if (flip) base += (s[a] - 1) * est[a];
    st[a] = (flip ? -est[a] : est[a]) * static_cast<index_t>(sizeof(T));
  }
  return arr<T>(mem.data() + base, s, st, mem.memory(), mem.device_id(), false);
}

template <class T>
arr<T> place(const operand<T>& op, layout l) {
  const int nd = op.values.ndim();
  std::vector<int> order(nd);
  for (int a = 0; a < nd; ++a) order[a] = a;
  switch (l) {
    case layout::c:
      return build(op.values, order, 1, false);
    case layout::f:
      std::reverse(order.begin(), order.end());
      return build(op.values, order, 1, false);
    case layout::permuted:
      if (nd > 1) std::rotate(order.begin(), order.begin() + 1, order.end());
      return build(op.values, order, 1, false);
    case layout::strided:
      return build(op.values, order, 2, false);
    case layout::reversed:
      return build(op.values, order, 1, true);
    default: {
      const arr<T> b = build(op.base, order, 1, false);
      const shape_t& s = op.values.shape();
      strides_t st = b.strides();
      for (int a = 0; a < nd; ++a)
        if (op.base.shape()[a] == 1 && s[a] != 1) st[a] = 0;
      return arr<T>(b.data(), s, st, b.memory(), b.device_id(), false);
    }
  }
}

// The layouts an operand is tried in.
template <class T>
std::vector<layout> layouts_of(const operand<T>& op) {
  if (op.broadcast) return {layout::broadcast};
  const int nd = op.values.ndim();
  if (op.values.size() == 0 || nd == 0) return {layout::c};
  if (nd == 1) return {layout::c, layout::strided, layout::reversed};
  if (nd == 2) return {layout::c, layout::f, layout::strided, layout::reversed};
  return {layout::c, layout::f, layout::permuted, layout::strided, layout::reversed};
}

// The layout the lazy form reads (a non-contiguous one where there is one).
template <class T>
layout lazy_layout(const operand<T>& op) {
  if (op.broadcast) return layout::broadcast;
  if (op.values.size() == 0 || op.values.ndim() == 0) return layout::c;
  return layout::strided;
}

// ---------------------------------------------------------------------------
// Axis arguments.

inline cupp::axis_arg make_axis(const std::string& s) {
  if (s == "N") return cupp::none;
  if (s[0] != '(') return cupp::axis_arg(std::stoi(s));
  std::vector<int> v;
  for (index_t d : parse_shape(s)) v.push_back(static_cast<int>(d));
  switch (v.size()) {
    case 0:
      return cupp::axis_arg(std::initializer_list<int>{});
    case 1:
      return cupp::axis_arg(std::initializer_list<int>{v[0]});
    case 2:
      return cupp::axis_arg({v[0], v[1]});
    case 3:
      return cupp::axis_arg({v[0], v[1], v[2]});
    case 4:
      return cupp::axis_arg({v[0], v[1], v[2], v[3]});
    default:
      return cupp::axis_arg({v[0], v[1], v[2], v[3], v[4]});
  }
}

// ---------------------------------------------------------------------------
// Checks.

// Counts failures of one test case, reporting the first few in full.
struct failures {
  int count = 0;
  static constexpr int shown = 12;
  bool report() { return ++count <= shown; }
  ~failures() {
    if (count > shown) BOOST_ERROR(count - shown << " more failures (not shown)");
  }
};

inline std::string describe(const record& r, const std::string& how) {
  return "[" + r.line.substr(0, r.line.find(" -> ")) + "] " + how;
}

// got against the k-th result of r.
template <class R, class S>
void compare(const std::string& what, const cupp::ndarray<R, S>& got, const record& r, failures& f,
             std::size_t k = 0) {
  BOOST_TEST_REQUIRE(k < r.results.size(), what << ": the fixture has no result " << k);
  const result_ref& want = r.results[k];
  if (dtype_name<R>() != want.dtype) {
    if (f.report())
      BOOST_ERROR(what << ": result dtype " << dtype_name<R>() << ", NumPy's " << want.dtype);
    return;
  }
  if (!(got.shape() == want.shape)) {
    if (f.report())
      BOOST_ERROR(what << ": result shape " << cupp::to_string(got.shape()) << ", NumPy's "
                       << cupp::to_string(want.shape));
    return;
  }
  const harr<R> g = to_host(got);
  const std::string& bytes = fixtures().results;
  int bad = 0;
  std::string detail;
  for (index_t i = 0; i < g.size(); ++i) {
    R w;
    std::memcpy(&w, bytes.data() + want.offset + static_cast<std::size_t>(i) * sizeof(R),
                sizeof(R));
    if (!close(g.data()[i], w, r.rtol, r.atol)) {
      if (++bad <= 3)
        detail += "\n    element " + std::to_string(i) + ": " + show(g.data()[i]) + ", NumPy's " +
                  show(w);
    }
  }
  if (bad && f.report())
    BOOST_ERROR(what << ": " << bad << " of " << g.size() << " elements differ" << detail);
  if (!bad && got.ndim() == 0) {
    // item() reads a 0-d result (from the device for device arrays).
    R w;
    std::memcpy(&w, bytes.data() + want.offset, sizeof(R));
    const R it = got.item();
    if (!close(it, w, r.rtol, r.atol) && f.report())
      BOOST_ERROR(what << ": item() gives " << show(it) << ", NumPy's " << show(w));
  }
}

// The exception cupp throws for a call NumPy raises on.
// check_message: NumPy's message too (else only the exception's type).
template <class F>
void expect_error(const std::string& what, const record& r, failures& fl, F&& call,
                  bool check_message = true) {
  std::string kind, msg;
  try {
    call();
    kind = "no exception";
  } catch (const cupp::axis_error& e) {
    kind = "AxisError";
    msg = e.what();
  } catch (const cupp::value_error& e) {
    kind = "ValueError";
    msg = e.what();
  } catch (const cupp::type_error& e) {
    kind = "TypeError";
    msg = e.what();
  } catch (const cupp::zero_division_error& e) {
    kind = "ZeroDivisionError";
    msg = e.what();
  } catch (const std::exception& e) {
    kind = "another exception";
    msg = e.what();
  }
  if ((kind != r.error_type || (check_message && msg != r.error_message)) && fl.report())
    BOOST_ERROR(what << ": " << kind << " (" << msg << "); NumPy raises " << r.error_type << ": "
                     << r.error_message);
}

// Runs `call` (operand -> result array) on the operand of r in each layout
// and compares with NumPy's result or exception.
template <class T, class Call>
void check_layouts(const record& r, const operand<T>& op, failures& f, Call&& call) {
  for (layout l : layouts_of(op)) {
    const std::string what = describe(r, name_of(l));
    const arr<T> x = place(op, l);
    try {
      if (r.is_error())
        expect_error(what, r, f, [&] { (void)call(x); });
      else
        compare(what, call(x), r, f);
    } catch (const std::exception& e) {
      if (f.report()) BOOST_ERROR(what << ": threw " << e.what());
    }
  }
}

template <class T, class Call>
void check_lazy(const record& r, const operand<T>& op, failures& f, Call&& call) {
  const layout l = lazy_layout(op);
  const std::string what = describe(r, std::string("lazy astype<T>(x), ") + name_of(l));
  const auto x = cupp::astype<T>(place(op, l));
  try {
    if (r.is_error())
      expect_error(what, r, f, [&] { (void)call(x); });
    else
      compare(what, call(x), r, f);
  } catch (const std::exception& e) {
    if (f.report()) BOOST_ERROR(what << ": threw " << e.what());
  }
}

// ---------------------------------------------------------------------------
// What the device build compiles. Every reduction is a handful of kernels
// per dtype and operand type (about 3 s of nvcc each), so where the host
// build tests every function on every dtype, the device build tests sum,
// max and argmax on every dtype, the other functions on a set of dtypes
// that covers each kind and item size (device_dtype_v), their NaN-skipping
// forms on three inexact dtypes (device_nan_dtype_v), and lazy forms on
// float32.

template <class T, class... U>
inline constexpr bool one_of_v = (std::is_same_v<T, U> || ...);

template <class T>
inline constexpr bool device_dtype_v =
    !on_device ||
    one_of_v<T, bool, std::int8_t, std::uint64_t, __half, float, cuda::std::complex<double>>;
template <class T>
inline constexpr bool device_nan_dtype_v =
    !on_device || one_of_v<T, __nv_bfloat16, float, cuda::std::complex<float>>;

// The dtypes whose lazy form every function is tested with (each lazy form
// is a kernel of its own on the device).
template <class T>
inline constexpr bool lazy_dtype_v = std::is_same_v<T, float>;

// Every "main" record of Fn on T: layouts, and the lazy form where
// lazy_dtype_v<T>, or Fn::lazy on the host.
template <class Fn, class T>
void run_main() {
  failures f;
  std::string last;
  operand<T> op;
  for (const record* r : records_of("main", Fn::name, dtype_name<T>())) {
    if (r->input != last) {
      op = make_operand<T>(r->input);
      last = r->input;
    }
    const cupp::axis_arg axis = make_axis(r->axis);
    const double ddof = r->opt("ddof") ? std::stod(*r->opt("ddof")) : 0.0;
    const bool kd = r->keepdims;
    check_layouts(*r, op, f, [&](const auto& x) { return Fn::call(x, axis, kd, ddof); });
    if constexpr ((Fn::lazy && !on_device) || lazy_dtype_v<T>)
      check_lazy(*r, op, f, [&](const auto& x) { return Fn::call(x, axis, kd, ddof); });
  }
}

// The records of other tags: the same checks with options.

template <class T>
operand<T> fresh_operand(const shape_t& shape) {
  operand<T> op;
  op.values = harr<T>(shape);
  std::fill(op.values.data(), op.values.data() + op.values.size(), poison<T>());
  return op;
}

// initial=: the reductions that take it (kw::initial = v, a double).
template <class Fn, class T>
void run_initial() {
  failures f;
  for (const record* r : records_of("initial", Fn::name, dtype_name<T>())) {
    const operand<T> op = make_operand<T>(r->input);
    const cupp::axis_arg axis = make_axis(r->axis);
    const double v = std::stod(*r->opt("initial"));
    check_layouts(*r, op, f,
                  [&](const auto& x) { return Fn::call_initial(x, axis, r->keepdims, v); });
  }
}

// out=: records whose out dtype is R, into a contiguous and a strided out
// array; the call returns the out array.
template <class Fn, class T, class R>
void run_out() {
  failures f;
  int n = 0;
  for (const record* r : records_of("out", Fn::name, dtype_name<T>())) {
    if (*r->opt("out") != dtype_name<R>()) continue;
    ++n;
    const operand<T> op = make_operand<T>(r->input);
    const cupp::axis_arg axis = make_axis(r->axis);
    const double ddof = r->opt("ddof") ? std::stod(*r->opt("ddof")) : 0.0;
    for (layout ol : {layout::c, layout::strided}) {
      const shape_t& shape = r->results.at(0).shape;
      const operand<R> oop = fresh_operand<R>(shape);
      const arr<R> o = place(oop, shape.size() == 0 ? layout::c : ol);
      const std::string what = describe(*r, std::string("out= ") + name_of(ol));
      try {
        const arr<T> x = place(op, layout::strided);
        const auto res = Fn::call_out(x, axis, r->keepdims, ddof, o);
        static_assert(std::is_same_v<std::remove_cvref_t<decltype(res)>, arr<R>>);
        if (res.data() != o.data() && f.report())
          BOOST_ERROR(what << ": the result is not the out= array");
        compare(what, o, *r, f);
      } catch (const std::exception& e) {
        if (f.report()) BOOST_ERROR(what << ": threw " << e.what());
      }
    }
  }
  BOOST_TEST(n > 0, "no out record of " << Fn::name << " " << dtype_name<T>() << " into "
                                        << dtype_name<R>());
}

// The out= dtype NumPy gives Fn of T by default.
template <class Fn, class T>
using default_result_t = typename std::remove_cvref_t<decltype(Fn::call(
    std::declval<const arr<T>&>(), cupp::axis_arg{}, false, 0.0))>::value_type;

// dtype=: records whose dtype= is Dt.
template <class Fn, class T, class Dt>
void run_dtype() {
  failures f;
  int n = 0;
  for (const record* r : records_of("dtype", Fn::name, dtype_name<T>())) {
    if (*r->opt("dtype") != dtype_name<Dt>()) continue;
    ++n;
    const operand<T> op = make_operand<T>(r->input);
    const cupp::axis_arg axis = make_axis(r->axis);
    check_layouts(*r, op, f, [&](const auto& x) {
      return Fn::template call_dt<Dt>(x, axis, r->keepdims, 0.0);
    });
  }
  BOOST_TEST(n > 0, "no dtype record of " << Fn::name << " " << dtype_name<T>() << " as "
                                          << dtype_name<Dt>());
}

// where=: a bool mask (a strided array broadcast against the operand), with
// initial= where the record has one. `func` names the records (max_noinitial:
// max without initial=, an error).
template <class Fn, class T>
void run_where(const std::string& func = Fn::name) {
  failures f;
  for (const record* r : records_of("where", func, dtype_name<T>())) {
    const operand<T> op = make_operand<T>(r->input);
    const operand<bool> mop = make_operand<bool>(*r->opt("where"));
    const arr<bool> mask = place(mop, lazy_layout(mop));
    const cupp::axis_arg axis = make_axis(r->axis);
    const std::string* init = r->opt("initial");
    check_layouts(*r, op, f,
                  [&](const auto& x) { return Fn::call_where(x, axis, r->keepdims, mask, init); });
  }
}

// ---------------------------------------------------------------------------
// The functions, as types: call(x, axis, keepdims, ddof) and the forms with
// options (member templates: only those a test uses are instantiated).
// INITIAL: the function takes initial= (NumPy's ufunc reductions).

#define REDUCTION_TEST_FN_IMPL(NAME, LAZY, INITIAL, DDOF_ARG, DDOF)                      \
  struct NAME##_fn {                                                                     \
    static constexpr const char* name = #NAME;                                           \
    static constexpr bool lazy = LAZY;                                                   \
    template <class X>                                                                   \
    static auto call(const X& x, const cupp::axis_arg& a, bool kd, double DDOF_ARG) {    \
      return cupp::NAME(x, a, cupp::kw::keepdims = kd DDOF);                             \
    }                                                                                    \
    template <class X>                                                                   \
    static auto call_initial(const X& x, const cupp::axis_arg& a, bool kd, double v) {   \
      return cupp::NAME(x, a, cupp::kw::keepdims = kd, cupp::kw::initial = v);           \
    }                                                                                    \
    template <class X, class O>                                                          \
    static auto call_out(const X& x, const cupp::axis_arg& a, bool kd, double DDOF_ARG,  \
                         const O& o) {                                                   \
      return cupp::NAME(x, a, cupp::kw::keepdims = kd DDOF, cupp::out(o));               \
    }                                                                                    \
    template <class Dt, class X>                                                         \
    static auto call_dt(const X& x, const cupp::axis_arg& a, bool kd, double DDOF_ARG) { \
      return cupp::NAME<Dt>(x, a, cupp::kw::keepdims = kd DDOF);                         \
    }                                                                                    \
    template <class X, class M>                                                          \
    static auto call_where(const X& x, const cupp::axis_arg& a, bool kd, const M& m,     \
                           const std::string* init) {                                    \
      if constexpr (INITIAL) {                                                           \
        if (init)                                                                        \
          return cupp::NAME(x, a, cupp::kw::keepdims = kd, cupp::kw::where = m,          \
                            cupp::kw::initial = std::stod(*init));                       \
      }                                                                                  \
      (void)init;                                                                        \
      return cupp::NAME(x, a, cupp::kw::keepdims = kd, cupp::kw::where = m);             \
    }                                                                                    \
  };
#define REDUCTION_TEST_FN(NAME, LAZY, INITIAL) REDUCTION_TEST_FN_IMPL(NAME, LAZY, INITIAL, , )
// var, std and their nan forms: ddof= too.
#define REDUCTION_TEST_DDOF_FN(NAME, LAZY) \
  REDUCTION_TEST_FN_IMPL(NAME, LAZY, false, ddof, REDUCTION_TEST_COMMA cupp::kw::ddof = ddof)
#define REDUCTION_TEST_COMMA ,
#define REDUCTION_TEST_SCAN_FN(NAME, LAZY)                                   \
  struct NAME##_fn {                                                         \
    static constexpr const char* name = #NAME;                               \
    static constexpr bool lazy = LAZY;                                       \
    template <class X>                                                       \
    static auto call(const X& x, const cupp::axis_arg& a, bool, double) {    \
      return cupp::NAME(x, a);                                               \
    }                                                                        \
    template <class Dt, class X>                                             \
    static auto call_dt(const X& x, const cupp::axis_arg& a, bool, double) { \
      return cupp::NAME<Dt>(x, a);                                           \
    }                                                                        \
  };

// Every function under test. LAZY: its lazy form is tested on every dtype
// (else on float32 only: lazy_dtype_v). One definition for every unit.
REDUCTION_TEST_FN(sum, true, true)
REDUCTION_TEST_FN(prod, false, true)
REDUCTION_TEST_FN(nansum, false, true)
REDUCTION_TEST_FN(nanprod, false, true)
REDUCTION_TEST_FN(max, false, true)
REDUCTION_TEST_FN(min, false, true)
REDUCTION_TEST_FN(amax, false, true)
REDUCTION_TEST_FN(amin, false, true)
REDUCTION_TEST_FN(nanmax, false, true)
REDUCTION_TEST_FN(nanmin, false, true)
REDUCTION_TEST_FN(ptp, false, false)
REDUCTION_TEST_FN(argmax, true, false)
REDUCTION_TEST_FN(argmin, false, false)
REDUCTION_TEST_FN(nanargmax, false, false)
REDUCTION_TEST_FN(nanargmin, false, false)
REDUCTION_TEST_FN(all, false, false)
REDUCTION_TEST_FN(any, false, false)
REDUCTION_TEST_FN(count_nonzero, false, false)
REDUCTION_TEST_FN(mean, false, false)
REDUCTION_TEST_FN(nanmean, false, false)
REDUCTION_TEST_DDOF_FN(var, true)
REDUCTION_TEST_DDOF_FN(std, false)
REDUCTION_TEST_DDOF_FN(nanvar, false)
REDUCTION_TEST_DDOF_FN(nanstd, false)
REDUCTION_TEST_SCAN_FN(cumsum, true)
REDUCTION_TEST_SCAN_FN(cumprod, false)
REDUCTION_TEST_SCAN_FN(nancumsum, false)
REDUCTION_TEST_SCAN_FN(nancumprod, false)

}  // namespace reduction_test
