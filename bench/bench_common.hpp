// What every benchmark executable shares: CUDA error checks that throw, the
// host clock, the event-timed median per call (cupp::profiler::benchmark on
// the current stream), reading the command line, the exit codes
// bench/run_benchmarks.sh relies on, and the JSON file it collects. Each benchmark keeps its own
// options, output and JSON fields; only the conventions live here, so that
// they cannot drift apart between benchmarks.
#pragma once

#include <cuda_runtime_api.h>

#include <cupp/profiler.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

// Throws rather than exits, so that a failure ends the run through
// bench::run_on_gpu and the benchmark reports it as one error line.
#define BENCH_CHECK(call)                                                                          \
  do {                                                                                             \
    const cudaError_t e_ = (call);                                                                 \
    if (e_ != cudaSuccess)                                                                         \
      throw std::runtime_error(std::string(cudaGetErrorName(e_)) + ": " + cudaGetErrorString(e_) + \
                               " (" #call ", line " + std::to_string(__LINE__) + ")");             \
  } while (0)

namespace bench {

using clock_type = std::chrono::steady_clock;

inline double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// Median milliseconds per call of f on stream s: three calls to warm up,
// then `runs` loops of `reps` calls, each loop timed by CUDA events.
template <class F>
double median_ms_per_call(cudaStream_t s, int runs, int reps, F&& f) {
  for (int i = 0; i < 3; ++i) f();
  BENCH_CHECK(cudaStreamSynchronize(s));
  cudaEvent_t a, b;
  BENCH_CHECK(cudaEventCreate(&a));
  BENCH_CHECK(cudaEventCreate(&b));
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    BENCH_CHECK(cudaEventRecord(a, s));
    for (int i = 0; i < reps; ++i) f();
    BENCH_CHECK(cudaEventRecord(b, s));
    BENCH_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    BENCH_CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms / reps);
  }
  BENCH_CHECK(cudaEventDestroy(a));
  BENCH_CHECK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// The same on the current stream, timed by cupp::profiler::benchmark: each
// of its timed calls is one loop of `reps` calls of f. The median is the
// upper middle time, as above, so that figures stay comparable.
template <class F>
double median_ms_per_call(int runs, int reps, F&& f) {
  for (int i = 0; i < 3; ++i) f();
  const auto r = cupp::profiler::benchmark(
      [&] {
        for (int i = 0; i < reps; ++i) f();
      },
      {.n_repeat = runs, .n_warmup = 0});
  if (r.gpu_times.empty()) throw std::runtime_error("median_ms_per_call: no device timed");
  std::vector<double> t = r.gpu_times[0];
  for (double& x : t) x = x * 1e3 / reps;
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Median microseconds per call of f on the host: `runs` loops of `reps`
// calls issued back to back (fewer than the launch queue holds), the stream
// drained between loops.
template <class F>
double median_host_us_per_call(int runs, int reps, F&& f) {
  const auto r = cupp::profiler::benchmark(
      [&] {
        for (int i = 0; i < reps; ++i) f();
      },
      {.n_repeat = runs, .n_warmup = 0});
  std::vector<double> t = r.cpu_times;
  for (double& x : t) x = x * 1e6 / reps;
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// A benchmark declares each option once, as a name, what its value looks
// like and the field it sets (converted as the field's type asks); the
// parsing and the usage text follow from that list.
struct option {
  std::string_view name;
  std::string_view metavar;  // empty for a flag
  std::function<void(const std::string&)> set;
};

// `--name VALUE`; VALUE is a comma list ("4,8,16") for a std::vector<int>.
template <class T>
option value(std::string_view name, std::string_view metavar, T& target) {
  return {name, metavar, [&target](const std::string& s) {
            if constexpr (std::is_same_v<T, std::string>) {
              target = s;
            } else if constexpr (std::is_same_v<T, std::vector<int>>) {
              target.clear();
              std::stringstream ss(s);
              for (std::string item; std::getline(ss, item, ',');)
                if (!item.empty()) target.push_back(std::stoi(item));
            } else if constexpr (std::is_same_v<T, int>) {
              target = std::stoi(s);
            } else if constexpr (std::is_floating_point_v<T>) {
              target = std::stod(s);
            } else {
              static_assert(std::is_unsigned_v<T>);
              target = static_cast<T>(std::stoull(s));
            }
          }};
}

// `--name` alone sets the field to `when_given`.
inline option flag(std::string_view name, bool& target, bool when_given) {
  return {name, {}, [&target, when_given](const std::string&) { target = when_given; }};
}

// Sets the options' fields from argv. A missing value or an unknown option
// prints the usage and exits with 2, before any GPU work starts.
class command_line {
 public:
  command_line(int argc, char** argv, std::vector<option> options)
      : program_(argv[0]), options_(std::move(options)) {
    for (int i = 1; i < argc; ++i) {
      const auto o = std::find_if(options_.begin(), options_.end(),
                                  [&](const option& x) { return x.name == argv[i]; });
      if (o == options_.end() || (!o->metavar.empty() && i + 1 >= argc)) usage();
      o->set(o->metavar.empty() ? std::string() : argv[++i]);
    }
  }

  // "usage: PROGRAM [--name VALUE] ...", wrapped after 72 columns of options.
  [[noreturn]] void usage() const {
    std::string text;
    std::size_t column = 0;
    for (const option& o : options_) {
      std::string item = "[" + std::string(o.name);
      if (!o.metavar.empty()) item += " " + std::string(o.metavar);
      item += "]";
      if (column > 0 && column + 1 + item.size() > 72) {
        text += "\n          ";
        column = 0;
      } else if (column > 0) {
        text += ' ';
        ++column;
      }
      text += item;
      column += item.size();
    }
    std::fprintf(stderr, "usage: %s %s\n", program_, text.c_str());
    std::exit(2);
  }

 private:
  const char* program_;
  std::vector<option> options_;
};

// Runs a benchmark's main part. Without a CUDA device it prints the SKIPPED
// line and returns 77, which run_benchmarks.sh (like ctest for the GPU tests)
// counts as skipped, not failed; an exception becomes "PROGRAM: error: ..."
// and 1.
template <class F>
int run_on_gpu(const char* program, F&& body) {
  int ndev = 0;
  const cudaError_t e = cudaGetDeviceCount(&ndev);
  if (e != cudaSuccess || ndev == 0) {
    std::printf("SKIPPED: no CUDA device (%s); %s needs a GPU\n",
                e != cudaSuccess ? cudaGetErrorName(e) : "0 devices", program);
    return 77;
  }
  try {
    body();
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "%s: error: %s\n", program, ex.what());
    return 1;
  }
  return 0;
}

inline std::string json_escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r;
}

// Writes the --json file: {"benchmark": ..., "device": ...<fields>}, where
// `fields(f)` writes the benchmark's own fields, each led by ",\n". Throws
// when the file cannot be written, so a full disk is not a silent success.
template <class F>
void write_json(const std::string& path, const char* benchmark, const std::string& device,
                F&& fields) {
  std::ofstream f(path);
  f << "{\n  \"benchmark\": \"" << benchmark << "\",\n  \"device\": \"" << json_escape(device)
    << '"';
  fields(f);
  f << "\n}\n";
  if (!f) throw std::runtime_error("cannot write " + path);
}

}  // namespace bench
