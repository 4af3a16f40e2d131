// Host-side planning of a histogram: NumPy's outer edges (range, or the
// data's min and max) with its checks and messages, and the edges of
// equal bins between them.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/detail/sort/histogram_bins.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail::hist {

using range_arg = std::optional<std::pair<double, double>>;

// Python's str() of a float (shortest round trip, ".0" on integral values)
// in the precision of F.
template <class F>
std::string py_float(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::to_chars_result r;
  if constexpr (std::is_same_v<F, float>)
    r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(v));
  else
    r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// The outer edges of equal bins and whether NumPy holds them as numpy
// scalars of the input's float dtype F (from the data) or as Python
// numbers (a range, or an empty input).
struct outer_edges {
  double lo = 0, hi = 1;
  bool in_f = false;
};

inline void check_range(const range_arg& range) {
  if (!range) return;
  const auto [lo, hi] = *range;
  if (lo > hi) throw value_error("max must be larger than min in range parameter.");
  if (!std::isfinite(lo) || !std::isfinite(hi))
    throw value_error("supplied range of [" + py_float<double>(lo) + ", " + py_float<double>(hi) +
                      "] is not finite");
}

// F: the input's float dtype (double for integers). min and max are read
// only when there is no range and the input is not empty.
template <class F, class MinMax>
outer_edges find_outer_edges(const range_arg& range, index_t size, MinMax&& min_max) {
  outer_edges o;
  check_range(range);
  if (range) {
    o.lo = range->first;
    o.hi = range->second;
  } else if (size > 0) {
    const auto [lo, hi] = min_max();
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
      using P = std::conditional_t<std::is_same_v<F, double>, double, float>;
      throw value_error("autodetected range of [" + py_float<P>(lo) + ", " + py_float<P>(hi) +
                        "] is not finite");
    }
    o.lo = lo;
    o.hi = hi;
    o.in_f = true;
  }
  if (o.lo == o.hi) {
    o.lo =
        o.in_f ? static_cast<double>(round_to<F>(static_cast<calc_t<F>>(o.lo - 0.5))) : o.lo - 0.5;
    o.hi =
        o.in_f ? static_cast<double>(round_to<F>(static_cast<calc_t<F>>(o.hi + 0.5))) : o.hi + 0.5;
  }
  return o;
}

// The edges of nbins equal bins as NumPy's histogram computes them.
template <class F>
std::vector<F> equal_edges(const outer_edges& o, index_t nbins) {
  if (o.in_f) return linspace_edges<F, F>(o.lo, o.hi, nbins);
  return linspace_edges<double, F>(o.lo, o.hi, nbins);
}

// The even binner's bounds and denominator for these edges.
template <class T, class F, class Weight>
even_binner<T, F, Weight> make_even_binner(const T* x, Weight w, const F* edges, index_t nbins,
                                           const outer_edges& o) {
  using C = calc_t<F>;
  even_binner<T, F, Weight> b{x,
                              w,
                              edges,
                              nbins,
                              round_to<F>(static_cast<C>(o.lo)),
                              round_to<F>(static_cast<C>(o.hi)),
                              0.0,
                              o.in_f,
                              0.0,
                              false,
                              1.0};
  b.denom = o.in_f ? static_cast<double>(round_to<F>(static_cast<C>(b.hi - b.lo))) : o.hi - o.lo;
  b.scale = static_cast<double>(nbins) / b.denom;
  b.numpy_estimate = nbins > (index_t(1) << 20) || !(b.scale < 1e30);
  // The estimate's and the edges' rounding, in bins, is a few units in the
  // last place of the bounds' magnitude (times the scale) plus of the bin
  // count; `sure` allows 16 times that. Half-precision dtypes round every
  // operation to 11 bits: their edges always decide.
  if constexpr (!is_low_float_v<F>) {
    const double unit = std::is_same_v<C, float> ? 0x1p-17 : 0x1p-46;
    const double magnitude = std::max(std::abs(o.lo), std::abs(o.hi));
    const double sure = unit * (magnitude * std::abs(b.scale) + static_cast<double>(nbins));
    if (sure < 0.25) b.sure = sure;
  }
  return b;
}

}  // namespace cupp::detail::hist
