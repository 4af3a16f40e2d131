// Histogram binning with NumPy's exact arithmetic: the edges of equal bins
// (numpy.linspace's steps, each rounded to the dtype NumPy computes in),
// the bin of a value among equal bins ((x - lo) / (hi - lo) * n, then
// corrected against the edges, the last bin closed), among explicit edges
// (a binary search), and among the edges of several dimensions.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::hist {

// The type NumPy's arithmetic on F runs in, and F's rounding of a result:
// float16 operations compute in float and round once per operation.
template <class F>
using calc_t = std::conditional_t<is_low_float_v<F>, float, F>;

template <class F>
CUPP_HD inline calc_t<F> round_to(calc_t<F> v) {
  if constexpr (std::is_same_v<F, __half>)
    return __half2float(__float2half_rn(v));
  else if constexpr (std::is_same_v<F, __nv_bfloat16>)
    return __bfloat162float(__float2bfloat16_rn(v));
  else
    return v;
}

// The value of any real dtype in F's calculation type.
template <class F, class T>
CUPP_HD inline calc_t<F> as_calc(const T& v) {
  if constexpr (is_low_float_v<T>)
    return round_to<F>(static_cast<calc_t<F>>(to_float(v)));
  else
    return round_to<F>(static_cast<calc_t<F>>(v));
}

// numpy.linspace(lo, hi, nbins + 1) computed in L (F when the bounds are
// numpy scalars of F, float64 when they are Python numbers) and cast to F.
template <class L, class F>
std::vector<F> linspace_edges(double lo, double hi, index_t nbins) {
  using C = calc_t<L>;
  const C start = round_to<L>(static_cast<C>(lo)), stop = round_to<L>(static_cast<C>(hi));
  const C div = static_cast<C>(nbins);
  const C delta = round_to<L>(stop - start);
  const C step = round_to<L>(delta / div);
  std::vector<F> edges(static_cast<std::size_t>(nbins + 1));
  for (index_t i = 0; i <= nbins; ++i) {
    const C k = static_cast<C>(i);
    const C y = step == C(0) ? round_to<L>(round_to<L>(k / div) * delta) : round_to<L>(k * step);
    edges[i] = convert<F>(i == nbins ? stop : round_to<L>(y + start));
  }
  return edges;
}

// Equal bins: NumPy's fast path. Values compare with the bounds in K (F's
// calculation type for floats, double for integers); the index scales in
// F when NumPy's bounds are numpy scalars of F (`in_dtype`), else in double.
template <class T, class F, class Weight>
struct even_binner {
  using C = calc_t<F>;
  const T* x;
  Weight w;
  const F* edges;  // nbins + 1 (global memory, or staged into shared)
  index_t nbins;
  C lo, hi;      // bounds rounded to F (ints: exact doubles)
  double denom;  // hi - lo as NumPy computes it
  bool in_dtype;
  double scale;  // nbins / denom
  bool numpy_estimate;
  double sure;  // see bin(); 1 where only the edges decide

  CUPP_HD bool keeps(C v) const { return v >= lo && v <= hi; }

  CUPP_HD index_t bin(index_t i) const { return bin_of(x[i]); }
  CUPP_HD index_t bin_of(const T& value) const {
    const C v = as_calc<F>(value);
    if (!keeps(v)) return -1;
    // NumPy estimates the bin as (v - lo) / (hi - lo) * nbins and corrects
    // it by one against the edges either way, so any estimate within one
    // bin of the true one gives NumPy's bin: a multiplication by the
    // reciprocal (a division, in float64 above all, costs more than the
    // read of the value).
    // Past 2^20 bins (or for a range too narrow for the reciprocal) the
    // estimate is NumPy's own arithmetic, since NumPy's may then be off by
    // more than one and its correction would not reach the true bin.
    const C diff = round_to<F>(v - lo);
    index_t k;
    if (!numpy_estimate) {
      // Float values estimate in float (conversions to and from double cost
      // as much as the rest). An estimate farther than `sure` (in bins)
      // from both ends of its bin is that bin: the rounding of the value,
      // of the estimate and of NumPy's edges is well inside that margin, so
      // the edges (two shared-memory reads, the kernel's bottleneck) are
      // read only near them.
      if constexpr (std::is_same_v<C, float>) {
        const float f = diff * static_cast<float>(scale);
        k = static_cast<int>(f);
        const float frac = f - static_cast<float>(k);
        if (frac > static_cast<float>(sure) && frac < 1.f - static_cast<float>(sure) && k < nbins)
          return k;
      } else {
        const double f = static_cast<double>(diff) * scale;
        k = static_cast<index_t>(f);
        const double frac = f - static_cast<double>(k);
        if (frac > sure && frac < 1.0 - sure && k < nbins) return k;
      }
    } else if (in_dtype) {
      const C f = round_to<F>(round_to<F>(diff / static_cast<C>(denom)) * static_cast<C>(nbins));
      k = static_cast<index_t>(f);
    } else {
      k = static_cast<index_t>(static_cast<double>(diff) / denom * static_cast<double>(nbins));
    }
    if (k >= nbins) k = nbins - 1;
    if (v < as_calc<F>(edges[k])) --k;
    if (k != nbins - 1 && v >= as_calc<F>(edges[k + 1])) ++k;
    return k;
  }
  template <class Acc>
  CUPP_HD Acc weight(index_t i) const {
    return w.template at<Acc>(i);
  }
  std::size_t table_bytes() const { return static_cast<std::size_t>(nbins + 1) * sizeof(F); }
  CUPP_HD void stage(unsigned char* smem, unsigned tid, unsigned threads) {
    F* local = reinterpret_cast<F*>(smem);
    for (index_t k = tid; k <= nbins; k += threads) local[k] = edges[k];
    edges = local;
  }
};

// The bin among n_edges sorted edges: e[i] <= v < e[i+1], the last bin
// closed; values outside (and NaN) are dropped. Compared as double.
CUPP_HD inline index_t edge_bin(const double* e, index_t n_edges, double v) {
  if (n_edges < 2 || !(v >= e[0] && v <= e[n_edges - 1])) return -1;
  index_t lo = 0, hi = n_edges;
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (v < e[mid])
      hi = mid;
    else
      lo = mid + 1;
  }
  // The last bin holds its right edge: anything from its left edge up.
  return lo - 1 < n_edges - 2 ? lo - 1 : n_edges - 2;
}

template <class T, class Weight>
struct edges_binner {
  const T* x;
  Weight w;
  const double* edges;
  index_t n_edges;

  CUPP_HD index_t bin(index_t i) const { return edge_bin(edges, n_edges, convert<double>(x[i])); }
  template <class Acc>
  CUPP_HD Acc weight(index_t i) const {
    return w.template at<Acc>(i);
  }
  std::size_t table_bytes() const { return static_cast<std::size_t>(n_edges) * sizeof(double); }
  CUPP_HD void stage(unsigned char* smem, unsigned tid, unsigned threads) {
    double* local = reinterpret_cast<double*>(smem);
    for (index_t k = tid; k < n_edges; k += threads) local[k] = edges[k];
    edges = local;
  }
};

// histogramdd: NumPy searches each coordinate among its dimension's edges
// (side right), moves a value on the last edge into the last bin, and
// keeps only samples inside every dimension's edges.
inline constexpr int max_hist_dims = 32;

template <class T, class Weight>
struct dd_binner {
  const T* column[max_hist_dims];  // coordinate d of sample i: column[d][i * step]
  index_t step;
  Weight w;
  const double* edges;  // every dimension's edges, one after another
  int dims;
  index_t offset[max_hist_dims];
  index_t count[max_hist_dims];  // edges per dimension

  CUPP_HD index_t bin(index_t i) const {
    index_t flat = 0;
    for (int d = 0; d < dims; ++d) {
      const double* e = edges + offset[d];
      const index_t m = count[d];
      const double v = convert<double>(column[d][i * step]);
      index_t lo = 0, hi = m;
      while (lo < hi) {
        const index_t mid = lo + (hi - lo) / 2;
        if (v < e[mid])
          hi = mid;
        else
          lo = mid + 1;
      }
      if (v == e[m - 1]) --lo;
      if (lo <= 0 || lo >= m) return -1;
      flat = flat * (m - 1) + (lo - 1);
    }
    return flat;
  }
  template <class Acc>
  CUPP_HD Acc weight(index_t i) const {
    return w.template at<Acc>(i);
  }
  std::size_t table_bytes() const { return 0; }
  CUPP_HD void stage(unsigned char*, unsigned, unsigned) {}
};

}  // namespace cupp::detail::hist
