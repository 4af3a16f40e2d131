// Compiled by the host compiler, not nvcc.
#include <cupp/cuda/memory.hpp>
#include <cupp/dtype.hpp>

#include <cstdio>

int main() {
  constexpr cupp::dtype d = cupp::dtype_of<cupp::result_type_t<std::uint8_t, std::int8_t>>();
  std::printf("consumer_host: uint8 + int8 -> %s; CUDA available: %s\n", d.name.data(),
              cupp::cuda::is_available() ? "yes" : "no");
  return d.name == "int16" ? 0 : 1;
}
