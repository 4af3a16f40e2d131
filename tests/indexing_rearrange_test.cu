// Tiling, padding and diagonals against NumPy: every case of
// tests/fixtures/rearrange/cases.txt (tests/generate_rearrange_fixtures.py)
// for eleven dtypes: tile, repeat, roll, resize, pad, diag(flat), tril and
// triu evaluated alone and written into an F-ordered array; rot90, diag of
// a 2-d array and diagonal as views (shape, strides, offset, write flag);
// fill_diagonal by the storage afterwards; and NumPy's exceptions and
// messages, with nothing written. Then fusion, overlap and overflow checks.
#include "indexing_fixture.hpp"

#include <cupp/diagonals.hpp>
#include <cupp/rearranging.hpp>

#include <fstream>
#include <optional>

using namespace idx_test;

namespace {

const std::vector<fixture_case>& rearrange_cases() {
  static const std::vector<fixture_case> all = read_fixture_cases("rearrange/cases.txt");
  return all;
}

// NumPy's exception name, with the two that indexing_fixture.hpp leaves out.
std::string exception_name(const std::exception& e) {
  if (dynamic_cast<const cupp::type_error*>(&e)) return "TypeError";
  if (dynamic_cast<const cupp::overflow_error*>(&e)) return "OverflowError";
  return python_name(e);
}

// Id -1 is zero; others are sample values (constants from 1000 up).
template <class T>
T expected(index_t id) {
  return id == -1 ? cupp::detail::convert<T>(0) : cupp_test::sample<T>(id);
}

// "3" -> 3 (an int); "t:1,2" -> {1, 2} (a list).
cupp::detail::int_list ints(const std::string& t) {
  if (t.rfind("t:", 0) == 0) return cupp::detail::int_list(parse_tuple(t));
  return cupp::detail::int_list(std::stoll(t));
}

// "3", "t:1,2" or "m:1,2;3,4" as pad's nested values, mapped by `f`.
template <class V, class F>
cupp::detail::pairs<V> nested(const std::string& t, F&& f) {
  std::vector<V> v;
  if (t.rfind("m:", 0) == 0) {
    std::istringstream in(t.substr(2));
    index_t rows = 0, cols = 0;
    for (std::string row; std::getline(in, row, ';'); ++rows) {
      const cupp::dims d = parse_tuple("t:" + row);
      cols = d.size();
      for (index_t x : d) v.push_back(f(x));
    }
    return {v, cupp::shape_t{rows, cols}};
  }
  if (t.rfind("t:", 0) == 0) {
    for (index_t x : parse_tuple(t)) v.push_back(f(x));
    return {v, cupp::shape_t{static_cast<index_t>(v.size())}};
  }
  return {std::vector<V>{f(std::stoll(t))}, cupp::shape_t{}};
}

cupp::pad_mode parse_mode(const std::string& t) {
  using M = cupp::pad_mode;
  if (t == "constant") return M::constant;
  if (t == "edge") return M::edge;
  if (t == "reflect") return M::reflect;
  if (t == "symmetric") return M::symmetric;
  BOOST_TEST_REQUIRE(t == "wrap", "unknown pad mode " << t);
  return M::wrap;
}

// Calls f with what the case's function returns: an array (views, diag) or
// a lazy expression.
template <class T, class F>
void call(const fixture_case& c, const array<T>& base, F&& f) {
  const auto& a = c.args;
  const std::string& op = c.op;
  auto num = [&](int i) { return static_cast<index_t>(std::stoll(a[i])); };
  if (op == "tile") return f(cupp::tile(base, ints(a[0])));
  if (op == "repeat") return f(cupp::repeat(base, ints(a[0]), parse_axis(a[1])));
  if (op == "roll") return f(cupp::roll(base, ints(a[0]), parse_axis(a[1])));
  if (op == "resize") return f(cupp::resize(base, ints(a[0])));
  if (op == "rot90") return f(cupp::rot90(base, num(0), parse_tuple(a[1])));
  if (op == "pad") {
    const auto width = nested<index_t>(a[0], [](index_t x) { return x; });
    const cupp::pad_mode mode = parse_mode(a[1]);
    if (a.size() == 2) return f(cupp::pad(base, width, mode));
    if (a[2].rfind("c:", 0) == 0)
      return f(cupp::pad(base, width, mode, expected<T>(std::stoll(a[2].substr(2)))));
    return f(
        cupp::pad(base, width, mode, nested<T>(a[2], [](index_t x) { return expected<T>(x); })));
  }
  if (op == "diag") return f(cupp::diag(base, num(0)));
  if (op == "diagflat") return f(cupp::diagflat(base, num(0)));
  if (op == "diagonal") {
    const array<T> r = cupp::diagonal(base, num(0), num(1), num(2));
    const array<T> m = base.diagonal(num(0), num(1), num(2));
    BOOST_TEST((r.data() == m.data() && r.shape() == m.shape() && r.strides() == m.strides()));
    return f(r);
  }
  if (op == "tril") return f(cupp::tril(base, num(0)));
  if (op == "triu") return f(cupp::triu(base, num(0)));
  BOOST_FAIL("unknown operation " << op);
}

template <class T>
void check_elements(const fixture_case& c, const array<T>& r, const char* how) {
  BOOST_TEST_REQUIRE(r.shape() == c.r_shape, how << ": shape " << cupp::to_string(r.shape()));
  const std::vector<T> got = r.to_vector();
  BOOST_TEST_REQUIRE(got.size() == c.ids.size());
  for (std::size_t k = 0; k < got.size(); ++k)
    BOOST_TEST(cupp_test::same_bits(got[k], expected<T>(c.ids[k])),
               how << ": element " << k << " should be id " << c.ids[k]);
}

template <class T>
void check_case(const fixture_case& c) {
  const array<T> storage = make_storage<T>(c.m);
  const array<T> base = make_base<T>(c, storage);
  const std::vector<T> before = storage.to_vector();
  const index_t item = base.itemsize();
  try {
    call<T>(c, base, [&](const auto& r) {
      BOOST_TEST_REQUIRE(c.error_type.empty(),
                         "NumPy raises " << c.error_type << ": " << c.error_message);
      using R = std::remove_cvref_t<decltype(r)>;
      if constexpr (cupp::is_ndarray_v<R>) {
        BOOST_TEST(r.flags().writeable == c.writeable);
        const bool same_memory = r.memory().get() == storage.memory().get();
        // (NumPy reports no shared memory for empty views.)
        if (r.size() > 0)
          BOOST_TEST(same_memory == (c.kind == "view"), "NumPy returns a " << c.kind);
        if (c.kind == "view" && r.size() > 0) {
          BOOST_TEST(reinterpret_cast<const char*>(r.data()) -
                         reinterpret_cast<const char*>(storage.data()) ==
                     c.r_off * item);
          if (r.shape() == c.r_shape)
            for (int i = 0; i < r.ndim(); ++i)
              if (c.r_shape[i] != 1)
                BOOST_TEST(r.strides()[i] == c.r_strides[i] * item, "stride of axis " << i);
        }
        check_elements<T>(c, r, "array");
      } else {
        BOOST_TEST(c.kind == "copy");
        const array<T> e = r.eval();
        BOOST_TEST((e.size() == 0 || e.memory().get() != storage.memory().get()));
        check_elements<T>(c, e, "eval");
        // Written into an existing array of another layout.
        const array<T> f(r.shape(), cupp::order::F);
        cupp::copyto(f, r);
        check_elements<T>(c, f, "copyto an F-ordered array");
      }
    });
  } catch (const std::exception& e) {
    BOOST_TEST(exception_name(e) == c.error_type);
    BOOST_TEST(std::string(e.what()) == c.error_message);
  }
  const std::vector<T> after = storage.to_vector();
  for (std::size_t k = 0; k < after.size(); ++k)
    BOOST_TEST(cupp_test::same_bits(after[k], before[k]), "the base is not written: " << k);
}

// fill_diagonal: the storage afterwards (or NumPy's error, nothing written).
template <class T>
void check_fill(const fixture_case& c) {
  const array<T> storage = make_storage<T>(c.m);
  const array<T> base = make_base<T>(c, storage);
  const std::vector<T> before = storage.to_vector();
  const bool wrap = c.args[1] == "1";
  try {
    if (c.args[0].rfind("c:", 0) == 0) {
      cupp::fill_diagonal(base, expected<T>(std::stoll(c.args[0].substr(2))), wrap);
    } else {
      const cupp::dims ids = parse_tuple(c.args[0]);
      cupp::host::ndarray<T> h({ids.size()});
      for (int i = 0; i < ids.size(); ++i) h.data()[i] = expected<T>(ids[i]);
      cupp::fill_diagonal(base, cupp_test::on_space(h), wrap);
    }
  } catch (const std::exception& e) {
    BOOST_TEST(exception_name(e) == c.error_type);
    BOOST_TEST(std::string(e.what()) == c.error_message);
    const std::vector<T> after = storage.to_vector();
    for (std::size_t k = 0; k < after.size(); ++k)
      BOOST_TEST(cupp_test::same_bits(after[k], before[k]), "nothing is written: " << k);
    return;
  }
  BOOST_TEST_REQUIRE(c.error_type.empty(),
                     "NumPy raises " << c.error_type << ": " << c.error_message);
  const std::vector<T> got = storage.to_vector();
  BOOST_TEST_REQUIRE(got.size() == c.ids.size());
  for (std::size_t k = 0; k < got.size(); ++k)
    BOOST_TEST(cupp_test::same_bits(got[k], expected<T>(c.ids[k])),
               "storage element " << k << " should be id " << c.ids[k]);
}

void run_all(const std::string& op) {
  int n = 0;
  for (const fixture_case& c : rearrange_cases()) {
    if (c.op != op) continue;
    ++n;
    boost::hana::for_each(dtypes, [&](auto t) {
      using T = typename decltype(t)::type;
      BOOST_TEST_CONTEXT(c.name << " [" << cupp::dtype_of<T>().name << "]: " << c.line) {
        if (op == "fill_diagonal")
          check_fill<T>(c);
        else
          check_case<T>(c);
      }
    });
  }
  BOOST_TEST(n > 0);
}

template <class T>
std::vector<T> values(const array<T>& a) {
  return a.to_vector();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(numpy_rearrange)

BOOST_AUTO_TEST_CASE(tile) {
  run_all("tile");
}
BOOST_AUTO_TEST_CASE(repeat) {
  run_all("repeat");
}
BOOST_AUTO_TEST_CASE(roll) {
  run_all("roll");
}
BOOST_AUTO_TEST_CASE(rot90) {
  run_all("rot90");
}
BOOST_AUTO_TEST_CASE(resize) {
  run_all("resize");
}
BOOST_AUTO_TEST_CASE(pad) {
  run_all("pad");
}
BOOST_AUTO_TEST_CASE(diag_and_diagflat) {
  run_all("diag");
  run_all("diagflat");
}
BOOST_AUTO_TEST_CASE(diagonal) {
  run_all("diagonal");
}
BOOST_AUTO_TEST_CASE(tril_and_triu) {
  run_all("tril");
  run_all("triu");
}
BOOST_AUTO_TEST_CASE(fill_diagonal) {
  run_all("fill_diagonal");
}

// Gathers and triangles are expressions: several fuse into one result.
BOOST_AUTO_TEST_CASE(gathers_fuse_into_expressions) {
  const array<double> a = make_storage<double>(6).reshape(2, 3);
  const std::vector<double> x = values(a);
  const array<double> r = cupp::tile(a, {1, 2}) * 2.0 + cupp::roll(cupp::tile(a, {1, 2}).eval(), 1);
  const std::vector<double> got = values(r);
  std::vector<double> t(12);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 6; ++j) t[i * 6 + j] = x[i * 3 + j % 3];
  for (int k = 0; k < 12; ++k) BOOST_TEST(got[k] == t[k] * 2.0 + t[(k + 11) % 12]);

  // tril of an expression, triu into a strided view.
  const array<double> l = cupp::tril(a * 2.0, 0);
  const std::vector<double> lv = values(l);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) BOOST_TEST(lv[i * 3 + j] == (j <= i ? x[i * 3 + j] * 2 : 0.0));
  const array<double> big = make_storage<double>(12).reshape(2, 6);
  cupp::copyto(big(cupp::_, cupp::slice(cupp::_, cupp::_, 2)), cupp::triu(a));
  const std::vector<double> bv = values(big);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) BOOST_TEST(bv[i * 6 + 2 * j] == (j >= i ? x[i * 3 + j] : 0.0));
}

// copyto(a, roll(a, 1)) reads a before writing it (NumPy evaluates roll
// first): the overlap check sees the gather's source.
BOOST_AUTO_TEST_CASE(rolling_into_the_source) {
  const array<std::int32_t> a = make_storage<std::int32_t>(7);
  const std::vector<std::int32_t> x = values(a);
  cupp::copyto(a, cupp::roll(a, 2));
  const std::vector<std::int32_t> got = values(a);
  for (int i = 0; i < 7; ++i) BOOST_TEST(got[i] == x[(i + 5) % 7]);
}

// The same over enough elements that many blocks run at once: without the
// temporary, blocks overwrite elements that others have yet to read (the
// small case above passed by luck of one warp's loads preceding its
// stores).
BOOST_AUTO_TEST_CASE(rolling_a_large_array_into_itself) {
  const int n = 200000;
  const array<std::int32_t> a = make_storage<std::int32_t>(n);
  const std::vector<std::int32_t> x = values(a);
  cupp::copyto(a, cupp::roll(a, 1000));
  const std::vector<std::int32_t> got = values(a);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += got[i] != x[(i + n - 1000) % n];
  BOOST_TEST(bad == 0);
}

// NumPy 2 raises OverflowError for Python ints that do not fit the dtype.
BOOST_AUTO_TEST_CASE(constants_that_do_not_fit) {
  const array<std::int8_t> a = make_storage<std::int8_t>(9).reshape(3, 3);
  const std::vector<std::int8_t> x = values(a);
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const cupp::overflow_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BOOST_TEST(message([&] { (void)cupp::pad(a, 1, cupp::pad_mode::constant, 1000); }) ==
             "Python integer 1000 out of bounds for int8");
  BOOST_TEST(message([&] { cupp::fill_diagonal(a, 1000); }) ==
             "Python integer 1000 out of bounds for int8");
  BOOST_TEST(values(a) == x, boost::test_tools::per_element());
  // An array of values is cast as NumPy's flat assignment casts (unsafe).
  cupp::host::ndarray<std::int64_t> v({1});
  v.data()[0] = 1000;
  cupp::fill_diagonal(a, cupp_test::on_space(v));
  const std::vector<std::int8_t> got = values(a);
  for (int i = 0; i < 9; ++i) BOOST_TEST(got[i] == (i % 4 == 0 ? std::int8_t(-24) : x[i]));
}

// Results too large to address raise value_error before anything is built.
BOOST_AUTO_TEST_CASE(results_too_big) {
  const array<float> a = make_storage<float>(6).reshape(2, 3);
  constexpr index_t huge = INT64_MAX / 2;
  BOOST_CHECK_THROW((void)cupp::tile(a, {huge, 1}), cupp::value_error);
  BOOST_CHECK_THROW((void)cupp::repeat(a, huge), cupp::value_error);
  BOOST_CHECK_THROW((void)cupp::repeat(a, {huge, huge}, 0), cupp::value_error);
  BOOST_CHECK_THROW((void)cupp::pad(a, {{0, 0}, {huge, huge}}), cupp::value_error);
  BOOST_CHECK_THROW((void)cupp::resize(a, {huge, 4}), cupp::value_error);
  BOOST_CHECK_THROW((void)cupp::diagflat(a, INT64_MIN), cupp::value_error);
  BOOST_CHECK_THROW((void)cupp::diagflat(a, huge), cupp::value_error);
}

// Read-only arrays: diagonal views refuse writes, fill_diagonal on a
// read-only array writes nothing.
BOOST_AUTO_TEST_CASE(read_only) {
  const array<float> a = make_storage<float>(9).reshape(3, 3);
  const std::vector<float> x = values(a);
  BOOST_CHECK_THROW(cupp::copyto(a.diagonal(), 1.0f), cupp::value_error);
  BOOST_CHECK_THROW(cupp::fill_diagonal(cupp::broadcast_to(a, {2, 3, 3})(0), 1.0f),
                    cupp::value_error);
  BOOST_TEST(values(a) == x, boost::test_tools::per_element());
  cupp::fill_diagonal(a, 5.0f);
  const std::vector<float> got = values(a);
  for (int i = 0; i < 9; ++i) BOOST_TEST(got[i] == (i % 4 == 0 ? 5.0f : x[i]));
}

BOOST_AUTO_TEST_SUITE_END()
