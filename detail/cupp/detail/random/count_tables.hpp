// Inversion tables of poisson(lam) and binomial(n, p) with scalar
// parameters: the cdf F(0), F(1), ..., F(kmax) summed term by term in
// double (each term from the one before by the pmf's ratio), and a guide
// table (Chen and Asau, 1974) of 2^b entries, guide[j] = min{k : F(k) >
// j / 2^b}. A count is min{k : F(k) > u} for one uniform u of 53 bits: a
// lookup and, on average, about one comparison, instead of a rejection loop
// of logarithms and log-gamma functions per value.
//
// kmax is where the tail beyond is below 2^-64; F(kmax) is set to 1, so
// that mass joins kmax. The tables are built once per parameter on the
// host, copied once to each device that draws with them, and kept for the
// life of the process (a bounded cache; past its bounds no table is kept).
// Without a table (lower_ctx::device not given, or the cache full) a value
// walks the same sums from 0 with the same operations, so it is the same
// count, only slower: values never depend on where a table was found.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include <cuda_runtime_api.h>

#include <cupp/config.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/random/exact_math.hpp>

namespace cupp::detail::random {

// The pmf as a first term and a ratio: poisson(lam), pmf(0) = exp(-lam),
// pmf(k + 1) = pmf(k) lam / (k + 1); binomial(n, r), pmf(0) = (1 - r)^n,
// pmf(k + 1) = pmf(k) (n - k) (r / (1 - r)) / (k + 1).
struct count_family {
  double first = 0;
  double factor = 0;  // lam, or r / (1 - r)
  double n = -1;      // binomial's n; negative for poisson
  CUPP_HD double next(double pmf, int k) const {
    const double f = n < 0 ? factor : xm::mul(xm::sub(n, static_cast<double>(k)), factor);
    return xm::div(xm::mul(pmf, f), static_cast<double>(k + 1));
  }
};

// What a sampler carries: kmax < 0 means the parameters take the
// rejection method instead.
struct count_table {
  count_family family;
  int kmax = -1;
  int guide_bits = 0;
  const double* cdf = nullptr;  // F(0..kmax) and the guide, bound for the memory that runs
  const std::int32_t* guide = nullptr;

  CUPP_HD int draw(double u) const {
    if (cdf != nullptr) {
      int k = guide[static_cast<int>(xm::mul(u, static_cast<double>(1 << guide_bits)))];
      while (cdf[k] <= u) ++k;
      return k;
    }
    double pmf = family.first, f = pmf;
    int k = 0;
    while (k < kmax && f <= u) {
      pmf = family.next(pmf, k);
      f = xm::add(f, pmf);
      ++k;
    }
    return k;
  }
  // This table with its pointers for `device` (-1: the host; -2 or a full
  // cache: none, the walk above).
  count_table bound(int device) const;
};

// Tables of at most this many values; larger ones (lam or n p beyond a
// few thousand) keep the rejection methods.
inline constexpr int count_table_max_values = 1 << 14;

// The cdf of `family` up to kmax (the tail beyond below 2^-64), with
// F(kmax) = 1; empty when that needs more than count_table_max_values
// values. Host code, the same operations as count_table::draw's walk.
inline std::vector<double> count_cdf(const count_family& family, double n_max) {
  std::vector<double> cdf;
  double pmf = family.first, f = pmf;
  cdf.push_back(f);
  for (int k = 0;; ++k) {
    if (static_cast<double>(k) >= n_max) break;  // binomial: nothing beyond n
    const double next = family.next(pmf, k);
    // Past the mode the ratio r = next / pmf falls with k, so the tail
    // beyond k is below next / (1 - r).
    if (next < pmf && next * pmf < 0x1p-64 * (pmf - next)) break;
    if (static_cast<int>(cdf.size()) == count_table_max_values) return {};
    pmf = next;
    f = xm::add(f, pmf);
    cdf.push_back(f);
  }
  cdf.back() = 1.0;
  return cdf;
}

class count_table_cache {
 public:
  static count_table_cache& instance() {
    static count_table_cache* c = new count_table_cache;  // never destroyed: outlives users
    return *c;
  }

  // The table of `family` without pointers (kmax < 0 when too large).
  count_table describe(const count_family& family, double n_max) {
    std::lock_guard lock(mutex_);
    if (const entry* e = find(family)) return e->table;
    const std::vector<double> cdf = count_cdf(family, n_max);
    count_table t;
    t.family = family;
    if (cdf.empty()) return t;
    t.kmax = static_cast<int>(cdf.size()) - 1;
    while ((1 << t.guide_bits) < static_cast<int>(cdf.size())) ++t.guide_bits;
    if (entries_.size() < max_entries && bytes_ + bytes_of(t) <= max_bytes) {
      entry& e = entries_[key_of(family)];
      e.table = t;
      e.host.resize(cdf.size() + ((std::size_t(1) << t.guide_bits) + 1) / 2);
      std::memcpy(e.host.data(), cdf.data(), cdf.size() * sizeof(double));
      auto* guide = reinterpret_cast<std::int32_t*>(e.host.data() + cdf.size());
      const double slots = static_cast<double>(1 << t.guide_bits);
      int k = 0;
      for (int j = 0; j < (1 << t.guide_bits); ++j) {
        while (cdf[k] <= static_cast<double>(j) / slots) ++k;
        guide[j] = k;
      }
      bytes_ += bytes_of(t);
    }
    return t;
  }

  count_table bind(const count_table& t, int device) {
    if (t.kmax < 0 || device < -1) return t;
    std::lock_guard lock(mutex_);
    entry* e = find(t.family);
    if (e == nullptr) return t;
    const double* base = e->host.data();
    if (device >= 0) {
      void*& d = e->device[device];
      if (d == nullptr) {
        const int previous = cuda::runtime::getDevice();
        if (previous != device) cuda::runtime::setDevice(device);
        const std::size_t n = e->host.size() * sizeof(double);
        cudaError_t rc = cudaMalloc(&d, n);
        if (rc == cudaSuccess) rc = cudaMemcpy(d, e->host.data(), n, cudaMemcpyHostToDevice);
        // A copy from pageable memory may return before its DMA ends, and
        // the draw runs on cupp's stream, which need not wait for this one.
        if (rc == cudaSuccess) rc = cudaStreamSynchronize(0);
        if (previous != device) cuda::runtime::setDevice(previous);
        if (rc != cudaSuccess) {
          if (d != nullptr) (void)cudaFree(d);
          d = nullptr;
          cuda::check(rc, "cudaMalloc/cudaMemcpy (a random draw's inversion table)");
        }
      }
      base = static_cast<const double*>(d);
    }
    count_table b = t;
    b.cdf = base;
    b.guide = reinterpret_cast<const std::int32_t*>(base + (t.kmax + 1));
    return b;
  }

 private:
  static constexpr std::size_t max_entries = 4096;
  static constexpr std::size_t max_bytes = std::size_t(64) << 20;
  using key_t = std::tuple<double, double, double>;
  struct entry {
    count_table table;
    std::vector<double> host;  // F(0..kmax), then the guide's int32s
    std::map<int, void*> device;
  };
  static key_t key_of(const count_family& f) { return {f.first, f.factor, f.n}; }
  static std::size_t bytes_of(const count_table& t) {
    return (t.kmax + 1) * sizeof(double) + (std::size_t(1) << t.guide_bits) * sizeof(std::int32_t);
  }
  const entry* find(const count_family& f) const {
    const auto it = entries_.find(key_of(f));
    return it == entries_.end() ? nullptr : &it->second;
  }
  entry* find(const count_family& f) {
    const auto it = entries_.find(key_of(f));
    return it == entries_.end() ? nullptr : &it->second;
  }

  std::mutex mutex_;
  std::map<key_t, entry> entries_;
  std::size_t bytes_ = 0;
};

inline count_table count_table::bound(int device) const {
  return count_table_cache::instance().bind(*this, device);
}

// The table of poisson(lam): for 0 < lam <= 700 (exp(-lam) stays a normal
// double), none otherwise.
inline count_table poisson_table(double lam) {
  if (!(lam > 0.0 && lam <= 700.0)) return {};
  return count_table_cache::instance().describe({xm::exp(-lam), lam, -1.0}, 1e300);
}

// The table of binomial(n, r) for r = min(p, 1 - p) in (0, 1/2], while
// (1 - r)^n stays a normal double; none otherwise.
inline count_table binomial_table(std::int64_t n, double r) {
  if (!(n > 0 && r > 0.0 && r <= 0.5 && n <= (std::int64_t(1) << 40))) return {};
  const double dn = static_cast<double>(n);
  const double log_first = xm::mul(dn, xm::log1p(-r));
  if (!(log_first >= -700.0)) return {};
  const double factor = xm::div(r, xm::sub(1.0, r));
  return count_table_cache::instance().describe({xm::exp(log_first), factor, dn}, dn);
}

}  // namespace cupp::detail::random
