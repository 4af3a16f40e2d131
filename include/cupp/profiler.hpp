// Profiling (cupyx.profiler): NVTX ranges and marks for Nsight Systems, a
// scope around the part of a program the CUDA profiler should record, a
// benchmark that times a function on the CPU and on the GPU, and the
// memory hooks of <cupp/cuda/memory_hook.hpp>.
//
//   {
//     cupp::profiler::range r("step", 0xff00ff00);   // green in the timeline
//     z = x * y + w;
//   }
//   auto b = cupp::profiler::benchmark([&] { z = x * y + w; },
//                                      {.name = "xyw", .n_repeat = 1000});
//   std::cout << b << '\n';  // xyw   :    CPU:  4.1 us +/- 0.3 (min: ... ) us    GPU-0: ...
//
// NVTX is NVTX3, header-only: nothing to link. Without a tool attached each
// call returns at once. (Its loader calls dlopen, which is in libc from
// glibc 2.34; on older systems link ${CMAKE_DL_LIBS}, as CUDA::nvtx3 does.)
#pragma once

#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <cupp/cuda/device.hpp>
#include <cupp/cuda/memory_hook.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/profiler/events.hpp>
#include <cupp/detail/profiler/nvtx.hpp>

namespace cupp::profiler {

// ---------------------------------------------------------------------------
// NVTX ranges and marks (cupyx.profiler.time_range, cupy.cuda.nvtx).

// Opens a nested range on the calling thread, coloured 0xAARRGGBB when
// `argb` is given; range_pop closes the innermost one.
inline void range_push(const char* name, std::optional<std::uint32_t> argb = std::nullopt) {
  const nvtxEventAttributes_t a = detail::nvtx_attributes(name, argb);
  nvtxRangePushEx(&a);
}
inline void range_push(const std::string& name, std::optional<std::uint32_t> argb = std::nullopt) {
  range_push(name.c_str(), argb);
}
inline void range_pop() {
  nvtxRangePop();
}

// An instant event in the timeline.
inline void mark(const char* name, std::optional<std::uint32_t> argb = std::nullopt) {
  const nvtxEventAttributes_t a = detail::nvtx_attributes(name, argb);
  nvtxMarkEx(&a);
}
inline void mark(const std::string& name, std::optional<std::uint32_t> argb = std::nullopt) {
  mark(name.c_str(), argb);
}

// A range from construction to the end of the scope (`with time_range(...)`).
class range {
 public:
  explicit range(const char* name, std::optional<std::uint32_t> argb = std::nullopt) {
    range_push(name, argb);
  }
  explicit range(const std::string& name, std::optional<std::uint32_t> argb = std::nullopt) {
    range_push(name, argb);
  }
  range(const range&) = delete;
  range& operator=(const range&) = delete;
  ~range() { range_pop(); }
};

// The CUDA profiler records only inside this scope when it is started with
// collection off (nsys --capture-range=cudaProfilerApi):
// cupyx.profiler.profile.
class profile {
 public:
  profile() { cuda::check(cudaProfilerStart(), "cudaProfilerStart"); }
  profile(const profile&) = delete;
  profile& operator=(const profile&) = delete;
  ~profile() { (void)cudaProfilerStop(); }
};

// ---------------------------------------------------------------------------
// benchmark (cupyx.profiler.benchmark).

struct benchmark_options {
  std::string name = "function";  // what the result prints first
  int n_repeat = 10000;           // timed calls
  int n_warmup = 10;              // calls before them, not timed
  // Stop the timed calls once they have taken this long (seconds); at
  // least one runs.
  double max_duration = std::numeric_limits<double>::infinity();
  // Devices whose current stream is timed with events. Unset: the current
  // device, or none where no CUDA device answers; empty: CPU times only.
  std::optional<std::vector<int>> devices = std::nullopt;
};

// Median of a list of times (the mean of the middle two for an even count);
// NaN for none.
inline double median(std::vector<double> t) {
  if (t.empty()) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t h = t.size() / 2;
  std::nth_element(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(h), t.end());
  if (t.size() % 2) return t[h];
  const double upper = t[h];
  return (*std::max_element(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(h)) + upper) / 2;
}

// All times are in seconds, one entry per timed call.
struct benchmark_result {
  std::string name;
  std::vector<double> cpu_times;  // the call itself, on the host clock
  std::vector<int> devices;
  // gpu_times[i]: between events recorded on devices[i]'s current stream
  // before and after the call.
  std::vector<std::vector<double>> gpu_times;

  double median_cpu() const { return median(cpu_times); }
  // NaN where devices has no entry i.
  double median_gpu(std::size_t i = 0) const {
    return i < gpu_times.size() ? median(gpu_times[i]) : std::numeric_limits<double>::quiet_NaN();
  }

  // One line, as cupyx prints it, in microseconds: mean, standard
  // deviation, min and max for the CPU and for each device:
  // "name                :    CPU:    12.345 us   +/-  0.678 (min:    11.000 / max:    15.000) us"
  std::string to_string() const {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%-20s:", name.c_str());
    std::string s = name.size() > 20 ? name + ":" : std::string(buf);
    s += per_item("CPU", cpu_times);
    for (std::size_t i = 0; i < gpu_times.size(); ++i)
      s += per_item("GPU-" + std::to_string(devices[i]), gpu_times[i]);
    return s;
  }

 private:
  static std::string per_item(const std::string& label, const std::vector<double>& t) {
    std::string s = "    " + label + ":";
    if (t.empty()) return s + " (no calls timed)";
    double sum = 0, lo = t.front(), hi = t.front();
    for (double x : t) {
      sum += x;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    const double mean = sum / static_cast<double>(t.size());
    double var = 0;
    for (double x : t) var += (x - mean) * (x - mean);
    const double sd = std::sqrt(var / static_cast<double>(t.size()));
    char buf[128];
    std::snprintf(buf, sizeof buf, "%10.3f us", mean * 1e6);
    s += buf;
    if (t.size() > 1) {
      std::snprintf(buf, sizeof buf, "   +/-%7.3f (min:%10.3f / max:%10.3f) us", sd * 1e6, lo * 1e6,
                    hi * 1e6);
      s += buf;
    }
    return s;
  }
};

inline std::ostream& operator<<(std::ostream& os, const benchmark_result& r) {
  return os << r.to_string();
}

// Calls f() n_warmup times, then up to n_repeat times, timing each of these
// calls on the host clock (the time to return, which for asynchronous work
// is the time to enqueue it) and, on each device, between CUDA events
// recorded on its current stream before and after the call (the time the
// device spent on what the call enqueued there). The events are waited on
// after each call, so calls do not overlap.
template <class F>
benchmark_result benchmark(F&& f, const benchmark_options& o = {}) {
  using clock = std::chrono::steady_clock;
  benchmark_result r;
  r.name = o.name;
  r.devices = o.devices ? *o.devices : detail::default_benchmark_devices();
  std::vector<std::unique_ptr<detail::event_pair>> events;
  for (int d : r.devices) events.push_back(std::make_unique<detail::event_pair>(d));
  r.gpu_times.resize(r.devices.size());

  for (int i = 0; i < o.n_warmup; ++i) f();
  // Work queued before (or by the warm-up) is not the first call's.
  for (const auto& e : events) {
    cuda::device_scope scope(e->device);
    cuda::check(cudaStreamSynchronize(e->stream()), "cudaStreamSynchronize");
  }

  const int n = std::max(o.n_repeat, 0);
  r.cpu_times.reserve(static_cast<std::size_t>(n));
  for (auto& g : r.gpu_times) g.reserve(static_cast<std::size_t>(n));
  const auto begin = clock::now();
  for (int i = 0; i < n; ++i) {
    for (const auto& e : events) e->record(e->start);
    const auto t0 = clock::now();
    f();
    const auto t1 = clock::now();
    for (const auto& e : events) e->record(e->end);
    r.cpu_times.push_back(std::chrono::duration<double>(t1 - t0).count());
    for (std::size_t k = 0; k < events.size(); ++k) {
      cuda::check(cudaEventSynchronize(events[k]->end), "cudaEventSynchronize");
      float ms = 0;
      cuda::check(cudaEventElapsedTime(&ms, events[k]->start, events[k]->end),
                  "cudaEventElapsedTime");
      r.gpu_times[k].push_back(static_cast<double>(ms) * 1e-3);
    }
    if (std::chrono::duration<double>(clock::now() - begin).count() > o.max_duration) break;
  }
  return r;
}

}  // namespace cupp::profiler
