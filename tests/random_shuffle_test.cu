// permutation, shuffle, permuted and choice (cupp/random/shuffle.hpp): a
// permutation is a permutation for every kind of n (0, 1, primes, powers of
// two and their neighbours, beyond 2^32); permutations are uniform (all
// permutations of 3 to 5 elements equally often, every element in every
// position equally often, pairs in either order equally often, no serial
// correlation in one long permutation); choice without replacement never
// repeats and includes each element with probability k/n; choice with p
// follows p, with replacement and without (NumPy's successive sampling);
// shuffle and permuted along each axis of arrays of several dtypes and
// layouts; NumPy's errors, with nothing written and the generator left
// where it was. With CUPP_TEST_DEVICE=1 the same draws on the GPU give the
// host's bits.
#include <cupp/random.hpp>
#include <cupp/random/shuffle.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "random_checks.hpp"

namespace rd = cupp::random::detail;
namespace rnd = cupp::detail::random;
using cupp::host_space;
using cupp::index_t;
using cupp::shape_t;
using i64 = std::int64_t;

namespace {

// The chi-square value exceeded with probability about 1e-6 (Wilson and
// Hilferty's cube-root approximation, slightly conservative for few
// degrees of freedom): with the few dozen tests here, a correct generator
// fails less than once in 10^4 runs, and the seeds are fixed.
double chi2_critical(double df) {
  const double z = 4.753;  // the standard normal's 1 - 1e-6 quantile
  const double a = 2.0 / (9.0 * df);
  return df * std::pow(1.0 - a + z * std::sqrt(a), 3.0);
}
constexpr double z_critical = 4.9;  // two-sided 1e-6

double chi2(const std::vector<long>& counts, const std::vector<double>& probs, long total) {
  double s = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double e = probs[i] * static_cast<double>(total);
    s += (static_cast<double>(counts[i]) - e) * (static_cast<double>(counts[i]) - e) / e;
  }
  return s;
}

std::vector<i64> host_permutation(cupp::random::philox& bg, index_t n) {
  const cupp::host::ndarray<i64> p = rd::permutation<host_space>(bg, n);
  return p.to_vector();
}

bool is_permutation_of_range(std::vector<i64> v) {
  std::sort(v.begin(), v.end());
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] != static_cast<i64>(i)) return false;
  return true;
}

using cupp_test::same_bits;
using cupp_test::throws_with;

}  // namespace

BOOST_AUTO_TEST_SUITE(random_shuffle)

BOOST_AUTO_TEST_CASE(a_permutation_is_a_permutation) {
  cupp::random::philox bg(7);
  for (index_t n : {0,    1,    2,    3,    4,     5,     7,     13,    15,      16,           17,
                    31,   32,   33,   63,   64,    65,    97,    127,   128,     129,          1000,
                    4093, 4095, 4096, 4097, 65521, 65535, 65536, 65537, 1 << 20, (1 << 20) + 7}) {
    const std::vector<i64> p = host_permutation(bg, n);
    BOOST_TEST(p.size() == static_cast<std::size_t>(n));
    BOOST_TEST(is_permutation_of_range(p), "n = " << n);
  }
  // NumPy's permutation(n) is arange(n) permuted: nothing for n < 0.
  BOOST_TEST(host_permutation(bg, -3).empty());
  // Beyond 32 bits (the network's 64-bit path): a million consecutive
  // elements are all below n and distinct.
  for (std::uint64_t n : {(std::uint64_t{1} << 32) + 1, (std::uint64_t{1} << 34) + 5,
                          (std::uint64_t{1} << 62) + 12345}) {
    const rnd::feistel_bijection f(n, bg.take(1), 0);
    std::vector<std::uint64_t> v(1 << 20);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = f(n - 1 - i);
    BOOST_TEST(*std::max_element(v.begin(), v.end()) < n);
    std::sort(v.begin(), v.end());
    BOOST_TEST((std::adjacent_find(v.begin(), v.end()) == v.end()), "n = " << n);
  }
}

BOOST_AUTO_TEST_CASE(same_seed_same_permutation_and_the_generator_advances) {
  cupp::random::philox a(11), b(11);
  const auto first = host_permutation(a, 1000);
  BOOST_TEST(first == host_permutation(b, 1000));
  BOOST_TEST(first != host_permutation(a, 1000));
  BOOST_TEST(!(a.state() == b.state()));
  // A permutation is lazy: a slice of it is the same elements.
  cupp::random::philox c(11);
  const cupp::host::ndarray<i64> part = rd::permutation<host_space>(c, 1000).reshape({10, 100}).T();
  const auto t = part.to_vector();
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 10; ++j) BOOST_TEST(t[i * 10 + j] == first[j * 100 + i]);
}

BOOST_AUTO_TEST_CASE(small_permutations_are_uniform) {
  // Every permutation of n = 2 ... 5 equally often.
  cupp::random::philox bg(2024);
  for (index_t n : {2, 3, 4, 5}) {
    const long trials = 60000;
    std::map<std::vector<i64>, long> seen;
    for (long t = 0; t < trials; ++t) ++seen[host_permutation(bg, n)];
    long cells = 1;
    for (index_t i = 2; i <= n; ++i) cells *= i;
    BOOST_TEST(static_cast<long>(seen.size()) == cells);
    std::vector<long> counts;
    for (const auto& kv : seen) counts.push_back(kv.second);
    const double s = chi2(counts, std::vector<double>(counts.size(), 1.0 / cells), trials);
    BOOST_TEST(s < chi2_critical(cells - 1), "n = " << n << " chi2 " << s);
  }
}

BOOST_AUTO_TEST_CASE(every_element_in_every_position_equally_often) {
  // Each element's position over many permutations: a multinomial row with
  // n - 1 degrees of freedom (Bonferroni over the rows). n covers the
  // small-permutation path, the 20-round and the 12-round networks, and
  // cycle walking.
  cupp::random::philox bg(99);
  for (index_t n : {7, 16, 17, 33, 100, 1025, 3000}) {
    const long trials = n <= 100 ? 40000 : 2500;
    const index_t tracked = std::min<index_t>(n, 40);  // the first elements' rows
    std::vector<std::vector<long>> rows(tracked, std::vector<long>(n, 0));
    for (long t = 0; t < trials; ++t) {
      const auto p = host_permutation(bg, n);
      for (index_t i = 0; i < tracked; ++i) ++rows[i][p[i]];
    }
    const std::vector<double> probs(n, 1.0 / n);
    for (index_t i = 0; i < tracked; ++i) {
      const double s = chi2(rows[i], probs, trials);
      BOOST_TEST(s < chi2_critical(n - 1) * (n <= 100 ? 1.0 : 1.02),
                 "n " << n << " row " << i << " chi2 " << s);
    }
  }
}

BOOST_AUTO_TEST_CASE(pairs_come_in_either_order_equally_often) {
  // For pairs (i, j) near each other and far apart, p[i] < p[j] in half of
  // the permutations.
  cupp::random::philox bg(5);
  const index_t n = 5000;
  const long trials = 8000;
  const std::vector<std::pair<index_t, index_t>> pairs{
      {0, 1}, {1, 2}, {0, n - 1}, {17, 4096}, {2047, 2048}, {4095, 4096}, {1234, 1235}};
  std::vector<long> before(pairs.size(), 0);
  for (long t = 0; t < trials; ++t) {
    const auto p = host_permutation(bg, n);
    for (std::size_t k = 0; k < pairs.size(); ++k)
      before[k] += p[pairs[k].first] < p[pairs[k].second];
  }
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const double z = (static_cast<double>(before[k]) - trials / 2.0) / std::sqrt(trials / 4.0);
    BOOST_TEST(std::abs(z) < z_critical, "pair " << k << " z " << z);
  }
}

BOOST_AUTO_TEST_CASE(a_long_permutation_has_no_serial_correlation) {
  // One permutation of 2^22 + 3 (cycle walking) and one of 2^22: the
  // correlation of p[i] with p[i + d] and with i is within z of 0
  // (standard error 1/sqrt(n)), and the number of fixed points is
  // Poisson(1).
  cupp::random::philox bg(31337);
  for (index_t n : {(1 << 22) + 3, 1 << 22}) {
    const auto p = host_permutation(bg, n);
    const double mean = (n - 1) / 2.0, var = (static_cast<double>(n) * n - 1) / 12.0;
    auto corr = [&](index_t d) {
      double s = 0;
      for (index_t i = 0; i + d < n; ++i) s += (p[i] - mean) * (p[i + d] - mean);
      return s / ((n - d) * var);
    };
    for (index_t d : {1, 2, 3, 1 << 11, 1 << 12}) {
      const double z = corr(d) * std::sqrt(static_cast<double>(n));
      BOOST_TEST(std::abs(z) < z_critical, "n " << n << " lag " << d << " z " << z);
    }
    double s = 0;
    long fixed = 0;
    for (index_t i = 0; i < n; ++i) {
      s += (p[i] - mean) * (i - mean);
      fixed += p[i] == i;
    }
    BOOST_TEST(std::abs(s / (n * var) * std::sqrt(static_cast<double>(n))) < z_critical);
    BOOST_TEST(fixed <= 12);  // P(Poisson(1) > 12) < 1e-9
  }
}

// The number of inversions of a permutation of n, by merge sort.
static long long inversions(std::vector<i64>& a, std::vector<i64>& tmp, std::size_t lo,
                            std::size_t hi) {
  if (hi - lo < 2) return 0;
  const std::size_t mid = (lo + hi) / 2;
  long long count = inversions(a, tmp, lo, mid) + inversions(a, tmp, mid, hi);
  std::size_t i = lo, j = mid, k = lo;
  while (i < mid || j < hi) {
    if (j >= hi || (i < mid && a[i] <= a[j])) {
      tmp[k++] = a[i++];
    } else {
      count += static_cast<long long>(mid - i);
      tmp[k++] = a[j++];
    }
  }
  std::copy(tmp.begin() + lo, tmp.begin() + hi, a.begin() + lo);
  return count;
}

BOOST_AUTO_TEST_CASE(whole_permutations_look_uniform) {
  // Statistics of whole permutations over many keys: the number of
  // inversions (mean n(n-1)/4, variance n(n-1)(2n+5)/72: both its mean
  // and its spread are checked, the spread being what a network of too few
  // rounds gets wrong first) and the number of cycles (mean H_n, variance
  // H_n - H_n^(2)).
  cupp::random::philox bg(4242);
  for (auto [n, trials] : std::vector<std::pair<index_t, long>>{
           {17, 20000}, {100, 20000}, {1025, 4000}, {70000, 300}}) {
    const double nd = static_cast<double>(n);
    const double inv_mean = nd * (nd - 1) / 4,
                 inv_sd = std::sqrt(nd * (nd - 1) * (2 * nd + 5) / 72);
    double h = 0, h2 = 0;
    for (index_t k = 1; k <= n; ++k) h += 1.0 / k, h2 += 1.0 / (static_cast<double>(k) * k);
    double z_sum = 0, z_squares = 0, cycles = 0;
    std::vector<i64> tmp(n);
    for (long t = 0; t < trials; ++t) {
      auto p = host_permutation(bg, n);
      std::vector<char> seen(n, 0);
      for (index_t i = 0; i < n; ++i) {
        if (seen[i]) continue;
        ++cycles;
        for (index_t x = i; !seen[x]; x = p[x]) seen[x] = 1;
      }
      const double z = (static_cast<double>(inversions(p, tmp, 0, n)) - inv_mean) / inv_sd;
      z_sum += z;
      z_squares += z * z;
    }
    const double tr = static_cast<double>(trials);
    const double z_mean = z_sum / std::sqrt(tr);
    const double z_spread = (z_squares / tr - 1) / std::sqrt(2 / tr);
    const double z_cycles = (cycles / tr - h) / std::sqrt((h - h2) / tr);
    BOOST_TEST(std::abs(z_mean) < z_critical, "n " << n << " inversions z " << z_mean);
    BOOST_TEST(std::abs(z_spread) < z_critical,
               "n " << n << " spread of inversions z " << z_spread);
    BOOST_TEST(std::abs(z_cycles) < z_critical, "n " << n << " cycles z " << z_cycles);
  }
}

BOOST_AUTO_TEST_CASE(choice_without_replacement) {
  cupp::random::philox bg(123);
  // No repeats, all within the population.
  for (auto [n, k] : std::vector<std::pair<index_t, index_t>>{
           {1, 1}, {10, 10}, {17, 5}, {1000, 999}, {100000000, 100000}, {(1ll << 40) + 3, 5000}}) {
    const cupp::host::ndarray<i64> c = rd::choice<host_space>(bg, n, {k}, false);
    auto v = c.to_vector();
    BOOST_TEST(static_cast<index_t>(v.size()) == k);
    std::sort(v.begin(), v.end());
    BOOST_TEST((std::adjacent_find(v.begin(), v.end()) == v.end()), "n " << n << " k " << k);
    BOOST_TEST(v.front() >= 0);
    BOOST_TEST(v.back() < n);
  }
  // Each element included with probability k/n; the first pick uniform.
  const index_t n = 20, k = 7;
  const long trials = 30000;
  std::vector<long> included(n, 0), first(n, 0);
  for (long t = 0; t < trials; ++t) {
    const cupp::host::ndarray<i64> c = rd::choice<host_space>(bg, n, {k}, false);
    const auto v = c.to_vector();
    for (i64 x : v) ++included[x];
    ++first[v[0]];
  }
  const double q = static_cast<double>(k) / n;
  for (index_t i = 0; i < n; ++i) {
    const double z = (included[i] - trials * q) / std::sqrt(trials * q * (1 - q));
    BOOST_TEST(std::abs(z) < z_critical, "element " << i << " z " << z);
  }
  BOOST_TEST(chi2(first, std::vector<double>(n, 1.0 / n), trials) < chi2_critical(n - 1));
  // A shape: the first k elements of one permutation, laid out in C order.
  const cupp::host::ndarray<i64> grid = rd::choice<host_space>(bg, 50, {3, 4}, false);
  BOOST_TEST(grid.shape() == (shape_t{3, 4}));
}

BOOST_AUTO_TEST_CASE(choice_with_replacement_is_uniform) {
  cupp::random::philox bg(8);
  const index_t n = 13;
  const long draws = 200000;
  const cupp::host::ndarray<i64> c = rd::choice<host_space>(bg, n, {draws});
  std::vector<long> counts(n, 0);
  for (i64 x : c.to_vector()) {
    BOOST_REQUIRE((x >= 0 && x < n));
    ++counts[x];
  }
  BOOST_TEST(chi2(counts, std::vector<double>(n, 1.0 / n), draws) < chi2_critical(n - 1));
}

BOOST_AUTO_TEST_CASE(choice_with_p_follows_p) {
  cupp::random::philox bg(77);
  const std::vector<double> p{0.1, 0.0, 0.25, 0.4, 0.05, 0.2};
  const auto probs = rd::to_probabilities(p);
  const long draws = 300000;
  const cupp::host::ndarray<i64> c = rd::choice<host_space>(bg, 6, {draws}, true, &probs);
  std::vector<long> counts(6, 0);
  for (i64 x : c.to_vector()) ++counts[x];
  BOOST_TEST(counts[1] == 0);  // a zero weight is never drawn
  std::vector<long> nz;
  std::vector<double> nzp;
  for (int i = 0; i < 6; ++i)
    if (p[i] > 0) nz.push_back(counts[i]), nzp.push_back(p[i]);
  BOOST_TEST(chi2(nz, nzp, draws) < chi2_critical(4));

  // Without replacement, k = 2: (a, b) with probability p_a p_b / (1 - p_a)
  // (NumPy's successive draws among the elements not yet drawn).
  const long trials = 60000;
  std::vector<long> pairs(36, 0);
  for (long t = 0; t < trials; ++t) {
    const cupp::host::ndarray<i64> s = rd::choice<host_space>(bg, 6, {2}, false, &probs);
    const auto v = s.to_vector();
    ++pairs[v[0] * 6 + v[1]];
  }
  std::vector<long> cells;
  std::vector<double> cell_p;
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 6; ++b) {
      const double q = a == b ? 0.0 : p[a] * p[b] / (1 - p[a]);
      if (q > 0) {
        cells.push_back(pairs[a * 6 + b]);
        cell_p.push_back(q);
      } else {
        BOOST_TEST(pairs[a * 6 + b] == 0);
      }
    }
  BOOST_TEST(chi2(cells, cell_p, trials) < chi2_critical(static_cast<double>(cells.size()) - 1));
  // Every non-zero entry once when k is their number.
  const cupp::host::ndarray<i64> all = rd::choice<host_space>(bg, 6, {5}, false, &probs);
  auto v = all.to_vector();
  std::sort(v.begin(), v.end());
  BOOST_TEST(v == (std::vector<i64>{0, 2, 3, 4, 5}));
  // float32 p: NumPy's wider tolerance on the sum.
  const cupp::host::ndarray<float> pf =
      cupp::host::asarray(std::vector<float>{0.3f, 0.3f, 0.3f, 0.1001f});
  const auto fprobs = rd::to_probabilities(pf);
  BOOST_TEST(rd::choice<host_space>(bg, 4, {10}, true, &fprobs).size() == 10);
}

BOOST_AUTO_TEST_CASE(choice_from_an_array) {
  cupp::random::philox bg(3), again(3);
  const cupp::host::ndarray<double> a = cupp::host::arange(24.0).reshape({4, 6});
  // Along axis 1: 4 x (2 x 2) columns chosen without replacement.
  const cupp::host::ndarray<double> c = rd::choice(bg, a, {2, 2}, false, nullptr, 1);
  BOOST_TEST(c.shape() == (shape_t{4, 2, 2}));
  const cupp::host::ndarray<i64> idx = rd::choice<host_space>(again, 6, {2, 2}, false);
  const auto cv = c.to_vector();
  const auto iv = idx.to_vector();
  for (int r = 0; r < 4; ++r)
    for (int j = 0; j < 4; ++j) BOOST_TEST(cv[r * 4 + j] == r * 6.0 + iv[j]);
  // size {}: one row, the axis dropped.
  const cupp::host::ndarray<double> row = rd::choice(bg, a, {}, true);
  BOOST_TEST(row.shape() == (shape_t{6}));
  BOOST_TEST(std::fmod(row.to_vector()[0], 6.0) == 0.0);
}

template <class T>
void check_shuffle_along(const cupp::host::ndarray<T>& x, int axis, std::uint64_t seed) {
  // x (a 2-d view) shuffled in place along axis: the same permutation of
  // every row (axis 1) or column (axis 0), that of permutation(n) from
  // the same seed.
  const cupp::host::ndarray<T> before = x.copy();
  cupp::random::philox bg(seed), ref(seed);
  rd::shuffle(bg, x, axis);
  const auto perm = host_permutation(ref, x.shape()[axis]);
  BOOST_TEST((bg.state() == ref.state()));
  const auto b = before.to_vector(), a = x.to_vector();
  const index_t rows = x.shape()[0], cols = x.shape()[1];
  for (index_t i = 0; i < rows; ++i)
    for (index_t j = 0; j < cols; ++j) {
      const index_t from = axis == 0 ? perm[i] * cols + j : i * cols + perm[j];
      BOOST_TEST((a[i * cols + j] == b[from]));
    }
}

BOOST_AUTO_TEST_CASE(shuffle_along_an_axis_of_any_layout) {
  for (int axis : {0, 1}) {
    // C, F, and a strided view (every other column of a wider array, whose
    // other columns must stay as they were).
    cupp::host::ndarray<double> c = cupp::host::arange(35.0).reshape({5, 7});
    check_shuffle_along(c, axis, 1);
    cupp::host::ndarray<std::int32_t> f =
        cupp::host::arange(35).reshape({5, 7}).astype<std::int32_t>().eval().copy(cupp::order::F);
    check_shuffle_along(f, axis, 2);
    cupp::host::ndarray<float> wide = cupp::host::arange(70.0f).reshape({5, 14});
    const cupp::host::ndarray<float> view = wide(cupp::slice(), cupp::slice(0, 14, 2));
    check_shuffle_along(view, axis, 3);
    const auto w = wide.to_vector();
    for (int i = 0; i < 5; ++i)
      for (int j = 1; j < 14; j += 2) BOOST_TEST(w[i * 14 + j] == i * 14.0f + j);
    cupp::host::ndarray<std::uint8_t> small =
        cupp::host::arange(12).reshape({3, 4}).astype<std::uint8_t>().eval();
    check_shuffle_along(small, axis, 4);
  }
  // The same seed permutes a C and an F copy alike.
  cupp::host::ndarray<double> c = cupp::host::arange(35.0).reshape({5, 7});
  cupp::host::ndarray<double> f = c.copy(cupp::order::F);
  cupp::random::philox b1(9), b2(9);
  rd::shuffle(b1, c, 1);
  rd::shuffle(b2, f, 1);
  BOOST_TEST(c.to_vector() == f.to_vector());
  // permutation(x, axis) of a 3-d array: a copy, x untouched.
  const cupp::host::ndarray<double> x = cupp::host::arange(60.0).reshape({3, 4, 5});
  cupp::random::philox b3(10), b4(10);
  const cupp::host::ndarray<double> y = rd::permutation(b3, x, 1);
  const auto perm = host_permutation(b4, 4);
  const auto xv = x.to_vector(), yv = y.to_vector();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k)
        BOOST_TEST(yv[(i * 4 + j) * 5 + k] == xv[(i * 4 + perm[j]) * 5 + k]);
  BOOST_TEST(x.to_vector()[7] == 7.0);
}

BOOST_AUTO_TEST_CASE(permuted_slices_are_independent_permutations) {
  const index_t rows = 200, cols = 9;
  const cupp::host::ndarray<i64> x = cupp::host::arange(rows * cols).reshape({rows, cols});
  cupp::random::philox bg(42);
  // axis 1: every row a permutation of itself; rows differ.
  const cupp::host::ndarray<i64> y = rd::permuted(bg, x, 1);
  const auto v = y.to_vector();
  std::map<std::vector<i64>, int> patterns;
  std::vector<long> first_col(cols, 0);
  for (index_t r = 0; r < rows; ++r) {
    std::vector<i64> row(v.begin() + r * cols, v.begin() + (r + 1) * cols);
    for (auto& e : row) e -= r * cols;
    BOOST_TEST(is_permutation_of_range(row));
    ++patterns[row];
    ++first_col[row[0]];
  }
  BOOST_TEST(patterns.size() > 190u);  // 200 draws from 9! patterns
  BOOST_TEST(chi2(first_col, std::vector<double>(cols, 1.0 / cols), rows) <
             chi2_critical(cols - 1));
  // axis 0 of an F-ordered copy: every column a permutation of itself.
  const cupp::host::ndarray<i64> xf = x.copy(cupp::order::F);
  const cupp::host::ndarray<i64> z = rd::permuted(bg, xf, 0);
  const auto zv = z.to_vector();
  for (index_t c = 0; c < cols; ++c) {
    std::vector<i64> col;
    for (index_t r = 0; r < rows; ++r) col.push_back((zv[r * cols + c] - c) / cols);
    BOOST_TEST(is_permutation_of_range(col));
    for (index_t r = 0; r < rows; ++r) BOOST_TEST(zv[r * cols + c] % cols == c);
  }
  // axis None: all elements together.
  const cupp::host::ndarray<i64> all = rd::permuted(bg, x);
  BOOST_TEST(all.shape() == x.shape());
  BOOST_TEST(is_permutation_of_range(all.to_vector()));
  // out=, which may be x itself.
  cupp::host::ndarray<i64> out = cupp::host::zeros<i64>({rows, cols});
  cupp::random::philox b1(5), b2(5);
  const cupp::host::ndarray<i64> expect = rd::permuted(b1, x, 1);
  rd::permuted(b2, x, 1, &out);
  BOOST_TEST(out.to_vector() == expect.to_vector());
  cupp::host::ndarray<i64> self = x.copy();
  cupp::random::philox b3(5);
  rd::permuted(b3, self, 1, &self);
  BOOST_TEST(self.to_vector() == expect.to_vector());
}

BOOST_AUTO_TEST_CASE(numpys_errors_and_nothing_written) {
  cupp::random::philox bg(1);
  const cupp::random::philox_state start = bg.state();
  const std::vector<double> neg{0.5, 0.5, 0.5, -0.5, 0};
  const std::vector<double> tenth(5, 0.1);
  const std::vector<double> two{0.5, 0.5};
  const std::vector<double> nan{std::nan(""), 1, 0, 0, 0};
  const std::vector<double> inf{INFINITY, 1, 0, 0, 0};
  const std::vector<double> sparse{0.5, 0.5, 0, 0, 0};
  const auto pneg = rd::to_probabilities(neg), ptenth = rd::to_probabilities(tenth),
             ptwo = rd::to_probabilities(two), pnan = rd::to_probabilities(nan),
             pinf = rd::to_probabilities(inf), psparse = rd::to_probabilities(sparse);
  auto ch = [&](index_t a, shape_t s, bool replace, const rd::probabilities* p) {
    return [&bg, a, s, replace, p] { rd::choice<host_space>(bg, a, s, replace, p); };
  };
  throws_with(ch(5, {3}, true, &pneg), "Probabilities are not non-negative");
  throws_with(ch(5, {3}, true, &ptenth),
              "Probabilities do not sum to 1. See Notes section of docstring for more "
              "information.");
  throws_with(ch(0, {3}, true, nullptr),
              "a must be a positive integer unless no samples are taken");
  throws_with(ch(-1, {3}, true, nullptr),
              "a must be a positive integer unless no samples are taken");
  throws_with(ch(5, {6}, false, nullptr),
              "Cannot take a larger sample than population when replace is False");
  throws_with(ch(5, {3}, true, &ptwo), "a and p must have same size");
  throws_with(ch(5, {3}, false, &psparse), "Fewer non-zero entries in p than size");
  throws_with(ch(5, {3}, true, &pnan), "Probabilities contain NaN");
  throws_with(ch(5, {3}, true, &pinf), "Probabilities contain NaN");
  throws_with(ch(5, {-1}, true, nullptr), "negative dimensions are not allowed");
  const cupp::host::ndarray<double> p2 = cupp::host::full<double>({1, 2}, 0.5);
  const auto pp2 = rd::to_probabilities(p2);
  throws_with(ch(2, {3}, true, &pp2), "p must be 1-dimensional");
  const cupp::host::ndarray<double> empty = cupp::host::zeros<double>({0});
  throws_with([&] { rd::choice(bg, empty, {3}); }, "a cannot be empty unless no samples are taken");
  const cupp::host::ndarray<double> scalar = cupp::host::zeros<double>({});
  throws_with([&] { rd::choice(bg, scalar, {3}); },
              "a must be a sequence or an integer, not <class 'numpy.ndarray'>");
  throws_with([&] { rd::permutation(bg, scalar); },
              "axis 0 is out of bounds for array of dimension 0");
  throws_with([&] { rd::shuffle(bg, scalar); }, "len() of unsized object");
  cupp::host::ndarray<double> x = cupp::host::arange(6.0).reshape({2, 3});
  throws_with([&] { rd::shuffle(bg, x, 2); }, "axis 2 is out of bounds for array of dimension 2");
  throws_with([&] { rd::permuted(bg, x, 2); }, "axis 2 is out of bounds for array of dimension 2");
  cupp::host::ndarray<double> wrong = cupp::host::zeros<double>({3, 2});
  throws_with([&] { rd::permuted(bg, x, 1, &wrong); }, "out must have the same shape as x");
  BOOST_TEST((bg.state() == start));  // no error advanced the generator
  BOOST_TEST(x.to_vector() == (std::vector<double>{0, 1, 2, 3, 4, 5}));
  BOOST_TEST(wrong.to_vector() == std::vector<double>(6, 0.0));
  // No samples: fine with an empty population (NumPy's choice(0, 0)).
  BOOST_TEST(rd::choice<host_space>(bg, 0, {0}).size() == 0);
  BOOST_TEST(rd::choice(bg, empty, {0}).size() == 0);
}

#if CUPP_TEST_DEVICE
namespace {

template <class T>
void same(const cupp::ndarray<T>& d, const cupp::host::ndarray<T>& h, const char* what) {
  BOOST_TEST(cupp::asnumpy(d).to_vector() == h.to_vector(), what);
}

}  // namespace

BOOST_AUTO_TEST_CASE(host_and_device_give_the_same_results) {
  using cupp::any_space;
  cupp::random::philox d(2026), h(2026);
  for (index_t n : {0, 1, 5, 16, 17, 1000, (1 << 20) + 3, 1 << 22}) {
    const cupp::ndarray<i64> pd = rd::permutation<any_space>(d, n);
    const cupp::host::ndarray<i64> ph = rd::permutation<host_space>(h, n);
    same(pd, ph, "permutation");
  }
  same(rd::choice<any_space>(d, (1ll << 40) + 3, {5000}, false),
       rd::choice<host_space>(h, (1ll << 40) + 3, {5000}, false), "choice beyond 2^32");
  same(rd::choice<any_space>(d, 100000000, {1000000}, false),
       rd::choice<host_space>(h, 100000000, {1000000}, false), "choice without replacement");
  same(rd::choice<any_space>(d, 1000, {3, 333}), rd::choice<host_space>(h, 1000, {3, 333}),
       "choice with replacement");
  std::vector<double> p(1000);
  for (int i = 0; i < 1000; ++i) p[i] = (i % 7) / 2997.0;
  const auto probs = rd::to_probabilities(p);
  same(rd::choice<any_space>(d, 1000, {10001}, true, &probs),
       rd::choice<host_space>(h, 1000, {10001}, true, &probs), "choice with p");
  same(rd::choice<any_space>(d, 1000, {300}, false, &probs),
       rd::choice<host_space>(h, 1000, {300}, false, &probs), "choice with p, no replacement");
  const cupp::host::ndarray<double> xh = cupp::host::arange(3000.0).reshape({30, 100});
  const cupp::ndarray<double> xd = cupp::asarray(xh);
  same(rd::permuted(d, xd, 1), rd::permuted(h, xh, 1), "permuted axis 1");
  same(rd::permuted(d, xd, 0), rd::permuted(h, xh, 0), "permuted axis 0");
  same(rd::permuted(d, xd), rd::permuted(h, xh), "permuted axis None");
  same(rd::permutation(d, xd, 1), rd::permutation(h, xh, 1), "permutation along axis 1");
  const cupp::host::ndarray<double> sh = xh.copy();
  const cupp::ndarray<double> sd = cupp::asarray(xh).copy(cupp::order::F);
  rd::shuffle(d, sd, 0);
  rd::shuffle(h, sh, 0);
  same(sd, sh, "shuffle");
  same(rd::choice(d, xd, {4, 5}, false, nullptr, 1), rd::choice(h, xh, {4, 5}, false, nullptr, 1),
       "choice from an array");
  BOOST_TEST((d.state() == h.state()));
}
#endif

BOOST_AUTO_TEST_SUITE_END()
