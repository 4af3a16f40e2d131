// The engine of numpy.random.Generator's choice, for device and host
// arrays: choice without replacement is the first k elements of a
// permutation (shuffle_run.hpp; O(k) whatever the population), with
// replacement k uniform integers; with probabilities p, a search of p's
// cumulative distribution (replace) or the k smallest of Efraimidis and
// Spirakis' keys, argsorted by the sort area's engine (no replacement).
// p is checked as NumPy checks it, everything before the generator
// advances. The generator (basic_generator) forwards its members to the
// functions of cupp::random::detail here.
//
// BitGen is the bit generator the draws take their counter blocks from
// (cupp::random::philox, an API type of <cupp/random/bit_generator.hpp>):
// a template parameter here, complete where basic_generator calls in.
// choice from an array gathers with take(a, indices, axis), cupp::take,
// found as in shuffle_run.hpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/errors.hpp>
#include <cupp/index_types.hpp>
#include <cupp/shape.hpp>
#include <cupp/detail/generators/view.hpp>
#include <cupp/detail/random/bijection.hpp>
#include <cupp/detail/random/draw.hpp>
#include <cupp/detail/random/draw_spaces.hpp>
#include <cupp/detail/random/exact_math.hpp>
#include <cupp/detail/random/samplers_basic.hpp>
#include <cupp/detail/random/shuffle_run.hpp>
#include <cupp/detail/sort/sort_run.hpp>

namespace cupp::detail::random {

// choice(p, replace=True): the index whose interval of the cumulative
// distribution holds a uniform double u, i.e. the number of entries <= u
// (NumPy's cdf.searchsorted(u, side='right')); two draws per block.
struct weighted_index_fn {
  using value_type = std::int64_t;
  static constexpr int coords = 1;
  const double* cdf;
  index_t n;
  draw_site site;

  CUPP_HD value_type operator()(const index_t* pos) const {
    const auto p = static_cast<std::uint64_t>(pos[0]);
    const words4 w = block_at(site, p / 2);
    const int lane = static_cast<int>(p % 2);
    const double u = unit_double(w.w[2 * lane], w.w[2 * lane + 1]);
    index_t lo = 0, hi = n - 1;  // cdf[n - 1] == 1 > u: the answer is below n
    while (lo < hi) {
      const index_t mid = lo + (hi - lo) / 2;
      if (cdf[mid] <= u)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }
};

// choice(p, replace=False) by Efraimidis and Spirakis' keys ("Weighted
// random sampling with a reservoir", IPL 2006): element i gets E_i / p_i
// with E_i standard exponential; the k smallest keys, in increasing order,
// are distributed as k successive draws proportional to p among the
// elements not yet drawn (NumPy's sampling). A zero weight is never drawn.
struct weighted_key_fn {
  using value_type = double;
  static constexpr int coords = 1;
  const double* p;
  draw_site site;

  CUPP_HD value_type operator()(const index_t* pos) const {
    const auto i = static_cast<std::uint64_t>(pos[0]);
    if (!(p[i] > 0)) return xm::impl::infinity<double>();
    const words4 w = block_at(site, i / 2);
    const int lane = static_cast<int>(i % 2);
    const double e = -xm::log(open_unit_double(w.w[2 * lane], w.w[2 * lane + 1]));
    return xm::div(e, p[i]);
  }
};

}  // namespace cupp::detail::random

namespace cupp::random::detail {

namespace rnd = ::cupp::detail::random;

// choice's p, checked as NumPy checks it: a host copy as float64, its
// number of dimensions, and the tolerance of its sum (sqrt of the machine
// epsilon of float64, or of p's own float type when coarser).
struct probabilities {
  std::vector<double> values;
  int ndim = 1;
  double atol = 1.4901161193847656e-08;
};

inline probabilities to_probabilities(const std::vector<double>& p) {
  return {p, 1};
}
template <class F, class PS>
probabilities to_probabilities(const ndarray<F, PS>& p) {
  static_assert(std::is_arithmetic_v<F>, "choice: p must be an array of real numbers");
  probabilities r;
  r.ndim = p.ndim();
  for (const F v : p.to_vector()) r.values.push_back(static_cast<double>(v));
  if constexpr (std::is_same_v<F, float>) r.atol = 0.00034526698300124393;  // sqrt(2^-23)
  return r;
}

inline void check_probabilities(const probabilities& p, index_t population) {
  if (p.ndim != 1) throw value_error("p must be 1-dimensional");
  if (static_cast<index_t>(p.values.size()) != population)
    throw value_error("a and p must have same size");
  // Kahan's compensated sum, as NumPy's; an infinity makes it NaN too.
  double sum = 0, c = 0;
  for (const double v : p.values) {
    const double y = v - c;
    const double t = sum + y;
    c = (t - sum) - y;
    sum = t;
  }
  if (std::isnan(sum)) throw value_error("Probabilities contain NaN");
  for (const double v : p.values)
    if (v < 0) throw value_error("Probabilities are not non-negative");
  if (std::abs(sum - 1.0) > p.atol)
    throw value_error(
        "Probabilities do not sum to 1. See Notes section of docstring for more information.");
}

// The int64 indices of a choice from a population of `population`, shaped
// `size`, in array space AS; everything is checked before the generator
// advances.
template <class AS, class BitGen>
ndarray<std::int64_t, AS> choice_indices(BitGen& bg, index_t population, const shape_t& size,
                                         bool replace, const probabilities* p) {
  using GS = generator_space_for<AS>;
  const index_t k = ::cupp::detail::checked_size(size, sizeof(std::int64_t));
  if (p) check_probabilities(*p, population);
  if (!replace) {
    if (k > population)
      throw value_error("Cannot take a larger sample than population when replace is False");
    if (p) {
      index_t positive = 0;
      for (const double v : p->values) positive += v > 0;
      if (positive < k) throw value_error("Fewer non-zero entries in p than size");
    }
  }
  if (!p) {
    if (replace) {
      using fn = rnd::draw_fn<rnd::integers_sampler<std::int64_t>>;
      const rnd::draw_site site = bg.take(fn::blocks_for(static_cast<std::uint64_t>(k)));
      return generator<fn, GS>(fn{{0, static_cast<std::uint64_t>(population)}, site}, size,
                               flat_strides(size))
          .eval();
    }
    const rnd::draw_site site = bg.take(1);
    return generator<rnd::permutation_fn, GS>(rnd::permutation_fn{rnd::feistel_bijection(
                                                  static_cast<std::uint64_t>(population), site, 0)},
                                              size, flat_strides(size))
        .eval();
  }
  if (replace) {
    // NumPy's cumulative sums, divided by the last; computed once on the
    // host, so the device searches the very same doubles.
    std::vector<double> cdf(p->values.size());
    double run = 0;
    for (std::size_t i = 0; i < cdf.size(); ++i) cdf[i] = run += p->values[i];
    for (double& v : cdf) v /= run;
    const ndarray<double, AS> table = to_space<AS>(cdf);
    const rnd::draw_site site = bg.take((static_cast<std::uint64_t>(k) + 1) / 2);
    return generator<rnd::weighted_index_fn, GS>(
               rnd::weighted_index_fn{table.data(), population, site}, size, flat_strides(size))
        .eval();
  }
  const ndarray<double, AS> weights = to_space<AS>(p->values);
  const rnd::draw_site site = bg.take((static_cast<std::uint64_t>(population) + 1) / 2);
  const shape_t all{population};
  const ndarray<double, AS> keys =
      generator<rnd::weighted_key_fn, GS>(rnd::weighted_key_fn{weights.data(), site}, all,
                                          flat_strides(all))
          .eval();
  const ndarray<std::int64_t, AS> order = ::cupp::detail::sorting::sort_of<true>(keys, -1, false);
  return order(::cupp::slice(k)).copy().reshape(size);
}

// numpy.random.Generator.choice(a, size, replace, p, shuffle) with an
// integer a: indices into arange(a). shuffle=False changes nothing (NumPy
// leaves the order unspecified then; here it is always random).
template <class S, class BitGen>
ndarray<std::int64_t, array_space_for<S>> choice(BitGen& bg, index_t a, const shape_t& size,
                                                 bool replace = true,
                                                 const probabilities* p = nullptr) {
  const index_t k = ::cupp::detail::checked_size(size, sizeof(std::int64_t));
  if (a <= 0 && k != 0)
    throw value_error("a must be a positive integer unless no samples are taken");
  return choice_indices<array_space_for<S>>(bg, a, size, replace, p);
}

// choice with an array a: the chosen entries of a along axis (the axis of
// the result replaced by `size`, NumPy's a.take(indices, axis)).
template <class T, class AS, class BitGen>
ndarray<T, AS> choice(BitGen& bg, const ndarray<T, AS>& a, const shape_t& size, bool replace = true,
                      const probabilities* p = nullptr, index_t axis = 0) {
  if (a.ndim() == 0)
    throw value_error("a must be a sequence or an integer, not <class 'numpy.ndarray'>");
  const int ax = ::cupp::detail::checked_axis(axis, a.ndim());
  const index_t population = a.shape()[ax];
  const index_t k = ::cupp::detail::checked_size(size, sizeof(std::int64_t));
  if (population == 0 && k != 0) throw value_error("a cannot be empty unless no samples are taken");
  return take(a, choice_indices<AS>(bg, population, size, replace, p), ax);
}

}  // namespace cupp::random::detail
