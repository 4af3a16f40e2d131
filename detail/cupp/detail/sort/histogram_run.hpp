// The engine of numpy.histogram and histogram_bin_edges over arrays and
// lazy expressions: the bins' plan (an int, a rule or explicit edges), the
// counting (or weighting) of one binner over the flattened input, device
// or host, and the density. The bin geometry and the rules are in
// histogram_bins.hpp, histogram_plan.hpp and histogram_rules.hpp;
// histogramdd and histogram2d in histogramdd_run.hpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/axis.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/extrema.hpp>
#include <cupp/detail/reduce/sums.hpp>
#include <cupp/detail/sort/histogram_plan.hpp>
#include <cupp/detail/sort/histogram_rules.hpp>
#include <cupp/detail/sort/search_run.hpp>
#include <cupp/sort/sort_types.hpp>

namespace cupp {

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
    return asarray(h);
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
  const ndarray<double, S> total(detail::impl::sum<void>(as_operand(n.template astype<double>()),
                                                         detail::reduce_args<>(axis_arg{})));
  ndarray<double, S> out(n.shape());
  if (out.size() > 0) detail::assign(out, n.template astype<double>() / db / total);
  return out;
}

template <class T, class S>
std::pair<double, double> min_max(const ndarray<T, S>& a) {
  const T lo = ndarray<T, S>(
                   detail::impl::min<void>(as_operand(a), detail::reduce_args<>(axis_arg{})))
                   .item(),
          hi = ndarray<T, S>(
                   detail::impl::max<void>(as_operand(a), detail::reduce_args<>(axis_arg{})))
                   .item();
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

}  // namespace cupp
