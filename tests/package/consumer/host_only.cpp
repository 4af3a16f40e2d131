// A program of .cpp files only, compiled by the host compiler: dtypes,
// the CUDA runtime, host arrays with their expressions and printing, and,
// where there is a GPU, device arrays copied into another layout (no unit
// compiled the copy kernels: the copy goes through host memory).
#include <cupp/creation.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/dtype.hpp>
#include <cupp/indexing.hpp>
#include <cupp/print.hpp>
#include <cupp/ufunc.hpp>

#include <cstdio>
#include <sstream>
#include <vector>

int main() {
  constexpr cupp::dtype d = cupp::dtype_of<cupp::result_type_t<std::uint8_t, std::int8_t>>();
  const cupp::host::ndarray<float> h = cupp::host::array<float>({1, 2, 3});
  const cupp::host::ndarray<float> y = cupp::sqrt(h * h) + 1;
  std::ostringstream os;
  os << y;
  bool ok = d.name == "int16" && os.str() == "array([2., 3., 4.], dtype=float32)";
  if (cupp::cuda::is_available()) {
    const cupp::host::ndarray<float> m = cupp::host::array<float>({{1, 2, 3}, {4, 5, 6}});
    cupp::ndarray<float> dev(m.shape());
    dev.set(m);
    const std::vector<float> t = dev.T().get().to_vector();
    const std::vector<float> col = dev(cupp::_, 1).copy().get().to_vector();
    ok = ok && t == std::vector<float>{1, 4, 2, 5, 3, 6} && col == std::vector<float>{2, 5};
  }
  std::printf("consumer_host: uint8 + int8 -> %s; sqrt(h * h) + 1 = %s; CUDA available: %s; %s\n",
              d.name.data(), os.str().c_str(), cupp::cuda::is_available() ? "yes" : "no",
              ok ? "passed" : "FAILED");
  return ok ? 0 : 1;
}
