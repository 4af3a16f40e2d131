// numpy.unique and NumPy 2's unique_all, unique_counts, unique_inverse and
// unique_values on host arrays and, with CUPP_TEST_DEVICE=1, device arrays:
// NumPy's results (tests/generate_sort_unique_fixtures.py) for every dtype,
// every combination of return_index / return_inverse / return_counts,
// axis=None and every axis (negative too), equal_nan both ways, in C, F,
// strided, reversed and broadcast layouts and as a lazy expression; ties,
// NaNs of both signs and complex NaN classes, infinities, -0.0 and 0.0
// mixed (the kept zero's sign compared), all-equal, sorted and distinct
// inputs, empty arrays, empty slices and 0-d arrays; properties of large
// inputs with few distinct values; NumPy's errors.
#include <cupp/creation.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/npy.hpp>
#include <cupp/sort/unique.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
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
using i64 = std::int64_t;

namespace {

using sort_harness::in_layout;
using sort_harness::same_value;

// NumPy has no bfloat16: its fixtures are float32 values that bfloat16
// holds exactly.
template <class T>
cupp::host::ndarray<T> load(const std::string& name) {
  return sort_harness::load<T>("sort/unique/", name);
}

template <class T>
void expect_values(const array<T>& got_array, const cupp::host::ndarray<T>& want,
                   const std::string& what) {
  const auto got = to_host(got_array);
  BOOST_TEST_REQUIRE(got.shape() == want.shape(), what << ": values' shape");
  const auto g = got.to_vector(), w = want.to_vector();
  for (std::size_t i = 0; i < g.size(); ++i)
    if (!same_value(g[i], w[i])) {
      BOOST_ERROR(what << ": value " << i << " differs");
      return;
    }
}

// The expected int64 results, or nullopt where the result is not asked
// for (then it must be empty).
void expect_ints(const array<i64>& got, const std::optional<std::vector<i64>>& want,
                 const shape_t& shape, const std::string& what) {
  if (!want) {
    BOOST_TEST(got.size() == 0, what << ": not asked for, yet not empty");
    return;
  }
  BOOST_TEST_REQUIRE(got.shape() == shape, what << ": shape");
  BOOST_TEST(to_host(got).to_vector() == *want, what);
}

struct expected_ints {
  std::vector<i64> index, inverse, counts;
  shape_t inverse_shape;
};

template <class T, class In>
void check_call(const In& in, const cupp::unique_options& o, const cupp::host::ndarray<T>& values,
                const expected_ints& w, const std::string& what) {
  const auto r = cupp::unique(in, o);
  static_assert(std::is_same_v<typename decltype(r.values)::value_type, T>);
  static_assert(std::is_same_v<typename decltype(r.indices)::value_type, i64>);
  const shape_t u{static_cast<index_t>(w.counts.size())};
  const std::string flags = std::string(" flags ") + (o.return_index ? "i" : "-") +
                            (o.return_inverse ? "v" : "-") + (o.return_counts ? "c" : "-");
  expect_values(r.values, values, what + flags);
  expect_ints(r.indices, o.return_index ? std::optional(w.index) : std::nullopt, u,
              what + flags + " indices");
  expect_ints(r.inverse, o.return_inverse ? std::optional(w.inverse) : std::nullopt,
              w.inverse_shape, what + flags + " inverse");
  expect_ints(r.counts, o.return_counts ? std::optional(w.counts) : std::nullopt, u,
              what + flags + " counts");
}

template <class T>
void run_case(const std::string& dtype, const std::string& kase, const std::string& axis_name,
              bool equal_nan) {
  const std::string p = dtype + "_" + kase + "_";
  const std::string r = p + axis_name + "_" + (equal_nan ? "1" : "0") + "_";
  const auto hx = load<T>(p + "x");
  const auto values = load<T>(r + "values");
  const auto ints = cupp::host::load<i64>(cupp_test::fixture("sort/unique/" + r + "ints.npy"));
  const int nd = hx.shape().size();
  const bool flat = axis_name == "none";
  const int axis = flat ? 0 : std::stoi(axis_name);
  expected_ints w;
  w.inverse_shape = flat ? hx.shape() : shape_t{hx.shape()[axis]};
  const index_t n_inverse = cupp::detail::size_of(w.inverse_shape);
  const auto iv = ints.to_vector();
  const index_t u = (static_cast<index_t>(iv.size()) - n_inverse) / 2;
  w.index.assign(iv.begin(), iv.begin() + u);
  w.inverse.assign(iv.begin() + u, iv.begin() + u + n_inverse);
  w.counts.assign(iv.begin() + u + n_inverse, iv.end());

  std::vector<std::string> layouts = {"C", "F", "strided", "reversed", "expr"};
  if (kase == "bcast") layouts.push_back("broadcast");
  std::vector<cupp::axis_arg> axes;
  if (flat) {
    axes.push_back(cupp::none);
  } else {
    axes.push_back(axis);
    axes.push_back(axis - nd);
  }
  for (const auto& layout : layouts) {
    const auto x = in_layout(hx, layout == "expr" ? "C" : layout);
    for (const auto& a : axes) {
      const std::string what = p + layout + " axis " + (flat ? "none" : std::to_string(a[0])) +
                               " equal_nan " + (equal_nan ? "1" : "0");
      // Every combination of flags on C arrays, all three elsewhere.
      for (int f = layout == "C" ? 0 : 7; f < 8; ++f) {
        cupp::unique_options o{.return_index = (f & 1) != 0,
                               .return_inverse = (f & 2) != 0,
                               .return_counts = (f & 4) != 0,
                               .axis = a,
                               .equal_nan = equal_nan};
        if (layout == "expr")
          check_call(cupp::astype<T>(x), o, values, w, what);  // a lazy node, not an array
        else
          check_call(x, o, values, w, what);
      }
    }
  }
  if (!flat) return;
  // The default call and NumPy 2's functions, which take equal_nan=False.
  const auto x = on_space(hx);
  if (equal_nan) {
    expect_values(cupp::unique(x), values, p + "unique(x)");
    return;
  }
  const auto all = cupp::unique_all(x);
  const shape_t us{u};
  expect_values(all.values, values, p + "unique_all");
  expect_ints(all.indices, w.index, us, p + "unique_all indices");
  expect_ints(all.inverse_indices, w.inverse, w.inverse_shape, p + "unique_all inverse");
  expect_ints(all.counts, w.counts, us, p + "unique_all counts");
  const auto [cv, cc] = cupp::unique_counts(x);
  expect_values(cv, values, p + "unique_counts");
  expect_ints(cc, w.counts, us, p + "unique_counts counts");
  const auto [iv2, ii] = cupp::unique_inverse(cupp::astype<T>(x));
  expect_values(iv2, values, p + "unique_inverse");
  expect_ints(ii, w.inverse, w.inverse_shape, p + "unique_inverse inverse");
  expect_values(cupp::unique_values(x), values, p + "unique_values");
}

// On a larger input: sorted, distinct values (NumPy's order), counts that
// sum to n, values[inverse] == x, x[indices] == values and indices at the
// first occurrences.
template <class T>
void check_properties(const cupp::host::ndarray<T>& hx, bool equal_nan, const std::string& what) {
  const auto r = cupp::unique(on_space(hx), {.return_index = true,
                                             .return_inverse = true,
                                             .return_counts = true,
                                             .equal_nan = equal_nan});
  const auto v = to_host(r.values).to_vector();
  const auto idx = to_host(r.indices).to_vector();
  const auto inv = to_host(r.inverse).to_vector();
  const auto cnt = to_host(r.counts).to_vector();
  const auto x = hx.to_vector();
  const index_t n = x.size(), u = v.size();
  bool ok = static_cast<index_t>(idx.size()) == u && static_cast<index_t>(cnt.size()) == u &&
            static_cast<index_t>(inv.size()) == n;
  BOOST_TEST_REQUIRE(ok, what << ": sizes");
  i64 total = 0;
  for (index_t k = 0; k < u; ++k) {
    total += cnt[k];
    ok = ok && cnt[k] > 0 && same_value(x[idx[k]], v[k]);
    if (k > 0) {
      const int c = srt::unique_compare(v[k - 1], v[k]);
      // Strictly increasing, except for NaNs of equal_nan=False.
      ok = ok && (c < 0 || (c == 0 && !equal_nan && srt::unique_is_nan(v[k])));
    }
  }
  std::vector<i64> seen(u, 0);
  for (index_t i = 0; i < n && ok; ++i) {
    const i64 k = inv[i];
    ok = k >= 0 && k < u && idx[k] <= i && srt::unique_compare(x[i], v[k]) == 0;
    if (ok) ++seen[k];
  }
  for (index_t k = 0; k < u && ok; ++k) ok = seen[k] == cnt[k];
  BOOST_TEST(ok, what << ": properties of " << n << " elements, " << u << " unique");
  BOOST_TEST(total == n, what << ": counts sum");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sort_unique)

BOOST_AUTO_TEST_CASE(numpy_values) {
  for (const std::string& line : cupp_test::fixture_lines("sort/unique/cases.txt")) {
    std::stringstream ss(line);
    std::string dtype, kase, axis;
    int equal_nan = 1;
    ss >> dtype >> kase >> axis >> equal_nan;
    BOOST_TEST_CONTEXT(line) {
      cupp_test::with_dtype(dtype, [&](auto t) {
        run_case<typename decltype(t)::type>(dtype, kase, axis, equal_nan != 0);
      });
    }
  }
}

BOOST_AUTO_TEST_CASE(properties) {
  const index_t n = index_t(1) << 17;
  hana::for_each(cupp_test::all_dtypes, [&](auto t) {
    using T = typename decltype(t)::type;
    cupp::host::ndarray<T> h(shape_t{n});
    for (index_t i = 0; i < n; ++i) h.data()[i] = cupp_test::sample<T>((i * 7919) % 997);
    check_properties(h, true, std::string(cupp::dtype_of<T>().name));
  });
  // Few distinct int32 values out of many, and floats with NaNs of both
  // signs and zeros of both signs among them.
  cupp::host::ndarray<std::int32_t> hi(shape_t{n});
  for (index_t i = 0; i < n; ++i) hi.data()[i] = static_cast<std::int32_t>((i * 40503) % 1021);
  check_properties(hi, true, "int32 of 1021 values");
  cupp::host::ndarray<float> hf(shape_t{n});
  for (index_t i = 0; i < n; ++i)
    hf.data()[i] = i % 97 == 0   ? std::copysign(NAN, i % 2 ? -1.f : 1.f)
                   : i % 89 == 0 ? (i % 3 ? -0.f : 0.f)
                                 : static_cast<float>(i % 31) - 15;
  check_properties(hf, true, "float32 with NaNs");
  check_properties(hf, false, "float32 with NaNs, equal_nan=False");
  const auto u = to_host(cupp::unique(on_space(hf))).to_vector();
  BOOST_TEST(u.size() == 32u);  // -15 .. 15 and NaN
  BOOST_TEST(std::isnan(u.back()));
  // Sign of the kept zero: the first zero of the input (index 0, +0.0).
  BOOST_TEST(!std::signbit(u[15]));
  hf.data()[0] = -0.f;
  BOOST_TEST(std::signbit(to_host(cupp::unique(on_space(hf))).to_vector()[15]));
  // Slices: many rows of few distinct kinds.
  cupp::host::ndarray<std::int8_t> hr(shape_t{4096, 3});
  for (index_t i = 0; i < 4096; ++i)
    for (index_t j = 0; j < 3; ++j)
      hr.data()[i * 3 + j] = static_cast<std::int8_t>(((i * 13) % 7 + j * (i % 3)) % 5);
  const auto rr = cupp::unique(on_space(hr), {.return_inverse = true, .axis = 0});
  const auto rv = to_host(rr.values);
  const auto rinv = to_host(rr.inverse).to_vector();
  bool ok = rv.shape().size() == 2 && rv.shape()[1] == 3 && rinv.size() == 4096u;
  for (index_t i = 0; i < 4096 && ok; ++i)
    for (index_t j = 0; j < 3; ++j) ok = ok && rv.data()[rinv[i] * 3 + j] == hr.data()[i * 3 + j];
  BOOST_TEST(ok, "rows: values[inverse] == x");
}

BOOST_AUTO_TEST_CASE(shapes_and_dtypes) {
  const auto z = on_space(cupp::host::ndarray<double>(shape_t{}));
  const auto rz = cupp::unique(z, {.return_inverse = true});
  BOOST_TEST(rz.values.shape() == (shape_t{1}));
  BOOST_TEST(rz.inverse.shape() == (shape_t{}));
  const auto e = on_space(cupp::host::ndarray<float>(shape_t{0, 3}));
  const auto re = cupp::unique(e, {.return_counts = true, .axis = 0});
  BOOST_TEST(re.values.shape() == (shape_t{0, 3}));
  BOOST_TEST(re.counts.shape() == (shape_t{0}));
  static_assert(std::is_same_v<decltype(cupp::unique(e))::value_type, float>);
  static_assert(std::is_same_v<decltype(cupp::unique_all(e).counts)::value_type, std::int64_t>);
  // sorted=False is accepted and changes nothing.
  const auto h = load<std::int32_t>("int32_v1_x");
  const auto x = on_space(h);
  BOOST_TEST(to_host(cupp::unique(x, {.sorted = false}).values).to_vector() ==
             to_host(cupp::unique(x)).to_vector());
  // unique(x + 1) is the unique values of the expression.
  const auto u1 = to_host(cupp::unique(x)).to_vector();
  const auto u2 = to_host(cupp::unique(x + 1)).to_vector();
  bool ok = u1.size() == u2.size();
  for (std::size_t i = 0; ok && i < u1.size(); ++i) ok = u2[i] == u1[i] + 1;
  BOOST_TEST(ok);
}

BOOST_AUTO_TEST_CASE(errors) {
  using cupp_test::message_of;
  const auto x = on_space(load<float>("float32_m2_x"));
  const auto before = to_host(x).to_vector();
  BOOST_TEST(message_of([&] { cupp::unique(x, {.axis = 2}); }) ==
             "axis 2 is out of bounds for array of dimension 2");
  BOOST_TEST(message_of([&] { cupp::unique(x, {.return_inverse = true, .axis = -3}); }) ==
             "axis -3 is out of bounds for array of dimension 2");
  BOOST_CHECK_THROW(cupp::unique(x, {.axis = 2}), cupp::axis_error);
  const auto z = on_space(cupp::host::ndarray<float>(shape_t{}));
  BOOST_TEST(message_of([&] { cupp::unique(z, {.axis = 0}); }) ==
             "axis 0 is out of bounds for array of dimension 0");
  BOOST_CHECK_THROW(cupp::unique(z, {.axis = -1}), cupp::axis_error);
  const auto v = on_space(load<float>("float32_v1_x"));
  BOOST_TEST(message_of([&] { cupp::unique(v, {.axis = 1}); }) ==
             "axis 1 is out of bounds for array of dimension 1");
  BOOST_TEST(message_of([&] {
               cupp::unique(x, {.axis = {0, 1}});
             }) == "`source` and `destination` arguments must have the same number of elements");
  BOOST_TEST(message_of([&] { cupp::unique(x, {.axis = -2}); }) == "(no value_error)");
  BOOST_TEST(to_host(x).to_vector() == before);
}

BOOST_AUTO_TEST_SUITE_END()
