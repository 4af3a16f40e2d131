// Joining, splitting, inserting and deleting against NumPy: every case of
// tests/fixtures/join/cases.txt (tests/generate_join_fixtures.py) for
// eleven dtypes: the result's shape, strides, whether it is a view and
// where, its elements, or NumPy's exception and message with nothing
// written. Built for host arrays and, with CUPP_TEST_DEVICE=1, device
// arrays.
#include <cupp/joining.hpp>

#include "indexing_fixture.hpp"

#include <optional>
#include <variant>

using namespace idx_test;

namespace {

struct join_case {
  std::string name, line, op;
  index_t m = 0;
  std::vector<index_t> zeros;
  struct input {
    index_t off;
    cupp::shape_t shape;
    cupp::strides_t strides;
  };
  std::vector<input> inputs;
  std::vector<std::string> args;
  std::string error_type, error_message;
  struct result {
    std::string where;  // "-", "n" or "vOFF"
    cupp::shape_t shape;
    cupp::strides_t strides;
    std::vector<index_t> ids;
  };
  bool is_list = false;
  std::vector<result> results;
};

const std::vector<join_case>& join_cases() {
  static const std::vector<join_case> all = [] {
    std::vector<join_case> out;
    for (const std::string& line : cupp_test::fixture_lines("join/cases.txt")) {
      join_case c;
      c.line = line;
      std::istringstream in(line);
      int nz, nin;
      in >> c.name >> c.op >> c.m >> nz;
      c.zeros.resize(nz);
      for (auto& z : c.zeros) in >> z;
      in >> nin;
      for (int i = 0; i < nin; ++i) {
        join_case::input x;
        int nd;
        in >> x.off >> nd;
        x.shape = read_dims(in, nd);
        x.strides = read_dims(in, nd);
        c.inputs.push_back(x);
      }
      for (std::string t; in >> t && t != "->";) c.args.push_back(t);
      std::string rest;
      std::getline(in, rest);
      if (!read_error(rest, c.error_type, c.error_message)) {
        std::istringstream r(rest);
        std::string kind;
        r >> kind;
        int k = 1;
        c.is_list = kind == "L";
        if (c.is_list) r >> k;
        for (int i = 0; i < k; ++i) {
          join_case::result x;
          int nd;
          r >> x.where >> nd;
          x.shape = read_dims(r, nd);
          x.strides = read_dims(r, nd);
          std::size_t n;
          r >> n;
          x.ids.resize(n);
          for (auto& v : x.ids) r >> v;
          c.results.push_back(std::move(x));
        }
      }
      out.push_back(std::move(c));
    }
    return out;
  }();
  return all;
}

// trim_zeros cases hold zeros only where the fixture puts them.
bool nonzero(const join_case& c) {
  return c.op == "trim_zeros";
}

// The value at storage position p (id -1: a zero): a sample, non-zero
// where the case needs it.
template <class T>
T value_at(index_t p, bool nonzero) {
  if (p < 0) return T{};
  const T v = cupp_test::sample<T>(p);
  if (nonzero && cupp_test::same_bits(v, T{})) {
    if constexpr (std::is_same_v<T, bool>)
      return true;
    else
      return cupp_test::sample<T>(p + 1);
  }
  return v;
}

template <class T>
array<T> storage_of(const join_case& c) {
  auto h = cupp::host::ndarray<T>({c.m});
  for (index_t i = 0; i < c.m; ++i) h.data()[i] = value_at<T>(i, nonzero(c));
  for (index_t z : c.zeros) h.data()[z] = T{};
  return cupp_test::on_space(h);
}

template <class T>
array<T> input_of(const join_case::input& x, const array<T>& storage) {
  cupp::strides_t st = x.strides;
  for (auto& s : st) s *= storage.itemsize();
  return storage.view_as({x.off * storage.itemsize(), x.shape, st});
}

std::string error_name(const std::exception& e) {
  if (dynamic_cast<const cupp::zero_division_error*>(&e)) return "ZeroDivisionError";
  return python_name(e);
}

// "i:3" -> 3; "t:1,2" -> {1, 2}; "s:a:b:c" -> a slice.
cupp::positions parse_obj(const std::string& t) {
  if (t.rfind("i:", 0) == 0) return std::stoll(t.substr(2));
  if (t.rfind("t:", 0) == 0) {
    std::vector<index_t> v;
    std::istringstream in(t.substr(2));
    for (std::string s; std::getline(in, s, ',');) v.push_back(std::stoll(s));
    return v;
  }
  return parse_item(t).get().s;
}

cupp::join_axis parse_join_axis(const std::string& t) {
  if (t == "none") return cupp::none;
  return std::stoll(t);
}

template <class T>
using result_t = std::variant<array<T>, std::vector<array<T>>>;

template <class T>
std::vector<array<T>> as_vector(const std::tuple<array<T>, array<T>, array<T>>& t) {
  return {std::get<0>(t), std::get<1>(t), std::get<2>(t)};
}

template <class T>
result_t<T> call(const join_case& c, const std::vector<array<T>>& in) {
  const auto& a = c.args;
  const std::string& op = c.op;
  if (op == "concatenate") return cupp::concatenate(in, parse_join_axis(a[0]));
  if (op == "concatenate_out") {
    cupp::shape_t sh = parse_tuple(a[1]);
    const bool strided = a[2] == "1";
    array<T> out;
    if (strided) {
      cupp::shape_t wide = sh;
      wide[wide.size() - 1] *= 2;
      out = array<T>(wide)(cupp::ellipsis, cupp::slice(cupp::_, cupp::_, 2));
    } else {
      out = array<T>(sh);
    }
    cupp::copyto(out, T{});
    try {
      return cupp::concatenate(in, parse_join_axis(a[0]), cupp::out(out));
    } catch (...) {
      // Nothing written on error: out still holds zeros.
      for (const T& v : out.to_vector()) BOOST_TEST(cupp_test::same_bits(v, T{}));
      throw;
    }
  }
  if (op == "stack") return cupp::stack(in, std::stoll(a[0]));
  if (op == "vstack") return cupp::vstack(in);
  if (op == "hstack") return cupp::hstack(in);
  if (op == "dstack") return cupp::dstack(in);
  if (op == "column_stack") return cupp::column_stack(in);
  const bool sections = !a.empty() && a[0].rfind("i:", 0) == 0;
  auto list = [&] {
    std::vector<index_t> v;
    std::istringstream s(a[0].substr(2));
    for (std::string x; std::getline(s, x, ',');) v.push_back(std::stoll(x));
    return v;
  };
  auto n = [&] { return static_cast<index_t>(std::stoll(a[0].substr(2))); };
  if (op == "split")
    return sections ? cupp::split(in[0], n(), std::stoll(a[1]))
                    : cupp::split(in[0], list(), std::stoll(a[1]));
  if (op == "array_split")
    return sections ? cupp::array_split(in[0], n(), std::stoll(a[1]))
                    : cupp::array_split(in[0], list(), std::stoll(a[1]));
  if (op == "hsplit") return sections ? cupp::hsplit(in[0], n()) : cupp::hsplit(in[0], list());
  if (op == "vsplit") return sections ? cupp::vsplit(in[0], n()) : cupp::vsplit(in[0], list());
  if (op == "dsplit") return sections ? cupp::dsplit(in[0], n()) : cupp::dsplit(in[0], list());
  if (op == "append") return cupp::append(in[0], in[1], parse_join_axis(a[0]));
  if (op == "insert") return cupp::insert(in[0], parse_obj(a[0]), in[1], parse_join_axis(a[1]));
  if (op == "delete") return cupp::delete_(in[0], parse_obj(a[0]), parse_join_axis(a[1]));
  if (op == "trim_zeros")
    return cupp::trim_zeros(in[0], a[0], a[1] == "none" ? cupp::axis_arg{} : parse_axis(a[1]));
  if (op == "atleast_1d") return as_vector<T>(cupp::atleast_1d(in[0], in[1], in[2]));
  if (op == "atleast_2d") return as_vector<T>(cupp::atleast_2d(in[0], in[1], in[2]));
  if (op == "atleast_3d") return as_vector<T>(cupp::atleast_3d(in[0], in[1], in[2]));
  BOOST_FAIL("unknown operation " << op);
  return in[0];
}

template <class T>
void check_result(const join_case& c, const join_case::result& want, const array<T>& r,
                  const array<T>& storage) {
  const index_t item = r.itemsize();
  BOOST_TEST_REQUIRE(r.shape() == want.shape, "shape " << cupp::to_string(r.shape()));
  if (want.where[0] == 'v') {
    BOOST_TEST(r.memory().get() == storage.memory().get(), "NumPy returns a view");
    BOOST_TEST(reinterpret_cast<const char*>(r.data()) -
                   reinterpret_cast<const char*>(storage.data()) ==
               std::stoll(want.where.substr(1)) * item);
  } else if (want.where == "n" && r.size() > 0) {
    BOOST_TEST(r.memory().get() != storage.memory().get(), "NumPy returns new memory");
  }
  if (want.where != "-" && r.size() > 0)
    for (int i = 0; i < r.ndim(); ++i)
      if (want.shape[i] != 1)
        BOOST_TEST(r.strides()[i] == want.strides[i] * item, "stride of axis " << i);
  const std::vector<T> got = r.to_vector();
  BOOST_TEST_REQUIRE(got.size() == want.ids.size());
  const bool zeros = nonzero(c);
  for (std::size_t k = 0; k < got.size(); ++k)
    BOOST_TEST(cupp_test::same_bits(got[k], value_at<T>(want.ids[k], zeros)),
               "element " << k << " should be element " << want.ids[k] << " of the storage");
}

template <class T>
void check_case(const join_case& c) {
  const array<T> storage = storage_of<T>(c);
  const std::vector<T> before = storage.to_vector();
  std::vector<array<T>> in;
  for (const auto& x : c.inputs) in.push_back(input_of<T>(x, storage));
  std::optional<result_t<T>> r;
  try {
    r = call<T>(c, in);
  } catch (const std::exception& e) {
    BOOST_TEST(error_name(e) == c.error_type);
    BOOST_TEST(std::string(e.what()) == c.error_message);
    return;
  }
  BOOST_TEST_REQUIRE(c.error_type.empty(),
                     "NumPy raises " << c.error_type << ": " << c.error_message);
  if (c.is_list) {
    const auto* v = std::get_if<std::vector<array<T>>>(&*r);
    BOOST_TEST_REQUIRE(v != nullptr);
    BOOST_TEST_REQUIRE(v->size() == c.results.size());
    for (std::size_t i = 0; i < v->size(); ++i) {
      BOOST_TEST_CONTEXT("part " << i) {
        check_result<T>(c, c.results[i], (*v)[i], storage);
      }
    }
  } else {
    const auto* a = std::get_if<array<T>>(&*r);
    BOOST_TEST_REQUIRE(a != nullptr);
    check_result<T>(c, c.results[0], *a, storage);
  }
  // The inputs are never written.
  const std::vector<T> after = storage.to_vector();
  for (std::size_t k = 0; k < after.size(); ++k)
    BOOST_TEST(cupp_test::same_bits(after[k], before[k]), "storage element " << k << " changed");
}

void run_all(std::initializer_list<std::string> ops) {
  int n = 0;
  for (const join_case& c : join_cases()) {
    if (std::find(ops.begin(), ops.end(), c.op) == ops.end()) continue;
    ++n;
    boost::hana::for_each(dtypes, [&](auto t) {
      using T = typename decltype(t)::type;
      BOOST_TEST_CONTEXT(c.name << " [" << cupp::dtype_of<T>().name << "]: " << c.line) {
        check_case<T>(c);
      }
    });
  }
  BOOST_TEST(n > 0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(numpy_join)

BOOST_AUTO_TEST_CASE(concatenate) {
  run_all({"concatenate", "concatenate_out"});
}
BOOST_AUTO_TEST_CASE(stacks) {
  run_all({"stack", "vstack", "hstack", "dstack", "column_stack"});
}
BOOST_AUTO_TEST_CASE(splits) {
  run_all({"split", "array_split", "hsplit", "vsplit", "dsplit"});
}
BOOST_AUTO_TEST_CASE(append_insert_delete) {
  run_all({"append", "insert", "delete"});
}
BOOST_AUTO_TEST_CASE(trim_zeros) {
  run_all({"trim_zeros"});
}
BOOST_AUTO_TEST_CASE(atleast_several) {
  run_all({"atleast_1d", "atleast_2d", "atleast_3d"});
}

// Arrays of different dtypes join in their result_type (NumPy 2): int8
// and uint8 give int16, float32 and int32 give float64.
BOOST_AUTO_TEST_CASE(mixed_dtypes) {
  auto h8 = cupp::host::ndarray<std::int8_t>({3});
  auto hu = cupp::host::ndarray<std::uint8_t>({2});
  for (int i = 0; i < 3; ++i) h8.data()[i] = static_cast<std::int8_t>(-i - 1);
  for (int i = 0; i < 2; ++i) hu.data()[i] = static_cast<std::uint8_t>(200 + i);
  const array<std::int8_t> a = cupp_test::on_space(h8);
  const array<std::uint8_t> b = cupp_test::on_space(hu);
  const auto r = cupp::concatenate(std::tuple{a, b});
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(r)>, array<std::int16_t>>);
  BOOST_TEST((r.to_vector() == std::vector<std::int16_t>{-1, -2, -3, 200, 201}));
  const auto ap = cupp::append(b, a);
  BOOST_TEST((ap.to_vector() == std::vector<std::int16_t>{200, 201, -1, -2, -3}));
  auto hf = cupp::host::ndarray<float>({2});
  hf.data()[0] = 0.5f;
  hf.data()[1] = 1.5f;
  auto hi = cupp::host::ndarray<std::int32_t>({1});
  hi.data()[0] = 7;
  const auto f = cupp::concatenate(std::tuple{cupp_test::on_space(hf), cupp_test::on_space(hi)});
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(f)>, array<double>>);
  BOOST_TEST((f.to_vector() == std::vector<double>{0.5, 1.5, 7.0}));
  // out= of another dtype casts ('same_kind').
  const array<double> out({3});
  cupp::concatenate({cupp_test::on_space(hf), cupp_test::on_space(hf)(cupp::slice(1))}, 0,
                    cupp::out(out));
  BOOST_TEST((out.to_vector() == std::vector<double>{0.5, 1.5, 0.5}));
}

// insert with a scalar value, and braces for every join.
BOOST_AUTO_TEST_CASE(scalars_and_braces) {
  auto h = cupp::host::ndarray<std::int32_t>({2, 2});
  for (int i = 0; i < 4; ++i) h.data()[i] = i;
  const array<std::int32_t> a = cupp_test::on_space(h);
  BOOST_TEST((cupp::insert(a, 1, 9).to_vector() == std::vector<std::int32_t>{0, 9, 1, 2, 3}));
  BOOST_TEST((cupp::insert(a, {0, 2}, 9, 1).to_vector() ==
              std::vector<std::int32_t>{9, 0, 1, 9, 9, 2, 3, 9}));
  BOOST_TEST(
      (cupp::delete_(a, cupp::slice(cupp::_, cupp::_, -1), 0).shape() == cupp::shape_t{0, 2}));
  BOOST_TEST((cupp::concatenate({a, a}, 1).shape() == cupp::shape_t{2, 4}));
  BOOST_TEST((cupp::stack({a, a, a}, 1).shape() == cupp::shape_t{2, 3, 2}));
  BOOST_TEST((cupp::vstack({a, a}).shape() == cupp::shape_t{4, 2}));
  BOOST_TEST((cupp::hstack({a, a}).shape() == cupp::shape_t{2, 4}));
  BOOST_TEST((cupp::dstack({a, a}).shape() == cupp::shape_t{2, 2, 2}));
  BOOST_TEST((cupp::column_stack({a, a}).shape() == cupp::shape_t{2, 4}));
  // Braces are a list of division points, as NumPy's [1]; an integer is a
  // count of sections.
  BOOST_TEST(cupp::split(a, {1}).size() == 2u);
  BOOST_TEST(cupp::vsplit(a, {1}).size() == 2u);
  BOOST_TEST(cupp::split(a, 1).size() == 1u);
  BOOST_TEST(cupp::hsplit(a, 2)[1].shape() == (cupp::shape_t{2, 1}));
  const std::vector<array<std::int32_t>> v{a, a};
  BOOST_TEST((cupp::concatenate(std::span<const array<std::int32_t>>(v), cupp::none).shape() ==
              cupp::shape_t{8}));
}

// Many pieces (more than one launch batch of the device copy) and
// misaligned rows.
BOOST_AUTO_TEST_CASE(many_pieces) {
  std::vector<array<std::int16_t>> parts;
  std::vector<std::int16_t> want;
  for (int k = 0; k < 70; ++k) {
    auto h = cupp::host::ndarray<std::int16_t>({2, k % 5 + 1});
    for (index_t i = 0; i < h.size(); ++i) h.data()[i] = static_cast<std::int16_t>(k * 10 + i);
    parts.push_back(cupp_test::on_space(h));
  }
  const auto r = cupp::concatenate(parts, 1);
  const std::vector<std::int16_t> got = r.to_vector();
  index_t width = r.shape()[1], col = 0;
  bool ok = true;
  for (int k = 0; k < 70; ++k) {
    const index_t w = k % 5 + 1;
    for (int row = 0; row < 2; ++row)
      for (index_t j = 0; j < w; ++j)
        ok = ok && got[row * width + col + j] == static_cast<std::int16_t>(k * 10 + row * w + j);
    col += w;
  }
  BOOST_TEST(ok);
}

BOOST_AUTO_TEST_SUITE_END()
