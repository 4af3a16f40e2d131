// Run-time kernels (<cupp/kernels.hpp>): ms per call of
//   raw_kernel.launch.1000   a cached RawKernel launch over 1000 float32
//                            (z = x + y), beside cudaLaunchKernel of the same
//                            code loaded by hand (the floor of a launch)
//   raw_kernel.compile.first NVRTC's first compile of a small kernel (a new
//                            source each call, CUPP_CACHE_IN_MEMORY=1), and
//                            NVRTC alone: cupp's call (--minimal), without
//                            --minimal, with CuPy's options; in alternation,
//                            GPU-event ms and the process's CPU ms
//   raw_kernel.disk_hit      a new RawKernel whose code is in the disk cache
//                            and not in memory: read, check, load, launch;
//                            and its parts: the read and check alone, the
//                            load as cupp does it and as CuPy does
//   raw_kernel.memory_hit    a new RawKernel whose code is in memory, launched
//   elementwise_kernel.call.1000  an ElementwiseKernel call (z = x + y over
//                            1000 float32, z allocated), beside cupp's own
//                            expression x + y
//   reduction_kernel.call.1000    a ReductionKernel call (sum of squares of
//                            1000 float32 into a 0-d array)
//   reduction_kernel.sum.1e7      the same over 10^7 float32 (bandwidth)
//   reduction_kernel.rows.1e6x8   the same along axis 1 of (10^6, 8) float32
//   graph.xyw.1000           z = x * y + w over 1000 float32: called directly,
//                            a graph of it replayed, and per expression in a
//                            replayed graph of ten of them
//   graph.ops10.1000         ten small operations in a chain over 1000
//                            float64, called directly and as a replayed graph
// cupy_kernels.py times the same with CuPy.
//   bench_kernels [--runs 7] [--loop-ms 20] [--only SUBSTRING] [--json FILE]
#include <cupp/cupp.hpp>
#include <cupp/cuda/graph.hpp>
#include <cupp/kernels.hpp>

#include <cuda.h>
#include <dlfcn.h>
#include <nvrtc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench_rows.hpp"

using bench_rows::bench_run;
using bench_rows::options;
namespace dk = cupp::detail::kernels;

namespace {

const std::string add_source = R"(
extern "C" __global__ void add(const float* x, const float* y, float* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] + y[i];
}
)";

__global__ void xyw_kernel(const float* x, const float* y, const float* w, float* z, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] * y[i] + w[i];
}

template <int Bytes>
struct padded_args {
  const float *x, *y, *w;
  float* z;
  int n;
  char pad[Bytes - 40];
};
template <int Bytes>
__global__ void padded_xyw(const padded_args<Bytes> a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n) a.z[i] = a.x[i] * a.y[i] + a.w[i];
}

void launch_row(bench_run& b) {
  if (!b.wanted("raw_kernel.launch.1000")) return;
  auto& r = b.start("raw_kernel.launch.1000", "RawKernel over 1000 float32, cached");
  int n = 1000;
  const cupp::ndarray<float> x = cupp::arange<float>(n), y = cupp::ones<float>({n});
  cupp::ndarray<float> z = cupp::empty<float>({n});
  cupp::RawKernel add(add_source, "add");
  const dim3 grid(4), block(256);
  add(grid, block, std::tuple{x, y, z, n});
  if (z.to_vector() != (x + y).eval().to_vector())
    throw std::runtime_error("raw_kernel: wrong sums");
  b.time(r, "cupp", [&] { add(grid, block, std::tuple{x, y, z, n}); });

  const int device = cupp::cuda::runtime::getDevice();
  const dk::compiled_code code =
      dk::nvrtc_compile(add_source, "add.cu", {}, {}, dk::current_arch(device));
  cudaLibrary_t lib = nullptr;
  cudaKernel_t k = nullptr;
  BENCH_CHECK(
      cudaLibraryLoadData(&lib, code.image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  BENCH_CHECK(cudaLibraryGetKernel(&k, lib, "add"));
  const float *px = x.data(), *py = y.data();
  float* pz = z.data();
  void* args[] = {&px, &py, &pz, &n};
  const cudaStream_t s = bench_rows::stream();
  b.time(r, "cudaLaunchKernel", [&] {
    BENCH_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(k), grid, block, args, 0, s));
  });
  BENCH_CHECK(cudaStreamSynchronize(s));
  BENCH_CHECK(cudaLibraryUnload(lib));
}

// The process's CPU time in ms (every thread's): NVRTC works on the host,
// and CPU time leaves out what other processes on the machine take.
double process_cpu_ms() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

// Calls timed in alternation, one call of each per round (`runs` rounds
// after one call of each to warm up): the median GPU-event ms of each as a
// figure, the median CPU ms as an extra "cpu_ms <name>".
void time_alternating(bench_run& b, bench_rows::row& r, int runs,
                      const std::vector<std::pair<std::string, std::function<void()>>>& calls) {
  const cudaStream_t s = bench_rows::stream();
  for (const auto& c : calls) c.second();
  std::vector<std::vector<double>> gpu(calls.size()), cpu(calls.size());
  cudaEvent_t e0, e1;
  BENCH_CHECK(cudaEventCreate(&e0));
  BENCH_CHECK(cudaEventCreate(&e1));
  for (int run = 0; run < runs; ++run)
    for (std::size_t k = 0; k < calls.size(); ++k) {
      BENCH_CHECK(cudaEventRecord(e0, s));
      const double c0 = process_cpu_ms();
      calls[k].second();
      cpu[k].push_back(process_cpu_ms() - c0);
      BENCH_CHECK(cudaEventRecord(e1, s));
      BENCH_CHECK(cudaEventSynchronize(e1));
      float ms = 0;
      BENCH_CHECK(cudaEventElapsedTime(&ms, e0, e1));
      gpu[k].push_back(ms);
    }
  BENCH_CHECK(cudaEventDestroy(e0));
  BENCH_CHECK(cudaEventDestroy(e1));
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  for (std::size_t k = 0; k < calls.size(); ++k) {
    r.figures.push_back({calls[k].first, median(gpu[k])});
    std::printf("  %-40s %10.4f ms\n", calls[k].first.c_str(), median(gpu[k]));
  }
  for (std::size_t k = 0; k < calls.size(); ++k)
    b.extra(r, "cpu_ms " + calls[k].first, median(cpu[k]));
}

// The driver's cuModuleLoadData and cuModuleGetFunction (what CuPy loads a
// cubin with), through the runtime's entry-point query: nothing links
// libcuda.
struct driver_module_api {
  CUresult (*load)(CUmodule*, const void*) = nullptr;
  CUresult (*get)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*unload)(CUmodule) = nullptr;
  driver_module_api() {
    auto find = [](const char* name, auto& fn) {
      void* p = nullptr;
      cudaDriverEntryPointQueryResult q{};
      BENCH_CHECK(cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q));
      if (q != cudaDriverEntryPointSuccess) throw std::runtime_error(std::string("no ") + name);
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
    };
    find("cuModuleLoadData", load);
    find("cuModuleGetFunction", get);
    find("cuModuleUnload", unload);
  }
};

// Where a shared library this process calls into was loaded from.
std::string library_of(const void* symbol) {
  Dl_info info{};
  return ::dladdr(symbol, &info) && info.dli_fname ? info.dli_fname : "?";
}

void compile_rows(bench_run& b, const options& o) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cupp-bench-kernels-" + std::to_string(::getpid()));
  ::setenv("CUPP_CACHE_DIR", dir.c_str(), 1);
  int n = 1000;
  const cupp::ndarray<float> x = cupp::arange<float>(n), y = cupp::ones<float>({n});
  cupp::ndarray<float> z = cupp::empty<float>({n});
  const int arch = dk::current_arch(cupp::cuda::runtime::getDevice());
  static int serial = 0;
  auto new_source = [] { return add_source + "// " + std::to_string(serial++) + "\n"; };
  if (b.wanted("raw_kernel.compile.first")) {
    const int v = dk::nvrtc_version();
    std::printf("NVRTC %d.%d (%s)\n", v / 1000, v % 1000 / 10,
                library_of(reinterpret_cast<const void*>(&nvrtcVersion)).c_str());
    auto& r = b.start("raw_kernel.compile.first",
                      "NVRTC compile of a new small kernel, no cache; NVRTC alone three ways");
    // CuPy's RawKernel options (CuPy 14.2: include paths, C++17, -ftz=true,
    // -default-device; its architecture option is cupp's). Its include
    // paths name CuPy's headers; the toolkit's stand in (nothing is
    // included).
    const std::string inc = dk::cuda_include_dir();
    const std::vector<std::string> cupy_options = {
        "-I" + inc + "/cccl", "-I" + inc + "/cccl",
        "-I" + inc + "/cccl", "--std=c++17",
        "-I" + inc,           "-I" + inc,
        "-ftz=true",          "--device-as-default-execution-space"};
    ::setenv("CUPP_CACHE_IN_MEMORY", "1", 1);
    std::printf("  --minimal applies to the source: %s\n",
                dk::minimal_header_applies(new_source(), {}, v) ? "yes" : "no");
    time_alternating(
        b, r, std::max(o.runs, 7),
        {{"cupp",
          [&] {
            cupp::RawKernel k(new_source(), "add");
            k.compile();
          }},
         {"nvrtc_compile", [&] { (void)dk::nvrtc_compile(new_source(), "add.cu", {}, {}, arch); }},
         {"nvrtc without --minimal",
          [&] { (void)dk::nvrtc_compile_as(new_source(), "add.cu", {}, {}, arch, false); }},
         {"nvrtc with CuPy's options", [&] {
            (void)dk::nvrtc_compile_as(new_source(), "add.cu", cupy_options, {}, arch, false);
          }}});
    ::unsetenv("CUPP_CACHE_IN_MEMORY");
  }
  const std::string src = add_source + "// disk " + std::to_string(::getpid()) + "\n";
  if (b.wanted("raw_kernel.disk_hit")) {
    auto& r = b.start("raw_kernel.disk_hit",
                      "a new RawKernel found in the disk cache, launched; and its parts");
    cupp::RawKernel(src, "add").compile();  // written to disk
    b.time(r, "cupp", [&] {
      dk::kernel_cache::instance().clear_memory();
      cupp::RawKernel k(src, "add");
      k(dim3(4), dim3(256), std::tuple{x, y, z, n});
    });
    // Its parts: the cache's file read and check (host), loading the image
    // as cupp does and as CuPy does (the loaded code is unloaded after the
    // timing, not in it).
    b.time(r, "read + check (host)", [&] {
      dk::kernel_cache::instance().clear_memory();
      (void)dk::kernel_cache::instance().get(src, "cupp_kernel.cu", {}, {}, arch);
    });
    const auto code = dk::kernel_cache::instance().get(src, "cupp_kernel.cu", {}, {}, arch).code;
    std::vector<cudaLibrary_t> libs;
    b.time(r, "cudaLibraryLoadData+GetKernel", [&] {
      cudaLibrary_t lib = nullptr;
      cudaKernel_t k = nullptr;
      BENCH_CHECK(
          cudaLibraryLoadData(&lib, code->image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
      BENCH_CHECK(cudaLibraryGetKernel(&k, lib, "add"));
      libs.push_back(lib);
    });
    for (cudaLibrary_t l : libs) BENCH_CHECK(cudaLibraryUnload(l));
    const driver_module_api drv;
    std::vector<CUmodule> mods;
    b.time(r, "cuModuleLoadData+GetFunction", [&] {
      CUmodule m = nullptr;
      CUfunction f = nullptr;
      if (drv.load(&m, code->image.data()) != CUDA_SUCCESS || drv.get(&f, m, "add") != CUDA_SUCCESS)
        throw std::runtime_error("cuModuleLoadData failed");
      mods.push_back(m);
    });
    for (CUmodule m : mods) (void)drv.unload(m);
  }
  if (b.wanted("raw_kernel.memory_hit")) {
    auto& r = b.start("raw_kernel.memory_hit",
                      "a new RawKernel whose code the process has compiled, launched");
    cupp::RawKernel(src, "add").compile();
    b.time(r, "cupp", [&] {
      cupp::RawKernel k(src, "add");
      k(dim3(4), dim3(256), std::tuple{x, y, z, n});
    });
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

void template_rows(bench_run& b) {
  int n = 1000;
  const cupp::ndarray<float> x = cupp::arange<float>(n), y = cupp::ones<float>({n});
  if (b.wanted("elementwise_kernel.call.1000")) {
    auto& r = b.start("elementwise_kernel.call.1000", "ElementwiseKernel z = x + y, 1000 float32");
    const cupp::ElementwiseKernel add("float32 x, float32 y", "float32 z", "z = x + y", "add_ek");
    const cupp::ndarray<float> z = add(x, y);
    if (z.to_vector() != (x + y).eval().to_vector())
      throw std::runtime_error("elementwise_kernel: wrong sums");
    b.time(r, "cupp", [&] { (void)add(x, y); });
    b.time(r, "cupp expression", [&] { const cupp::ndarray<float> e = x + y; });
  }
  const cupp::ReductionKernel ssq("T x", "T y", "x * x", "a + b", "y = a", "0", "ssq");
  if (b.wanted("reduction_kernel.call.1000")) {
    auto& r = b.start("reduction_kernel.call.1000", "ReductionKernel sum of squares, 1000 float32");
    b.time(r, "cupp", [&] { (void)ssq(x); });
  }
  if (b.wanted("reduction_kernel.sum.1e7")) {
    auto& r = b.start("reduction_kernel.sum.1e7", "ReductionKernel sum of squares, 1e7 float32");
    const cupp::ndarray<float> big = cupp::ones<float>({10000000});
    if (cupp::ndarray<float>(ssq(big)).item() != 1e7f)
      throw std::runtime_error("reduction_kernel: wrong sum");
    b.time(r, "cupp", [&] { (void)ssq(big); });
  }
  if (b.wanted("reduction_kernel.rows.1e6x8")) {
    auto& r = b.start("reduction_kernel.rows.1e6x8", "ReductionKernel along axis 1 of (1e6, 8)");
    const cupp::ndarray<float> m = cupp::ones<float>({1000000, 8});
    b.time(r, "cupp", [&] { (void)ssq(m, cupp::reduction_call{.axis = {{1}}}); });
  }
}

void graph_rows(bench_run& b) {
  cupp::cuda::Stream s(true);
  const auto scope = s.scope();  // the rows time the current stream
  const int n = 1000;
  const cupp::ndarray<float> x = cupp::arange<float>(n), y = cupp::ones<float>({n}) * 0.5f,
                             w = cupp::ones<float>({n});
  if (b.wanted("graph.xyw.1000")) {
    auto& r =
        b.start("graph.xyw.1000", "z = x * y + w, 1000 float32: direct, graph, per expr of 10");
    cupp::ndarray<float> z;
    b.time(r, "direct", [&] { z = x * y + w; });
    // The floor under "direct": a kernel compiled in, launched into an
    // existing array, nothing planned or allocated.
    cupp::ndarray<float> z0 = cupp::empty<float>({n});
    b.time(r, "hand-written <<<>>>", [&] {
      xyw_kernel<<<(n + 255) / 256, 256, 0, s.handle()>>>(x.data(), y.data(), w.data(), z0.data(),
                                                          n);
    });
    if (std::getenv("CUPP_BENCH_HOST_SPLIT")) {
      // Host microseconds per call of the pieces of `z = x * y + w` (loops
      // of 200 calls, no synchronisation inside; the launches may wait for
      // a full queue, the rest do not launch).
      auto host_us = [&](const char* what, auto f) {
        const double us = bench::median_host_us_per_call(7, 200, f);
        std::printf("  host split %-28s %8.3f us\n", what, us);
      };
      host_us("z = x * y + w", [&] { z = x * y + w; });
      host_us("hand-written launch", [&] {
        xyw_kernel<<<(n + 255) / 256, 256, 0, s.handle()>>>(x.data(), y.data(), w.data(), z0.data(),
                                                            n);
      });
      host_us("ndarray<float>({n}) and free", [&] { cupp::ndarray<float> t({n}); });
      host_us("build x * y + w, no eval", [&] {
        auto e = x * y + w;
        asm volatile("" : : "r"(&e) : "memory");
      });
      host_us("launch, 256-byte parameters", [&] {
        padded_xyw<256><<<(n + 255) / 256, 256, 0, s.handle()>>>(
            {x.data(), y.data(), w.data(), z0.data(), n, {}});
      });
      host_us("launch, 512-byte parameters", [&] {
        padded_xyw<512><<<(n + 255) / 256, 256, 0, s.handle()>>>(
            {x.data(), y.data(), w.data(), z0.data(), n, {}});
      });
      host_us("launch, 1024-byte parameters", [&] {
        padded_xyw<1024><<<(n + 255) / 256, 256, 0, s.handle()>>>(
            {x.data(), y.data(), w.data(), z0.data(), n, {}});
      });
      {
        // The same kernel through the driver's cuLaunchKernel (reached
        // through the runtime, no -lcuda), to see what the runtime adds.
        using launch_fn = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  unsigned, cudaStream_t, void**, void**);
        void* p = nullptr;
        cudaDriverEntryPointQueryResult found{};
        cudaFunction_t f = nullptr;
        if (cudaGetDriverEntryPointByVersion("cuLaunchKernel", &p, 12000, cudaEnableDefault,
                                             &found) == cudaSuccess &&
            found == cudaDriverEntryPointSuccess &&
            cudaGetFuncBySymbol(&f, reinterpret_cast<const void*>(xyw_kernel)) == cudaSuccess) {
          const auto fn = reinterpret_cast<launch_fn>(p);
          const float *px = x.data(), *py = y.data(), *pw = w.data();
          float* pz = z0.data();
          int nn = n;
          void* args[] = {&px, &py, &pw, &pz, &nn};
          host_us("cuLaunchKernel",
                  [&] { fn(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, s.handle(), args, nullptr); });
        }
      }
      host_us("getDevice", [&] { (void)cupp::cuda::runtime::getDevice(); });
      host_us("current stream", [&] { (void)cupp::cuda::get_current_stream(); });
      cupp::cuda::Device().synchronize();
    }
    cupp::cuda::graph one = cupp::cuda::capture(s, [&] { z = x * y + w; });
    b.time(r, "graph", [&] { one.launch(s); });
    std::vector<cupp::ndarray<float>> zs(10);
    cupp::cuda::graph ten = cupp::cuda::capture(s, [&] {
      for (auto& zi : zs) zi = x * y + w;
    });
    std::printf("  graph of 10: %zu nodes\n", ten.num_nodes());
    const double ten_ms = b.time(r, "graph of 10", [&] { ten.launch(s); });
    r.figures.push_back({"graph per expr", ten_ms / 10});
    std::printf("  %-24s %10.4f ms\n", "graph per expr", ten_ms / 10);
  }
  if (b.wanted("graph.ops10.1000")) {
    auto& r = b.start("graph.ops10.1000", "ten chained operations, 1000 float64");
    const cupp::ndarray<double> a = cupp::linspace<double>(-1, 1, n);
    cupp::ndarray<double> out;
    const auto chain = [&] {
      cupp::ndarray<double> t = a + 1.0;
      for (int i = 0; i < 9; ++i) t = t * 1.5 - a;
      out = t;
    };
    b.time(r, "direct", chain);
    cupp::cuda::graph g = cupp::cuda::capture(s, chain);
    b.time(r, "graph", [&] { g.launch(s); });
  }
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  bench::command_line(
      argc, argv,
      {bench::value("--runs", "N", o.runs), bench::value("--loop-ms", "MS", o.loop_ms),
       bench::value("--only", "SUBSTRING", o.only), bench::value("--json", "FILE", o.json)});
  return bench::run_on_gpu("bench_kernels", [&] {
    const auto& props = cupp::cuda::runtime::getDeviceProperties(cupp::cuda::runtime::getDevice());
    bench_run b(o, "kernels", 24);
    launch_row(b);
    compile_rows(b, o);
    template_rows(b);
    graph_rows(b);
    if (!o.json.empty()) b.write_json(o.json, props.name);
  });
}
