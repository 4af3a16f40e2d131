// Fused element-wise expressions on the GPU: the workloads of
// bench/cupy_elementwise.py, timed with CUDA events (median of repeated
// loops after a warm-up), with the bytes each moves compared against the
// device-to-device copy bandwidth measured in the same run.
//
//   copy.f32            cudaMemcpyAsync of 2^28 float32 (read + write)
//   xyw.f32, xyw.f64    z = x * y + w over 2^28 elements (3 reads, 1 write)
//   xyw.*.hand          the same by a hand-written kernel (16-byte loads and
//                       stores, a grid-stride loop, z preallocated): the
//                       limit a 3-read-1-write kernel reaches on the device
//   softplus.f32        maximum(0, x) + log1p(exp(-abs(x))) (1 read, 1 write)
//   outer_add.f32       (8192, 1) + (1, 8192) -> (8192, 8192), bytes written
//   arange_T.<n>        arange(n).reshape(1000, -1).T * 2, int64, ms per call
//   small_xyw           x * y + w on 1000 float32: GPU us per call in a loop,
//                       and host us per call (the time the CPU spends issuing)
//
//   bench_elementwise [--log2n 28] [--reps 10] [--runs 7] [--json FILE]
#include <cupp/cupp.hpp>

#include "bench_common.hpp"

namespace {

struct options {
  int log2n = 28;
  int reps = 10;  // calls per timed loop
  int runs = 7;   // timed loops; the median is reported
  std::string json;
};

struct row {
  std::string name;
  double value;
  std::string unit;
  double ms;  // per call
};

// Median milliseconds per call of f over `runs` loops of `reps` calls.
template <class F>
double time_ms(const options& o, F&& f) {
  return bench::median_ms_per_call(o.runs, o.reps, f);
}

template <class T>
cupp::ndarray<T> filled(cupp::index_t n, double v) {
  cupp::ndarray<T> x = cupp::empty<T>({n});
  cupp::copyto(x, v);
  return x;
}

// z = x * y + w on one vector V of T elements.
template <class T, class V>
__device__ inline V xyw_vector(const V& a, const V& b, const V& c) {
  V r;
  const T* pa = reinterpret_cast<const T*>(&a);
  const T* pb = reinterpret_cast<const T*>(&b);
  const T* pc = reinterpret_cast<const T*>(&c);
  T* pr = reinterpret_cast<T*>(&r);
#pragma unroll
  for (int j = 0; j < static_cast<int>(sizeof(V) / sizeof(T)); ++j) pr[j] = pa[j] * pb[j] + pc[j];
  return r;
}

// A grid-stride loop over the vectors.
template <class T, class V>
__global__ void xyw_hand(const V* x, const V* y, const V* w, V* z, long long nv) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < nv;
       i += (long long)blockDim.x * gridDim.x)
    z[i] = xyw_vector<T>(x[i], y[i], w[i]);
}

// One vector a thread, a grid that covers the array (no loop).
template <class T, class V>
__global__ void xyw_hand_flat(const V* x, const V* y, const V* w, V* z, long long nv) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < nv) z[i] = xyw_vector<T>(x[i], y[i], w[i]);
}

// The best of a few launch shapes for the hand-written kernel: grid-stride
// loops of 4 to 32 blocks a multiprocessor, and a grid covering the array
// with one element (T) or one vector (V) a thread; each printed.
template <class T, class V>
double time_hand(const options& o, const cupp::ndarray<T>& x, const cupp::ndarray<T>& y,
                 const cupp::ndarray<T>& w, cupp::ndarray<T>& z, int sms) {
  const cudaStream_t s = cupp::cuda::get_current_stream().handle();
  const double bytes = 4.0 * x.size() * sizeof(T);
  double best = 1e30;
  const auto report = [&](const char* what, int arg, double ms) {
    std::printf("  hand %-18s %4d %10.4f ms  %8.1f GB/s\n", what, arg, ms,
                bytes / (ms * 1e-3) / 1e9);
    best = std::min(best, ms);
  };
  const long long nv = x.size() * static_cast<long long>(sizeof(T)) / sizeof(V);
  for (const int per_sm : {4, 8, 16, 32}) {
    const int blocks = static_cast<int>(std::min<long long>(sms * per_sm, (nv + 255) / 256));
    report("loop, blocks/SM", per_sm, time_ms(o, [&] {
             xyw_hand<T, V><<<blocks, 256, 0, s>>>(
                 reinterpret_cast<const V*>(x.data()), reinterpret_cast<const V*>(y.data()),
                 reinterpret_cast<const V*>(w.data()), reinterpret_cast<V*>(z.data()), nv);
           }));
  }
  for (const int threads : {128, 256}) {
    const long long ns = x.size();
    report("flat scalar, block", threads, time_ms(o, [&] {
             xyw_hand_flat<T, T>
                 <<<static_cast<unsigned>((ns + threads - 1) / threads), threads, 0, s>>>(
                     x.data(), y.data(), w.data(), z.data(), ns);
           }));
    report("flat vector, block", threads, time_ms(o, [&] {
             xyw_hand_flat<T, V>
                 <<<static_cast<unsigned>((nv + threads - 1) / threads), threads, 0, s>>>(
                     reinterpret_cast<const V*>(x.data()), reinterpret_cast<const V*>(y.data()),
                     reinterpret_cast<const V*>(w.data()), reinterpret_cast<V*>(z.data()), nv);
           }));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  bench::command_line(
      argc, argv,
      {bench::value("--log2n", "K", o.log2n), bench::value("--reps", "N", o.reps),
       bench::value("--runs", "N", o.runs), bench::value("--json", "FILE", o.json)});
  return bench::run_on_gpu("bench_elementwise", [&] {
    const auto& props = cupp::cuda::runtime::getDeviceProperties(cupp::cuda::runtime::getDevice());
    const cupp::index_t n = cupp::index_t{1} << o.log2n;
    std::vector<row> rows;
    auto add = [&](const std::string& name, double ms, double bytes) {
      rows.push_back(
          {name, bytes > 0 ? bytes / (ms * 1e-3) / 1e9 : ms, bytes > 0 ? "GB/s" : "ms", ms});
      std::printf("%-24s %10.4f ms", name.c_str(), ms);
      if (bytes > 0) std::printf("  %8.1f GB/s", bytes / (ms * 1e-3) / 1e9);
      std::printf("\n");
    };

    {  // the copy bandwidth everything is compared against
      auto x = filled<float>(n, 1.0), y = filled<float>(n, 2.0);
      cudaStream_t s = cupp::cuda::get_current_stream().handle();
      const double ms = time_ms(o, [&] {
        BENCH_CHECK(cudaMemcpyAsync(y.data(), x.data(), n * 4, cudaMemcpyDeviceToDevice, s));
      });
      add("copy.f32", ms, 2.0 * n * 4);
    }
    {
      auto x = filled<float>(n, 1.5), y = filled<float>(n, 2.0), w = filled<float>(n, 0.25);
      cupp::ndarray<float> z;
      add("xyw.f32", time_ms(o, [&] { z = x * y + w; }), 4.0 * n * 4);
      if (z.item(n - 1) != 3.25f) throw std::runtime_error("xyw.f32: wrong result");
      cupp::ndarray<float> zh = cupp::empty<float>({n});
      add("xyw.f32.hand", time_hand<float, float4>(o, x, y, w, zh, props.multiProcessorCount),
          4.0 * n * 4);
      if (zh.item(n - 1) != 3.25f) throw std::runtime_error("xyw.f32.hand: wrong result");
#ifndef CUPP_BENCH_CORE_ONLY
      add("softplus.f32",
          time_ms(o, [&] { z = cupp::maximum(0, x) + cupp::log1p(cupp::exp(-cupp::abs(x))); }),
          2.0 * n * 4);
#endif
    }
    {
      auto x = filled<double>(n, 1.5), y = filled<double>(n, 2.0), w = filled<double>(n, 0.25);
      cupp::ndarray<double> z;
      add("xyw.f64", time_ms(o, [&] { z = x * y + w; }), 4.0 * n * 8);
      cupp::ndarray<double> zh = cupp::empty<double>({n});
      add("xyw.f64.hand", time_hand<double, double2>(o, x, y, w, zh, props.multiProcessorCount),
          4.0 * n * 8);
    }
    {
      cupp::ndarray<float> a = cupp::empty<float>({8192, 1}), b = cupp::empty<float>({1, 8192});
      cupp::copyto(a, 1.0);
      cupp::copyto(b, 2.0);
      cupp::ndarray<float> z;
      add("outer_add.f32", time_ms(o, [&] { z = a + b; }), 8192.0 * 8192 * 4);
    }
#ifndef CUPP_BENCH_CORE_ONLY
    for (cupp::index_t len : {10000LL, 100000LL, 1000000LL, 10000000LL, 100000000LL}) {
      cupp::ndarray<std::int64_t> z;
      options more = o;  // short calls: more of them per timed loop
      more.reps = static_cast<int>(
          std::max<cupp::index_t>(10, std::min<cupp::index_t>(200, 20000000 / len)));
      const double ms = time_ms(more, [&] { z = cupp::arange(len).reshape({1000, -1}).T() * 2; });
      add("arange_T." + std::to_string(len), ms, 0);
    }
#endif
    {
      auto x = filled<float>(1000, 1.5), y = filled<float>(1000, 2.0),
           w = filled<float>(1000, 0.25);
      cupp::ndarray<float> z;
      options many = o;
      many.reps = 1000;
      add("small_xyw.gpu_us", time_ms(many, [&] { z = x * y + w; }) * 1e3, 0);
      rows.back().unit = "us";
      // Host time: calls issued back to back, fewer than the launch queue holds.
      const double host_us = bench::median_host_us_per_call(o.runs, 200, [&] { z = x * y + w; });
      rows.push_back({"small_xyw.host_us", host_us, "us", 0});
      std::printf("%-24s %10.3f us per call (host)\n", "small_xyw.host_us", host_us);
      cupp::cuda::get_current_stream().synchronize();
    }
    if (!o.json.empty())
      bench::write_json(o.json, "elementwise", props.name, [&](std::ostream& f) {
        f << ",\n  \"results\": [";
        for (std::size_t i = 0; i < rows.size(); ++i)
          f << (i ? ",\n" : "\n") << "    {\"case\": \"" << rows[i].name
            << "\", \"value\": " << rows[i].value << ", \"unit\": \"" << rows[i].unit
            << "\", \"ms\": " << rows[i].ms << "}";
        f << "\n  ]";
      });
  });
}
