// numpy.histogram, histogram_bin_edges, histogram2d and histogramdd over
// arrays and lazy expressions. Equal bins count with NumPy's own arithmetic
// ((x - lo) / (hi - lo) * n, corrected against the edges, the last bin
// closed) in one kernel with per-block bins in shared memory; explicit
// edges search edges held in shared memory. Without a range the data's min
// and max are read back (the edges depend on them); string rules read the
// data back to the host to size the bins.
//
//   auto [hist, edges] = cupp::histogram(x, 256, std::pair{0.0, 1.0});
//   auto [p, e] = cupp::histogram(x, "auto", std::nullopt, cupp::density);
//   auto [h2, xe, ye] = cupp::histogram2d(x, y, 32);
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/detail/sort/histogram_plan.hpp>
#include <cupp/detail/sort/histogram_rules.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/sort/search.hpp>

namespace cupp {

// density=True: the histogram as a probability density (float64).
struct density_t {
  explicit constexpr density_t() = default;
};
inline constexpr density_t density{};

// NumPy's range=(lo, hi); std::nullopt is range=None.
using histogram_range = std::optional<std::pair<double, double>>;

template <class H, class E, class S>
struct histogram_result {
  ndarray<H, S> hist;
  ndarray<E, S> bin_edges;
};

namespace detail::hist {

template <class W>
struct operand_value {
  using type =
      typename std::remove_cvref_t<decltype(as_operand(std::declval<const W&>()))>::value_type;
};

// The float dtype of a histogram's computed edges: the input's, float64
// for integers.
template <class T>
using edge_t = std::conditional_t<std::is_integral_v<T>, double, T>;

template <class T, class S>
ndarray<T, S> to_space(const std::vector<T>& v) {
  host::ndarray<T> h(shape_t{static_cast<index_t>(v.size())});
  std::copy(v.begin(), v.end(), h.data());
  if constexpr (std::is_same_v<S, device_space>)
    return cupp::asarray(h);
  else
    return h;
}

template <class T, class S>
host::ndarray<T> to_host(const ndarray<T, S>& a) {
  if constexpr (std::is_same_v<S, device_space>)
    return a.get();
  else
    return a;
}

// Runs a binner over n elements into nbins accumulators of type Acc.
template <class Acc, class S, class Binner>
void accumulate(const Binner& b, index_t n, index_t nbins, Acc* out, int device) {
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    search::device_accumulate(b, n, nbins, out, device);
#else
    (void)device;
    CUPP_NEEDS_NVCC(Binner);
#endif
  } else {
    std::fill(out, out + nbins, Acc{0});
    search::host_accumulate(b, n, out);
  }
}

// Counts (int64) or sums of weights (their dtype, accumulated in double).
template <class W, class S, class MakeBinner>
auto count_bins(index_t n, index_t nbins, const W* weights, MakeBinner&& make) {
  if constexpr (std::is_void_v<W>) {
    ndarray<std::int64_t, S> out(shape_t{nbins});
    accumulate<unsigned long long, S>(make(search::unit_weight{}), n, nbins,
                                      reinterpret_cast<unsigned long long*>(out.data()),
                                      out.device_id());
    return out;
  } else {
    static_assert(!is_complex_type_v<W>, "cupp::histogram: complex weights are not supported");
    ndarray<double, S> sums(shape_t{nbins});
    accumulate<double, S>(make(search::array_weight<W>{weights}), n, nbins, sums.data(),
                          sums.device_id());
    if constexpr (std::is_same_v<W, double>)
      return sums;
    else
      return sums.template astype<W>();
  }
}

// n / diff(edges) / n.sum() as float64.
template <class H, class S>
ndarray<double, S> to_density(const ndarray<H, S>& n, const std::vector<double>& edges) {
  std::vector<double> widths(edges.size() > 0 ? edges.size() - 1 : 0);
  for (std::size_t i = 0; i + 1 < edges.size(); ++i) widths[i] = edges[i + 1] - edges[i];
  const ndarray<double, S> db = to_space<double, S>(widths);
  const ndarray<double, S> total(cupp::sum(n.template astype<double>()));
  ndarray<double, S> out(n.shape());
  if (out.size() > 0) copyto(out, n.template astype<double>() / db / total);
  return out;
}

template <class T, class S>
std::pair<double, double> min_max(const ndarray<T, S>& a) {
  const T lo = ndarray<T, S>(cupp::min(a)).item(), hi = ndarray<T, S>(cupp::max(a)).item();
  return {convert<double>(lo), convert<double>(hi)};
}

// Equal bins for a dense input: the number of bins from an int or a rule.
template <class T, class S, class W>
std::pair<outer_edges, index_t> plan_equal(const ndarray<T, S>& a, std::string_view rule,
                                           index_t nbins, const range_arg& range, bool weighted) {
  using F = edge_t<T>;
  if (!rule.empty()) {
    if (!is_rule(rule))
      throw value_error("'" + std::string(rule) + "' is not a valid estimator for `bins`");
    if (weighted)
      throw type_error(
          "Automated estimation of the number of bins is not supported for weighted data");
  } else if (nbins < 1) {
    throw value_error("`bins` must be positive, when an integer");
  }
  const outer_edges o = find_outer_edges<F>(range, a.size(), [&] { return min_max(a); });
  if (rule.empty()) return {o, nbins};
  // The rule sizes the bins from the values inside the outer edges.
  const host::ndarray<T> h = to_host(a);
  const auto keep =
      make_even_binner(h.data(), search::unit_weight{}, static_cast<const F*>(nullptr), 1, o);
  rule_data<T> d;
  for (index_t i = 0; i < h.size(); ++i) {
    const auto v = as_calc<F>(h.data()[i]);
    if (keep.keeps(v)) d.v.push_back(static_cast<double>(v));
  }
  std::sort(d.v.begin(), d.v.end());
  const auto counts = [&](index_t k) {
    const std::vector<F> edges = equal_edges<F>(o, k);
    std::vector<unsigned long long> c(static_cast<std::size_t>(k), 0);
    search::host_accumulate(make_even_binner(h.data(), search::unit_weight{}, edges.data(), k, o),
                            h.size(), c.data());
    return std::vector<double>(c.begin(), c.end());
  };
  return {o, rule_bins<T>(rule, d, o.lo, o.hi, o.in_f, counts)};
}

template <bool Density, class A, class B, class W>
auto histogram_impl(const A& a_in, const B& bins, const range_arg& range, const W* weights_in) {
  using T = typename std::remove_cvref_t<decltype(as_operand(a_in))>::value_type;
  using S = eval_space_t<typename std::remove_cvref_t<decltype(as_operand(a_in))>::space>;
  static_assert(!is_complex_type_v<T>, "cupp::histogram: complex input is not supported");
  using TW = typename std::conditional_t<std::is_void_v<W>, std::type_identity<void>,
                                         operand_value<W>>::type;
  if constexpr (!std::is_void_v<W>) {
    if (weights_in->shape() != a_in.shape())
      throw value_error("weights should have the same shape as a.");
  }
  const ndarray<T, S> a = search::dense(a_in);
  const index_t n = a.size();
  const auto w = [&] {
    if constexpr (std::is_void_v<W>)
      return 0;
    else
      return search::dense(*weights_in);
  }();
  const TW* wp = nullptr;
  if constexpr (!std::is_void_v<W>) wp = w.data();
  if constexpr (Expression<B>) {
    // Explicit edges: searched as double.
    using E = typename std::remove_cvref_t<decltype(as_operand(bins))>::value_type;
    if (bins.shape().size() != 1) throw value_error("`bins` must be 1d, when an array");
    const ndarray<E, S> edges = search::dense(bins);
    const host::ndarray<E> he = to_host(edges);
    std::vector<double> e(static_cast<std::size_t>(he.size()));
    for (index_t i = 0; i < he.size(); ++i) e[i] = convert<double>(he.data()[i]);
    for (std::size_t i = 1; i < e.size(); ++i)
      if (e[i - 1] > e[i]) throw value_error("`bins` must increase monotonically, when an array");
    const ndarray<double, S> de = to_space<double, S>(e);
    const index_t nbins = std::max<index_t>(0, static_cast<index_t>(e.size()) - 1);
    auto counts = count_bins<TW, S>(n, nbins, wp, [&](auto weight) {
      return edges_binner<T, decltype(weight)>{a.data(), weight, de.data(), de.size()};
    });
    if constexpr (Density)
      return histogram_result<double, E, S>{to_density(counts, e), edges};
    else
      return histogram_result<typename decltype(counts)::value_type, E, S>{counts, edges};
  } else {
    using F = edge_t<T>;
    std::string_view rule;
    index_t nb = 0;
    if constexpr (std::is_integral_v<B>)
      nb = static_cast<index_t>(bins);
    else
      rule = std::string_view(bins);
    const auto [o, nbins] = plan_equal<T, S, W>(a, rule, nb, range, !std::is_void_v<W>);
    const std::vector<F> he = equal_edges<F>(o, nbins);
    const ndarray<F, S> edges = to_space<F, S>(he);
    auto counts = count_bins<TW, S>(n, nbins, wp, [&](auto weight) {
      return make_even_binner(a.data(), weight, static_cast<const F*>(edges.data()), nbins, o);
    });
    if constexpr (Density) {
      std::vector<double> e(he.size());
      for (std::size_t i = 0; i < he.size(); ++i) e[i] = convert<double>(he[i]);
      return histogram_result<double, F, S>{to_density(counts, e), edges};
    } else {
      return histogram_result<typename decltype(counts)::value_type, F, S>{counts, edges};
    }
  }
}

template <class B>
concept histogram_bins =
    std::is_integral_v<B> || std::is_convertible_v<B, std::string_view> || Expression<B>;

}  // namespace detail::hist

// numpy.histogram(a, bins=10, range=None): int64 counts and the edges.
// bins: an int (equal bins), a 1-d array of increasing edges, or one of
// NumPy's rules ("auto", "fd", "doane", "scott", "stone", "rice",
// "sturges", "sqrt"). `a` is flattened.
template <Expression A, detail::hist::histogram_bins B = int>
auto histogram(const A& a, const B& bins = 10, const histogram_range& range = std::nullopt) {
  return detail::hist::histogram_impl<false, A, B, void>(a, bins, range, nullptr);
}
// density=True: float64 densities (integrating to 1 over the range).
template <Expression A, detail::hist::histogram_bins B>
auto histogram(const A& a, const B& bins, const histogram_range& range, density_t) {
  return detail::hist::histogram_impl<true, A, B, void>(a, bins, range, nullptr);
}
// weights=w: sums of the weights (w's dtype), same shape as a.
template <Expression A, detail::hist::histogram_bins B, Expression W>
auto histogram(const A& a, const B& bins, const histogram_range& range, const W& weights) {
  return detail::hist::histogram_impl<false, A, B, W>(a, bins, range, &weights);
}
template <Expression A, detail::hist::histogram_bins B, Expression W>
auto histogram(const A& a, const B& bins, const histogram_range& range, density_t,
               const W& weights) {
  return detail::hist::histogram_impl<true, A, B, W>(a, bins, range, &weights);
}

// numpy.histogram_bin_edges(a, bins=10, range=None): the edges alone.
template <Expression A, detail::hist::histogram_bins B = int>
auto histogram_bin_edges(const A& a, const B& bins = 10,
                         const histogram_range& range = std::nullopt) {
  return histogram(a, bins, range).bin_edges;
}
template <Expression A, detail::hist::histogram_bins B, Expression W>
auto histogram_bin_edges(const A& a, const B& bins, const histogram_range& range,
                         const W& weights) {
  return histogram(a, bins, range, weights).bin_edges;
}

template <class S>
struct histogramdd_result {
  ndarray<double, S> hist;
  std::vector<ndarray<double, S>> bin_edges;
};

template <class S>
struct histogram2d_result {
  ndarray<double, S> hist;
  ndarray<double, S> xedges, yedges;
};

using histogramdd_range = std::vector<histogram_range>;

namespace detail::hist {

// One dimension's bins: a count of equal bins, or explicit edges.
struct dd_bins {
  index_t count = 0;
  std::optional<std::vector<double>> edges;
};

// histogramdd over D columns of N samples (column d at cols[d], `step`
// elements apart), all of dtype T in space S.
template <class T, class S, class W>
histogramdd_result<S> histogramdd_core(const std::vector<const T*>& cols, index_t n, index_t step,
                                       const ndarray<T, S>& owner, std::vector<dd_bins> bins,
                                       const histogramdd_range& range, bool density,
                                       const W* weights_in) {
  const int dims = static_cast<int>(cols.size());
  if (dims > max_hist_dims) throw value_error("cupp::histogramdd: at most 32 dimensions");
  if (static_cast<int>(bins.size()) != dims)
    throw value_error("The dimension of bins must be equal to the dimension of the sample x.");
  if (!range.empty() && static_cast<int>(range.size()) != dims)
    throw value_error("range argument must have one entry per dimension");
  using F = edge_t<T>;
  std::vector<double> all_edges;
  dd_binner<T, search::unit_weight> geometry{};
  shape_t core;
  std::vector<std::vector<double>> edges(dims);
  for (int d = 0; d < dims; ++d) {
    if (!bins[d].edges) {
      if (bins[d].count < 1)
        throw value_error("`bins[" + std::to_string(d) + "]` must be positive, when an integer");
      const range_arg r = range.empty() ? range_arg{} : range[d];
      const outer_edges o = find_outer_edges<F>(r, n, [&] {
        const ndarray<T, S> col(const_cast<T*>(cols[d]), shape_t{n},
                                strides_t{step * static_cast<index_t>(sizeof(T))}, owner.memory(),
                                owner.device_id(), false);
        return min_max(col);
      });
      // histogramdd's linspace keeps the dtype NumPy computes it in.
      const std::vector<F> e = equal_edges<F>(o, bins[d].count);
      for (const F& v : e) edges[d].push_back(convert<double>(v));
    } else {
      edges[d] = *bins[d].edges;
      for (std::size_t i = 1; i < edges[d].size(); ++i)
        if (edges[d][i - 1] > edges[d][i])
          throw value_error("`bins[" + std::to_string(d) +
                            "]` must be monotonically increasing, when an array");
    }
    geometry.offset[d] = static_cast<index_t>(all_edges.size());
    geometry.count[d] = static_cast<index_t>(edges[d].size());
    all_edges.insert(all_edges.end(), edges[d].begin(), edges[d].end());
    core.push_back(std::max<index_t>(0, geometry.count[d] - 1));
  }
  if constexpr (!std::is_void_v<W>) {
    if (size_of(weights_in->shape()) != n)
      throw value_error("The weights and list don't have the same length.");
  }
  const ndarray<double, S> edge_table = to_space<double, S>(all_edges);
  const index_t total = size_of(core);
  ndarray<double, S> hist(core);
  const auto run = [&](auto weight) {
    dd_binner<T, decltype(weight)> b{};
    for (int d = 0; d < dims; ++d) {
      b.column[d] = cols[d];
      b.offset[d] = geometry.offset[d];
      b.count[d] = geometry.count[d];
    }
    b.step = step;
    b.w = weight;
    b.edges = edge_table.data();
    b.dims = dims;
    accumulate<double, S>(b, n, total, hist.data(), hist.device_id());
  };
  if constexpr (std::is_void_v<W>) {
    run(search::unit_weight{});
  } else {
    const auto w = search::dense(*weights_in);
    run(search::array_weight<typename decltype(w)::value_type>{w.data()});
  }
  histogramdd_result<S> result{hist, {}};
  for (int d = 0; d < dims; ++d) result.bin_edges.push_back(to_space<double, S>(edges[d]));
  if (density && total > 0) {
    const ndarray<double, S> s(cupp::sum(result.hist));
    for (int d = 0; d < dims; ++d) {
      std::vector<double> widths(static_cast<std::size_t>(core[d]));
      for (index_t i = 0; i < core[d]; ++i) widths[i] = edges[d][i + 1] - edges[d][i];
      const ndarray<double, S> wd = to_space<double, S>(widths);
      shape_t shp = shape_t::filled(dims, 1);
      shp[d] = core[d];
      const ndarray<double, S> view(wd.data(), shp, strides_t::filled(dims, sizeof(double)),
                                    wd.memory(), wd.device_id(), false);
      ndarray<double, S> next(core);
      copyto(next, result.hist / view);
      result.hist = next;
    }
    ndarray<double, S> last(core);
    copyto(last, result.hist / s);
    result.hist = last;
  }
  return result;
}

template <class S, class E>
std::vector<dd_bins> edges_bins(const std::vector<ndarray<E, S>>& bins) {
  std::vector<dd_bins> out(bins.size());
  for (std::size_t d = 0; d < bins.size(); ++d) {
    if (bins[d].ndim() != 1)
      throw value_error("`bins[" + std::to_string(d) + "]` must be a scalar or 1d array");
    const host::ndarray<E> h = to_host(search::dense(bins[d]));
    std::vector<double> e(static_cast<std::size_t>(h.size()));
    for (index_t i = 0; i < h.size(); ++i) e[i] = convert<double>(h.data()[i]);
    out[d].edges = std::move(e);
  }
  return out;
}

inline std::vector<dd_bins> count_bins_dd(const std::vector<index_t>& counts) {
  std::vector<dd_bins> out(counts.size());
  for (std::size_t d = 0; d < counts.size(); ++d) out[d].count = counts[d];
  return out;
}

template <class Sample, class W>
auto histogramdd_impl(const Sample& sample_in, std::vector<dd_bins> bins, bool repeat,
                      const histogramdd_range& range, bool density, const W* weights) {
  const auto sample = search::dense(sample_in);
  using T = typename std::remove_cvref_t<decltype(sample)>::value_type;
  static_assert(!is_complex_type_v<T>, "cupp::histogramdd: complex samples are not supported");
  const index_t n = sample.ndim() >= 1 ? sample.shape()[0] : 1;
  const index_t dims = sample.ndim() >= 2 ? sample.shape()[1] : 1;
  if (sample.ndim() > 2) throw value_error("too many values to unpack (expected 2)");
  std::vector<const T*> cols;
  for (index_t d = 0; d < dims; ++d) cols.push_back(sample.data() + d);
  if (repeat) bins.assign(static_cast<std::size_t>(dims), bins.front());
  return histogramdd_core<T>(cols, n, dims, sample, std::move(bins), range, density, weights);
}

template <class X, class Y, class W>
auto histogram2d_impl(const X& x_in, const Y& y_in, std::vector<dd_bins> bins,
                      const histogramdd_range& range, bool density, const W* weights) {
  using TX = typename operand_value<X>::type;
  using TY = typename operand_value<Y>::type;
  using T = result_type_t<TX, TY>;
  using S = eval_space_t<typename std::remove_cvref_t<decltype(as_operand(x_in))>::space>;
  if (size_of(x_in.shape()) != size_of(y_in.shape()))
    throw value_error("x and y must have the same length.");
  const index_t n = size_of(x_in.shape());
  ndarray<T, S> xy(shape_t{2, n});
  if (n > 0) {
    const strides_t unit{static_cast<index_t>(sizeof(T))};
    copyto(ndarray<T, S>(xy.data(), shape_t{n}, unit, xy.memory(), xy.device_id(), false),
           cupp::ravel(search::dense(x_in)));
    copyto(ndarray<T, S>(xy.data() + n, shape_t{n}, unit, xy.memory(), xy.device_id(), false),
           cupp::ravel(search::dense(y_in)));
  }
  const std::vector<const T*> cols{xy.data(), xy.data() + n};
  if (bins.size() == 1) bins.push_back(bins.front());
  auto r = histogramdd_core<T>(cols, n, 1, xy, std::move(bins), range, density, weights);
  return histogram2d_result<S>{r.hist, r.bin_edges[0], r.bin_edges[1]};
}

}  // namespace detail::hist

// numpy.histogramdd(sample, bins=10, range=None, density=False, weights):
// sample is (N, D) (or 1-d: D = 1); bins an int for every dimension, one
// int per dimension, or one edges array per dimension; range one optional
// (lo, hi) per dimension (empty: None). float64 hist, float64 edges.
template <Expression X>
auto histogramdd(const X& sample, index_t bins = 10, const histogramdd_range& range = {},
                 bool density = false) {
  return detail::hist::histogramdd_impl<X, void>(sample, detail::hist::count_bins_dd({bins}), true,
                                                 range, density, nullptr);
}
template <Expression X>
auto histogramdd(const X& sample, const std::vector<index_t>& bins,
                 const histogramdd_range& range = {}, bool density = false) {
  return detail::hist::histogramdd_impl<X, void>(sample, detail::hist::count_bins_dd(bins), false,
                                                 range, density, nullptr);
}
template <Expression X, class E, class S>
auto histogramdd(const X& sample, const std::vector<ndarray<E, S>>& bins,
                 const histogramdd_range& range = {}, bool density = false) {
  return detail::hist::histogramdd_impl<X, void>(sample, detail::hist::edges_bins(bins), false,
                                                 range, density, nullptr);
}
// ... with weights (one per sample).
template <Expression X, Expression W>
auto histogramdd(const X& sample, index_t bins, const histogramdd_range& range, bool density,
                 const W& weights) {
  return detail::hist::histogramdd_impl<X, W>(sample, detail::hist::count_bins_dd({bins}), true,
                                              range, density, &weights);
}
template <Expression X, Expression W>
auto histogramdd(const X& sample, const std::vector<index_t>& bins, const histogramdd_range& range,
                 bool density, const W& weights) {
  return detail::hist::histogramdd_impl<X, W>(sample, detail::hist::count_bins_dd(bins), false,
                                              range, density, &weights);
}
template <Expression X, class E, class S, Expression W>
auto histogramdd(const X& sample, const std::vector<ndarray<E, S>>& bins,
                 const histogramdd_range& range, bool density, const W& weights) {
  return detail::hist::histogramdd_impl<X, W>(sample, detail::hist::edges_bins(bins), false, range,
                                              density, &weights);
}

// numpy.histogram2d(x, y, bins=10, range=None, density=False, weights):
// bins an int, {nx, ny}, one edges array for both, or {xedges, yedges}.
template <Expression X, Expression Y>
auto histogram2d(const X& x, const Y& y, index_t bins = 10, const histogramdd_range& range = {},
                 bool density = false) {
  return detail::hist::histogram2d_impl<X, Y, void>(x, y, detail::hist::count_bins_dd({bins}),
                                                    range, density, nullptr);
}
template <Expression X, Expression Y>
auto histogram2d(const X& x, const Y& y, const std::vector<index_t>& bins,
                 const histogramdd_range& range = {}, bool density = false) {
  return detail::hist::histogram2d_impl<X, Y, void>(x, y, detail::hist::count_bins_dd(bins), range,
                                                    density, nullptr);
}
template <Expression X, Expression Y, class E, class S>
auto histogram2d(const X& x, const Y& y, const std::vector<ndarray<E, S>>& bins,
                 const histogramdd_range& range = {}, bool density = false) {
  return detail::hist::histogram2d_impl<X, Y, void>(x, y, detail::hist::edges_bins(bins), range,
                                                    density, nullptr);
}
template <Expression X, Expression Y, class E, class S>
auto histogram2d(const X& x, const Y& y, const ndarray<E, S>& bins,
                 const histogramdd_range& range = {}, bool density = false) {
  return detail::hist::histogram2d_impl<X, Y, void>(x, y, detail::hist::edges_bins<S, E>({bins}),
                                                    range, density, nullptr);
}
template <Expression X, Expression Y, Expression W>
auto histogram2d(const X& x, const Y& y, index_t bins, const histogramdd_range& range, bool density,
                 const W& weights) {
  return detail::hist::histogram2d_impl<X, Y, W>(x, y, detail::hist::count_bins_dd({bins}), range,
                                                 density, &weights);
}
template <Expression X, Expression Y, Expression W>
auto histogram2d(const X& x, const Y& y, const std::vector<index_t>& bins,
                 const histogramdd_range& range, bool density, const W& weights) {
  return detail::hist::histogram2d_impl<X, Y, W>(x, y, detail::hist::count_bins_dd(bins), range,
                                                 density, &weights);
}

template <Expression X, Expression Y, class E, class S, Expression W>
auto histogram2d(const X& x, const Y& y, const std::vector<ndarray<E, S>>& bins,
                 const histogramdd_range& range, bool density, const W& weights) {
  return detail::hist::histogram2d_impl<X, Y, W>(x, y, detail::hist::edges_bins(bins), range,
                                                 density, &weights);
}

}  // namespace cupp
