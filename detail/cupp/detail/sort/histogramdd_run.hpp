// The engine of numpy.histogramdd and histogram2d over arrays and lazy
// expressions: every dimension's edges (equal bins or given), one binner
// over the D columns of the samples into the flattened D-dimensional
// histogram, and the density. The one-dimensional pieces it shares with
// numpy.histogram are in histogram_run.hpp.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/sums.hpp>
#include <cupp/detail/sort/histogram_bins.hpp>
#include <cupp/detail/sort/histogram_plan.hpp>
#include <cupp/detail/sort/histogram_run.hpp>
#include <cupp/detail/sort/search_run.hpp>
#include <cupp/sort/sort_types.hpp>

namespace cupp {

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
    const ndarray<double, S> s(
        detail::impl::sum<void>(as_operand(result.hist), detail::reduce_args<>(axis_arg{})));
    for (int d = 0; d < dims; ++d) {
      std::vector<double> widths(static_cast<std::size_t>(core[d]));
      for (index_t i = 0; i < core[d]; ++i) widths[i] = edges[d][i + 1] - edges[d][i];
      const ndarray<double, S> wd = to_space<double, S>(widths);
      shape_t shp = shape_t::filled(dims, 1);
      shp[d] = core[d];
      const ndarray<double, S> view(wd.data(), shp, strides_t::filled(dims, sizeof(double)),
                                    wd.memory(), wd.device_id(), false);
      ndarray<double, S> next(core);
      detail::assign(next, result.hist / view);
      result.hist = next;
    }
    ndarray<double, S> last(core);
    detail::assign(last, result.hist / s);
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
    detail::assign(ndarray<T, S>(xy.data(), shape_t{n}, unit, xy.memory(), xy.device_id(), false),
                   as_operand(search::dense(x_in).ravel()));
    detail::assign(
        ndarray<T, S>(xy.data() + n, shape_t{n}, unit, xy.memory(), xy.device_id(), false),
        as_operand(search::dense(y_in).ravel()));
  }
  const std::vector<const T*> cols{xy.data(), xy.data() + n};
  if (bins.size() == 1) bins.push_back(bins.front());
  auto r = histogramdd_core<T>(cols, n, 1, xy, std::move(bins), range, density, weights);
  return histogram2d_result<S>{r.hist, r.bin_edges[0], r.bin_edges[1]};
}

}  // namespace detail::hist

}  // namespace cupp
