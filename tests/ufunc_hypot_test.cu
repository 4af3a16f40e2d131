// cupp's float64 hypot, the one device code uses, against the C library's
// (glibc's, which NumPy calls) bit for bit over the whole exponent range: on
// the device through cupp::hypot, on the host by calling it directly (host
// arrays use the C library's own).
#include <cupp/detail/ops/hypot.hpp>

#include <cstring>
#include <random>

#include "ufunc_harness.hpp"

BOOST_AUTO_TEST_SUITE(ufunc_kernels)

BOOST_AUTO_TEST_CASE(float64_hypot_rounds_as_the_c_library) {
  using namespace ufunc_test;
  constexpr index_t n = 1 << 20;
  harr<double> a = cupp::host::empty<double>({n}), b = cupp::host::empty<double>({n});
  std::mt19937_64 gen(20261123);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_int_distribution<int> exponent(-1074, 1023), apart(-60, 60);
  const double special[] = {0.0,
                            -0.0,
                            1.0,
                            -1.0,
                            0.5,
                            3.0,
                            1.7976931348623157e308,
                            2.2250738585072014e-308,
                            4.9e-324,
                            INFINITY,
                            -INFINITY,
                            NAN};
  constexpr index_t n_special = std::size(special);
  for (index_t i = 0; i < n; ++i) {
    if (i < n_special * n_special) {
      a.data()[i] = special[i / n_special];
      b.data()[i] = special[i % n_special];
    } else {
      // Alternately: both in [-1, 1], both at one random scale, or scales
      // up to 60 binades apart.
      const int e = i % 3 == 0 ? 0 : exponent(gen);
      a.data()[i] = std::ldexp(unit(gen), e);
      b.data()[i] = std::ldexp(unit(gen), i % 3 == 0 ? 0 : e + apart(gen));
    }
  }
#if defined(CUPP_UFUNC_TEST_DEVICE)
  const arr<double> x = to_space(a), y = to_space(b);
  const harr<double> got = to_host(arr<double>(cupp::hypot(x, y)));
#else
  harr<double> got = cupp::host::empty<double>({n});
  for (index_t i = 0; i < n; ++i)
    got.data()[i] = cupp::ops::fmath::hypot_double(a.data()[i], b.data()[i]);
#endif
  index_t differ = 0;
  for (index_t i = 0; i < n; ++i) {
    const double want = std::hypot(a.data()[i], b.data()[i]), g = got.data()[i];
    const bool same = std::memcmp(&want, &g, sizeof g) == 0 || (std::isnan(want) && std::isnan(g));
    if (!same && differ++ < 3)
      BOOST_ERROR("hypot(" << a.data()[i] << ", " << b.data()[i] << ") is " << g
                           << ", the C library's " << want);
  }
  BOOST_TEST(differ == 0, differ << " of " << n << " results differ");
}

BOOST_AUTO_TEST_SUITE_END()
