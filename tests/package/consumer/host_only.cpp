// A program of .cpp files only, compiled by the host compiler: dtypes,
// the CUDA runtime, and host arrays with their expressions and printing.
#include <cupp/creation.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/dtype.hpp>
#include <cupp/print.hpp>
#include <cupp/ufunc.hpp>

#include <cstdio>
#include <sstream>

int main() {
  constexpr cupp::dtype d = cupp::dtype_of<cupp::result_type_t<std::uint8_t, std::int8_t>>();
  const cupp::host::ndarray<float> h = cupp::host::array<float>({1, 2, 3});
  const cupp::host::ndarray<float> y = cupp::sqrt(h * h) + 1;
  std::ostringstream os;
  os << y;
  std::printf("consumer_host: uint8 + int8 -> %s; sqrt(h * h) + 1 = %s; CUDA available: %s\n",
              d.name.data(), os.str().c_str(), cupp::cuda::is_available() ? "yes" : "no");
  return d.name == "int16" && os.str() == "array([2., 3., 4.], dtype=float32)" ? 0 : 1;
}
