// The reduction kernels' modes and splits (inner teams of 1 to 32 lanes,
// whole blocks, blocks split over long results; outer chunks with rows
// split between blocks; layouts that need materialising) against a plain
// float64 loop over the same elements. Built for host arrays and for
// device arrays (CUPP_TEST_DEVICE).
#include <cupp/creation.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <vector>

#include "cupp_test.hpp"
#include "test_space.hpp"

using cupp::index_t;
using cupp_test::on_space;
using cupp_test::space;
using cupp_test::to_host;

namespace {

// Values that make float sums exact (small integers) and argmax unique.
double value_at(index_t i) {
  return static_cast<double>((i * 7919) % 1013) - 506.0;
}

// Reference: reduces `h` (a C array) over the axes in mask, in float64.
struct reference {
  std::vector<double> sum, max;
  std::vector<index_t> argmax;
};
reference reduce_ref(const cupp::host::ndarray<float>& h, std::uint64_t mask) {
  const auto& s = h.shape();
  const int nd = s.size();
  index_t outputs = 1;
  for (int i = 0; i < nd; ++i)
    if (!(mask >> i & 1)) outputs *= s[i];
  reference r{std::vector<double>(outputs, 0.0), std::vector<double>(outputs, -INFINITY),
              std::vector<index_t>(outputs, -1)};
  std::vector<index_t> c(nd, 0);
  for (index_t flat = 0; flat < h.size(); ++flat) {
    index_t o = 0, pos = 0;
    for (int i = 0; i < nd; ++i) {
      if (!(mask >> i & 1))
        o = o * s[i] + c[i];
      else
        pos = pos * s[i] + c[i];
    }
    const double v = h.data()[flat];
    r.sum[o] += v;
    if (v > r.max[o]) {
      r.max[o] = v;
      r.argmax[o] = pos;
    }
    for (int i = nd - 1; i >= 0; --i) {
      if (++c[i] < s[i]) break;
      c[i] = 0;
    }
  }
  return r;
}

void check_case(const cupp::shape_t& shape, std::initializer_list<int> axes, bool fortran) {
  auto h = cupp::host::empty<float>(shape);
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = static_cast<float>(value_at(i));
  std::uint64_t mask = 0;
  for (int a : axes) mask |= std::uint64_t{1} << a;
  const reference ref = reduce_ref(h, mask);
  cupp::axis_arg axis(axes);
  auto x = on_space(h);
  if (fortran) {
    auto f = cupp::host::empty<float>(shape, cupp::order::F);
    cupp::copyto(f, h);
    x = on_space(f);
  }
  const auto s = to_host(cupp::sum(x * 1.0f, axis)).to_vector();
  const auto m = to_host(cupp::max(x, axis)).to_vector();
  BOOST_TEST_REQUIRE(s.size() == ref.sum.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    BOOST_TEST(static_cast<double>(s[i]) == ref.sum[i]);
    BOOST_TEST(static_cast<double>(m[i]) == ref.max[i]);
  }
  if (axes.size() == 1 || axes.size() == static_cast<std::size_t>(shape.size())) {
    const cupp::axis_arg one = axes.size() == 1 ? cupp::axis_arg(*axes.begin()) : cupp::axis_arg();
    const auto am = to_host(cupp::argmax(x, one)).to_vector();
    for (std::size_t i = 0; i < am.size(); ++i) BOOST_TEST(am[i] == ref.argmax[i]);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reduction_modes)

BOOST_AUTO_TEST_CASE(inner_and_outer_shapes) {
  for (bool f : {false, true}) {
    check_case({1000, 8}, {1}, f);
    check_case({1000, 8}, {0}, f);
    check_case({8, 1000}, {1}, f);
    check_case({8, 1000}, {0}, f);
    check_case({3, 70000}, {1}, f);
    check_case({70000, 3}, {0}, f);
    check_case({257, 263}, {0}, f);
    check_case({257, 263}, {1}, f);
    check_case({257, 263}, {0, 1}, f);
    check_case({5, 6, 7}, {0, 2}, f);
    check_case({5, 6, 7}, {1}, f);
    // Four dimensions that do not merge: in one pass where the kernels
    // walk four or more (the default six), materialised where they walk
    // fewer (CUPP_REDUCE_KERNEL_DIMS).
    check_case({4, 5, 6, 7}, {0, 2}, f);
    check_case({4, 5, 6, 7}, {1, 3}, f);
    check_case({4, 5, 6, 300}, {1, 3}, f);
  }
}

// The same layouts with the work split differently: one wave or several
// (segments and grid caps), outer blocks widened or not.
BOOST_AUTO_TEST_CASE(tuning_settings) {
  auto& tune = cupp::detail::reduce_tuning();
  const auto saved = tune;
  for (int waves : {1, 4})
    for (int run : {1, 64}) {
      tune.waves = waves;
      tune.outer_min_run = run;
      BOOST_TEST_CONTEXT("waves " << waves << ", outer_min_run " << run) {
        check_case({4099, 8}, {1}, false);
        check_case({4099, 8}, {0}, false);
        check_case({8, 40001}, {0}, false);
        check_case({8, 40001}, {1}, true);
        check_case({3, 5, 20000}, {0, 1}, false);
        check_case({200003}, {0}, false);
      }
    }
  tune = saved;
}

// Long rows that every operand stores one after another take the dense
// rows walk (a block per row, or blocks splitting each of few rows); rows
// of a length that is not whole chunks, of a column slice or with a
// broadcast operand take the general walk. Both against the float64 loop,
// and the same layouts with the dense walk turned off.
BOOST_AUTO_TEST_CASE(dense_rows) {
  auto& tune = cupp::detail::reduce_tuning();
  const auto saved = tune;
  for (bool dense : {true, false}) {
    tune.dense_rows = dense;
    BOOST_TEST_CONTEXT("dense_rows " << dense) {
      check_case({3, 70000}, {1}, false);      // blocks split each row
      check_case({300, 8196}, {1}, false);     // a block per row
      check_case({2, 150, 8200}, {2}, false);  // kept axes merged into one
      check_case({300, 8198}, {1}, false);     // not whole chunks
      check_case({70000, 3}, {0}, true);       // F order: rows along axis 0
    }
  }
  tune = saved;
  const index_t rows = 40, n0 = 9000;
  auto h = cupp::host::empty<float>({rows, n0});
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = static_cast<float>(value_at(i));
  const auto x = on_space(h);
  // A column slice: rows 9000 elements apart, 8192 long.
  auto first = cupp::host::empty<float>({rows, 8192});
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < 8192; ++c) first.data()[r * 8192 + c] = h.data()[r * n0 + c];
  const reference sliced = reduce_ref(first, 2);
  const auto s = to_host(cupp::sum(x(cupp::_, cupp::slice(0, 8192)), 1)).to_vector();
  // A broadcast operand (a row of ones): its rows do not follow each other.
  auto ones = cupp::host::empty<float>({n0});
  for (index_t c = 0; c < n0; ++c) ones.data()[c] = 1.0f;
  const reference whole = reduce_ref(h, 2);
  const auto b = to_host(cupp::sum(x * on_space(ones), 1)).to_vector();
  // Double and int8 rows (two and sixteen elements a chunk), dense.
  const auto d = to_host(cupp::sum(x.astype<double>(), 1)).to_vector();
  BOOST_TEST_REQUIRE(s.size() == std::size_t(rows));
  BOOST_TEST_REQUIRE(b.size() == std::size_t(rows));
  for (index_t r = 0; r < rows; ++r) {
    BOOST_TEST(static_cast<double>(s[r]) == sliced.sum[r]);
    BOOST_TEST(static_cast<double>(b[r]) == whole.sum[r]);
    BOOST_TEST(d[r] == whole.sum[r]);
  }
  auto hi = cupp::host::empty<std::int8_t>({rows, n0});
  std::vector<double> isum(rows, 0.0);
  for (index_t i = 0; i < hi.size(); ++i) {
    hi.data()[i] = static_cast<std::int8_t>(i % 251 - 125);
    isum[i / n0] += hi.data()[i];
  }
  const auto is = to_host(cupp::sum(on_space(hi), 1)).to_vector();
  for (index_t r = 0; r < rows; ++r) BOOST_TEST(static_cast<double>(is[r]) == isum[r]);
}

BOOST_AUTO_TEST_CASE(long_full_reduction) {
  check_case({1 << 20}, {0}, false);
  check_case({999983}, {0}, false);
}

// Full reductions of a dense run take the flat walk: lengths around the
// 16-byte chunks and the grid, NaN and ties inside and outside the last
// partial chunk, against a loop with NumPy's rules (the first NaN, else the
// first extreme). Offset and strided views of the same values take the
// general walk and must agree.
namespace {

struct arg_ref {
  index_t max = -1, min = -1, nanmax = -1, nanmin = -1;
};
arg_ref arg_reference(const std::vector<double>& v) {
  arg_ref r;
  for (index_t i = 0; i < static_cast<index_t>(v.size()); ++i) {
    const double x = v[i];
    const bool nan = std::isnan(x);
    auto beats = [&](index_t at, bool max) {
      if (at < 0) return true;
      const double y = v[at];
      if (std::isnan(y)) return false;
      return nan || (max ? x > y : x < y);
    };
    if (beats(r.max, true)) r.max = i;
    if (beats(r.min, false)) r.min = i;
    if (!nan && (r.nanmax < 0 || x > v[r.nanmax])) r.nanmax = i;
    if (!nan && (r.nanmin < 0 || x < v[r.nanmin])) r.nanmin = i;
  }
  return r;
}

template <class T>
void check_flat(index_t n, const std::vector<std::pair<index_t, double>>& set) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i)
    v[i] =
        std::is_same_v<T, std::int8_t> ? static_cast<double>((i * 7919) % 251 - 125) : value_at(i);
  for (const auto& [at, x] : set)
    if (at >= 0 && at < n) v[at] = x;
  auto h = cupp::host::empty<T>({n + 1});
  for (index_t i = 0; i < n; ++i) h.data()[i + 1] = static_cast<T>(v[i]);
  h.data()[0] = T{};
  const auto whole = on_space(h);
  auto x = on_space(cupp::host::empty<T>({n}));
  cupp::copyto(x, whole(cupp::slice(1, cupp::_)));     // dense and aligned: the flat walk
  const auto offset = whole(cupp::slice(1, cupp::_));  // misaligned: the general walk
  const arg_ref ref = arg_reference(v);
  double sum = 0;
  for (double e : v)
    if (!std::isnan(e)) sum += e;
  BOOST_TEST_CONTEXT(n << " elements, " << set.size() << " values set") {
    for (const auto& a : {x, offset}) {
      BOOST_TEST(to_host(cupp::argmax(a)).item() == ref.max);
      BOOST_TEST(to_host(cupp::argmin(a)).item() == ref.min);
      BOOST_TEST(to_host(cupp::argmax(a * T{1})).item() == ref.max);
      if constexpr (std::is_floating_point_v<T>) {
        BOOST_TEST(to_host(cupp::nanargmax(a)).item() == ref.nanmax);
        BOOST_TEST(to_host(cupp::nanargmin(a)).item() == ref.nanmin);
        const double got = static_cast<double>(to_host(cupp::nansum(a)).item());
        BOOST_TEST((std::isnan(sum) ? std::isnan(got) : got == sum));
      } else {
        BOOST_TEST(static_cast<double>(to_host(cupp::sum(a)).item()) == sum);
      }
    }
    const auto every_other = x(cupp::slice(cupp::_, cupp::_, 2));
    std::vector<double> w;
    for (index_t i = 0; i < n; i += 2) w.push_back(v[i]);
    BOOST_TEST(to_host(cupp::argmax(every_other)).item() == arg_reference(w).max);
  }
}

template <class T>
void check_flat_patterns(index_t n) {
  const double big = std::is_same_v<T, std::int8_t> ? 127 : 1e4;
  check_flat<T>(n, {});
  // Ties: the first of three places of the largest and of the smallest value.
  check_flat<T>(n, {{n / 2 + 1, big}, {n / 3, big}, {n - 1, big}, {n - 2, -big}, {n / 5, -big}});
  // Neighbours inside one chunk.
  check_flat<T>(n, {{n - 3, big}, {n - 2, big}, {2, -big}, {1, -big}});
  if constexpr (std::is_floating_point_v<T>) {
    const double nan = std::nan("");
    check_flat<T>(n, {{n - 1, nan}});                              // in the last chunk
    check_flat<T>(n, {{n - 1, nan}, {n / 2, nan}, {n / 4, big}});  // the first of two
    check_flat<T>(n, {{0, nan}, {n / 2, -INFINITY}});
    check_flat<T>(n, {{n / 2, INFINITY}, {n / 2 + 1, nan}, {n / 3, -INFINITY}});
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(flat_walks) {
  for (index_t n : {1, 3, 4, 5, 7, 17, 1023, 1024, 1025, 16387, 262147, 1000003}) {
    check_flat_patterns<float>(n);
    check_flat_patterns<double>(n);
    check_flat_patterns<std::int32_t>(n);
    check_flat_patterns<std::int8_t>(n);
  }
  // Every element NaN: nanargmax has nothing to choose (-1).
  auto h = cupp::host::empty<float>({1001});
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = std::nanf("");
  const auto x = on_space(h);
  BOOST_TEST(to_host(cupp::argmax(x)).item() == 0);
  BOOST_TEST(to_host(cupp::nanargmax(x)).item() == -1);
}

BOOST_AUTO_TEST_CASE(alternating_axes_need_materialising) {
  check_case({2, 3, 2, 3, 2, 3, 2, 3}, {0, 2, 4, 6}, false);
  check_case({2, 3, 2, 3, 2, 3, 2, 3}, {1, 3, 5, 7}, true);
}

// Layouts that stay unmerged after materialising the operand: an out= whose
// strides run against the operand's (F order against C), and reductions
// over no axis at all (every result from one element).
BOOST_AUTO_TEST_CASE(materialising_with_unmerged_results) {
  const cupp::shape_t shape{2, 3, 2, 3, 2, 3, 2, 3};
  auto h = cupp::host::empty<float>(shape);
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = static_cast<float>(value_at(i));
  const auto x = on_space(h);
  auto hf = cupp::host::empty<float>(shape, cupp::order::F);
  cupp::copyto(hf, h);
  const auto xf = on_space(hf);
  const auto flat = h.to_vector();
  // Nothing reduced, an F-order operand, a C-order result.
  const auto same = to_host(cupp::sum(xf, cupp::axis_arg({}))).to_vector();
  BOOST_TEST(same == flat, boost::test_tools::per_element());
  // Nothing reduced, a C-order operand, an F-order out=.
  auto of = on_space(cupp::host::empty<float>(shape, cupp::order::F));
  cupp::max(x, cupp::axis_arg({}), cupp::out(of));
  BOOST_TEST(to_host(of).to_vector() == flat, boost::test_tools::per_element());
  // The last axis reduced into an F-order out= of seven dimensions.
  const reference ref = reduce_ref(h, std::uint64_t{1} << 7);
  auto o7 = on_space(cupp::host::empty<float>({2, 3, 2, 3, 2, 3, 2}, cupp::order::F));
  cupp::sum(xf, 7, cupp::out(o7));
  const auto got = to_host(o7).to_vector();
  BOOST_TEST_REQUIRE(got.size() == ref.sum.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    BOOST_TEST(static_cast<double>(got[i]) == ref.sum[i]);
  auto a7 = on_space(cupp::host::empty<index_t>({2, 3, 2, 3, 2, 3, 2}, cupp::order::F));
  cupp::argmax(xf, 7, cupp::out(a7));
  const auto am = to_host(a7).to_vector();
  for (std::size_t i = 0; i < am.size(); ++i) BOOST_TEST(am[i] == ref.argmax[i]);
  // The same into every other element of a wider array's last axis: the
  // copy writes the even ones and leaves the odd ones.
  auto hw = cupp::host::empty<float>({2, 3, 2, 3, 2, 3, 4});
  for (index_t i = 0; i < hw.size(); ++i) hw.data()[i] = 0.5f;
  auto wide = on_space(hw);
  cupp::sum(xf, 7, cupp::out(wide(cupp::ellipsis, cupp::slice(cupp::_, cupp::_, 2))));
  const auto w = to_host(wide).to_vector();
  for (std::size_t i = 0; i < w.size(); ++i)
    BOOST_TEST(static_cast<double>(w[i]) == (i % 2 == 0 ? ref.sum[i / 2] : 0.5));
}

// Reductions of no elements write the reduction's value of nothing into
// every result, as words of the result's item size (1, 2, 4, 8 and 16
// bytes): into a fresh result, a 0-d one, and an out= with gaps between its
// elements, which keep what they held.
template <class T>
void check_all(const cupp::host::ndarray<T>& got, index_t n, T want) {
  const auto v = got.to_vector();
  BOOST_TEST_REQUIRE(static_cast<index_t>(v.size()) == n);
  for (const T& x : v) BOOST_TEST_REQUIRE((x == want));
}

BOOST_AUTO_TEST_CASE(empty_reductions_fill_every_result) {
  const auto f = on_space(cupp::host::empty<float>({3, 0, 5}));
  check_all(to_host(cupp::sum(f, 1)), 15, 0.f);
  check_all(to_host(cupp::prod(f, 1)), 15, 1.f);
  check_all(to_host(cupp::max(f, 1, cupp::kw::initial = -2.5f)), 15, -2.5f);
  check_all(to_host(cupp::prod(f)), 1, 1.f);
  check_all(to_host(cupp::all(f, 1)), 15, true);
  check_all(to_host(cupp::any(f, 1)), 15, false);
  const auto i16 = on_space(cupp::host::empty<std::int16_t>({3, 0, 5}));
  check_all(to_host(cupp::max(i16, 1, cupp::kw::initial = std::int16_t{-7})), 15, std::int16_t{-7});
  const auto d = on_space(cupp::host::empty<double>({3, 0, 5}));
  check_all(to_host(cupp::sum(d, 1, cupp::kw::initial = 2.5)), 15, 2.5);
  const auto i64 = on_space(cupp::host::empty<std::int64_t>({3, 0, 5}));
  check_all(to_host(cupp::prod(i64, 1)), 15, std::int64_t{1});
  using c128 = cuda::std::complex<double>;
  const auto z = on_space(cupp::host::empty<c128>({3, 0, 5}));
  check_all(to_host(cupp::prod(z, 1)), 15, c128{1.0, 0.0});
  // Every other column of a (3, 10) array: the fill writes the even
  // columns and leaves the odd ones.
  auto hb = cupp::host::empty<float>({3, 10});
  for (index_t i = 0; i < hb.size(); ++i) hb.data()[i] = 9.f;
  auto big = on_space(hb);
  cupp::prod(f, 1, cupp::out(big(cupp::slice(), cupp::slice(cupp::_, cupp::_, 2))));
  const auto b = to_host(big).to_vector();
  for (index_t i = 0; i < 30; ++i) BOOST_TEST(b[i] == (i % 2 == 0 ? 1.f : 9.f));
}

BOOST_AUTO_TEST_CASE(cumsum_lines) {
  auto h = cupp::host::empty<float>({37, 1001});
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = static_cast<float>(value_at(i));
  const auto x = on_space(h);
  for (int axis : {0, 1}) {
    const auto c = to_host(cupp::cumsum(x, axis));
    for (index_t i = 0; i < 37; ++i)
      for (index_t j = 0; j < 1001; ++j) {
        double acc = 0;
        if (axis == 1)
          for (index_t k = 0; k <= j; ++k) acc += h.at(i, k);
        else
          for (index_t k = 0; k <= i; ++k) acc += h.at(k, j);
        BOOST_TEST_REQUIRE(static_cast<double>(c.at(i, j)) == acc);
      }
  }
  const auto flat = to_host(cupp::cumsum(x * 2)).to_vector();
  double acc = 0;
  for (index_t i = 0; i < h.size(); ++i) {
    acc += 2 * h.data()[i];
    BOOST_TEST_REQUIRE(static_cast<double>(flat[i]) == acc);
  }
}

// Full scans of dense arrays (cub::DeviceScan on plain pointers): one
// tile, a partial last tile, many tiles; from an address that is not
// 16-byte aligned; with the accumulator wider than the input.
template <class T, class R, bool Product = false>
void check_flat_scan(index_t n, index_t offset) {
  auto h = cupp::host::empty<T>({n + offset});
  for (index_t i = 0; i < n + offset; ++i) {
    const double v = Product ? (i % 3 == 0 ? -1.0 : 1.0)
                             : (sizeof(T) == 1 ? std::fmod(value_at(i), 101.0) : value_at(i));
    h.data()[i] = static_cast<T>(v);
  }
  const auto base = on_space(h);
  const cupp::ndarray<T, space> x(base.data() + offset, {n}, {static_cast<index_t>(sizeof(T))},
                                  base.memory(), base.device_id(), false);
  cupp::ndarray<R, space> c;
  if constexpr (Product)
    c = cupp::cumprod(x);
  else
    c = cupp::cumsum(x);
  const auto got = to_host(c).to_vector();
  BOOST_TEST_REQUIRE(static_cast<index_t>(got.size()) == n);
  double acc = Product ? 1 : 0;
  index_t wrong = 0;
  for (index_t i = 0; i < n; ++i) {
    const double v = static_cast<double>(h.data()[i + offset]);
    acc = Product ? acc * v : acc + v;
    if (static_cast<double>(got[i]) != acc && wrong++ < 5)
      BOOST_TEST(static_cast<double>(got[i]) == acc, "element " << i << " of " << n);
  }
  BOOST_TEST(wrong == 0, wrong << " of " << n << " elements wrong");
}

BOOST_AUTO_TEST_CASE(flat_scans) {
  for (index_t n : {1, 4095, 4096, 4097, 3 * 4096 + 5, (1 << 20) + 3})
    for (index_t offset : {0, 1}) {
      BOOST_TEST_CONTEXT("n " << n << ", offset " << offset) {
        check_flat_scan<float, float>(n, offset);
        check_flat_scan<double, double>(n, offset);
        check_flat_scan<std::int32_t, std::int64_t>(n, offset);
        check_flat_scan<std::int8_t, std::int64_t>(n, offset);
        check_flat_scan<float, float, true>(n, offset);
      }
    }
  // Many tiles of a 16-byte accumulator.
  auto h = cupp::host::empty<cuda::std::complex<double>>({100003});
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = {value_at(i), -value_at(i + 1)};
  const auto c = to_host(cupp::cumsum(on_space(h))).to_vector();
  double re = 0, im = 0;
  for (index_t i = 0; i < h.size(); ++i) {
    re += value_at(i);
    im -= value_at(i + 1);
    BOOST_TEST_REQUIRE(c[i].real() == re);
    BOOST_TEST_REQUIRE(c[i].imag() == im);
  }
}

BOOST_AUTO_TEST_SUITE_END()
