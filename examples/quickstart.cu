// cupp quickstart: arrays on the host and on the GPU, moving between them,
// and fused expressions on both.
//   scripts/quickstart.sh
#include <cupp/cupp.hpp>

#include <filesystem>
#include <iostream>

namespace cp = cupp;

int main() {
  // A host array, NumPy's ndarray: made from nested braces, printed as NumPy
  // prints it.
  cp::host::ndarray<float> h = cp::host::array<float>({{1, 2, 3}, {4, 5, 6}});
  std::cout << "host array:\n" << h << "\n";
  std::cout << "shape " << cp::to_string(h.shape()) << ", strides " << cp::to_string(h.strides())
            << ", dtype " << h.dtype().name << "\n";

  // Promotion follows NumPy 2 and is known to the compiler.
  using R = cp::result_type_t<std::int8_t, std::uint8_t>;
  std::cout << "int8 with uint8 promotes to " << cp::dtype_of<R>().name << "\n";

  // Expressions are lazy and run as one loop (host) or one kernel (device);
  // C++ scalars are weak, as Python's are in NumPy 2: float32 stays float32.
  cp::host::ndarray<float> s = cp::maximum(0, h) + cp::log1p(cp::exp(-cp::abs(h * 0.5)));
  std::cout << "softplus-like expression on the host: " << s << "\n";

  const auto path = std::filesystem::temp_directory_path() / "cupp_quickstart.npy";
  if (!cp::cuda::is_available()) {
    std::cout << "\nNo CUDA device found: showing the host side only. On a machine with an "
                 "NVIDIA GPU this example moves the array to the device and back.\n";
    cp::save(path, h);
    std::cout << "saved and loaded back: " << cp::host::load<float>(path) << "\n";
    return 0;
  }

  // To the current device, on the current stream.
  cp::ndarray<float> d = cp::asarray(h);
  const cp::cuda::Device device = d.device();
  const auto& props = device.properties();
  std::cout << "\non " << d.device() << " (" << props.name << "):\n" << d << "\n";

  // A Fortran-ordered copy on the device, then back to the host.
  cp::ndarray<float> f = d.copy(cp::order::F);
  std::cout << "F-contiguous copy: c_contiguous=" << f.flags().c_contiguous
            << " f_contiguous=" << f.flags().f_contiguous << "\n";
  cp::host::ndarray<float> back = cp::asnumpy(f);
  std::cout << "back on the host: " << back << "\n";

  // The same expression on the device: one fused kernel. Generators such as
  // arange fuse too, and broadcast like arrays.
  cp::ndarray<float> g = cp::maximum(0, d) + cp::log1p(cp::exp(-cp::abs(d * 0.5)));
  cp::ndarray<float> b = g * cp::arange<float>(3) + 1;
  std::cout << "the expression on the device: " << g << "\nbroadcast with arange(3): " << b
            << "\n";

  // Memory comes from a caching pool; freed blocks are reused.
  auto& pool = cp::cuda::get_default_memory_pool();
  std::cout << "pool: " << pool.used_bytes() << " bytes in use, " << pool.total_bytes()
            << " bytes held\n";

  // .npy files: written by cupp, readable by numpy.load, and back.
  cp::save(path, d);
  cp::ndarray<float> loaded = cp::load<float>(path);
  std::cout << "saved to " << path.string() << " and loaded back: " << loaded << "\n";
  return 0;
}
