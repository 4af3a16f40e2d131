// numpy.partition, argpartition, ndarray.partition (partition_inplace) and
// the selection primitive detail::select_positions on host arrays and, with
// CUPP_TEST_DEVICE=1, device arrays. A partition is not unique, so every
// result is checked for what NumPy promises, against NumPy's sorted rows
// (tests/generate_sort_partition_fixtures.py): each row is a permutation of
// the input's, the element at each kth is np.sort's, the ones before are <=
// it and the ones after >= it (NaN last). Every dtype, every axis (negative
// and None), C, F, strided, reversed and broadcast layouts and lazy
// expressions, ties, NaNs of both signs, infinities, -0.0, all-equal,
// sorted and reversed inputs, empty and 0-d arrays; long rows that take the
// device's radix selection with adversarial data; NumPy's errors, with
// nothing written.
#include <cupp/creation.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/npy.hpp>
#include <cupp/sort/partition.hpp>
#include <cupp/ufunc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
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
namespace hana = boost::hana;
namespace srt = cupp::detail::sorting;

namespace {

using sort_harness::in_layout;
using sort_harness::same_value;

// NumPy has no bfloat16: its fixtures are float32 values that bfloat16
// holds exactly.
template <class T>
cupp::host::ndarray<T> load(const std::string& name) {
  return sort_harness::load<T>("sort/partition/", name);
}

// NumPy's order with T explicit, so that vector<bool>'s proxies convert.
template <class T>
bool np_before(const T& a, const T& b) {
  return srt::np_less{}(a, b);
}

// NumPy's order, ties broken by the bits: the order in which two
// multisets are compared.
template <class T>
bool total_less(const T& a, const T& b) {
  if (np_before(a, b)) return true;
  if (np_before(b, a)) return false;
  return std::memcmp(&a, &b, sizeof(T)) < 0;
}

// One row of a partition against NumPy's sorted row: the sorted element
// at each kth, <= before and >= after, and, given the input row, a
// permutation of it (NumPy's own sort may swap the signs of zeros, so the
// multiset is the input's).
template <class T>
std::string row_problem(std::vector<T> got, const std::vector<T>& want,
                        const std::vector<std::int64_t>& kth, std::vector<T>* input) {
  const auto less = np_before<T>;
  const index_t n = got.size();
  for (std::int64_t k : kth) {
    if (less(got[k], want[k]) || less(want[k], got[k]))
      return "element at kth " + std::to_string(k) + " is not np.sort's";
    for (index_t i = 0; i < n; ++i)
      if ((i < k && less(got[k], got[i])) || (i > k && less(got[i], got[k])))
        return "element " + std::to_string(i) + " is on the wrong side of kth " + std::to_string(k);
  }
  if (input) {
    std::sort(got.begin(), got.end(), total_less<T>);
    std::sort(input->begin(), input->end(), total_less<T>);
    for (index_t i = 0; i < n; ++i)
      if (!same_value<T>(got[i], (*input)[i])) return "not a permutation of the row";
  }
  return {};
}

// The rows along `axis` of a C-contiguous host array of `shape`.
template <class T>
std::vector<std::vector<T>> rows_along(const std::vector<T>& v, const shape_t& shape, int axis) {
  const int nd = shape.size();
  const index_t n = shape[axis];
  index_t inner = 1;
  for (int d = axis + 1; d < nd; ++d) inner *= shape[d];
  std::vector<std::vector<T>> rows;
  if (v.empty()) return rows;
  const index_t outer = static_cast<index_t>(v.size()) / (n * inner);
  for (index_t o = 0; o < outer; ++o)
    for (index_t i = 0; i < inner; ++i) {
      std::vector<T> r(n);
      for (index_t j = 0; j < n; ++j) r[j] = v[(o * n + j) * inner + i];
      rows.push_back(std::move(r));
    }
  return rows;
}

// Checks partition(x) (values) or argpartition(x) (idx, gathered from the
// input xv) along `axis` of `shape` (axis 0 of a 1-d shape: flattened).
template <class T>
void expect_partition(const cupp::host::ndarray<T>* values,
                      const cupp::host::ndarray<std::int64_t>* idx, const std::vector<T>& xv,
                      const cupp::host::ndarray<T>& sorted, const shape_t& shape, int axis,
                      const std::vector<std::int64_t>& kth, const std::string& what,
                      bool multiset = true) {
  const auto& got_shape = values ? values->shape() : idx->shape();
  BOOST_TEST_REQUIRE(got_shape == shape, what << ": shape");
  BOOST_TEST((values ? values->is_c_contiguous() : idx->is_c_contiguous()), what << ": layout");
  const auto want_rows = rows_along(sorted.to_vector(), shape, axis);
  auto x_rows = rows_along(xv, shape, axis);
  std::vector<std::vector<T>> got_rows;
  if (values) {
    got_rows = rows_along(values->to_vector(), shape, axis);
  } else {
    // Distinct indices in range: a permutation, so no multiset to compare.
    multiset = false;
    const auto index_rows = rows_along(idx->to_vector(), shape, axis);
    for (std::size_t r = 0; r < index_rows.size(); ++r) {
      const index_t n = index_rows[r].size();
      std::vector<char> seen(n, 0);
      std::vector<T> g(n);
      for (index_t j = 0; j < n; ++j) {
        const std::int64_t i = index_rows[r][j];
        if (i < 0 || i >= n || seen[i]) {
          BOOST_ERROR(what << ": row " << r << ": indices are not a permutation");
          return;
        }
        seen[i] = 1;
        g[j] = x_rows[r][i];
      }
      got_rows.push_back(std::move(g));
    }
  }
  for (std::size_t r = 0; r < want_rows.size(); ++r) {
    const std::string problem =
        row_problem(got_rows[r], want_rows[r], kth, multiset ? &x_rows[r] : nullptr);
    if (!problem.empty()) {
      BOOST_ERROR(what << ": row " << r << ": " << problem);
      return;
    }
  }
}

// kth lists for a row of n (n >= 1): the ends, the middle, a negative one
// and several at once, as given and as normalised.
std::vector<std::vector<index_t>> kth_sets(index_t n) {
  return {{0}, {n - 1}, {n / 2}, {-1}, {1 % n, n - 2 < 0 ? 0 : n - 2, n / 2}};
}
std::vector<std::int64_t> normalised(const std::vector<index_t>& kth, index_t n) {
  std::vector<std::int64_t> r;
  for (index_t k : kth) r.push_back(k < 0 ? k + n : k);
  return r;
}

template <class T>
void run_case(const std::string& dtype, const std::string& kase, const std::string& axes) {
  const std::string p = dtype + "_" + kase + "_";
  const auto hx = load<T>(p + "x");
  const shape_t& shape = hx.shape();
  const int nd = shape.size();
  const auto xv = hx.to_vector();
  std::vector<std::string> layouts = {"C", "F", "strided", "reversed", "expr"};
  if (kase == "bcast") layouts.push_back("broadcast");
  std::vector<std::string> axis_names;
  std::stringstream ss(axes);
  for (std::string a; std::getline(ss, a, ',');) axis_names.push_back(a);
  int turn = 0;
  for (const auto& layout : layouts) {
    const auto x = in_layout(hx, layout == "expr" ? "C" : layout);
    for (const auto& a : axis_names) {
      const bool flat = a == "none";
      const auto sorted = load<T>(p + "sort_" + a);
      const int ax = flat ? 0 : std::stoi(a);
      const shape_t rshape = flat ? shape_t{hx.size()} : shape;
      const index_t n = flat ? hx.size() : shape[ax];
      // Every kth list in C order, one of them per other layout.
      auto sets = n == 0 ? std::vector<std::vector<index_t>>{{0}, {5}} : kth_sets(n);
      if (layout != "C") sets = {sets[turn++ % sets.size()]};
      for (const auto& kth : sets) {
        const auto want_kth = n == 0 ? std::vector<std::int64_t>{} : normalised(kth, n);
        const std::string what = p + layout + " axis " + a + " kth " + std::to_string(kth[0]);
        auto check = [&](const auto& in, int axis) {
          const cupp::partition_kth k(kth);
          const auto v =
              to_host(flat ? cupp::partition(in, k, cupp::none) : cupp::partition(in, k, axis));
          const auto i = to_host(flat ? cupp::argpartition(in, k, cupp::none)
                                      : cupp::argpartition(in, k, axis, "introselect"));
          expect_partition<T>(&v, nullptr, xv, sorted, rshape, ax, want_kth, what + " partition");
          expect_partition<T>(nullptr, &i, xv, sorted, rshape, ax, want_kth,
                              what + " argpartition");
        };
        if (layout == "expr") {
          check(cupp::astype<T>(x), ax);  // a lazy node, not an array
        } else {
          check(x, ax);
          if (!flat && layout == "C") check(x, ax - nd);
        }
      }
    }
  }
  if (nd == 0) {
    // argpartition of a 0-d array along an axis: that of its one element.
    const auto i = to_host(cupp::argpartition(on_space(hx), 0));
    BOOST_TEST((i.shape() == shape_t{1} && i.to_vector()[0] == 0), p + " 0-d argpartition");
    const auto j = to_host(cupp::argpartition(on_space(hx), -1, 0));
    BOOST_TEST((j.shape() == shape_t{1} && j.to_vector()[0] == 0), p + " 0-d argpartition");
  }
  if (nd >= 1 && hx.size() > 0) {
    // In place, through a view.
    for (const std::string layout : {"C", "F", "strided", "reversed"}) {
      const auto y = in_layout(hx, layout);
      const index_t n = shape[0];
      cupp::partition_inplace(y, {n / 2, 0}, 0);
      const auto written = to_host(y).copy();
      expect_partition<T>(&written, nullptr, xv, load<T>(p + "sort_0"), shape, 0,
                          normalised({n / 2, 0}, n), p + layout + " partition_inplace");
    }
  }
}

// NumPy's order along the last axis, made here for long rows.
template <class T>
cupp::host::ndarray<T> sorted_rows(const cupp::host::ndarray<T>& hx) {
  const shape_t& shape = hx.shape();
  const int ax = static_cast<int>(shape.size()) - 1;
  cupp::host::ndarray<T> sorted(shape);
  std::vector<T> all;
  for (auto r : rows_along(hx.to_vector(), shape, ax)) {
    std::sort(r.begin(), r.end(), np_before<T>);
    all.insert(all.end(), r.begin(), r.end());
  }
  std::copy(all.begin(), all.end(), sorted.data());
  return sorted;
}

// A long row's partition and argpartition along the last axis (or
// flattened, for a 1-d `sorted` of x's size), against `sorted`; the
// multiset check (two sorts) only where asked.
template <class T>
void check_long(const cupp::host::ndarray<T>& hx, const cupp::host::ndarray<T>& sorted,
                const std::vector<index_t>& kth, bool flat, bool multiset,
                const std::string& what) {
  const auto x = on_space(hx);
  const auto xv = hx.to_vector();
  const shape_t& rshape = sorted.shape();
  const int ax = static_cast<int>(rshape.size()) - 1;
  const auto want_kth = normalised(kth, rshape[ax]);
  const auto v = to_host(flat ? cupp::partition(x, kth, cupp::none) : cupp::partition(x, kth));
  const auto i =
      to_host(flat ? cupp::argpartition(x, kth, cupp::none) : cupp::argpartition(x, kth));
  expect_partition<T>(&v, nullptr, xv, sorted, rshape, ax, want_kth, what + " partition", multiset);
  expect_partition<T>(nullptr, &i, xv, sorted, rshape, ax, want_kth, what + " argpartition");
}

// Adversarial long rows: varied values, all equal, two values, NaN-heavy
// (both signs, with -0.0 and infinities), and reversed sorted.
template <class T>
cupp::host::ndarray<T> long_row(const shape_t& shape, int pattern) {
  cupp::host::ndarray<T> h(shape);
  const index_t size = h.size();
  for (index_t i = 0; i < size; ++i) {
    const long mixed = static_cast<long>((i * 2654435761u) % 1000003);
    T v{};
    switch (pattern) {
      case 0:
        v = cupp_test::sample<T>(mixed);
        break;
      case 1:
        v = cupp_test::sample<T>(5);
        break;
      case 2:
        v = cupp_test::sample<T>(mixed % 2 ? 3 : 8);
        break;
      case 3:
        if constexpr (srt::is_floating_v<T>) {
          const float f = mixed % 3 == 0   ? std::copysign(NAN, mixed % 2 ? -1.f : 1.f)
                          : mixed % 5 == 0 ? (mixed % 2 ? -0.f : 0.f)
                          : mixed % 7 == 0 ? (mixed % 2 ? -INFINITY : INFINITY)
                                           : static_cast<float>(mixed % 13) - 6;
          v = static_cast<T>(f);
        } else {
          v = cupp_test::sample<T>(mixed % 7);
        }
        break;
      default:
        v = cupp_test::sample<T>(size - i);
    }
    h.data()[i] = v;
  }
  return h;
}

template <class T>
std::string dtype_name() {
  return std::string(cupp::dtype_of<T>().name);
}

std::map<std::string, std::pair<std::string, std::string>> numpy_errors() {
  std::map<std::string, std::pair<std::string, std::string>> r;
  for (const std::string& line : cupp_test::fixture_lines("sort/partition/errors.txt")) {
    const auto a = line.find('|'), b = line.find('|', a + 1);
    r[line.substr(0, a)] = {line.substr(a + 1, b - a - 1), line.substr(b + 1)};
  }
  return r;
}

// "type|message" of what f throws.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const cupp::axis_error& e) {
    return std::string("axis_error|") + e.what();
  } catch (const cupp::value_error& e) {
    return std::string("value_error|") + e.what();
  } catch (const cupp::type_error& e) {
    return std::string("type_error|") + e.what();
  }
  return "(no error)";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sort_partition)

BOOST_AUTO_TEST_CASE(numpy_values) {
  for (const std::string& line : cupp_test::fixture_lines("sort/partition/cases.txt")) {
    std::stringstream ss(line);
    std::string dtype, kase, axes;
    ss >> dtype >> kase >> axes;
    BOOST_TEST_CONTEXT(line) {
      cupp_test::with_dtype(
          dtype, [&](auto t) { run_case<typename decltype(t)::type>(dtype, kase, axes); });
    }
  }
}

BOOST_AUTO_TEST_CASE(long_rows) {
  hana::for_each(cupp_test::all_dtypes, [](auto t) {
    using T = typename decltype(t)::type;
    // Long enough for the device's radix selection (2^15 and more).
    const index_t n = index_t(1) << 15;
    for (int pattern = 0; pattern < 5; ++pattern) {
      const std::string what = dtype_name<T>() + " pattern " + std::to_string(pattern);
      const auto h = long_row<T>({n}, pattern);
      const auto sorted = sorted_rows(h);
      check_long(h, sorted, {n / 2}, false, pattern == 0 || pattern == 3, what + " middle");
      check_long(h, sorted, {0}, false, false, what + " first");
      check_long(h, sorted, {-1}, false, false, what + " last");
      check_long(h, sorted, {12345, n - 7}, false, false, what + " two kth");
      // Flattened (one row again), and many rows (the sort path on the
      // device).
      const auto h2 = long_row<T>({2, n / 2}, pattern);
      check_long(h2, sorted_rows(h2.reshape(shape_t{n})), {n / 3}, true, false,
                 what + " flattened");
      if (pattern == 0) {
        const auto h3 = long_row<T>({3, n / 4}, pattern);
        check_long(h3, sorted_rows(h3), {100}, false, false, what + " rows");
      }
    }
  });
}

BOOST_AUTO_TEST_CASE(select_positions) {
  hana::for_each(cupp_test::all_dtypes, [](auto t) {
    using T = typename decltype(t)::type;
    const std::string name = dtype_name<T>();
    auto check = [&](const cupp::host::ndarray<T>& hx, const std::vector<T>& sv,
                     std::vector<std::int64_t> pos, const std::string& what) {
      const auto x = on_space(hx);
      cupp::host::ndarray<std::int64_t> hp(shape_t{index_t(pos.size())});
      std::copy(pos.begin(), pos.end(), hp.data());
      const auto p = on_space(hp);
      array<T> out(shape_t{index_t(pos.size())});
      cupp::detail::select_positions<T, cupp_test::space>(
          x.data(), hx.size(), p.data(), index_t(pos.size()), out.data(), x.device_id());
      const auto got = to_host(out).to_vector();
      const auto less = np_before<T>;
      for (std::size_t j = 0; j < pos.size(); ++j)
        if (less(got[j], sv[pos[j]]) || less(sv[pos[j]], got[j])) {
          BOOST_ERROR(what << ": position " << pos[j] << " wrong");
          return;
        }
    };
    for (const std::string kase : {"v1", "sorted", "reversed", "special"}) {
      if (kase == "special" && !srt::is_floating_v<T> && !srt::is_complex_v<T>) continue;
      const auto hx = load<T>(name + "_" + kase + "_x");
      const std::int64_t n = hx.size();
      const auto sv = load<T>(name + "_" + kase + "_sort_0").to_vector();
      check(hx, sv, {0, n - 1, n / 2, 3, 0}, name + " " + kase);
      check(hx, sv, {n - 1}, name + " " + kase + " last");
    }
    const index_t n = index_t(1) << 15;
    for (int pattern = 0; pattern < 5; ++pattern) {
      const auto h = long_row<T>({n}, pattern);
      const auto sv = sorted_rows(h).to_vector();
      const std::string what = name + " long pattern " + std::to_string(pattern);
      check(h, sv, {n / 2}, what);
      check(h, sv, {0, n - 1, 7, n / 3, n / 2, n - 1000}, what + " six");
      std::vector<std::int64_t> many;
      for (int j = 0; j < 20; ++j) many.push_back((j * 6007) % n);  // past the radix limit
      check(h, sv, many, what + " twenty");
    }
  });
}

BOOST_AUTO_TEST_CASE(kth_forms_and_empty) {
  const auto hx = load<float>("float32_v1_x");
  const auto sorted = load<float>("float32_v1_sort_0");
  const auto x = on_space(hx);
  const shape_t shape = hx.shape();
  const std::vector<index_t> kth{2, -3};
  const auto want = normalised(kth, 17);
  const auto by_vector = to_host(cupp::partition(x, kth));
  expect_partition<float>(&by_vector, nullptr, hx.to_vector(), sorted, shape, 0, want,
                          "std::vector kth");
  const auto repeated = to_host(cupp::partition(x, {2, -3, 2}));
  expect_partition<float>(&repeated, nullptr, hx.to_vector(), sorted, shape, 0, want,
                          "repeated kth");
  // No kth at all: a copy in some order (NumPy: the input's).
  const auto none = to_host(cupp::partition(x, std::vector<index_t>{}));
  expect_partition<float>(&none, nullptr, hx.to_vector(), sorted, shape, 0, {}, "empty kth");
  // An empty array checks no kth.
  const auto e = on_space(cupp::host::ndarray<double>(shape_t{0}));
  BOOST_TEST(to_host(cupp::partition(e, 5)).size() == 0);
  BOOST_TEST(to_host(cupp::argpartition(e, -9)).size() == 0);
  const auto e2 = on_space(cupp::host::ndarray<double>(shape_t{3, 0}));
  BOOST_TEST((to_host(cupp::partition(e2, 3, 0)).shape() == shape_t{3, 0}));
}

BOOST_AUTO_TEST_CASE(errors) {
  const auto want = numpy_errors();
  cupp::host::ndarray<double> hx(shape_t{5});
  for (int i = 0; i < 5; ++i) hx.data()[i] = i;
  const auto x = on_space(hx);
  const auto z = on_space(cupp::host::ndarray<double>(shape_t{}));
  auto ro = on_space(hx.copy());
  ro.setflags(false);
  const std::map<std::string, std::function<void()>> calls = {
      {"kth_high", [&] { cupp::partition(x, 5); }},
      {"kth_low", [&] { cupp::partition(x, -6); }},
      {"kth_list",
       [&] {
         cupp::argpartition(x, {1, 7});
       }},
      {"kind", [&] { cupp::partition(x, 2, -1, "quick"); }},
      {"axis", [&] { cupp::partition(x, 2, 1); }},
      {"axis_neg", [&] { cupp::argpartition(x, 2, -2); }},
      {"kind_before_axis", [&] { cupp::partition(x, 9, 3, "x"); }},
      {"axis_before_kth", [&] { cupp::partition(x, 9, 3); }},
      {"zerod_axis", [&] { cupp::partition(z, 0); }},
      {"zerod_arg_axis", [&] { cupp::argpartition(z, 0, 1); }},
      {"zerod_kth", [&] { cupp::partition(z, 1, cupp::none); }},
      {"inplace_readonly", [&] { cupp::partition_inplace(ro, 2); }},
      {"inplace_axis", [&] { cupp::partition_inplace(ro, 2, 3); }},
      {"inplace_zerod", [&] { cupp::partition_inplace(z, 0); }},
  };
  BOOST_TEST(calls.size() == want.size());
  for (const auto& [name, call] : calls) {
    const auto& [type, message] = want.at(name);
    BOOST_TEST(error_of(call) == type + "|" + message, name);
  }
  // Nothing written: a bad kth, a bad kind, a bad axis in place.
  const auto y = on_space(hx.copy());
  BOOST_TEST(error_of([&] { cupp::partition_inplace(y, 7); }) ==
             "value_error|kth(=7) out of bounds (5)");
  BOOST_TEST(error_of([&] { cupp::partition_inplace(y, 1, 0, "quick"); }).rfind("value_error", 0) ==
             0u);
  BOOST_TEST(error_of([&] { cupp::partition_inplace(y, 1, 2); }).rfind("axis_error", 0) == 0u);
  BOOST_TEST(to_host(y).to_vector() == hx.to_vector());
  BOOST_TEST(to_host(ro).to_vector() == hx.to_vector());
  BOOST_TEST(error_of([&] { cupp::partition(x, 2, -1, "introselect"); }) == "(no error)");
}

BOOST_AUTO_TEST_SUITE_END()
