// Run-time kernels with cupp (docs/kernels.md): a RawKernel from a source
// string, a template kernel through a RawModule's name expressions,
// CuPy's ElementwiseKernel and ReductionKernel strings, and the compile
// error a broken source gives. Build with the cupp::kernels target.
// Without a GPU, NVRTC still compiles (for sm_90) and the error is shown.
#include <cupp/cupp.hpp>
#include <cupp/kernels.hpp>

#include <iostream>

namespace cp = cupp;

int main() {
  try {  // a source with a mistake: NVRTC's log and the line it points at
    (void)cp::detail::kernels::nvrtc_compile(
        "extern \"C\" __global__ void f(float* x) {\n  x[0] = y;\n}\n", "broken.cu", {}, {}, 90);
  } catch (const cp::compile_error& e) {
    std::cout << e.what() << "\n";
  }
  if (!cp::cuda::is_available()) {
    std::cout << "No CUDA device found: run-time kernels compile (above) but need a GPU to run.\n";
    return 0;
  }

  cp::RawKernel add(R"(
extern "C" __global__ void add(const float* x, const float* y, float* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] + y[i];
})",
                    "add");
  const int n = 8;
  cp::ndarray<float> x = cp::arange<float>(n), y = cp::full<float>({n}, 0.5f);
  cp::ndarray<float> z = cp::empty<float>({n});
  add(dim3(1), dim3(32), std::tuple{x, y, z, n});
  std::cout << "add: " << z << "\n";

  const cp::RawModule m(R"(
template <class T> __global__ void scale(T* x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
})",
                        {}, {"scale<float>", "scale<double>"});
  m.get_function("scale<float>")(dim3(1), dim3(32), std::tuple{z, 2.0f, n});
  std::cout << "scale<float>: " << z << "\n";

  // CuPy's string kernels, ported as they are: T binds to float32 here.
  const cp::ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)",
                                           "squared_diff");
  cp::ndarray<float> d = squared_diff(x, y);
  std::cout << "squared_diff: " << d << "\n";
  const cp::ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  cp::ndarray<float> norm = l2norm(x);
  std::cout << "l2norm: " << norm << "\n";
  return 0;
}
