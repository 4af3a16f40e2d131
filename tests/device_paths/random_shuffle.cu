// Device paths of random permutations, choices and draws of vectors
// (<cupp/random/shuffle.hpp>, vector_draws.hpp, multivariate.hpp), through
// the Generator, a RandomState and the module: permutation (of n, lazy,
// and of an array along an axis), shuffle, permuted (one axis, flattened,
// out=), choice (of n and of an array, with and without replacement, p as
// a std::vector and as a device array), dirichlet and multivariate_normal
// (svd, eigh, cholesky) on float32 and float64, multinomial (int64 and
// int32), multivariate_hypergeometric (marginals and count). Checks: a
// permutation is one, slices keep their values, choices are in range and
// follow p's mean, rows of vector draws sum as they must, means within a
// wide bound.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/random.hpp>
#include <cupp/random/multivariate.hpp>
#include <cupp/random/shuffle.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "checks.hpp"
#include "random_draws.hpp"

using device_paths::expect;
using device_paths::expect_draw;
using device_paths::expect_near;
namespace rm = cupp::random;

namespace {

template <class A>
auto host_of(const A& a) {
  return cupp::ndarray<typename A::value_type>(a).to_vector();
}

template <class T>
cupp::ndarray<T> device_of(const std::vector<double>& values, const cupp::shape_t& shape) {
  auto h = cupp::host::empty<T>(shape);
  for (std::size_t i = 0; i < values.size(); ++i) h.data()[i] = static_cast<T>(values[i]);
  return cupp::asarray(h);
}

template <class T>
std::vector<T> sorted(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// 0, 1, ..., n - 1 in some order.
template <class A>
void expect_permutation(const A& a, std::int64_t n, const std::string& what) {
  std::vector<std::int64_t> want(static_cast<std::size_t>(n));
  std::iota(want.begin(), want.end(), 0);
  std::vector<std::int64_t> got;
  for (const auto v : host_of(a)) got.push_back(static_cast<std::int64_t>(v));
  expect(sorted(got) == want, what + ": not a permutation");
}

// Row r of x (rows of `cols` values) holds r * cols .. r * cols + cols - 1
// in some order, the rows in some order: x is arange(n) permuted along
// axis 0 (whole rows) or within its rows.
template <class T>
void expect_rows_of_arange(const cupp::ndarray<T>& x, cupp::index_t cols, bool whole_rows,
                           const std::string& what) {
  const std::vector<T> v = x.to_vector();
  expect(
      sorted(v) == sorted(cupp::arange<T>(static_cast<cupp::index_t>(v.size())).eval().to_vector()),
      what + ": values lost");
  for (std::size_t r = 0; r * cols < v.size(); ++r) {
    const std::vector<T> row(v.begin() + r * cols, v.begin() + (r + 1) * cols);
    const T first = whole_rows ? row[0] : *std::min_element(row.begin(), row.end());
    for (cupp::index_t c = 0; c < cols; ++c)
      expect((whole_rows ? row[c] : sorted(row)[c]) == first + T(c), what + ": a row is broken");
  }
}

void permutations(rm::Generator& g, rm::RandomState& rs) {
  expect_permutation(g.permutation(100), 100, "permutation(n)");
  expect_permutation(rs.permutation(100), 100, "RandomState.permutation(n)");
  expect_permutation(rm::permutation(100), 100, "random.permutation(n)");
  // x = arange(24).reshape(6, 4): rows permuted, or values within rows.
  const cupp::ndarray<float> x = cupp::arange<float>(24).eval().reshape({6, 4});
  expect_rows_of_arange(g.permutation(x), 4, true, "permutation(x)");
  expect_rows_of_arange(g.permutation(x.T().copy(), 1).T().copy(), 4, true,
                        "permutation(x, axis 1)");
  expect_rows_of_arange(rs.permutation(x), 4, true, "RandomState.permutation(x)");
  expect_rows_of_arange(rm::permutation(x), 4, true, "random.permutation(x)");
  const cupp::ndarray<double> y = x.astype<double>();
  g.shuffle(y);
  expect_rows_of_arange(y, 4, true, "shuffle");
  rs.shuffle(y);
  rm::shuffle(y);
  expect_rows_of_arange(y, 4, true, "RandomState.shuffle, random.shuffle");
  g.shuffle(y, 1);
  expect_rows_of_arange(y, 4, false, "shuffle along axis 1");
  expect_rows_of_arange(g.permuted(x, 1), 4, false, "permuted along axis 1");
  const cupp::ndarray<float> flat = g.permuted(x);
  expect(sorted(flat.to_vector()) == x.to_vector(), "permuted (flattened)");
  const cupp::ndarray<float> out = cupp::empty<float>({6, 4});
  g.permuted(x, std::optional<cupp::index_t>(1), out);
  expect_rows_of_arange(out, 4, false, "permuted out=");
}

void choices(rm::Generator& g, rm::RandomState& rs) {
  const cupp::shape_t s = device_paths::draw_size;
  const double sd10 = std::sqrt(99 / 12.0);
  expect_draw<std::int64_t>(g.choice(10, s), s, 0, 9, 4.5, sd10, "choice(10)");
  expect_draw<std::int64_t>(rs.choice(10, s), s, 0, 9, 4.5, sd10, "RandomState.choice(10)");
  expect_draw<std::int64_t>(rm::choice(10, s), s, 0, 9, 4.5, sd10, "random.choice(10)");
  const auto distinct = sorted(host_of(g.choice(1000, cupp::shape_t{50}, false)));
  expect(std::adjacent_find(distinct.begin(), distinct.end()) == distinct.end(),
         "choice without replacement repeats");
  // p = (0.1, 0.2, 0.3, 0.4): mean 2, deviation 1.
  const std::vector<double> p{0.1, 0.2, 0.3, 0.4};
  const cupp::ndarray<float> pd = device_of<float>(p, {4});
  expect_draw<std::int64_t>(g.choice(4, s, true, p), s, 0, 3, 2, 1, "choice(4, p)");
  expect_draw<std::int64_t>(g.choice(4, s, true, pd), s, 0, 3, 2, 1, "choice(4, p array)");
  expect_draw<std::int64_t>(rs.choice(4, s, true, p), s, 0, 3, 2, 1, "RandomState.choice(4, p)");
  expect_draw<std::int64_t>(rm::choice(4, s, true, p), s, 0, 3, 2, 1, "random.choice(4, p)");
  expect_permutation(g.choice(4, cupp::shape_t{4}, false, pd), 4, "choice(4, 4, no replace, p)");
  // From an array: a = (10, 11, 12, 13), with p: mean 12, deviation 1.
  const cupp::ndarray<double> a = cupp::arange<double>(10, 14).eval();
  expect_draw<double>(g.choice(a, s), s, 10, 13, 11.5, std::sqrt(15 / 12.0), "choice(a)");
  expect_draw<double>(rs.choice(a, s), s, 10, 13, 11.5, std::sqrt(15 / 12.0),
                      "RandomState.choice(a)");
  expect_draw<double>(rm::choice(a, s), s, 10, 13, 11.5, std::sqrt(15 / 12.0), "random.choice(a)");
  expect_draw<double>(g.choice(a, s, true, p), s, 10, 13, 12, 1, "choice(a, p)");
  expect_draw<double>(rs.choice(a, s, true, pd), s, 10, 13, 12, 1, "RandomState.choice(a, p)");
  // Rows of a 2-d array along axis 1.
  const cupp::ndarray<double> m = a.reshape({2, 2});
  expect(g.choice(m, cupp::shape_t{5}, true, 1).shape() == cupp::shape_t{2, 5}, "choice(m, axis)");
  expect(g.choice(m, cupp::shape_t{2}, false, std::vector<double>{0.5, 0.5}, 1).shape() ==
             cupp::shape_t{2, 2},
         "choice(m, p, axis)");
}

// Component c of rows of k values: its mean, and every row's sum.
template <class A>
void expect_rows(const A& draw, std::size_t k, std::size_t c, double mean, double sd,
                 double row_sum, double tol, const std::string& what) {
  const auto v = host_of(draw);
  expect(v.size() % k == 0 && !v.empty(), what + ": rows of " + std::to_string(k));
  double sum_c = 0;
  for (std::size_t r = 0; r * k < v.size(); ++r) {
    double total = 0;
    for (std::size_t j = 0; j < k; ++j) total += static_cast<double>(v[r * k + j]);
    if (!std::isnan(row_sum)) expect_near(total, row_sum, what + ": a row's sum", 0.0, tol);
    sum_c += static_cast<double>(v[r * k + c]);
  }
  const double n = static_cast<double>(v.size() / k);
  expect_near(sum_c / n, mean, what + ": mean", 0.0, 6 * sd / std::sqrt(n));
}

template <class T>
void vectors(rm::Generator& g, rm::RandomState& rs) {
  const std::string t = device_paths::dtype_suffix<T>();
  const cupp::shape_t s{2048};
  rm::seed(5);
  // dirichlet(1, 2, 3): component 0 is beta(1, 5): mean 1/6, variance 5/252.
  const std::vector<double> alpha{1, 2, 3};
  const double d_sd = std::sqrt(5 / 252.0), eps = 1e-4;
  expect_rows(g.dirichlet<T>(alpha, s), 3, 0, 1 / 6.0, d_sd, 1, eps, "dirichlet" + t);
  expect_rows(rs.dirichlet<T>(alpha, s), 3, 0, 1 / 6.0, d_sd, 1, eps, "RandomState.dirichlet" + t);
  expect_rows(rm::dirichlet<T>(alpha, s), 3, 0, 1 / 6.0, d_sd, 1, eps, "random.dirichlet" + t);
  // multivariate_normal: mean (1, -2), covariance ((2, 1), (1, 3)).
  const cupp::ndarray<double> mean = cupp::arange<double>(1, -3, -3).eval();
  const cupp::ndarray<double> cov = device_of<double>({2, 1, 1, 3}, {2, 2});
  for (const char* method : {"svd", "eigh", "cholesky"}) {
    const auto x = g.multivariate_normal<T>(mean, cov, s, "raise", 1e-8, method);
    expect_rows(x, 2, 0, 1, std::sqrt(2.0), NAN, 0,
                std::string("multivariate_normal ") + method + t);
    expect_rows(x, 2, 1, -2, std::sqrt(3.0), NAN, 0,
                std::string("multivariate_normal ") + method + t);
  }
  expect_rows(rs.multivariate_normal<T>(mean, cov, s), 2, 1, -2, std::sqrt(3.0), NAN, 0,
              "RandomState.multivariate_normal" + t);
}

template <class I>
void counts(rm::Generator& g, rm::RandomState& rs) {
  const std::string t = device_paths::dtype_suffix<I>();
  const cupp::shape_t s{2048};
  // multinomial(10, (0.2, 0.3, 0.5)): component 0 is binomial(10, 0.2).
  const std::vector<double> pv{0.2, 0.3, 0.5};
  const double m_sd = std::sqrt(1.6);
  expect_rows(g.multinomial<I>(10, pv, s), 3, 0, 2, m_sd, 10, 0, "multinomial" + t);
  expect_rows(rs.multinomial<I>(10, pv, s), 3, 0, 2, m_sd, 10, 0, "RandomState.multinomial" + t);
  expect_rows(rm::multinomial<I>(10, pv, s), 3, 0, 2, m_sd, 10, 0, "random.multinomial" + t);
  // 6 of colors (3, 4, 5): component 0 is hypergeometric(3, 9, 6): mean
  // 1.5, variance 6 (3/12) (9/12) (6/11).
  const double h_sd = std::sqrt(6 * 0.25 * 0.75 * 6 / 11.0);
  for (const char* method : {"marginals", "count"})
    expect_rows(g.multivariate_hypergeometric<I>({3, 4, 5}, 6, s, method), 3, 0, 1.5, h_sd, 6, 0,
                std::string("multivariate_hypergeometric ") + method + t);
}

}  // namespace

void device_paths_random_shuffle() {
  auto g = rm::default_rng(1618);
  rm::RandomState rs(1618);
  rm::seed(1618);
  permutations(g, rs);
  choices(g, rs);
  vectors<float>(g, rs);
  vectors<double>(g, rs);
  counts<std::int64_t>(g, rs);
  counts<std::int32_t>(g, rs);
}
