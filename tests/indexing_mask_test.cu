// Boolean-mask indexing, assignment through masks and the nonzero family
// against NumPy (tests/fixtures/mask/cases.txt, written by
// tests/generate_mask_fixtures.py): every case for eleven dtypes, on host
// arrays or (CUPP_TEST_DEVICE) device arrays; errors are NumPy's type and
// message, and leave the storage as it was.
#include <cupp/boolean_indexing.hpp>

#include "indexing_fixture.hpp"

using namespace idx_test;

namespace {

struct mask_case : case_head {
  std::string result;  // the text after "->"
};

const std::vector<mask_case>& mask_cases() {
  static const std::vector<mask_case> all = read_cases<mask_case>(
      "mask/cases.txt",
      [](const std::string& line, mask_case& c) { c.result = read_case_head(line, c); });
  return all;
}

std::string exception_name(const std::exception& e) {
  if (dynamic_cast<const cupp::type_error*>(&e)) return "TypeError";
  return python_name(e);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> r;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      r.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  r.push_back(cur);
  return r;
}

cupp::shape_t parse_shape(const std::string& s) {
  cupp::shape_t r;
  if (s.empty()) return r;
  for (const std::string& v : split(s, ',')) r.push_back(std::stoll(v));
  return r;
}

// An array of `shape` whose elements in C order are f(0), f(1), ...,
// laid out C, F or R (negative strides on every axis).
template <class T, class F>
array<T> make_array(const cupp::shape_t& shape, char layout, F f) {
  const index_t n = cupp::detail::size_of(shape);
  cupp::host::ndarray<T> h(shape);
  for (index_t i = 0; i < n; ++i) h.data()[i] = f(i);
  if (layout == 'F') return cupp_test::on_space(h.copy(cupp::order::F));
  if (layout == 'R' && n > 0) {
    // Storage in reverse C order, viewed with every stride negated.
    cupp::host::ndarray<T> rev(shape);
    for (index_t i = 0; i < n; ++i) rev.data()[i] = h.data()[n - 1 - i];
    const array<T> r = cupp_test::on_space(rev);
    cupp::strides_t st = r.strides();
    for (auto& s : st) s = -s;
    return r.view_as({(n - 1) * r.itemsize(), shape, st});
  }
  return cupp_test::on_space(h);
}

// "m:L:ND:SHAPE:BITS" as a bool array.
array<bool> parse_mask(const std::string& t) {
  const auto p = split(t, ':');
  BOOST_TEST_REQUIRE(p.size() == 5, "bad mask " << t);
  const std::string bits = p[4];
  return make_array<bool>(parse_shape(p[3]), p[1][0], [&](index_t i) { return bits[i] == '1'; });
}

// "v:ND:SHAPE": ids 1000 + k in C order.
template <class T>
array<T> parse_values(const std::string& t) {
  const auto p = split(t, ':');
  return make_array<T>(parse_shape(p[2]), 'C', [](index_t i) { return value_of<T>(1000 + i); });
}

// The base's geometry over another storage (ids as int64, or 0/1 values).
template <class T>
array<T> base_over(const mask_case& c, const array<T>& storage) {
  cupp::strides_t st = c.strides;
  for (auto& s : st) s *= storage.itemsize();
  return storage.view_as({c.off * storage.itemsize(), c.shape, st});
}

// "arr ND SHAPE... N ID..." against an array (values: sample(id), or the
// numbers themselves for index arrays).
template <class T, class S>
void check_block(std::istringstream& in, const cupp::ndarray<T, S>& got, bool ids) {
  std::string tag;
  int nd;
  in >> tag >> nd;
  BOOST_TEST_REQUIRE(tag == "arr");
  const cupp::shape_t shape = read_dims(in, nd);
  std::size_t n;
  in >> n;
  BOOST_TEST(got.shape() == shape,
             "shape " << cupp::to_string(got.shape()) << " should be " << cupp::to_string(shape));
  const std::vector<T> v = got.to_vector();
  BOOST_TEST_REQUIRE(v.size() == n);
  for (std::size_t k = 0; k < n; ++k) {
    long long id;
    in >> id;
    if constexpr (std::is_same_v<T, std::int64_t>)
      if (!ids) {
        BOOST_TEST(v[k] == id, "element " << k);
        continue;
      }
    BOOST_TEST(cupp_test::same_bits(v[k], value_of<T>(id)), "element " << k << " should be " << id);
  }
}

template <class T>
void check_storage(const mask_case& c, const array<T>& storage) {
  std::istringstream in(c.result);
  std::string tag;
  std::size_t n;
  in >> tag >> n;
  const std::vector<T> got = storage.to_vector();
  BOOST_TEST_REQUIRE(got.size() == n);
  for (std::size_t k = 0; k < n; ++k) {
    long long id;
    in >> id;
    if (tag == "num")
      BOOST_TEST(cupp_test::same_bits(got[k], cupp::detail::convert<T>(id)), "element " << k);
    else
      BOOST_TEST(cupp_test::same_bits(got[k], value_of<T>(id)),
                 "storage element " << k << " should be " << id);
  }
}

// Runs `body`; on an exception, checks NumPy raised the same and that the
// storage is unchanged. Returns true when the body ran without one.
template <class T, class F>
bool run_checked(const mask_case& c, const array<T>& storage, F body) {
  const std::vector<T> before = storage.to_vector();
  try {
    body();
  } catch (const std::exception& e) {
    BOOST_TEST(exception_name(e) == c.error_type, "raised " << e.what());
    BOOST_TEST(std::string(e.what()) == c.error_message);
    const std::vector<T> after = storage.to_vector();
    for (std::size_t k = 0; k < after.size(); ++k)
      BOOST_TEST(cupp_test::same_bits(after[k], before[k]), "nothing is written: element " << k);
    return false;
  }
  BOOST_TEST_REQUIRE(c.error_type.empty(),
                     "NumPy raises " << c.error_type << ": " << c.error_message);
  return true;
}

// Calls f(mask) with the mask argument as cupp takes it: a bool array, a
// lazy expression over the ids, or (reads only, to keep the instantiations
// down) a C++ bool.
template <bool WithBool = false, class F>
void with_mask(const mask_case& c, const std::string& t, F f) {
  if (t.rfind("m:", 0) == 0) {
    f(parse_mask(t));
  } else if (t.rfind("b:", 0) == 0) {
    if constexpr (WithBool)
      f(t == "b:1");
    else
      BOOST_FAIL("bool masks are only read: " << t);
  } else {
    const auto p = split(t, ':');
    const int md = std::stoi(p[1]);
    const std::int64_t k = std::stoll(p[2]), r = std::stoll(p[3]);
    const array<std::int64_t> ids = base_over(
        c, make_array<std::int64_t>(cupp::shape_t{c.m}, 'C', [](index_t i) { return i; }));
    std::vector<cupp::index_item> items;
    for (int a = 0; a < c.shape.size(); ++a)
      items.push_back(a < md ? cupp::index_item(cupp::_) : cupp::index_item(0));
    f(ids(items) % k == r);
  }
}

template <class T>
void check_case(const mask_case& c) {
  const array<T> storage = make_storage<T>(c.m);
  const array<T> x = base_over(c, storage);
  const auto& a = c.args;
  if (c.op == "get") {
    with_mask<true>(c, a[0], [&](const auto& m) {
      array<T> r;
      if (run_checked(c, storage, [&] { r = x(m); })) {
        std::istringstream in(c.result);
        check_block(in, r, true);
      }
    });
  } else if (c.op == "set") {
    with_mask(c, a[0], [&](const auto& m) {
      if (run_checked(c, storage, [&] {
            if (a[1] == "s")
              x(m) = value_of<T>(-1);
            else
              x(m) = parse_values<T>(a[1]);
          }))
        check_storage(c, storage);
    });
  } else if (c.op == "compress") {
    const array<bool> cond = make_array<bool>(cupp::shape_t{static_cast<index_t>(a[0].size() - 2)},
                                              'C', [&](index_t i) { return a[0][2 + i] == '1'; });
    array<T> r;
    if (run_checked(c, storage, [&] { r = cupp::compress(cond, x, parse_axis(a[1])); })) {
      std::istringstream in(c.result);
      check_block(in, r, true);
    }
  } else if (c.op == "extract") {
    array<T> r;
    if (run_checked(c, storage, [&] { r = cupp::extract(parse_mask(a[0]), x); })) {
      std::istringstream in(c.result);
      check_block(in, r, true);
    }
  } else if (c.op == "place" || c.op == "putmask") {
    const array<bool> m = parse_mask(a[0]);
    const array<T> v = parse_values<T>(a[1]);
    if (run_checked(c, storage, [&] {
          if (c.op == "place")
            cupp::place(x, m, v);
          else
            cupp::putmask(x, m, v);
        }))
      check_storage(c, storage);
  } else if (c.op == "select" || c.op == "select1") {
    std::vector<array<bool>> conds{parse_mask(a[0])};
    if (c.op == "select") conds.push_back(parse_mask(a[1]));
    const std::vector<array<T>> choices{
        x, make_array<T>(x.shape(), 'C', [](index_t i) { return value_of<T>(1000 + i); })};
    array<T> r;
    if (run_checked(c, storage, [&] { r = cupp::select(conds, choices, value_of<T>(-1)); })) {
      std::istringstream in(c.result);
      check_block(in, r, true);
    }
  }
}

// The nonzero family over a storage of 0 and 1 (any dtype).
template <class T>
void check_nonzero(const mask_case& c) {
  const std::string bits = c.args[0].substr(2);
  const array<T> storage = make_array<T>(cupp::shape_t{c.m}, 'C', [&](index_t i) {
    return cupp::detail::convert<T>(bits[i] == '1' ? 1 : 0);
  });
  const array<T> x = base_over(c, storage);
  if (c.op == "nonzero") {
    std::vector<array<std::int64_t>> r;
    if (!run_checked(c, storage, [&] { r = cupp::nonzero(x); })) return;
    std::istringstream in(c.result);
    std::string tag;
    std::size_t k;
    in >> tag >> k;
    BOOST_TEST_REQUIRE(r.size() == k);
    for (const auto& ri : r) check_block(in, ri, false);
    // The method and where(condition) are the same.
    const auto m = x.nonzero();
    const auto w = cupp::where(x);
    BOOST_TEST_REQUIRE((m.size() == k && w.size() == k));
    for (std::size_t i = 0; i < k; ++i) {
      BOOST_TEST(m[i].to_vector() == r[i].to_vector());
      BOOST_TEST(w[i].to_vector() == r[i].to_vector());
    }
  } else {
    array<std::int64_t> r;
    if (!run_checked(c, storage,
                     [&] { r = c.op == "flatnonzero" ? cupp::flatnonzero(x) : cupp::argwhere(x); }))
      return;
    std::istringstream in(c.result);
    check_block(in, r, false);
  }
}

// In-place operators, for dtypes that hold the ids as numbers.
template <class T>
void check_iadd(const mask_case& c) {
  const array<T> storage =
      make_array<T>(cupp::shape_t{c.m}, 'C', [](index_t i) { return cupp::detail::convert<T>(i); });
  const array<T> x = base_over(c, storage);
  const auto& a = c.args;
  with_mask(c, a[0], [&](const auto& m) {
    if (run_checked(c, storage, [&] {
          if (a[1] == "s") {
            x(m) += 999;
          } else {
            const auto p = split(a[1], ':');
            x(m) += make_array<T>(parse_shape(p[2]), 'C',
                                  [](index_t i) { return cupp::detail::convert<T>(1000 + i); });
          }
        }))
      check_storage(c, storage);
  });
}

template <class F>
void for_cases(const std::vector<std::string>& ops, F f) {
  int n = 0;
  for (const mask_case& c : mask_cases()) {
    if (std::find(ops.begin(), ops.end(), c.op) == ops.end()) continue;
    ++n;
    f(c);
  }
  BOOST_TEST(n > 0);
}

template <class F>
void each_dtype(const mask_case& c, F f) {
  boost::hana::for_each(dtypes, [&](auto t) {
    using T = typename decltype(t)::type;
    BOOST_TEST_CONTEXT(c.name << " [" << cupp::dtype_of<T>().name << "]: " << c.line) {
      f(t);
    }
  });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(numpy_mask)

BOOST_AUTO_TEST_CASE(read_through_masks) {
  for_cases({"get"}, [](const mask_case& c) {
    each_dtype(c, [&](auto t) { check_case<typename decltype(t)::type>(c); });
  });
}

BOOST_AUTO_TEST_CASE(assign_through_masks) {
  for_cases({"set"}, [](const mask_case& c) {
    each_dtype(c, [&](auto t) { check_case<typename decltype(t)::type>(c); });
  });
}

BOOST_AUTO_TEST_CASE(in_place_operators) {
  for_cases({"iadd"}, [](const mask_case& c) {
    BOOST_TEST_CONTEXT(c.line) {
      check_iadd<std::int32_t>(c);
      check_iadd<std::int64_t>(c);
      check_iadd<float>(c);
      check_iadd<double>(c);
    }
  });
}

BOOST_AUTO_TEST_CASE(nonzero_flatnonzero_argwhere) {
  for_cases({"nonzero", "flatnonzero", "argwhere"}, [](const mask_case& c) {
    each_dtype(c, [&](auto t) { check_nonzero<typename decltype(t)::type>(c); });
  });
}

BOOST_AUTO_TEST_CASE(compress_extract_place_putmask_select) {
  for_cases({"compress", "extract", "place", "putmask", "select", "select1"},
            [](const mask_case& c) {
              each_dtype(c, [&](auto t) { check_case<typename decltype(t)::type>(c); });
            });
}

// numpy.select broadcasts the conditions, then the choices with the
// default, with numpy.broadcast_arrays (whose message names the arguments).
BOOST_AUTO_TEST_CASE(select_shapes_that_do_not_broadcast) {
  const auto cond = [](index_t n) {
    return make_array<bool>(cupp::shape_t{n}, 'C', [](index_t i) { return i % 2 == 0; });
  };
  const auto choice = [](index_t n) {
    return make_array<float>(cupp::shape_t{n}, 'C', [](index_t i) { return float(i); });
  };
  const auto message = [](const auto& conds, const auto& choices) {
    try {
      (void)cupp::select(conds, choices, 0.f);
    } catch (const cupp::value_error& e) {
      return std::string(e.what());
    }
    return std::string("(no value_error)");
  };
  // np.select([np.ones(3, bool), np.ones(4, bool)], [np.ones(3), np.ones(3)])
  BOOST_TEST(message(std::vector{cond(3), cond(4)}, std::vector{choice(3), choice(3)}) ==
             "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
             "arg 0 with shape (3,) and arg 1 with shape (4,).");
  // np.select([np.ones(3, bool)], [np.ones(4)])
  BOOST_TEST(message(std::vector{cond(3)}, std::vector{choice(4)}) ==
             "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
             "arg 0 with shape (3,) and arg 1 with shape (4,).");
}

// The fused predicate reading the array it selects from (the benchmark's
// x(x % 3 == 1)), over enough elements for several CUB tiles, against a
// plain loop; and a read-only array refuses writes.
BOOST_AUTO_TEST_CASE(self_predicate_and_read_only) {
  const index_t n = 100003;
  const array<std::int64_t> x = make_array<std::int64_t>(
      cupp::shape_t{n}, 'C', [](index_t i) { return (i * 7919) % 1000 - 300; });
  const cupp::ndarray<std::int64_t, cupp_test::space> r = x(x % 3 == 1);
  std::vector<std::int64_t> want;
  for (std::int64_t v : x.to_vector())
    if (((v % 3) + 3) % 3 == 1) want.push_back(v);
  BOOST_TEST(r.to_vector() == want);
  // Most elements selected: the result keeps the selection buffer.
  const array<std::int64_t> most = x(x != 0);
  const std::vector<std::int64_t> xs = x.to_vector();
  BOOST_TEST(most.size() == n - static_cast<index_t>(std::count(xs.begin(), xs.end(), 0)));
  // In place through a predicate on the array itself (one fused kernel),
  // and putmask with values of the array's shape (one fused kernel).
  const array<std::int64_t> y = x.copy();
  y(y < 0) *= -1;
  std::vector<std::int64_t> abs_want = xs;
  for (auto& v : abs_want) v = v < 0 ? -v : v;
  BOOST_TEST(y.to_vector() == abs_want);
  cupp::putmask(y, y % 2 == 0, y * 3);
  for (auto& v : abs_want) v = v % 2 == 0 ? v * 3 : v;
  BOOST_TEST(y.to_vector() == abs_want);
  // A selection read from one array written to another through masks.
  const array<std::int64_t> z = x.copy();
  z(z < 0) = x(x < 0);
  BOOST_TEST(z.to_vector() == xs);
  BOOST_CHECK_THROW(z(z > 0) = x(x < 0), cupp::value_error);
  BOOST_TEST(z.to_vector() == xs);
  array<std::int64_t> ro = x;
  ro.setflags(false);
  BOOST_CHECK_THROW(ro(ro > 0) = 1, cupp::value_error);
  BOOST_CHECK_THROW(cupp::putmask(ro, ro > 0, 1), cupp::value_error);
}

BOOST_AUTO_TEST_SUITE_END()
