// Stands in for a GPU test executable where the full GPU tests are not built
// (CUPP_BUILD_GPU_TESTS=OFF, the default where no GPU answers at configure
// time, as in CI). It reports itself skipped, never passed: ctest's
// SKIP_RETURN_CODE is 77. The device run builds and runs the real one.
#include <cstdio>

int main() {
  std::printf("SKIPPED: %s is built and run where a GPU is present "
              "(scripts/device-run.sh, or CUPP_BUILD_GPU_TESTS=ON)\n",
              CUPP_TEST_NAME);
  return 77;
}
