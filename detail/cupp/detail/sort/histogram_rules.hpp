// NumPy's string rules for the number of equal bins ("auto", "fd",
// "doane", "scott", "stone", "rice", "sturges", "sqrt"), computed on the
// host from the values inside the range, with NumPy's dtypes: a width NumPy
// computes from numpy scalars of the input's float dtype F is rounded to F
// at each step (`in_f`), one computed from Python numbers stays double.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <cupp/detail/sort/histogram_bins.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail::hist {

inline bool is_rule(std::string_view name) {
  for (const char* r : {"stone", "auto", "doane", "fd", "rice", "scott", "sqrt", "sturges"})
    if (name == r) return true;
  return false;
}

// A width and whether NumPy holds it as a numpy scalar of F.
struct rule_width {
  double value = 0;
  bool in_f = false;
};

// The values (in F's calculation type as double) of an input of dtype T.
template <class T>
struct rule_data {
  static constexpr bool floating = !std::is_integral_v<T>;
  using F = std::conditional_t<floating, T, double>;
  std::vector<double> v;  // sorted
  index_t n() const { return static_cast<index_t>(v.size()); }

  static double rf(double x) {
    if constexpr (floating)
      return static_cast<double>(round_to<F>(static_cast<calc_t<F>>(x)));
    else
      return x;
  }
  // numpy.ptp: max - min in T (integers wrap as NumPy's do).
  double ptp() const {
    if constexpr (floating) {
      return rf(v.back() - v.front());
    } else if constexpr (std::is_same_v<T, bool>) {
      return v.back() - v.front();
    } else {
      using U = std::make_unsigned_t<T>;
      const U d = static_cast<U>(static_cast<U>(static_cast<T>(v.back())) -
                                 static_cast<U>(static_cast<T>(v.front())));
      return static_cast<double>(static_cast<T>(d));
    }
  }
  double mean() const {
    double s = 0;
    for (double x : v) s += x;
    return rf(s / static_cast<double>(v.size()));
  }
  double std_dev() const {
    double s = 0;
    for (double x : v) s += x;
    const double m = s / static_cast<double>(v.size());
    double q = 0;
    for (double x : v) q += (x - m) * (x - m);
    return rf(std::sqrt(q / static_cast<double>(v.size())));
  }
  // numpy.percentile(x, p) with the default linear method.
  double percentile(double p) const {
    const double pos = p / 100.0 * static_cast<double>(v.size() - 1);
    const double below = std::floor(pos);
    const std::size_t i = static_cast<std::size_t>(below);
    const std::size_t j = std::min(i + 1, v.size() - 1);
    const double t = pos - below;
    const double d = v[j] - v[i];
    return rf(t >= 0.5 ? v[j] - d * (1 - t) : v[i] + d * t);
  }
};

template <class T>
rule_width sqrt_rule(const rule_data<T>& d) {
  return {d.ptp() / std::sqrt(static_cast<double>(d.n())), false};
}
template <class T>
rule_width sturges_rule(const rule_data<T>& d) {
  return {d.ptp() / (std::log2(static_cast<double>(d.n())) + 1.0), false};
}
template <class T>
rule_width rice_rule(const rule_data<T>& d) {
  const double den = 2.0 * std::pow(static_cast<double>(d.n()), 1.0 / 3);
  return {d.rf(d.ptp() / d.rf(den)), rule_data<T>::floating};
}
template <class T>
rule_width scott_rule(const rule_data<T>& d) {
  const double factor =
      std::pow(24.0 * std::pow(3.141592653589793, 0.5) / static_cast<double>(d.n()), 1.0 / 3.0);
  return {d.rf(d.rf(factor) * d.std_dev()), rule_data<T>::floating};
}
template <class T>
rule_width doane_rule(const rule_data<T>& d) {
  const double n = static_cast<double>(d.n());
  if (d.n() <= 2) return {0.0, false};
  const double sg1 = std::sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)));
  const double sigma = d.std_dev();
  if (!(sigma > 0.0)) return {0.0, false};
  const double m = d.mean();
  double s = 0;
  for (double x : d.v) {
    const double t = d.rf(d.rf(x - m) / sigma);
    s += d.rf(t * t * t);
  }
  const double g1 = d.rf(s / n);
  return {d.ptp() / (1.0 + std::log2(n) + std::log2(1.0 + std::abs(g1) / sg1)), false};
}
template <class T>
rule_width fd_rule(const rule_data<T>& d) {
  const double iqr = d.rf(d.percentile(75) - d.percentile(25));
  return {d.rf(d.rf(2.0 * iqr) * d.rf(std::pow(static_cast<double>(d.n()), -1.0 / 3.0))),
          rule_data<T>::floating};
}
// Stone's rule minimises an estimate of the L2 risk over 1 .. max(100,
// sqrt(n)) bins; `counts(nbins)` is the histogram of the values with
// nbins equal bins over the outer range.
template <class T>
rule_width stone_rule(const rule_data<T>& d,
                      const std::function<std::vector<double>(index_t)>& counts) {
  const double n = static_cast<double>(d.n());
  const double ptp = d.ptp();
  if (d.n() <= 1 || ptp == 0) return {0.0, false};
  const index_t upper = std::max<index_t>(100, static_cast<index_t>(std::sqrt(n)));
  double best = std::numeric_limits<double>::infinity();
  index_t best_bins = 1;
  for (index_t k = 1; k <= upper; ++k) {
    const double hh = d.rf(ptp / static_cast<double>(k));
    double dot = 0;
    for (double c : counts(k)) dot += (c / n) * (c / n);
    const double risk = (2 - (n + 1) * dot) / hh;
    if (risk < best) {
      best = risk;
      best_bins = k;
    }
  }
  return {d.rf(ptp / static_cast<double>(best_bins)), rule_data<T>::floating};
}

// The number of equal bins a rule gives for the kept values between the
// outer edges lo and hi (`edges_in_f`: numpy scalars of F, not Python
// numbers).
template <class T>
index_t rule_bins(std::string_view name, const rule_data<T>& d, double lo, double hi,
                  bool edges_in_f, const std::function<std::vector<double>(index_t)>& counts) {
  if (d.n() == 0) return 1;
  rule_width w;
  if (name == "sqrt")
    w = sqrt_rule(d);
  else if (name == "sturges")
    w = sturges_rule(d);
  else if (name == "rice")
    w = rice_rule(d);
  else if (name == "scott")
    w = scott_rule(d);
  else if (name == "doane")
    w = doane_rule(d);
  else if (name == "fd")
    w = fd_rule(d);
  else if (name == "stone")
    w = stone_rule(d, counts);
  else {
    const rule_width fd = fd_rule(d), sturges = sturges_rule(d);
    w = fd.value != 0 ? (sturges.value < fd.value ? sturges : fd) : sturges;
  }
  if (w.value == 0) return 1;
  if (!rule_data<T>::floating && w.value < 1) w = {1.0, false};
  const bool in_f = rule_data<T>::floating && edges_in_f;
  const double diff = in_f ? d.rf(hi - lo) : hi - lo;
  const double q = in_f && w.in_f ? d.rf(diff / w.value) : diff / w.value;
  return static_cast<index_t>(std::ceil(q));
}

}  // namespace cupp::detail::hist
