// Device paths of run-time kernels (<cupp/kernels.hpp>): RawKernel (arrays
// of two dtypes, int, int64 and float scalars, launch options with dynamic
// shared memory and a stream, compile, attributes), RawModule (template
// kernels by name expression, get_global, a module from a cubin file),
// ElementwiseKernel (allocated and given outputs, broadcasting, a raw
// operand, a fixed-type scalar, two outputs, kernel_call's size, block size
// and stream, a preamble) and ReductionKernel (all axes, one axis with
// keepdims, a float64 accumulator, out=). Their kernels are compiled by
// NVRTC when they first run, so what this unit compiles is the host side of
// every call template; examples/raw_kernel.cu calls the simplest forms.
// (User ufuncs and cupp::fuse are in elementwise.cu.)
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/generators.hpp>
#include <cupp/kernels.hpp>
#include <cupp/ufunc/arithmetic.hpp>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <unistd.h>

#include "checks.hpp"

using device_paths::expect;
using device_paths::expect_values;

namespace {

void raw_kernels() {
  // z = a * x + y, and y reversed through shared memory.
  const cupp::RawKernel axpy(R"(
extern "C" __global__ void axpy(float a, const float* x, const double* y, double* z,
                                long long n, int reverse) {
  extern __shared__ double s[];
  int i = threadIdx.x;
  if (i < n) s[i] = y[i];
  __syncthreads();
  if (i < n) z[i] = a * x[i] + s[reverse ? n - 1 - i : i];
})",
                             "axpy", {"-DCUPP_DEVICE_PATHS=1"});
  const cupp::ndarray<float> x = cupp::arange<float>(4).eval();
  const cupp::ndarray<double> y = cupp::arange<double>(10, 14).eval();
  const cupp::ndarray<double> z = cupp::zeros<double>({4});
  axpy(dim3(1), dim3(32), std::tuple{2.0f, x, y, z, std::int64_t{4}, 0},
       {.shared_mem = 4 * sizeof(double)});
  expect_values(z, {10, 13, 16, 19}, "RawKernel");
  const cupp::cuda::Stream s(true);
  axpy(dim3(1), dim3(32), std::tuple{1.0f, x, y, z, std::int64_t{4}, 1},
       {.shared_mem = 4 * sizeof(double), .stream = s});
  s.synchronize();
  expect_values(z, {13, 13, 13, 13}, "RawKernel on a stream");
  axpy.compile();
  expect(axpy.num_regs() > 0 && axpy.max_threads_per_block() >= 32 &&
             axpy.attributes().numRegs == axpy.num_regs(),
         "RawKernel attributes");
  axpy.set_max_dynamic_shared_size_bytes(64 * 1024);
  expect(axpy.attributes().maxDynamicSharedSizeBytes == 64 * 1024, "dynamic shared memory");
  expect(axpy.name() == "axpy" && !axpy.code().empty() && axpy.options().size() == 1,
         "RawKernel accessors");

  // Template kernels by name expression, and a __device__ global.
  const cupp::RawModule m(R"(
__device__ int calls;
template <class T> __global__ void scale(T* x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
  if (i == 0) atomicAdd(&calls, 1);
})",
                          {}, {"scale<float>", "scale<double>"});
  m.compile();
  const auto [calls, bytes] = m.get_global("calls");
  expect(bytes == sizeof(int), "get_global");
  cupp::cuda::check(cudaMemset(calls, 0, sizeof(int)), "cudaMemset");
  const cupp::ndarray<float> xf = x.copy();
  m.get_function("scale<float>")(dim3(1), dim3(32), std::tuple{xf, 3.0f, 4});
  m.get_function("scale<double>")(dim3(1), dim3(32), std::tuple{z, 0.5, 4});
  expect_values(xf, {0, 3, 6, 9}, "scale<float>");
  expect_values(z, {6.5, 6.5, 6.5, 6.5}, "scale<double>");
  int counted = 0;
  cupp::cuda::check(cudaMemcpy(&counted, calls, sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy");
  expect(counted == 2 && m.name_expressions().size() == 2, "the module's global");

  // A module from a cubin file, compiled here for this device.
  const int arch = cupp::detail::kernels::current_arch(cupp::cuda::runtime::getDevice());
  const auto cubin = cupp::detail::kernels::nvrtc_compile(
      "extern \"C\" __global__ void fill(int* y, int v) { y[threadIdx.x] = v + threadIdx.x; }",
      "fill.cu", {}, {}, arch);
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("cupp_device_paths_" + std::to_string(::getpid()) + (cubin.ptx ? ".ptx" : ".cubin"));
  std::ofstream(file, std::ios::binary) << cubin.image;
  const cupp::ndarray<std::int32_t> filled = cupp::zeros<std::int32_t>({3});
  cupp::RawModule::from_file(file).get_function("fill")(dim3(1), dim3(3), std::tuple{filled, 7});
  std::filesystem::remove(file);
  expect_values(filled, {7, 8, 9}, "RawModule from a file");
}

void elementwise_kernels() {
  const cupp::ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)",
                                             "squared_diff");
  const cupp::ndarray<float> x = cupp::arange<float>(4).eval();
  const cupp::ndarray<float> d = squared_diff(x, 1.0f);
  expect_values(d, {1, 0, 1, 4}, "ElementwiseKernel (scalar)");
  // Broadcast (2, 1) against (4,), into a given output.
  const cupp::ndarray<double> col = cupp::arange<double>(2).eval().reshape({2, 1});
  const cupp::ndarray<double> xd = x.astype<double>(), out = cupp::empty<double>({2, 4});
  squared_diff(col, xd, out);
  expect_values(out, {0, 1, 4, 9, 1, 0, 1, 4}, "ElementwiseKernel (broadcast, out)");
  expect(squared_diff.nin() == 2 && squared_diff.nout() == 1 && squared_diff.nargs() == 3 &&
             squared_diff.name() == "squared_diff" && squared_diff.in_params() == "T x, T y" &&
             squared_diff.out_params() == "T z" && !squared_diff.operation().empty(),
         "ElementwiseKernel accessors");

  // A raw operand read backwards, a fixed-type scalar, the index, two
  // outputs, a preamble.
  const cupp::ElementwiseKernel mix("T x, raw T r, float64 s", "T z, int64 at",
                                    "z = twice(x) * s + r[_ind.size() - 1 - i]; at = i", "mix",
                                    {.preamble = "template <class U> __device__ U twice(U u) "
                                                 "{ return u + u; }"});
  auto [z, at] = mix(x, x, 0.5).as<float, std::int64_t>();
  expect_values(z, {3, 3, 3, 3}, "ElementwiseKernel (raw, scalar, preamble)");
  expect_values(at, {0, 1, 2, 3}, "ElementwiseKernel (index)");
  // No non-raw array: the size from kernel_call, on a stream of its own.
  const cupp::ElementwiseKernel fill("raw T x", "raw T y", "y[i] = x[i] * 3", "fill3");
  const cupp::ndarray<std::int32_t> src = cupp::arange<std::int32_t>(5).eval();
  const cupp::ndarray<std::int32_t> dst = cupp::zeros<std::int32_t>({5});
  const cupp::cuda::Stream s(true);
  fill(src, dst, cupp::kernel_call{.size = 5, .block_size = 64, .stream = s});
  s.synchronize();
  expect_values(dst, {0, 3, 6, 9, 12}, "ElementwiseKernel (kernel_call)");
  const cupp::kernel_outputs two = mix(x, x, 1.0);
  expect(two.size() == 2 && two.dtype(1) == cupp::dtype_of<std::int64_t>(), "kernel_outputs");
  expect_values(two.get<float>(0), {3, 4, 5, 6}, "kernel_outputs.get");
}

void reduction_kernels() {
  const cupp::ReductionKernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  // x = [[0, 1, 2], [3, 4, 5]]
  const cupp::ndarray<float> x = cupp::arange<float>(6).eval().reshape({2, 3});
  const cupp::ndarray<float> all = l2(x);
  expect_values(all, {std::sqrt(55.0)}, "ReductionKernel");
  const cupp::ndarray<float> rows =
      l2(x, cupp::reduction_call{.axis = std::vector<int>{-1}, .keepdims = true});
  expect(rows.shape() == cupp::shape_t{2, 1}, "ReductionKernel keepdims");
  expect_values(rows, {std::sqrt(5.0), std::sqrt(50.0)}, "ReductionKernel along -1");
  const cupp::ReductionKernel sum64("T x", "T y", "x", "a + b", "y = a", "0", "sum64",
                                    {.reduce_type = "float64"});
  const cupp::ndarray<float> cols = cupp::empty<float>({3});
  const cupp::cuda::Stream s(true);
  sum64(x, cols, cupp::reduction_call{.axis = std::vector<int>{0}, .stream = s});
  s.synchronize();
  expect_values(cols, {3, 5, 7}, "ReductionKernel out=, float64 accumulator");
  const cupp::ndarray<double> xd = x.astype<double>();
  const cupp::ndarray<double> d = sum64(xd);
  expect_values(d, {15}, "ReductionKernel float64");
  expect(l2.name() == "l2norm" && l2.nin() == 1 && l2.nout() == 1, "ReductionKernel accessors");
}

}  // namespace

void device_paths_kernels() {
  raw_kernels();
  elementwise_kernels();
  reduction_kernels();
}
