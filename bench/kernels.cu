// Run-time kernels (<cupp/kernels.hpp>): ms per call of
//   raw_kernel.launch.1000   a cached RawKernel launch over 1000 float32
//                            (z = x + y), beside cudaLaunchKernel of the same
//                            code loaded by hand (the floor of a launch)
//   raw_kernel.compile.first NVRTC's first compile of a small kernel (a new
//                            source each call, CUPP_CACHE_IN_MEMORY=1)
//   raw_kernel.disk_hit      a new RawKernel whose code is in the disk cache
//                            and not in memory: read, check, load, launch
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

#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <filesystem>
#include <string>

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

void compile_rows(bench_run& b) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cupp-bench-kernels-" + std::to_string(::getpid()));
  ::setenv("CUPP_CACHE_DIR", dir.c_str(), 1);
  int n = 1000;
  const cupp::ndarray<float> x = cupp::arange<float>(n), y = cupp::ones<float>({n});
  cupp::ndarray<float> z = cupp::empty<float>({n});
  static int serial = 0;
  if (b.wanted("raw_kernel.compile.first")) {
    auto& r = b.start("raw_kernel.compile.first", "NVRTC compile of a new small kernel, no cache");
    ::setenv("CUPP_CACHE_IN_MEMORY", "1", 1);
    b.time(r, "cupp", [&] {
      cupp::RawKernel k(add_source + "// " + std::to_string(serial++) + "\n", "add");
      k.compile();
    });
    // NVRTC alone, to the cubin: the rest of the row is loading it.
    const int arch = dk::current_arch(cupp::cuda::runtime::getDevice());
    b.time(r, "nvrtc_compile", [&] {
      (void)dk::nvrtc_compile(add_source + "// " + std::to_string(serial++) + "\n", "add.cu", {},
                              {}, arch);
    });
    ::unsetenv("CUPP_CACHE_IN_MEMORY");
  }
  if (b.wanted("raw_kernel.disk_hit")) {
    auto& r = b.start("raw_kernel.disk_hit", "a new RawKernel found in the disk cache, launched");
    const std::string src = add_source + "// disk " + std::to_string(::getpid()) + "\n";
    cupp::RawKernel(src, "add").compile();  // written to disk
    b.time(r, "cupp", [&] {
      dk::kernel_cache::instance().clear_memory();
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
        xyw_kernel<<<(n + 255) / 256, 256, 0, s.handle()>>>(x.data(), y.data(), w.data(),
                                                          z0.data(), n);
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
        using launch_fn = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  unsigned, unsigned, cudaStream_t, void**, void**);
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
          host_us("cuLaunchKernel", [&] {
            fn(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, s.handle(), args, nullptr);
          });
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
    compile_rows(b);
    template_rows(b);
    graph_rows(b);
    if (!o.json.empty()) b.write_json(o.json, props.name);
  });
}
