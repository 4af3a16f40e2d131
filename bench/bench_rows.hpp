// The rows of the vendor-library benchmarks (bench_linalg, bench_sort):
// command-line options, a row of figures (cupp's, the raw vendor call's)
// with extras, timing of one call or of two in alternation, the log and the
// JSON file.
#pragma once

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include <cupp/cuda/stream.hpp>

#include "bench_common.hpp"

namespace bench_rows {

struct options {
  int runs = 7;         // timed loops for the fast rows; 3 for calls over 50 ms
  double loop_ms = 20;  // calls per loop: as many as fill about this long (at most 50)
  std::string only;     // run only the rows whose name contains this
  std::string json;
};

// One figure of a row: who made it ("cupp", "cupp.checked", "cublasSgemm", ...).
struct figure {
  std::string who;
  double ms;
};

struct row {
  std::string name;
  std::string note;
  std::vector<figure> figures;
  std::map<std::string, double> extras;  // GB/s, % of copy, ratios, errors
};

inline cudaStream_t stream() {
  return cupp::cuda::get_current_stream().handle();
}

// Median ms per call; a second call timed on the host sets the calls per loop.
template <class F>
double time_ms(const options& o, F&& f) {
  f();
  BENCH_CHECK(cudaStreamSynchronize(stream()));
  const auto t0 = bench::clock_type::now();
  f();
  BENCH_CHECK(cudaStreamSynchronize(stream()));
  const double once = bench::seconds_since(t0) * 1e3;
  const int reps = std::clamp(static_cast<int>(o.loop_ms / std::max(once, 1e-3)), 1, 50);
  return bench::median_ms_per_call(stream(), once > 50 ? 3 : o.runs, reps, f);
}

// Each row is checked once: a wrong answer fails the run.
class bench_run {
 public:
  // `name` is the benchmark's name in the JSON; `width` the column of the
  // figures' labels in the log.
  bench_run(const options& o, std::string name, int width = 34)
      : o_(o), name_(std::move(name)), width_(width) {}

  bool wanted(const std::string& name) const {
    return o_.only.empty() || name.find(o_.only) != std::string::npos;
  }

  row& start(const std::string& name, const std::string& note) {
    rows_.push_back({name, note, {}, {}});
    std::printf("%s  (%s)\n", name.c_str(), note.c_str());
    return rows_.back();
  }

  template <class F>
  double time(row& r, const std::string& who, F&& f) {
    const double ms = time_ms(o_, f);
    r.figures.push_back({who, ms});
    std::printf("  %-*s %10.4f ms\n", width_, who.c_str(), ms);
    return ms;
  }

  // Two calls timed in alternation (a loop of one, a loop of the other,
  // `runs` times; medians), so that clock drift over the run falls on both
  // of two figures meant to be compared closely. Returns both medians.
  template <class F, class G>
  std::pair<double, double> time_pair(row& r, const std::string& who_f, F&& f,
                                      const std::string& who_g, G&& g) {
    f();
    g();
    BENCH_CHECK(cudaStreamSynchronize(stream()));
    const auto t0 = bench::clock_type::now();
    f();
    BENCH_CHECK(cudaStreamSynchronize(stream()));
    const double once = bench::seconds_since(t0) * 1e3;
    const int reps = std::clamp(static_cast<int>(o_.loop_ms / std::max(once, 1e-3)), 1, 50);
    std::vector<double> tf, tg;
    for (int run = 0; run < o_.runs; ++run) {
      tf.push_back(bench::median_ms_per_call(stream(), 1, reps, f));
      tg.push_back(bench::median_ms_per_call(stream(), 1, reps, g));
    }
    std::sort(tf.begin(), tf.end());
    std::sort(tg.begin(), tg.end());
    const double mf = tf[tf.size() / 2], mg = tg[tg.size() / 2];
    for (const auto& [who, ms] : {std::pair{&who_f, mf}, std::pair{&who_g, mg}}) {
      r.figures.push_back({*who, ms});
      std::printf("  %-*s %10.4f ms\n", width_, who->c_str(), ms);
    }
    return {mf, mg};
  }

  void extra(row& r, const std::string& key, double value) {
    r.extras[key] = value;
    std::printf("  %-*s %10.4g\n", width_, key.c_str(), value);
  }

  void write_json(const std::string& path, const std::string& device) const {
    bench::write_json(path, name_.c_str(), device, [&](std::ostream& f) {
      f << ",\n  \"results\": [";
      for (std::size_t i = 0; i < rows_.size(); ++i) {
        const row& r = rows_[i];
        f << (i ? ",\n" : "\n") << "    {\"case\": \"" << r.name << "\", \"note\": \""
          << bench::json_escape(r.note) << "\", \"figures\": {";
        for (std::size_t j = 0; j < r.figures.size(); ++j)
          f << (j ? ", " : "") << '"' << bench::json_escape(r.figures[j].who)
            << "\": " << r.figures[j].ms;
        f << "}, \"extras\": {";
        std::size_t j = 0;
        for (const auto& [k, v] : r.extras) f << (j++ ? ", " : "") << '"' << k << "\": " << v;
        f << "}}";
      }
      f << "\n  ]";
    });
  }

 private:
  const options& o_;
  std::string name_;
  int width_;
  std::deque<row> rows_;  // references to rows stay valid as rows are added
};

}  // namespace bench_rows
