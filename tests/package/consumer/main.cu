// A program of several .cu files and a .cpp file, built against cupp the
// way a user's project would be. Without a CUDA device it checks the host
// side and exits 0; with one it checks the device side too. Any wrong
// result makes the exit status non-zero.
#include <cupp/cupp.hpp>

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "consumer.hpp"

namespace {

bool expect_text(const std::string& got, const std::string& want, const std::string& what) {
  if (got != want) std::printf("consumer: WRONG %s: %s\n", what.c_str(), got.c_str());
  return got == want;
}

// Printing and .npy files, on host or device arrays.
template <class S>
int check_io(const cupp::ndarray<float, S>& x, const std::string& where) {
  const std::string repr = "array([[1., 2., 3.],\n       [4., 5., 6.]], dtype=float32)";
  int bad = 0;
  std::ostringstream os;
  os << x;
  bad += !expect_text(os.str(), repr, "operator<< on the " + where);
#if defined(__cpp_lib_format)
  bad += !expect_text(std::format("{}", x), repr, "std::format on the " + where);
#endif
  const std::filesystem::path path = "cupp_consumer_" + where + ".npy";  // working directory
  cupp::save(path, x);
  bad += !consumer::expect(cupp::host::load<float>(path), {1, 2, 3, 4, 5, 6}, "host::load");
  if constexpr (std::is_same_v<S, cupp::device_space>)
    bad += !consumer::expect(cupp::asnumpy(cupp::load<float>(path)), {1, 2, 3, 4, 5, 6}, "load");
  std::filesystem::remove(path);
  return bad;
}

}  // namespace

int main() {
  const bool device = cupp::cuda::is_available();
  const auto h = cupp::host::array<float>({{1, 2, 3}, {4, 5, 6}});
  const std::string described =
      "(2, 3) float32 array([[1., 2., 3.],\n       [4., 5., 6.]], dtype=float32)";
  int bad = consumer::check_math(device) + consumer::check_indexing(device) + check_io(h, "host");
  // Host arrays through the .cpp file.
  bad += !expect_text(consumer::describe(h), described, "describe(h)");
  bad += !consumer::expect(consumer::affine(h), {3, 5, 7, 9, 11, 13}, "affine in the .cpp file");
  if (!device) {
    std::printf(
        "consumer: no CUDA device (cupp::cuda::is_available() is false): host checks %s, "
        "device checks skipped\n",
        bad ? "FAILED" : "passed");
    return bad ? 1 : 0;
  }
  // Device arrays through the .cpp file: a transposed copy (a kernel that
  // this file's own d.T().copy() compiles, reached from the .cpp file), an
  // upload, an expression here.
  const cupp::ndarray<float> d = cupp::asarray(h);
  bad += !expect_text(consumer::describe(d), described, "describe(d)");
  bad += !consumer::expect(cupp::asnumpy(d.T().copy()), {1, 4, 2, 5, 3, 6}, "d.T().copy()");
  bad += !consumer::expect(consumer::fetch(d.T()), {1, 4, 2, 5, 3, 6}, "fetch(d.T())");
  const cupp::ndarray<float> e = consumer::upload(h) * 2;
  bad += !consumer::expect(cupp::asnumpy(e), {2, 4, 6, 8, 10, 12}, "upload(h) * 2");
  bad += check_io(d, "device");
  std::printf("consumer: host and device checks %s on device %d\n", bad ? "FAILED" : "passed",
              d.device_id());
  return bad ? 1 : 0;
}
