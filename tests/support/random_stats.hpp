// Statistical checks of random draws against the exact distributions in
// tests/fixtures/random/gof.txt (written by
// tests/generate_random_fixtures.py, which describes the format and how the
// thresholds are chosen): a chi-square test over the record's bins, the
// sample mean and variance within z standard errors of the exact ones, and
// the bounds of the support.
//
// The checks take the samples as a host pointer and a count, so the same
// code judges host draws and device draws brought back with asnumpy.
// Values are compared as long double, which holds every int64 and uint64
// exactly (the edges of integers' bins reach 2^64).
#pragma once

#include "cupp_test.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace random_stats {

struct record {
  std::string method, dtype;
  std::uint64_t seed = 0;
  std::int64_t n = 0;
  double critical = 0, z = 0;
  double mean = 0, var = 0, kurt = 0;  // exact; kurt is the excess kurtosis
  bool check_mean = false, check_var = false;
  // The smallest and largest value a draw may give, as text: a long double
  // member would give the struct implicit device functions that nvcc warns
  // about.
  std::string lo_text, hi_text;
  std::vector<std::string> args;
  std::vector<long double> edges;  // bin i: [edges[i], edges[i + 1])
  std::vector<double> probs;

  double arg(std::size_t i) const { return std::strtod(args.at(i).c_str(), nullptr); }
  // An integer argument for a draw of dtype T: uint64 for an unsigned T
  // (integers' bounds reach 2^64 - 1), int64 otherwise (an exclusive high
  // may be one past T's largest value).
  template <class T>
  auto int_arg(std::size_t i) const {
    if constexpr (std::is_unsigned_v<T>)
      return static_cast<std::uint64_t>(std::stoull(args.at(i)));
    else
      return static_cast<std::int64_t>(std::stoll(args.at(i)));
  }
  bool bool_arg(std::size_t i) const { return args.at(i) == "true"; }
  long double lo() const { return std::strtold(lo_text.c_str(), nullptr); }
  long double hi() const { return std::strtold(hi_text.c_str(), nullptr); }
  std::size_t bins() const { return probs.size(); }

  std::string describe() const {
    std::string s = method + "(";
    for (std::size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
    return s + ") " + dtype + " seed " + std::to_string(seed) + " n " + std::to_string(n);
  }
};

inline long double parse_value(const std::string& s) {
  return std::strtold(s.c_str(), nullptr);
}

inline std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

inline record parse_record(const std::string& head, const std::string& args,
                           const std::string& edges, const std::string& probs) {
  record r;
  for (const auto& w : words(head)) {
    const auto eq = w.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = w.substr(0, eq), v = w.substr(eq + 1);
    if (key == "method")
      r.method = v;
    else if (key == "dtype")
      r.dtype = v;
    else if (key == "seed")
      r.seed = std::stoull(v);
    else if (key == "n")
      r.n = std::stoll(v);
    else if (key == "critical")
      r.critical = std::strtod(v.c_str(), nullptr);
    else if (key == "z")
      r.z = std::strtod(v.c_str(), nullptr);
    else if (key == "mean")
      r.mean = std::strtod(v.c_str(), nullptr);
    else if (key == "var")
      r.var = std::strtod(v.c_str(), nullptr);
    else if (key == "kurt")
      r.kurt = std::strtod(v.c_str(), nullptr);
    else if (key == "check_mean")
      r.check_mean = v == "1";
    else if (key == "check_var")
      r.check_var = v == "1";
    else if (key == "lo")
      r.lo_text = v;
    else if (key == "hi")
      r.hi_text = v;
  }
  auto a = words(args), e = words(edges), p = words(probs);
  r.args.assign(a.begin() + 1, a.end());
  for (std::size_t i = 1; i < e.size(); ++i) r.edges.push_back(parse_value(e[i]));
  for (std::size_t i = 1; i < p.size(); ++i) r.probs.push_back(std::strtod(p[i].c_str(), nullptr));
  return r;
}

// Every record of the fixture, read once.
inline const std::vector<record>& records() {
  static const std::vector<record> all = [] {
    std::vector<record> out;
    const auto lines = cupp_test::fixture_lines("random/gof.txt");
    for (std::size_t i = 0; i + 3 < lines.size(); ++i) {
      if (lines[i].rfind("record ", 0) != 0) continue;
      out.push_back(parse_record(lines[i], lines[i + 1], lines[i + 2], lines[i + 3]));
      const auto& r = out.back();
      BOOST_TEST_REQUIRE(r.edges.size() == r.probs.size() + 1, "malformed record " << lines[i]);
      i += 3;
    }
    return out;
  }();
  return all;
}

inline std::vector<const record*> records_of(std::string_view method, std::string_view dtype) {
  std::vector<const record*> out;
  for (const auto& r : records())
    if (r.method == method && r.dtype == dtype) out.push_back(&r);
  return out;
}

// ---------------------------------------------------------------------------
// Chi-square.

struct chi_square_result {
  double statistic = 0, critical = 0;
  std::size_t bins = 0;
  std::int64_t outside = 0;  // samples in no bin (NaN included)
  std::size_t worst_bin = 0;
  std::int64_t worst_observed = 0;
  double worst_expected = 0, worst_term = 0;

  bool passed() const { return outside == 0 && statistic <= critical; }
};

// Samples of an integer dtype fall in [Ei, Ei+1); those of a floating one
// also in the last bin when they equal its upper edge (vonmises's pi, or an
// infinite value where the support is unbounded).
template <class T>
chi_square_result chi_square(const record& r, const T* x, std::size_t n) {
  chi_square_result res;
  res.bins = r.bins();
  res.critical = r.critical;
  std::vector<std::int64_t> counts(res.bins, 0);
  const auto& e = r.edges;
  for (std::size_t i = 0; i < n; ++i) {
    const auto v = static_cast<long double>(x[i]);
    auto bin = static_cast<std::ptrdiff_t>(std::upper_bound(e.begin(), e.end(), v) - e.begin()) - 1;
    if constexpr (std::is_floating_point_v<T>)
      if (v == e.back()) bin = static_cast<std::ptrdiff_t>(res.bins) - 1;
    if (std::isnan(v) || bin < 0 || bin >= static_cast<std::ptrdiff_t>(res.bins))
      ++res.outside;
    else
      ++counts[static_cast<std::size_t>(bin)];
  }
  for (std::size_t b = 0; b < res.bins; ++b) {
    const double expected = r.probs[b] * static_cast<double>(n);
    const double d = static_cast<double>(counts[b]) - expected;
    const double term = res.bins > 1 ? d * d / expected : 0.0;
    res.statistic += term;
    if (b == 0 || term > res.worst_term) {
      res.worst_bin = b;
      res.worst_observed = counts[b];
      res.worst_expected = expected;
      res.worst_term = term;
    }
  }
  return res;
}

// ---------------------------------------------------------------------------
// Moments and bounds.

// Summed in long double, kept in double (see record::lo_text).
struct sample_summary {
  double mean = 0, var = 0;  // var: the unbiased (n - 1) estimate
  double min = 0, max = 0;
  std::int64_t out_of_bounds = 0;  // outside [lo, hi], NaN included
};

template <class T>
sample_summary summarize(const record& r, const T* x, std::size_t n) {
  sample_summary s;
  const long double lo = r.lo(), hi = r.hi();
  long double sum = 0, least = std::numeric_limits<long double>::infinity(), most = -least;
  for (std::size_t i = 0; i < n; ++i) {
    const auto v = static_cast<long double>(x[i]);
    if (!(v >= lo && v <= hi)) ++s.out_of_bounds;
    least = std::min(least, v);
    most = std::max(most, v);
    sum += v;
  }
  const long double mean = sum / static_cast<long double>(n);
  long double sq = 0;  // two passes: the mean may be far from 0
  for (std::size_t i = 0; i < n; ++i) {
    const long double d = static_cast<long double>(x[i]) - mean;
    sq += d * d;
  }
  s.mean = static_cast<double>(mean);
  s.var = n > 1 ? static_cast<double>(sq / static_cast<long double>(n - 1)) : 0.0;
  s.min = static_cast<double>(least);
  s.max = static_cast<double>(most);
  return s;
}

// How many standard errors the sample mean and variance are from the exact
// ones. The variance's standard error, sigma^2 sqrt((kurt + 2) / n), is
// that of the sample variance of n draws with excess kurtosis kurt.
inline double mean_deviation(const record& r, const sample_summary& s, std::size_t n) {
  return std::fabs(s.mean - r.mean) / std::sqrt(r.var / static_cast<double>(n));
}
inline double var_deviation(const record& r, const sample_summary& s, std::size_t n) {
  const double se = r.var * std::sqrt((r.kurt + 2) / static_cast<double>(n));
  return std::fabs(s.var - r.var) / se;
}

// All the checks of one record on n samples, as Boost.Test assertions.
template <class T>
void check_sample(const record& r, const T* x, std::size_t n) {
  BOOST_TEST_REQUIRE(static_cast<std::int64_t>(n) == r.n, "drew " << n << " values, not " << r.n);
  const auto chi = chi_square(r, x, n);
  BOOST_TEST(chi.outside == 0, chi.outside << " values in no bin of " << r.describe());
  BOOST_TEST(chi.statistic <= chi.critical,
             r.describe() << ": chi-square " << chi.statistic << " > critical " << chi.critical
                          << " (" << chi.bins - 1 << " degrees of freedom); worst bin "
                          << chi.worst_bin << " [" << static_cast<double>(r.edges[chi.worst_bin])
                          << ", " << static_cast<double>(r.edges[chi.worst_bin + 1])
                          << "): observed " << chi.worst_observed << ", expected "
                          << chi.worst_expected);
  const auto s = summarize(r, x, n);
  BOOST_TEST(s.out_of_bounds == 0, r.describe() << ": " << s.out_of_bounds << " values outside ["
                                                << r.lo_text << ", " << r.hi_text << "]; min "
                                                << s.min << " max " << s.max);
  if (r.check_mean) {
    const double dev = mean_deviation(r, s, n);
    BOOST_TEST(dev <= r.z, r.describe()
                               << ": mean " << s.mean << " is " << dev << " standard errors from "
                               << r.mean << " (limit " << r.z << ")");
  }
  if (r.check_var) {
    const double dev = var_deviation(r, s, n);
    BOOST_TEST(dev <= r.z, r.describe()
                               << ": variance " << s.var << " is " << dev
                               << " standard errors from " << r.var << " (limit " << r.z << ")");
  }
}

}  // namespace random_stats
