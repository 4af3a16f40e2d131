// numpy.random.Generator's permutation, shuffle, permuted and choice, for
// device and host arrays. A permutation of n is a keyed pseudo-random
// bijection of [0, n) (detail/random/bijection.hpp): element i is
// bijection(i), computed independently by each thread in one pass, with no
// sort, the same bits on the host. Permuting an array is a gather by such
// a permutation, permuted gives each slice a bijection of its own, and
// choice without replacement is the first k elements of a permutation
// (O(k) whatever the population). The generator (basic_generator) forwards
// its members to the functions of cupp::random::detail here.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <cupp/advanced_indexing.hpp>
#include <cupp/detail/random/bijection.hpp>
#include <cupp/detail/random/draw.hpp>
#include <cupp/detail/random/exact_math.hpp>
#include <cupp/detail/random/samplers_basic.hpp>
#include <cupp/errors.hpp>
#include <cupp/generators.hpp>
#include <cupp/random/bit_generator.hpp>
#include <cupp/shape.hpp>
#include <cupp/sort.hpp>

namespace cupp::detail::random {

// Element p of a permutation: the bijection's image of p. Over a shape of
// k < n elements it is choice without replacement.
struct permutation_fn {
  using value_type = std::int64_t;
  static constexpr int coords = 1;
  feistel_bijection f;

  CUPP_HD value_type operator()(const index_t* pos) const {
    return static_cast<value_type>(f(static_cast<std::uint64_t>(pos[0])));
  }
};

// permuted's source index along the axis: position 0 is the slice's number
// (which keys its own bijection, block `slice` of the draw), position 1 the
// index along the axis.
struct slice_permutation_fn {
  using value_type = std::int64_t;
  static constexpr int coords = 2;
  std::uint64_t n;
  draw_site site;

  CUPP_HD value_type operator()(const index_t* pos) const {
    const feistel_bijection f(n, site, static_cast<std::uint64_t>(pos[0]));
    return static_cast<value_type>(f(static_cast<std::uint64_t>(pos[1])));
  }
};

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

// The generator space whose evaluation lands in array space AS.
template <class AS>
using generator_space_for =
    std::conditional_t<std::is_same_v<AS, host_space>, host_space, any_space>;
template <class S>
using array_space_for = ::cupp::detail::eval_space_t<S>;

inline std::array<strides_t, 1> flat_strides(const shape_t& shape) {
  return {::cupp::detail::contiguous_strides(shape, 1)};
}

// A host vector as an array of space AS.
template <class AS, class T>
ndarray<T, AS> to_space(const std::vector<T>& v) {
  host::ndarray<T> h(shape_t{static_cast<index_t>(v.size())});
  for (std::size_t i = 0; i < v.size(); ++i) h.data()[i] = v[i];
  if constexpr (std::is_same_v<AS, host_space>) {
    return h;
  } else {
    ndarray<T> d(h.shape());
    d.set(h);
    return d;
  }
}

// numpy.random.Generator.permutation(n): 0, ..., n - 1 permuted, as a lazy
// int64 array (no elements for n <= 0, as numpy's arange(n)). One counter
// block keys it.
template <class S>
auto permutation(philox& bg, index_t n) {
  const index_t m = n > 0 ? n : 0;
  const rnd::draw_site site = bg.take(1);
  const shape_t shape{m};
  return generator<rnd::permutation_fn, S>(
      rnd::permutation_fn{rnd::feistel_bijection(static_cast<std::uint64_t>(m), site, 0)}, shape,
      flat_strides(shape));
}

template <class AS>
ndarray<std::int64_t, AS> permutation_indices(philox& bg, index_t n) {
  return permutation<generator_space_for<AS>>(bg, n).eval();
}

// numpy.random.Generator.permutation(x, axis): a copy of x permuted along
// axis.
template <class T, class AS>
ndarray<T, AS> permutation(philox& bg, const ndarray<T, AS>& x, index_t axis = 0) {
  const int ax = ::cupp::detail::checked_axis(axis, x.ndim());
  return ::cupp::take(x, permutation_indices<AS>(bg, x.shape()[ax]), ax);
}

// numpy.random.Generator.shuffle(x, axis): x permuted along axis in place.
template <class T, class AS>
void shuffle(philox& bg, const ndarray<T, AS>& x, index_t axis = 0) {
  if (x.ndim() == 0) throw type_error("len() of unsized object");
  const int ax = ::cupp::detail::checked_axis(axis, x.ndim());
  if (!x.flags().writeable) throw value_error("assignment destination is read-only");
  const ndarray<T, AS> permuted_copy = permutation(bg, x, ax);
  copyto(x, permuted_copy);
}

// numpy.random.Generator.permuted(x, axis, out): each 1-d slice of x along
// axis permuted independently (axis empty: all elements of x together);
// written to out when given (which may be x itself), a new array otherwise.
template <class T, class AS>
ndarray<T, AS> permuted(philox& bg, const ndarray<T, AS>& x, std::optional<index_t> axis = {},
                        const ndarray<T, AS>* out = nullptr) {
  if (out && !(out->shape() == x.shape())) throw value_error("out must have the same shape as x");
  ndarray<T, AS> result;
  if (!axis) {
    const auto idx = permutation_indices<AS>(bg, x.size());
    result = ::cupp::take(x, idx).reshape(x.shape());
  } else {
    const int ax = ::cupp::detail::checked_axis(*axis, x.ndim());
    const shape_t& shape = x.shape();
    const index_t len = shape[ax];
    const index_t slices = len == 0 ? 0 : x.size() / len;
    shape_t slice_shape = shape;
    slice_shape[ax] = 1;
    std::array<strides_t, 2> st{::cupp::detail::contiguous_strides(slice_shape, 1),
                                strides_t::filled(shape.size(), 0)};
    st[0][ax] = 0;
    st[1][ax] = 1;
    const rnd::draw_site site = bg.take(static_cast<std::uint64_t>(slices));
    const ndarray<std::int64_t, AS> idx =
        generator<rnd::slice_permutation_fn, generator_space_for<AS>>(
            rnd::slice_permutation_fn{static_cast<std::uint64_t>(len), site}, shape, st)
            .eval();
    result = ::cupp::take_along_axis(x, idx, ax);
  }
  if (!out) return result;
  if (!out->flags().writeable) throw value_error("assignment destination is read-only");
  copyto(*out, result);
  return *out;
}

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
template <class AS>
ndarray<std::int64_t, AS> choice_indices(philox& bg, index_t population, const shape_t& size,
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
  const ndarray<std::int64_t, AS> order = ::cupp::argsort(keys);
  return order(::cupp::slice(k)).copy().reshape(size);
}

// numpy.random.Generator.choice(a, size, replace, p, shuffle) with an
// integer a: indices into arange(a). shuffle=False changes nothing (NumPy
// leaves the order unspecified then; here it is always random).
template <class S>
ndarray<std::int64_t, array_space_for<S>> choice(philox& bg, index_t a, const shape_t& size,
                                                 bool replace = true,
                                                 const probabilities* p = nullptr) {
  const index_t k = ::cupp::detail::checked_size(size, sizeof(std::int64_t));
  if (a <= 0 && k != 0)
    throw value_error("a must be a positive integer unless no samples are taken");
  return choice_indices<array_space_for<S>>(bg, a, size, replace, p);
}

// choice with an array a: the chosen entries of a along axis (the axis of
// the result replaced by `size`, NumPy's a.take(indices, axis)).
template <class T, class AS>
ndarray<T, AS> choice(philox& bg, const ndarray<T, AS>& a, const shape_t& size, bool replace = true,
                      const probabilities* p = nullptr, index_t axis = 0) {
  if (a.ndim() == 0)
    throw value_error("a must be a sequence or an integer, not <class 'numpy.ndarray'>");
  const int ax = ::cupp::detail::checked_axis(axis, a.ndim());
  const index_t population = a.shape()[ax];
  const index_t k = ::cupp::detail::checked_size(size, sizeof(std::int64_t));
  if (population == 0 && k != 0) throw value_error("a cannot be empty unless no samples are taken");
  return ::cupp::take(a, choice_indices<AS>(bg, population, size, replace, p), ax);
}

}  // namespace cupp::random::detail
