// The fixture of tests/generate_indexing_fixtures.py, read for the
// indexing tests: each case names a base array over a storage of ids, a
// call, and NumPy's result or exception. Shared by the sources of
// indexing_host_test and indexing_gpu_test (CUPP_TEST_DEVICE=1).
#pragma once

#include <cupp/creation.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/ufunc.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "cupp_test.hpp"
#include "test_space.hpp"

namespace idx_test {

using cupp::index_t;
using cupp_test::array;
using cupp_test::space;

// The dtypes every case runs with: one of each kind and size.
inline constexpr auto dtypes =
    boost::hana::tuple_t<bool, std::int8_t, std::uint16_t, std::int32_t, std::int64_t, __half,
                         __nv_bfloat16, float, double, cuda::std::complex<float>,
                         cuda::std::complex<double>>;

inline cupp::dims read_dims(std::istream& in, int n) {
  cupp::dims d = cupp::dims::filled(n, 0);
  for (int i = 0; i < n; ++i) in >> d[i];
  return d;
}

// NumPy's exception at the end of a fixture line, " ! TYPE|MESSAGE".
inline bool read_error(const std::string& rest, std::string& type, std::string& message) {
  if (rest.rfind(" ! ", 0) != 0) return false;
  const auto bar = rest.find('|');
  type = rest.substr(3, bar - 3);
  message = rest.substr(bar + 1);
  return true;
}

// What the lines of the indexing fixtures start with: a base array over a
// storage of ids and a call, then NumPy's exception or its result.
struct case_head {
  std::string name, line;
  index_t m = 0, off = 0;
  cupp::shape_t shape;
  cupp::strides_t strides;  // elements
  std::string op;
  std::vector<std::string> args;
  std::string error_type, error_message;  // NumPy raised
};

// Reads "NAME M OFF ND SHAPE... STRIDES... OP ARG... ->" and the exception
// if NumPy raised one; returns the text after "->".
inline std::string read_case_head(const std::string& line, case_head& c) {
  c.line = line;
  std::istringstream in(line);
  int nd;
  in >> c.name >> c.m >> c.off >> nd;
  c.shape = read_dims(in, nd);
  c.strides = read_dims(in, nd);
  in >> c.op;
  for (std::string t; in >> t && t != "->";) c.args.push_back(t);
  std::string rest;
  std::getline(in, rest);
  read_error(rest, c.error_type, c.error_message);
  return rest;
}

// Every case of a fixture file, each read by `read(line, case)`.
template <class C, class F>
std::vector<C> read_cases(const char* file, F&& read) {
  std::vector<C> out;
  for (const std::string& line : cupp_test::fixture_lines(file)) {
    C c;
    read(line, c);
    out.push_back(std::move(c));
  }
  return out;
}

struct fixture_case : case_head {
  // NumPy's result, or the storage after setitem.
  std::string kind;  // view, copy, any, set
  bool writeable = true;
  cupp::shape_t r_shape;
  cupp::strides_t r_strides;
  index_t r_off = 0;
  std::vector<index_t> ids;
};

// The cases of a fixture in the format of tests/generate_indexing_fixtures.py.
inline std::vector<fixture_case> read_fixture_cases(const char* file) {
  return read_cases<fixture_case>(file, [](const std::string& line, fixture_case& c) {
    const std::string rest = read_case_head(line, c);
    if (!c.error_type.empty()) return;
    std::istringstream r(rest);
    r >> c.kind;
    if (c.kind != "set") {
      int w, rnd;
      r >> w >> rnd;
      c.writeable = w != 0;
      c.r_shape = read_dims(r, rnd);
      c.r_strides = read_dims(r, rnd);
      r >> c.r_off;
    }
    std::size_t n;
    r >> n;
    c.ids.resize(n);
    for (auto& v : c.ids) r >> v;
  });
}

inline const std::vector<fixture_case>& cases() {
  static const std::vector<fixture_case> all = read_fixture_cases("indexing/cases.txt");
  return all;
}

// "t:1,2" -> (1, 2); "t:" -> ().
inline cupp::dims parse_tuple(const std::string& t) {
  BOOST_TEST_REQUIRE(t.rfind("t:", 0) == 0, "not a tuple: " << t);
  cupp::dims d;
  std::istringstream in(t.substr(2));
  for (std::string v; std::getline(in, v, ',');) d.push_back(std::stoll(v));
  return d;
}

// "none", "3" or "t:0,1" as an axis argument.
inline cupp::axis_arg parse_axis(const std::string& t) {
  if (t == "none") return {};
  if (t.rfind("t:", 0) != 0) return static_cast<int>(std::stoll(t));
  const cupp::dims d = parse_tuple(t);
  auto a = [&](int i) { return static_cast<int>(d[i]); };
  switch (d.size()) {
    case 0:
      return cupp::axis_arg(std::initializer_list<int>{});
    case 1:
      return {a(0)};
    case 2:
      return {a(0), a(1)};
    case 3:
      return {a(0), a(1), a(2)};
    default:
      BOOST_FAIL("axis tuple too long: " << t);
      return {};
  }
}

inline cupp::order parse_order(const std::string& t) {
  return static_cast<cupp::order>(t[0]);
}

// One index item: an integer, "_", "N", "E" or "s:START:STOP:STEP".
inline cupp::index_item parse_item(const std::string& t) {
  if (t == "_") return cupp::_;
  if (t == "N") return cupp::newaxis;
  if (t == "E") return cupp::ellipsis;
  if (t.rfind("s:", 0) == 0) {
    std::istringstream in(t.substr(2));
    cupp::slice::bound b[3] = {cupp::_, cupp::_, cupp::_};
    int k = 0;
    for (std::string v; std::getline(in, v, ':') && k < 3; ++k)
      if (v != "_") b[k] = std::stoll(v);
    return cupp::slice(b[0], b[1], b[2]);
  }
  return std::stoll(t);
}

// `n` index items from args[at ...]; `at` moves past them. A tuple of
// indices built at run time, as x(items) takes it.
inline std::vector<cupp::index_item> parse_items(const std::vector<std::string>& args,
                                                 std::size_t& at, std::size_t n) {
  std::vector<cupp::index_item> items;
  for (std::size_t i = 0; i < n; ++i) items.push_back(parse_item(args[at++]));
  return items;
}

// The storage of a case (ids 0 .. m-1 as sample values) in the space
// under test.
template <class T>
array<T> make_storage(index_t m) {
  auto h = cupp::host::ndarray<T>({m});
  for (index_t i = 0; i < m; ++i) h.data()[i] = cupp_test::sample<T>(i);
  if constexpr (std::is_same_v<space, cupp::device_space>)
    return cupp::asarray(h);
  else
    return h;
}

// The case's base array: a view of the storage.
template <class T>
array<T> make_base(const fixture_case& c, const array<T>& storage) {
  cupp::strides_t st = c.strides;
  for (auto& s : st) s *= storage.itemsize();
  return storage.view_as({c.off * storage.itemsize(), c.shape, st});
}

// NumPy's name of the exception a cupp exception stands for.
inline std::string python_name(const std::exception& e) {
  if (dynamic_cast<const cupp::axis_error*>(&e)) return "AxisError";
  if (dynamic_cast<const cupp::value_error*>(&e)) return "ValueError";
  if (dynamic_cast<const cupp::index_error*>(&e)) return "IndexError";
  return "other";
}

// The value NumPy's id stands for (-1: the scalar a setitem case writes).
template <class T>
T value_of(index_t id) {
  return cupp_test::sample<T>(id < 0 ? 999 : id);
}

}  // namespace idx_test
