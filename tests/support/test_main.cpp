// The Boost.Test runner shared by every test executable, compiled once.
// A test executable that needs a GPU exits with 77 when there is none, which
// ctest (SKIP_RETURN_CODE 77) reports as skipped rather than passed.
#define BOOST_TEST_NO_MAIN
#include <boost/test/included/unit_test.hpp>

#include <cuda_runtime_api.h>

#include <cstdio>

bool cupp_test_needs_gpu();

static bool init_suite() {
  boost::unit_test::framework::master_test_suite().p_name.value = "cupp";
  return true;
}

int main(int argc, char* argv[]) {
  if (cupp_test_needs_gpu()) {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
      std::printf("SKIPPED: no CUDA device (%s); these tests need a GPU\n",
                  e != cudaSuccess ? cudaGetErrorName(e) : "0 devices");
      return 77;
    }
  }
  return boost::unit_test::unit_test_main(&init_suite, argc, argv);
}
