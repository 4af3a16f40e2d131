// Integer-array indexing and the take/put family against NumPy (the cases
// of tests/fixtures/advanced/cases.txt, written by
// tests/generate_advanced_indexing_fixtures.py) for every dtype, and the
// parts NumPy's ids cannot express: fusion into expressions, in-place
// operators, scatter_add/max/min, overlap, unchecked indexing.
#include <cupp/advanced_indexing.hpp>

#include "indexing_fixture.hpp"

using namespace idx_test;
using cupp::_;
using cupp::slice;

namespace {

struct adv_case : case_head {
  std::string kind;  // r or set
  cupp::shape_t r_shape;
  std::vector<index_t> ids;
};

const std::vector<adv_case>& adv_cases() {
  static const std::vector<adv_case> all =
      read_cases<adv_case>("advanced/cases.txt", [](const std::string& line, adv_case& c) {
        const std::string rest = read_case_head(line, c);
        if (!c.error_type.empty()) return;
        std::istringstream r(rest);
        r >> c.kind;
        if (c.kind == "r") {
          int rnd;
          r >> rnd;
          c.r_shape = read_dims(r, rnd);
        }
        std::size_t n;
        r >> n;
        c.ids.resize(n);
        for (auto& v : c.ids) r >> v;
      });
  return all;
}

// "a:2,2:0,1,-1,2" -> its shape and values.
std::pair<cupp::shape_t, std::vector<std::int64_t>> parse_array(const std::string& t) {
  const auto c1 = t.find(':'), c2 = t.find(':', c1 + 1);
  std::pair<cupp::shape_t, std::vector<std::int64_t>> r;
  std::istringstream s(t.substr(c1 + 1, c2 - c1 - 1)), v(t.substr(c2 + 1));
  for (std::string x; std::getline(s, x, ',');) r.first.push_back(std::stoll(x));
  for (std::string x; std::getline(v, x, ',');) r.second.push_back(std::stoll(x));
  return r;
}

array<std::int64_t> index_array(const std::string& t) {
  const auto [shape, values] = parse_array(t);
  cupp::host::ndarray<std::int64_t> h(shape);
  std::copy(values.begin(), values.end(), h.data());
  return cupp_test::on_space(h);
}

// A value array: element j is the value of id values[j].
template <class T>
array<T> value_array(const std::string& t) {
  const auto [shape, ids] = parse_array(t);
  cupp::host::ndarray<T> h(shape);
  for (std::size_t j = 0; j < ids.size(); ++j) h.data()[j] = value_of<T>(ids[j]);
  return cupp_test::on_space(h);
}

std::optional<index_t> parse_opt_axis(const std::string& t) {
  if (t == "none") return std::nullopt;
  return std::stoll(t);
}

cupp::take_mode parse_mode(const std::string& t) {
  return t == "wrap" ? cupp::take_mode::wrap
                     : (t == "clip" ? cupp::take_mode::clip : cupp::take_mode::raise);
}

template <class T>
void check_result(const adv_case& c, const array<T>& r, const char* path) {
  BOOST_TEST_CONTEXT(path) {
    BOOST_TEST_REQUIRE(c.kind == "r");
    BOOST_TEST(cupp::to_string(r.shape()) == cupp::to_string(c.r_shape));
    const std::vector<T> got = r.to_vector();
    BOOST_TEST_REQUIRE(got.size() == c.ids.size());
    for (std::size_t k = 0; k < got.size(); ++k)
      BOOST_TEST(cupp_test::same_bits(got[k], value_of<T>(c.ids[k])),
                 "element " << k << " should be id " << c.ids[k]);
  }
}

// x(items) for the case's items, through the hook every indexing ends in.
template <int K, class T>
cupp::gather_ref<T, space, K> gather_k(const array<T>& base,
                                       const std::vector<cupp::detail::plan_item>& items,
                                       const std::vector<array<std::int64_t>>& arrays) {
  std::array<array<std::int64_t>, K> idx;
  for (int k = 0; k < K; ++k) idx[k] = arrays[k];
  return cupp::detail::make_gather<K>(base, items, idx);
}

// Runs `f` on the case's base (an array of T over a fresh storage); checks
// NumPy's result or its exception, and that nothing is written on error.
template <class T, class F>
void run_case(const adv_case& c, F&& f) {
  const array<T> storage = make_storage<T>(c.m);
  cupp::strides_t st = c.strides;
  for (auto& s : st) s *= storage.itemsize();
  const array<T> base = storage.view_as({c.off * storage.itemsize(), c.shape, st});
  const std::vector<T> before = storage.to_vector();
  try {
    f(storage, base);
  } catch (const std::exception& e) {
    BOOST_TEST(python_name(e) == c.error_type);
    BOOST_TEST(std::string(e.what()) == c.error_message);
    const std::vector<T> after = storage.to_vector();
    for (std::size_t k = 0; k < after.size(); ++k)
      BOOST_TEST(cupp_test::same_bits(after[k], before[k]), "nothing is written: element " << k);
    return;
  }
  BOOST_TEST_REQUIRE(c.error_type.empty(),
                     "NumPy raises " << c.error_type << ": " << c.error_message);
  if (c.kind == "set") {
    const std::vector<T> got = storage.to_vector();
    BOOST_TEST_REQUIRE(got.size() == c.ids.size());
    for (std::size_t k = 0; k < got.size(); ++k)
      BOOST_TEST(cupp_test::same_bits(got[k], value_of<T>(c.ids[k])),
                 "storage element " << k << " should be id " << c.ids[k]);
  }
}

// Basic items and index arrays from args[1 .. 1 + n).
void parse_index(const adv_case& c, std::vector<cupp::detail::plan_item>& items,
                 std::vector<array<std::int64_t>>& arrays) {
  const std::size_t n = std::stoul(c.args[0]);
  for (std::size_t i = 1; i <= n; ++i) {
    const std::string& t = c.args[i];
    cupp::detail::plan_item it;
    if (t.rfind("a:", 0) == 0) {
      it.array = static_cast<int>(arrays.size());
      arrays.push_back(index_array(t));
    } else {
      it.basic = parse_item(t).get();
    }
    items.push_back(it);
  }
}

template <class T>
void check_case(const adv_case& c) {
  const auto& a = c.args;
  if (c.op == "get") {
    run_case<T>(c, [&](const array<T>&, const array<T>& base) {
      std::vector<cupp::detail::plan_item> items;
      std::vector<array<std::int64_t>> arrays;
      parse_index(c, items, arrays);
      auto check = [&](auto g) {
        // The fused path (a cast that reads through the indices inside
        // its own kernel) first, then the gather kernel of the conversion.
        const array<T> fused = cupp::astype<T>(g);
        check_result<T>(c, fused, "fused");
        const array<T> r = g;
        check_result<T>(c, r, "gather");
        const array<T> u = g.unchecked();
        check_result<T>(c, u, "unchecked");
      };
      switch (arrays.size()) {
        case 1:
          return check(gather_k<1>(base, items, arrays));
        case 2:
          return check(gather_k<2>(base, items, arrays));
        case 3:
          return check(gather_k<3>(base, items, arrays));
        default:
          BOOST_FAIL("unexpected index array count");
      }
    });
  } else if (c.op == "set") {
    run_case<T>(c, [&](const array<T>&, const array<T>& base) {
      std::vector<cupp::detail::plan_item> items;
      std::vector<array<std::int64_t>> arrays;
      parse_index(c, items, arrays);
      const std::string& v = a.back();
      auto assign = [&](auto g) {
        if (v == "scalar")
          g = value_of<T>(-1);
        else
          g = value_array<T>(v);
      };
      switch (arrays.size()) {
        case 1:
          return assign(gather_k<1>(base, items, arrays));
        case 2:
          return assign(gather_k<2>(base, items, arrays));
        default:
          BOOST_FAIL("unexpected index array count");
      }
    });
  } else if (c.op == "take") {
    run_case<T>(c, [&](const array<T>&, const array<T>& base) {
      check_result<T>(
          c, cupp::take(base, index_array(a[0]), parse_opt_axis(a[1]), parse_mode(a[2])), "take");
    });
  } else if (c.op == "tal") {
    run_case<T>(c, [&](const array<T>&, const array<T>& base) {
      check_result<T>(c, cupp::take_along_axis(base, index_array(a[0]), parse_opt_axis(a[1])),
                      "take_along_axis");
    });
  } else if (c.op == "put") {
    run_case<T>(c, [&](const array<T>&, const array<T>& base) {
      if (a[1] == "scalar")
        cupp::put(base, index_array(a[0]), value_of<T>(-1), parse_mode(a[2]));
      else
        cupp::put(base, index_array(a[0]), value_array<T>(a[1]), parse_mode(a[2]));
    });
  } else if (c.op == "pal") {
    run_case<T>(c, [&](const array<T>&, const array<T>& base) {
      if (a[1] == "scalar")
        cupp::put_along_axis(base, index_array(a[0]), value_of<T>(-1), parse_opt_axis(a[2]));
      else
        cupp::put_along_axis(base, index_array(a[0]), value_array<T>(a[1]), parse_opt_axis(a[2]));
    });
  } else if (c.op == "choose") {
    run_case<T>(c, [&](const array<T>&, const array<T>&) {
      const std::size_t n = std::stoul(a[1]);
      std::vector<array<T>> choices;
      for (std::size_t i = 0; i < n; ++i) choices.push_back(value_array<T>(a[2 + i]));
      check_result<T>(c, cupp::choose(index_array(a[0]), choices, parse_mode(a.back())), "choose");
    });
  } else {
    BOOST_FAIL("unknown op " << c.op);
  }
}

template <class T, class S>
std::vector<double> as_doubles(const cupp::ndarray<T, S>& a) {
  std::vector<double> r;
  for (const T& v : a.to_vector()) {
    if constexpr (cupp::detail::is_complex_type_v<T>)
      r.push_back(static_cast<double>(v.real()));
    else
      r.push_back(cupp::detail::convert<double>(v));
  }
  return r;
}

template <class T>
array<T> from_values(std::initializer_list<double> v) {
  cupp::host::ndarray<T> h(cupp::shape_t{static_cast<index_t>(v.size())});
  std::size_t j = 0;
  for (double x : v) h.data()[j++] = cupp::detail::convert<T>(x);
  return cupp_test::on_space(h);
}

// scatter_add / scatter_max / scatter_min against np.add.at & co.
template <class T>
void check_scatter_add() {
  const array<T> x = from_values<T>({1, 0, 2, 0});
  const std::vector<int> idx{0, 2, 0, -1, 0};
  cupp::scatter_add(x, idx, from_values<T>({1, 1, 1, 1, 1}));
  if constexpr (std::is_same_v<T, bool>)
    BOOST_TEST(as_doubles(x) == (std::vector<double>{1, 0, 1, 1}),
               boost::test_tools::per_element());
  else
    BOOST_TEST(as_doubles(x) == (std::vector<double>{4, 0, 3, 1}),
               boost::test_tools::per_element());
}

template <class T>
void check_scatter_extrema() {
  const array<T> x = from_values<T>({1, 5, 2, 0});
  const std::vector<std::int64_t> idx{0, 1, 0, 3, 3};
  cupp::scatter_max(x, idx, from_values<T>({3, 2, 4, 1, 2}));
  BOOST_TEST(as_doubles(x) == (std::vector<double>{4, 5, 2, 2}), boost::test_tools::per_element());
  cupp::scatter_min(x, idx, from_values<T>({3, 2, 2, 1, 3}));
  BOOST_TEST(as_doubles(x) == (std::vector<double>{2, 2, 2, 1}), boost::test_tools::per_element());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(advanced_indexing)

BOOST_AUTO_TEST_CASE(numpy_cases) {
  std::size_t n = 0;
  for (const adv_case& c : adv_cases()) {
    ++n;
    boost::hana::for_each(dtypes, [&](auto t) {
      using T = typename decltype(t)::type;
      BOOST_TEST_CONTEXT(c.name << " [" << cupp::dtype_of<T>().name << "]: " << c.line) {
        check_case<T>(c);
      }
    });
  }
  BOOST_TEST(n > 500u);
}

// The public syntax: x(i0, i1, ...) with index arrays of any integer dtype,
// host lists, and basic indices mixed in.
BOOST_AUTO_TEST_CASE(syntax) {
  const array<float> x = from_values<float>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}).reshape(3, 4);
  const std::vector<int> rows{2, 0};
  cupp::host::ndarray<std::uint8_t> hcols(cupp::shape_t{2});
  hcols.data()[0] = 3;
  hcols.data()[1] = 1;
  const array<std::int16_t> cols = cupp_test::on_space(hcols.astype<std::int16_t>());
  const array<float> a = x(rows, cols);
  BOOST_TEST(as_doubles(a) == (std::vector<double>{11, 1}), boost::test_tools::per_element());
  const array<float> b = x(rows, slice(1, 3));
  BOOST_TEST(as_doubles(b) == (std::vector<double>{9, 10, 1, 2}), boost::test_tools::per_element());
  const array<float> c = x(_, hcols);  // a host index array (uploaded for a device x)
  BOOST_TEST(as_doubles(c) == (std::vector<double>{3, 1, 7, 5, 11, 9}),
             boost::test_tools::per_element());
  const array<float> d = x(-1, rows);
  BOOST_TEST(as_doubles(d) == (std::vector<double>{10, 8}), boost::test_tools::per_element());
  BOOST_CHECK_EXCEPTION((void)array<float>(x(std::vector<long>{3})), cupp::index_error,
                        [](const cupp::index_error& e) {
                          return std::string(e.what()) ==
                                 "index 3 is out of bounds for axis 0 with size 3";
                        });
  // The fused form: one kernel reads x through the indices.
  const array<float> y = cupp::sqrt(x(rows, cols)) * 2;
  BOOST_TEST(as_doubles(y)[0] == 2 * std::sqrt(11.0), boost::test_tools::tolerance(1e-6));
  BOOST_CHECK_THROW((void)array<float>(cupp::sqrt(x(std::vector<int>{0, -4}))), cupp::index_error);
}

// x(idx) op= v gathers, operates and scatters: repeated indices do not
// accumulate (NumPy's a[[0, 0]] += 1 adds 1 once).
BOOST_AUTO_TEST_CASE(in_place) {
  const array<float> x = from_values<float>({0, 10, 20, 30});
  x(std::vector<int>{0, 0, 2}) += 1;
  BOOST_TEST(as_doubles(x) == (std::vector<double>{1, 10, 21, 30}),
             boost::test_tools::per_element());
  x(std::vector<int>{3, 1}) *= from_values<float>({2, 3});
  BOOST_TEST(as_doubles(x) == (std::vector<double>{1, 30, 21, 60}),
             boost::test_tools::per_element());
  const array<std::int32_t> i = from_values<std::int32_t>({5, 6, 7});
  i(std::vector<int>{-1}) -= 10;
  BOOST_TEST(as_doubles(i) == (std::vector<double>{5, 6, -3}), boost::test_tools::per_element());
}

// The source overlapping the destination is read before anything is
// written: NumPy's a[[1, 2, 3]] = a[:3] gives [0, 0, 1, 2].
BOOST_AUTO_TEST_CASE(overlap) {
  const array<float> x = from_values<float>({0, 1, 2, 3});
  x(std::vector<int>{1, 2, 3}) = x(slice(_, 3));
  BOOST_TEST(as_doubles(x) == (std::vector<double>{0, 0, 1, 2}), boost::test_tools::per_element());
  const array<float> y = from_values<float>({0, 1, 2, 3});
  y(std::vector<int>{3, 2, 1, 0}) = y(std::vector<int>{0, 1, 2, 3}) + 1;
  BOOST_TEST(as_doubles(y) == (std::vector<double>{4, 3, 2, 1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(read_only_and_errors) {
  array<float> x = from_values<float>({0, 1, 2});
  const std::vector<int> bad{0, 3};
  BOOST_CHECK_EXCEPTION(x(bad) = 5.f, cupp::index_error, [](const cupp::index_error& e) {
    return std::string(e.what()) == "index 3 is out of bounds for axis 0 with size 3";
  });
  BOOST_CHECK_THROW(cupp::scatter_add(x, bad, 1.f), cupp::index_error);
  BOOST_CHECK_THROW(cupp::scatter_max(x, bad, 1.f), cupp::index_error);
  BOOST_TEST(as_doubles(x) == (std::vector<double>{0, 1, 2}), boost::test_tools::per_element());
  x.setflags(false);
  BOOST_CHECK_THROW(x(std::vector<int>{0}) = 1.f, cupp::value_error);
  BOOST_CHECK_THROW(cupp::put(x, std::vector<int>{0}, 1.f), cupp::value_error);
}

BOOST_AUTO_TEST_CASE(scatter) {
  boost::hana::for_each(dtypes, [&](auto t) {
    using T = typename decltype(t)::type;
    BOOST_TEST_CONTEXT(cupp::dtype_of<T>().name) {
      check_scatter_add<T>();
    }
  });
  boost::hana::for_each(boost::hana::tuple_t<std::int8_t, std::uint16_t, std::int32_t, std::int64_t,
                                             __half, float, double>,
                        [&](auto t) {
                          using T = typename decltype(t)::type;
                          BOOST_TEST_CONTEXT(cupp::dtype_of<T>().name) {
                            check_scatter_extrema<T>();
                          }
                        });
  // Basic indices only: the value is added once per selected element.
  const array<float> x = from_values<float>({0, 1, 2, 3});
  cupp::scatter_add(x, slice(1, 3), 10.f);
  BOOST_TEST(as_doubles(x) == (std::vector<double>{0, 11, 12, 3}),
             boost::test_tools::per_element());
  // Indices and a value that broadcast: a 2-d target, rows repeated.
  const array<float> m = from_values<float>({0, 0, 0, 0, 0, 0}).reshape(2, 3);
  cupp::scatter_add(m, std::vector<int>{1, 1, 0}, _, from_values<float>({1, 2, 3}));
  BOOST_TEST(as_doubles(m) == (std::vector<double>{1, 2, 3, 2, 4, 6}),
             boost::test_tools::per_element());
}

// Index arrays of every integer dtype index alike (converted to int64).
BOOST_AUTO_TEST_CASE(index_dtypes) {
  const array<double> x = from_values<double>({10, 11, 12, 13, 14});
  boost::hana::for_each(
      boost::hana::tuple_t<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                           std::uint32_t, std::int64_t, std::uint64_t>,
      [&](auto t) {
        using I = typename decltype(t)::type;
        BOOST_TEST_CONTEXT(cupp::dtype_of<I>().name) {
          cupp::host::ndarray<I> h(cupp::shape_t{3});
          h.data()[0] = 4;
          h.data()[1] = 0;
          h.data()[2] = 2;
          const array<I> idx = cupp_test::on_space(h);
          const array<double> r = x(idx);
          BOOST_TEST(as_doubles(r) == (std::vector<double>{14, 10, 12}),
                     boost::test_tools::per_element());
          const array<double> hr = x(h);  // a host index array
          BOOST_TEST(as_doubles(hr) == (std::vector<double>{14, 10, 12}),
                     boost::test_tools::per_element());
        }
      });
}

// The unchecked form and the function forms with host lists.
BOOST_AUTO_TEST_CASE(unchecked_and_lists) {
  const array<float> x = from_values<float>({0, 1, 2, 3, 4, 5});
  x(std::vector<int>{-1, 0}).unchecked() = 9.f;
  BOOST_TEST(as_doubles(x) == (std::vector<double>{9, 1, 2, 3, 4, 9}),
             boost::test_tools::per_element());
  const array<float> u = x(std::vector<int>{1, -2}).unchecked();
  BOOST_TEST(as_doubles(u) == (std::vector<double>{1, 4}), boost::test_tools::per_element());
  const array<float> t = cupp::take(x.reshape(2, 3), std::vector<int>{5, -6});
  BOOST_TEST(as_doubles(t) == (std::vector<double>{9, 9}), boost::test_tools::per_element());
  const array<float> w = cupp::take(x, std::vector<int>{7}, 0, cupp::take_mode::wrap);
  BOOST_TEST(as_doubles(w) == (std::vector<double>{1}), boost::test_tools::per_element());
  const array<float> c = cupp::choose(std::vector<int>{1, 0, 1}, {x(slice(_, 3)), x(slice(3, _))});
  BOOST_TEST(as_doubles(c) == (std::vector<double>{3, 1, 9}), boost::test_tools::per_element());
  cupp::put(x, std::vector<int>{0, 1, 2, 3}, from_values<float>({7, 8}));
  BOOST_TEST(as_doubles(x) == (std::vector<double>{7, 8, 7, 8, 4, 9}),
             boost::test_tools::per_element());
}

// x(idx) with one dense index array has a kernel of its own on the device
// (detail/indexing/flat_gather.hpp): each element size, lengths around its groups of four,
// index arrays it leaves to the general kernel (one element off 16-byte
// alignment, strided), sources read along a strided axis, modes and the
// bounds check. Expected: element j is id 1 + 2 * fix(idx[j]).
template <class T>
void check_flat_gather() {
  constexpr index_t m = 37;
  const array<T> storage = make_storage<T>(2 * m);
  const array<T> x = storage(slice(1, _, 2));  // ids 1, 3, ..., 73
  const auto expect = [&](const array<T>& r, const std::vector<std::int64_t>& idx,
                          cupp::take_mode mode) {
    BOOST_TEST_REQUIRE(r.size() == static_cast<index_t>(idx.size()));
    const std::vector<T> got = r.to_vector();
    for (std::size_t j = 0; j < idx.size(); ++j) {
      index_t i = idx[j];
      if (mode == cupp::take_mode::wrap) i = ((i % m) + m) % m;
      if (mode == cupp::take_mode::clip) i = std::clamp<index_t>(i, 0, m - 1);
      if (i < 0) i += m;
      BOOST_TEST(cupp_test::same_bits(got[j], value_of<T>(1 + 2 * i)), "element " << j);
    }
  };
  for (const index_t n : {1, 3, 4, 5, 8, 1027}) {
    cupp::host::ndarray<std::int64_t> h(cupp::shape_t{2 * n + 1});
    for (index_t j = 0; j < h.size(); ++j) h.data()[j] = (j * 7919) % (2 * m) - m;  // [-m, m)
    const array<std::int64_t> all = cupp_test::on_space(h);
    for (const index_t off : {0, 1}) {
      BOOST_TEST_CONTEXT("n " << n << ", offset " << off) {
        const array<std::int64_t> idx = all(slice(off, off + n));
        const std::vector<std::int64_t> v = idx.to_vector();
        expect(x(idx), v, cupp::take_mode::raise);
        expect(x(idx).unchecked(), v, cupp::take_mode::raise);
        const array<std::int64_t> far = idx * 3;
        const std::vector<std::int64_t> fv = far.to_vector();
        expect(cupp::take(x, far, 0, cupp::take_mode::wrap), fv, cupp::take_mode::wrap);
        expect(cupp::take(x, far, 0, cupp::take_mode::clip), fv, cupp::take_mode::clip);
      }
    }
    const array<std::int64_t> strided = all(slice(_, _, 2));
    expect(x(strided), strided.to_vector(), cupp::take_mode::raise);
  }
  // A matrix read along either axis, and an index array of two dimensions.
  const array<T> mat = storage.reshape(2, m);  // ids r * m + c
  const array<std::int64_t> cols = from_values<std::int64_t>({5, -1, 0, 36, 2, 7}).reshape(2, 3);
  const array<T> row1 = mat(1, cols);
  BOOST_TEST(cupp::to_string(row1.shape()) == "(2, 3)");
  const std::vector<T> got = row1.to_vector();
  const index_t want[] = {m + 5, m + 36, m, m + 36, m + 2, m + 7};
  for (int j = 0; j < 6; ++j) BOOST_TEST(cupp_test::same_bits(got[j], value_of<T>(want[j])));
  const array<T> col2 = mat(from_values<std::int64_t>({1, 0, -2, 1, 1}), 2);
  const std::vector<T> cg = col2.to_vector();
  const index_t cwant[] = {m + 2, 2, 2, m + 2, m + 2};
  for (int j = 0; j < 5; ++j) BOOST_TEST(cupp_test::same_bits(cg[j], value_of<T>(cwant[j])));
  // One bad index among many: NumPy's message, from the kernel's fault word.
  cupp::host::ndarray<std::int64_t> hb(cupp::shape_t{4099});
  for (index_t j = 0; j < hb.size(); ++j) hb.data()[j] = j % m;
  hb.data()[4097] = -m - 1;
  const array<std::int64_t> bad = cupp_test::on_space(hb);
  BOOST_CHECK_EXCEPTION((void)array<T>(x(bad)), cupp::index_error, [](const cupp::index_error& e) {
    return std::string(e.what()) == "index -38 is out of bounds for axis 0 with size 37";
  });
}

BOOST_AUTO_TEST_CASE(flat_gather) {
  boost::hana::for_each(dtypes, [&](auto t) {
    using T = typename decltype(t)::type;
    BOOST_TEST_CONTEXT(cupp::dtype_of<T>().name) {
      check_flat_gather<T>();
    }
  });
}

#if !CUPP_TEST_DEVICE
// Repeated indices on the host: the last value wins, as in NumPy (on the
// device which one wins is unspecified).
BOOST_AUTO_TEST_CASE(duplicates_host) {
  const array<float> x = from_values<float>({0, 0, 0, 0, 0, 0}).reshape(3, 2);
  x(std::vector<int>{1, 1, 0}) = from_values<float>({1, 2, 3, 4, 5, 6}).reshape(3, 2);
  BOOST_TEST(as_doubles(x) == (std::vector<double>{5, 6, 3, 4, 0, 0}),
             boost::test_tools::per_element());
}
#endif

// Writes into F-ordered and strided targets land where NumPy puts them.
BOOST_AUTO_TEST_CASE(strided_targets) {
  const array<float> f = from_values<float>({0, 0, 0, 0, 0, 0}).reshape(2, 3).T();  // (3, 2), F
  f(std::vector<int>{2, 0}, 1) = from_values<float>({5, 6});
  BOOST_TEST(as_doubles(f.copy()) == (std::vector<double>{0, 6, 0, 0, 0, 5}),
             boost::test_tools::per_element());
  const array<float> s = from_values<float>({0, 0, 0, 0, 0, 0, 0, 0});
  cupp::scatter_add(s(slice(_, _, -2)), std::vector<int>{0, 0, 3}, 1.f);  // s[::-2]: 7, 5, 3, 1
  BOOST_TEST(as_doubles(s) == (std::vector<double>{0, 1, 0, 0, 0, 0, 0, 2}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
