// Samplers of whole vectors: dirichlet, multinomial and
// multivariate_hypergeometric. Each row of a draw reads the words of its own
// counter index (the row number), so a row is a pure function of the key,
// the draw's first block and the row: the host loop and the device kernel
// (one thread per row, vector_rows.hpp) give the same bits. The parameter
// vectors live in the draw's space; the samplers only point at them.
#pragma once

#include <cstdint>

#include <cupp/config.hpp>
#include <cupp/detail/random/draw.hpp>
#include <cupp/detail/random/exact_math.hpp>
#include <cupp/detail/random/samplers_discrete.hpp>
#include <cupp/detail/random/samplers_gamma.hpp>
#include <cupp/detail/random/samplers_misc.hpp>
#include <cupp/index_types.hpp>

namespace cupp::detail::random {

// Beta(a, b) where a or b may be 0, as the stick-breaking needs: a zero
// shape is a point mass, so Beta(0, b) = 0 and Beta(a, 0) = 1 (the limits
// NumPy's dirichlet gives for zero alphas).
template <class T>
CUPP_HD T stick_beta_from(element_words& w, T a, T b) {
  if (a == T(0)) return T(0);
  if (b == T(0)) return T(1);
  return beta_from<T>(w, a, b);
}

// Dirichlet(alpha). NumPy's two methods: when every alpha is below 0.1 the
// normalised gammas would underflow to 0/0, so the row is built by stick
// breaking, X_j = V_j prod_{i<j} (1 - V_i) with V_j ~ Beta(alpha_j,
// sum_{i>j} alpha_i) (`tail[j]` holds sum_{i>=j} alpha_i); otherwise the
// row is k gammas divided by their sum. All-zero alphas give zeros.
template <class T>
struct dirichlet_rows {
  using value_type = T;
  draw_site site;
  const T* alpha;
  const T* tail;
  index_t k;
  bool stick_breaking;
  bool all_zero;

  CUPP_HD void operator()(std::uint64_t row, T* out) const {
    if (all_zero) {
      for (index_t j = 0; j < k; ++j) out[j] = T(0);
      return;
    }
    element_words w(site, row);
    if (stick_breaking) {
      T rest = T(1);
      index_t j = 0;
      for (; j + 1 < k; ++j) {
        const T v = stick_beta_from<T>(w, alpha[j], tail[j + 1]);
        out[j] = xm::mul(rest, v);
        rest = xm::mul(rest, xm::sub(T(1), v));
        // Nothing is left for the zero alphas after j.
        if (tail[j + 1] == T(0)) break;
      }
      for (++j; j + 1 < k; ++j) out[j] = T(0);
      out[k - 1] = rest;
      return;
    }
    T sum = T(0);
    for (index_t j = 0; j < k; ++j) {
      out[j] = standard_gamma_from<T>(w, alpha[j]);
      sum = xm::add(sum, out[j]);
    }
    const T inverse = xm::div(T(1), sum);
    for (index_t j = 0; j < k; ++j) out[j] = xm::mul(out[j], inverse);
  }
};

// Multinomial(n, p) by conditional binomials: count j is Binomial(n left,
// p_j / p left), and the last category takes what remains (its p is never
// read, as NumPy's).
template <class I>
struct multinomial_rows {
  using value_type = I;
  draw_site site;
  const double* p;
  index_t k;
  std::int64_t n;

  CUPP_HD void operator()(std::uint64_t row, I* out) const {
    element_words w(site, row);
    std::int64_t left = n;
    double p_left = 1.0;
    for (index_t j = 0; j + 1 < k; ++j) {
      std::int64_t count = 0;
      if (left > 0 && p_left > 0.0) {
        double q = xm::div(p[j], p_left);
        if (q > 1.0) q = 1.0;  // p_left lost digits to rounding
        count = static_cast<std::int64_t>(binomial_from(w, left, q));
      }
      out[j] = static_cast<I>(count);
      left -= count;
      p_left = xm::sub(p_left, p[j]);
    }
    out[k - 1] = static_cast<I>(left);
  }
};

// Multivariate hypergeometric(colors, nsample). A sample of more than half
// the items is drawn as its complement (the items left behind), which
// bounds the work by total / 2 either way.
//  - marginals: count j is Hypergeometric(colors_j, items of later colours,
//    sample left), NumPy's default;
//  - count: the sample drawn one item at a time, a uniform position among
//    the items left walked through the colours' remaining counts (NumPy
//    shuffles an array of all the items instead: the same distribution,
//    without memory proportional to sum(colors)).
template <class I>
struct multivariate_hypergeometric_rows {
  using value_type = I;
  draw_site site;
  const std::int64_t* colors;
  index_t k;
  std::int64_t total;
  std::int64_t nsample;
  bool count_method;

  CUPP_HD void operator()(std::uint64_t row, I* out) const {
    element_words w(site, row);
    const bool complement = nsample > total / 2;
    const std::int64_t wanted = complement ? total - nsample : nsample;
    if (count_method)
      by_count(w, wanted, out);
    else
      by_marginals(w, wanted, out);
    if (complement)
      for (index_t j = 0; j < k; ++j) out[j] = static_cast<I>(colors[j] - std::int64_t(out[j]));
  }

 private:
  CUPP_HD void by_marginals(element_words& w, std::int64_t wanted, I* out) const {
    std::int64_t left = wanted, items_after = total;
    for (index_t j = 0; j < k; ++j) {
      items_after -= colors[j];
      std::int64_t count = 0;
      if (left > 0) {
        count = j + 1 < k ? hypergeometric_from(w, colors[j], items_after, left) : left;
      }
      out[j] = static_cast<I>(count);
      left -= count;
    }
  }
  CUPP_HD void by_count(element_words& w, std::int64_t wanted, I* out) const {
    for (index_t j = 0; j < k; ++j) out[j] = I(0);
    std::int64_t items_left = total;
    for (std::int64_t drawn = 0; drawn < wanted; ++drawn, --items_left) {
      auto position = static_cast<std::int64_t>(
          uniform_interval_from(w, static_cast<std::uint64_t>(items_left - 1)));
      index_t j = 0;
      for (;; ++j) {
        const std::int64_t here = colors[j] - std::int64_t(out[j]);
        if (position < here) break;
        position -= here;
      }
      out[j] = static_cast<I>(std::int64_t(out[j]) + 1);
    }
  }
};

}  // namespace cupp::detail::random
