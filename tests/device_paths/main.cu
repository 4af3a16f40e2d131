// device_paths_gpu_test: one Boost.Test case per area, each calling that
// area's device_paths_<area>() (tests/device_paths/<area>.cu), which runs
// every public function of the area on small device arrays and checks a few
// values.
//
// CI, which has no GPU, compiles the area units so that a compile error in
// device code fails it (it no longer builds the full GPU test executables);
// the GPU machine runs this executable as a smoke test.
#include <exception>
#include <string>

#include "cupp_test.hpp"
#include "device_paths.hpp"

namespace {

// Runs one area: a failed check throws std::runtime_error (an error of cupp
// or CUDA throws too), reported with its message.
void run_area(void (*area)()) {
  std::string error;
  try {
    area();
  } catch (const std::exception& e) {
    error = e.what();
  }
  BOOST_TEST(error.empty(), error);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(device_paths)

BOOST_AUTO_TEST_CASE(elementwise) {
  run_area(device_paths_elementwise);
}
BOOST_AUTO_TEST_CASE(math) {
  run_area(device_paths_math);
}
BOOST_AUTO_TEST_CASE(misc) {
  run_area(device_paths_misc);
}
BOOST_AUTO_TEST_CASE(creation) {
  run_area(device_paths_creation);
}
BOOST_AUTO_TEST_CASE(reductions) {
  run_area(device_paths_reductions);
}
BOOST_AUTO_TEST_CASE(reductions_extrema) {
  run_area(device_paths_reductions_extrema);
}
BOOST_AUTO_TEST_CASE(reductions_logic) {
  run_area(device_paths_reductions_logic);
}
BOOST_AUTO_TEST_CASE(reductions_nan) {
  run_area(device_paths_reductions_nan);
}
BOOST_AUTO_TEST_CASE(scans) {
  run_area(device_paths_scans);
}
BOOST_AUTO_TEST_CASE(indexing) {
  run_area(device_paths_indexing);
}
BOOST_AUTO_TEST_CASE(masks) {
  run_area(device_paths_masks);
}
BOOST_AUTO_TEST_CASE(manipulation) {
  run_area(device_paths_manipulation);
}
BOOST_AUTO_TEST_CASE(rearranging) {
  run_area(device_paths_rearranging);
}
BOOST_AUTO_TEST_CASE(io) {
  run_area(device_paths_io);
}
BOOST_AUTO_TEST_CASE(linalg) {
  run_area(device_paths_linalg);
}
BOOST_AUTO_TEST_CASE(linalg_solvers) {
  run_area(device_paths_linalg_solvers);
}
BOOST_AUTO_TEST_CASE(correlation) {
  run_area(device_paths_correlation);
}
BOOST_AUTO_TEST_CASE(sort) {
  run_area(device_paths_sort);
}
BOOST_AUTO_TEST_CASE(distributed_array) {
  run_area(device_paths_distributed_array);
}
BOOST_AUTO_TEST_CASE(random) {
  run_area(device_paths_random);
}
BOOST_AUTO_TEST_CASE(random_float32) {
  run_area(device_paths_random_float32);
}
BOOST_AUTO_TEST_CASE(random_gamma) {
  run_area(device_paths_random_gamma);
}
BOOST_AUTO_TEST_CASE(random_discrete) {
  run_area(device_paths_random_discrete);
}
BOOST_AUTO_TEST_CASE(random_shuffle) {
  run_area(device_paths_random_shuffle);
}
BOOST_AUTO_TEST_CASE(kernels) {
  run_area(device_paths_kernels);
}
BOOST_AUTO_TEST_CASE(interop) {
  run_area(device_paths_interop);
}
#if defined(CUPP_HAVE_NCCL)
BOOST_AUTO_TEST_CASE(distributed) {
  run_area(device_paths_distributed);
}
#endif

BOOST_AUTO_TEST_SUITE_END()
