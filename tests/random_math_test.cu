// The host/device-identical math of the random samplers
// (cupp/detail/random/exact_math.hpp): accuracy of every function against
// long double references over grids, random points and edges, C's special
// values, and (CUPP_TEST_DEVICE) bitwise agreement of the GPU with the host.
#include <cupp/detail/random/exact_math.hpp>
#include <cupp/detail/random/normal_quantile.hpp>
#include <cupp/detail/random/ziggurat.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#if CUPP_TEST_DEVICE
#include <cuda_runtime_api.h>
#endif

namespace xm = cupp::detail::random::xm;

namespace {

enum class fn { log, log1p, exp, expm1, pow, sinpi, cospi, acos, atan, loggam, floor, ceil, trunc };
constexpr const char* fn_names[] = {"log",  "log1p", "exp",    "expm1", "pow",  "sinpi", "cospi",
                                    "acos", "atan",  "loggam", "floor", "ceil", "trunc"};

// One function of xm by number: the same code on the host and in the kernel.
template <class T>
CUPP_HD T apply(fn f, T x, T y) {
  switch (f) {
    case fn::log:
      return xm::log(x);
    case fn::log1p:
      return xm::log1p(x);
    case fn::exp:
      return xm::exp(x);
    case fn::expm1:
      return xm::expm1(x);
    case fn::pow:
      return xm::pow(x, y);
    case fn::sinpi:
      return xm::sinpi(x);
    case fn::cospi:
      return xm::cospi(x);
    case fn::acos:
      return xm::acos(x);
    case fn::atan:
      return xm::atan(x);
    case fn::loggam:
      return xm::loggam(x);
    case fn::floor:
      return xm::floor(x);
    case fn::ceil:
      return xm::ceil(x);
    case fn::trunc:
      return xm::trunc(x);
  }
  return T(0);
}

// sin(pi x) and cos(pi x) in long double, after an exact reduction modulo 2.
// x = n/2 + r exactly (|r| <= 1/4, in long double), so that the error of
// pi in long double stays relative to pi r, not to pi x.
void sincospi_ref(long double x, long double& s, long double& c) {
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double x2 = std::fmod(x, 2.0L);
  const long double n = std::nearbyint(2 * x2);
  const long double r = x2 - n / 2;
  const long double sr = r == 0 ? 0 : std::sin(pi * r), cr = std::cos(pi * r);
  const int q = static_cast<int>(n) & 3;
  s = q == 0 ? sr : q == 1 ? cr : q == 2 ? -sr : -cr;
  c = q == 0 ? cr : q == 1 ? -sr : q == 2 ? -cr : sr;
}
long double sinpi_ref(long double x) {
  long double s, c;
  sincospi_ref(x, s, c);
  return std::isfinite(x) ? s : std::numeric_limits<long double>::quiet_NaN();
}
long double cospi_ref(long double x) {
  long double s, c;
  sincospi_ref(x, s, c);
  return std::isfinite(x) ? c : std::numeric_limits<long double>::quiet_NaN();
}

long double reference(fn f, long double x, long double y) {
  switch (f) {
    case fn::log:
      return std::log(x);
    case fn::log1p:
      return std::log1p(x);
    case fn::exp:
      return std::exp(x);
    case fn::expm1:
      return std::expm1(x);
    case fn::pow:
      return std::pow(x, y);
    case fn::sinpi:
      return sinpi_ref(x);
    case fn::cospi:
      return cospi_ref(x);
    case fn::acos:
      return std::acos(x);
    case fn::atan:
      return std::atan(x);
    // A deliberate difference: loggam is defined for x > 0 only.
    case fn::loggam:
      return x < 0 ? std::numeric_limits<long double>::quiet_NaN() : std::lgamma(x);
    case fn::floor:
      return std::floor(x);
    case fn::ceil:
      return std::ceil(x);
    case fn::trunc:
      return std::trunc(x);
  }
  return 0;
}

// The ulp of T at the magnitude of v (subnormal spacing below the normals).
template <class T>
long double ulp_of(long double v) {
  int e = v == 0 ? std::numeric_limits<T>::min_exponent - 1 : std::ilogb(v);
  if (e < std::numeric_limits<T>::min_exponent - 1) e = std::numeric_limits<T>::min_exponent - 1;
  return std::ldexp(1.0L, e - (std::numeric_limits<T>::digits - 1));
}

template <class T>
bool same_bits(T a, T b) {
  if (a != a && b != b) return true;  // NaN payloads are not kept
  return std::memcmp(&a, &b, sizeof a) == 0;
}

template <class T>
struct points {
  std::vector<T> x, y;
  void add(T a, T b = T(0)) {
    x.push_back(a);
    y.push_back(b);
  }
};

// Random T with uniformly random bits (every binade equally), finite, of
// the given sign (0 positive, 1 negative, 2 either).
template <class T>
T random_bits(std::mt19937_64& g, int sign) {
  using bits_t = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  for (;;) {
    bits_t b = static_cast<bits_t>(g());
    if (sign == 0) b &= ~(bits_t(1) << (sizeof(T) * 8 - 1));
    if (sign == 1) b |= bits_t(1) << (sizeof(T) * 8 - 1);
    T x;
    std::memcpy(&x, &b, sizeof x);
    if (std::isfinite(x)) return x;
  }
}

template <class T>
T uniform(std::mt19937_64& g, double lo, double hi) {
  return static_cast<T>(std::uniform_real_distribution<double>(lo, hi)(g));
}

// The points each function is measured on.
template <class T>
points<T> points_for(fn f) {
  std::mt19937_64 g(0x5eed0000u + static_cast<unsigned>(f));
  points<T> p;
  const bool is_float = sizeof(T) == 4;
  const int n = 100000;
  auto grid = [&](double lo, double hi, int count) {
    for (int i = 0; i <= count; ++i) p.add(static_cast<T>(lo + (hi - lo) * i / count));
  };
  switch (f) {
    case fn::log:
      for (int i = 0; i < n; ++i) p.add(random_bits<T>(g, 0));
      grid(0.5, 2.0, n);
      break;
    case fn::log1p:
      for (int i = 0; i < n; ++i) p.add(random_bits<T>(g, 0));
      for (int i = 0; i < n / 4; ++i) p.add(-std::abs(random_bits<T>(g, 0)) / T(1e30));
      grid(-0.9999, 2.0, n);
      break;
    case fn::exp:
      grid(is_float ? -104.0 : -746.0, is_float ? 89.0 : 710.0, n);
      grid(-1.0, 1.0, n / 4);
      for (int i = 0; i < n / 4; ++i) p.add(random_bits<T>(g, 2) / T(1e30));
      break;
    case fn::expm1:
      grid(is_float ? -20.0 : -40.0, is_float ? 25.0 : 45.0, n);
      grid(-1.0, 1.0, n / 4);
      for (int i = 0; i < n / 4; ++i) p.add(random_bits<T>(g, 2) / T(1e30));
      break;
    case fn::pow:
      for (int i = 0; i < n; ++i) {
        const T x = random_bits<T>(g, 0);
        const double l = std::abs(std::log(static_cast<double>(x)));
        const double limit = (is_float ? 80.0 : 700.0) / (l > 1e-300 ? l : 1e-300);
        p.add(x, uniform<T>(g, -limit, limit));
      }
      for (int i = 0; i < n / 4; ++i) p.add(uniform<T>(g, 0, 3), uniform<T>(g, -20, 20));
      for (int i = 0; i < n / 4; ++i) {
        const T y = std::round(uniform<T>(g, -30, 30));
        p.add(uniform<T>(g, -3, 3), y);
      }
      break;
    case fn::sinpi:
    case fn::cospi:
      grid(-4.0, 4.0, n);
      for (int i = 0; i < n / 4; ++i) p.add(random_bits<T>(g, 2));
      for (int i = -64; i <= 64; ++i) p.add(T(i) / T(4));
      break;
    case fn::acos:
      grid(-1.0, 1.0, n);
      for (int i = 0; i < n / 4; ++i) p.add(T(1) - random_bits<T>(g, 0) / T(1e30));
      for (int i = 0; i < n / 4; ++i) p.add(T(-1) + random_bits<T>(g, 0) / T(1e30));
      break;
    case fn::atan:
      for (int i = 0; i < n; ++i) p.add(random_bits<T>(g, 2));
      grid(-3.0, 3.0, n);
      break;
    case fn::loggam:
      for (int i = 0; i < n; ++i) p.add(random_bits<T>(g, 0));
      grid(0.0001, 30.0, n);
      break;
    case fn::floor:
    case fn::ceil:
    case fn::trunc:
      for (int i = 0; i < n; ++i) p.add(random_bits<T>(g, 2));
      for (int i = -40; i <= 40; ++i) p.add(T(i) / T(4));
      break;
  }
  // Edges and special values of every function.
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  for (T v : {T(0), T(-0.0), T(1), T(-1), T(2), T(-2), T(0.5), T(-0.5), inf, -inf, nan,
              std::numeric_limits<T>::min(), std::numeric_limits<T>::denorm_min(),
              std::numeric_limits<T>::max(), -std::numeric_limits<T>::max()}) {
    if (f != fn::pow) {
      p.add(v);
      continue;
    }
    for (T w : {T(0), T(-0.0), T(1), T(-1), T(2), T(3), T(-3), T(0.5), T(-0.5), inf, -inf, nan})
      p.add(v, w);
  }
  return p;
}

// Error of xm against the reference in ulps of T (relative to 1 near the
// zeros of loggam at 1 and 2); specials and out-of-range results must
// match the reference exactly.
template <class T>
double error_ulps(fn f, T x, T y, T got, std::string& why) {
  const long double ref = reference(f, x, y);
  const T rounded = static_cast<T>(ref);
  const bool loggam_zero = f == fn::loggam && std::isfinite(ref) && std::isfinite(got);
  if (!loggam_zero &&
      (!std::isfinite(rounded) || !std::isfinite(got) || rounded == 0 || got == 0)) {
    // sinpi's zeros follow IEEE 754 sinPi, not the sign of sin(pi * r).
    const bool sinpi_zero =
        f == fn::sinpi && got == 0 && rounded == 0 && std::signbit(got) == std::signbit(x);
    if (same_bits(got, rounded) || sinpi_zero) return 0;
    if (got == 0 && rounded == 0 && f != fn::sinpi && f != fn::floor && f != fn::ceil &&
        f != fn::trunc && (f != fn::atan || x != 0) && (f != fn::log1p || x != 0) &&
        (f != fn::expm1 || x != 0))
      return 0;  // sign of an underflowed or cancelled zero: not specified
    if (std::isfinite(rounded) && std::isfinite(got) &&
        std::abs(static_cast<long double>(got) - ref) <= 2 * ulp_of<T>(ref))
      return std::abs(static_cast<long double>(got) - ref) / ulp_of<T>(ref);
    why = "special";
    return 1e9;
  }
  long double scale = ulp_of<T>(ref);
  if (f == fn::loggam && std::abs(x - 1.0L) < 0.25L) scale = ulp_of<T>(1.0L);
  if (f == fn::loggam && std::abs(x - 2.0L) < 0.25L) scale = ulp_of<T>(1.0L);
  return static_cast<double>(std::abs(static_cast<long double>(got) - ref) / scale);
}

template <class T>
void check_accuracy(fn f, double bound) {
  const points<T> p = points_for<T>(f);
  double worst = 0;
  T worst_x = 0, worst_y = 0;
  std::string why;
  for (std::size_t i = 0; i < p.x.size(); ++i) {
    const T got = apply(f, p.x[i], p.y[i]);
    const double e = error_ulps(f, p.x[i], p.y[i], got, why);
    if (e > worst) {
      worst = e;
      worst_x = p.x[i];
      worst_y = p.y[i];
    }
  }
  BOOST_TEST_MESSAGE(fn_names[static_cast<int>(f)]
                     << "<" << (sizeof(T) == 4 ? "float" : "double") << ">: max " << worst
                     << " ulp at x=" << std::hexfloat << worst_x << " y=" << worst_y
                     << std::defaultfloat);
  BOOST_TEST(worst <= bound, fn_names[static_cast<int>(f)]
                                 << "<" << (sizeof(T) == 4 ? "float" : "double") << ">: " << worst
                                 << " ulps at x=" << std::hexfloat << worst_x << " y=" << worst_y
                                 << " " << why);
}

constexpr fn all_fns[] = {fn::log,   fn::log1p, fn::exp,  fn::expm1, fn::pow,
                          fn::sinpi, fn::cospi, fn::acos, fn::atan,  fn::loggam,
                          fn::floor, fn::ceil,  fn::trunc};

double bound_of(fn f) {
  switch (f) {
    case fn::floor:
    case fn::ceil:
    case fn::trunc:
      return 0;
    case fn::pow:
      return 4;
    default:
      return 2;
  }
}

#if CUPP_TEST_DEVICE
template <class T>
__global__ void apply_kernel(fn f, const T* x, const T* y, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = apply(f, x[i], y[i]);
}

template <class T>
__global__ void sincospi_kernel(const T* x, T* s, T* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) xm::sincospi(x[i], s[i], c[i]);
}

template <class T>
T* to_device(const std::vector<T>& v) {
  T* d = nullptr;
  BOOST_TEST_REQUIRE(cudaMalloc(&d, v.size() * sizeof(T)) == cudaSuccess);
  BOOST_TEST_REQUIRE(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice) ==
                     cudaSuccess);
  return d;
}

template <class T>
std::vector<T> to_host(const T* d, std::size_t n) {
  std::vector<T> v(n);
  BOOST_TEST_REQUIRE(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
  return v;
}

template <class T>
void check_device_bits(fn f) {
  const points<T> p = points_for<T>(f);
  const int n = static_cast<int>(p.x.size());
  T* x = to_device(p.x);
  T* y = to_device(p.y);
  T* out = to_device(std::vector<T>(p.x.size()));
  apply_kernel<<<(n + 255) / 256, 256>>>(f, x, y, out, n);
  BOOST_TEST_REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<T> got = to_host(out, p.x.size());
  int mismatches = 0;
  for (int i = 0; i < n; ++i) {
    const T host = apply(f, p.x[i], p.y[i]);
    if (!same_bits(got[i], host) && mismatches++ < 5)
      BOOST_TEST(false, fn_names[static_cast<int>(f)] << " differs at x=" << std::hexfloat << p.x[i]
                                                      << " y=" << p.y[i] << ": device " << got[i]
                                                      << ", host " << host);
  }
  BOOST_TEST(mismatches == 0);
  if (f == fn::sinpi) {
    T* c = to_device(std::vector<T>(p.x.size()));
    sincospi_kernel<<<(n + 255) / 256, 256>>>(x, out, c, n);
    BOOST_TEST_REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<T> s_dev = to_host(out, p.x.size()), c_dev = to_host(c, p.x.size());
    int bad = 0;
    for (int i = 0; i < n; ++i) {
      T s, cv;
      xm::sincospi(p.x[i], s, cv);
      bad += !same_bits(s, s_dev[i]) || !same_bits(cv, c_dev[i]);
    }
    BOOST_TEST(bad == 0);
    cudaFree(c);
  }
  cudaFree(x);
  cudaFree(y);
  cudaFree(out);
}
#endif

}  // namespace

BOOST_AUTO_TEST_SUITE(random_math)

BOOST_AUTO_TEST_CASE(accuracy_float) {
  for (fn f : all_fns) check_accuracy<float>(f, bound_of(f));
}

BOOST_AUTO_TEST_CASE(accuracy_double) {
  for (fn f : all_fns) check_accuracy<double>(f, bound_of(f));
}

// loggam's stated accuracy for double: 1e-14 relative away from 1 and 2.
BOOST_AUTO_TEST_CASE(loggam_relative) {
  double worst = 0;
  for (double x = 1e-6; x < 1e6; x *= 1.0007) {
    if (std::abs(x - 1) < 0.01 || std::abs(x - 2) < 0.01) continue;
    const long double ref = std::lgamma(static_cast<long double>(x));
    const double e = static_cast<double>(std::abs((xm::loggam(x) - ref) / ref));
    if (e > worst) worst = e;
  }
  BOOST_TEST_MESSAGE("loggam<double> max relative error " << worst);
  BOOST_TEST(worst < 1e-14);
}

// sincospi gives what sinpi and cospi give.
BOOST_AUTO_TEST_CASE(sincospi_matches) {
  const points<double> p = points_for<double>(fn::sinpi);
  int bad = 0;
  for (double x : p.x) {
    double s, c;
    xm::sincospi(x, s, c);
    bad += !same_bits(s, xm::sinpi(x)) || !same_bits(c, xm::cospi(x));
  }
  BOOST_TEST(bad == 0);
}

// The float normal by inversion (normal_quantile.hpp) against the quantile
// found by Newton's method on long double erfc, over a sweep of words and
// every piece's first and last word, and symmetric in the sign bit.
BOOST_AUTO_TEST_CASE(normal_quantile_pieces) {
  namespace rnd = cupp::detail::random;
  auto quantile = [](long double u) {  // Phi^-1(u) for u in (0, 1/2]
    const long double sqrt2 = 1.414213562373095048801688724209698079L;
    const long double inv_sqrt_2pi = 0.398942280401432677939946059934381868L;
    // Phi is convex below 0, so Newton's steps from 0 fall monotonically to
    // the root.
    long double z = 0;
    for (int i = 0; i < 200; ++i) {
      const long double step =
          (0.5L * std::erfc(-z / sqrt2) - u) / (inv_sqrt_2pi * std::exp(-0.5L * z * z));
      z -= step;
      if (std::abs(step) < 1e-18L * std::max(1.0L, std::abs(z))) break;
    }
    return z;
  };
  double worst = 0;
  int asymmetric = 0;
  auto one = [&](std::uint32_t m) {  // m: the 31 bits below the sign
    const float got = rnd::normal_from_word(m), neg = rnd::normal_from_word(m | 0x80000000u);
    asymmetric += !same_bits(neg, -got);
    const long double ref = -quantile((2.0L * m + 1) * 0x1p-33L);
    const float scale = std::max(std::abs(static_cast<float>(ref)), 0.0625f);
    const double ulp = std::nextafter(scale, 1e30f) - scale;
    worst = std::max(worst, static_cast<double>(std::abs(got - ref)) / ulp);
  };
  for (std::uint32_t m = 0; m < 0x80000000u; m += 32749) one(m);
  // Each piece's ends: v = 2m + 1 in [2^(31-k) + j 2^(27-k), ... + 2^(27-k)).
  auto visit = [&](std::uint64_t v_first, std::uint64_t v_last) {  // odd, increasing
    const std::uint32_t m_first = static_cast<std::uint32_t>(v_first / 2);
    const std::uint32_t m_last = static_cast<std::uint32_t>(v_last / 2);
    one(m_first);
    one(m_last);
  };
  for (int k = 31; k >= 0; --k) {
    const std::uint64_t low = std::uint64_t(1) << (31 - k);
    if (k >= 27) {  // at most one odd word a piece
      for (std::uint64_t v = low | 1; v < 2 * low; v += 2) visit(v, v);
      continue;
    }
    const std::uint64_t width = std::uint64_t(1) << (27 - k);
    for (std::uint64_t j = 0; j < 16; ++j) visit(low + j * width + 1, low + (j + 1) * width - 1);
  }
  BOOST_TEST_MESSAGE("normal_from_word: within " << worst << " ulp of max(|z|, 1/16)");
  BOOST_TEST(worst < 2.0);
  BOOST_TEST(asymmetric == 0);
  // The tails: u = 2^-33 gives 6.338 standard deviations; u near 1/2 gives 0.
  BOOST_TEST(std::abs(rnd::normal_from_word(0) - 6.33796f) < 1e-5f);
  BOOST_TEST(rnd::normal_from_word(0x80000000u) == -rnd::normal_from_word(0));
  BOOST_TEST(std::abs(rnd::normal_from_word(0x7fffffffu)) < 1e-8f);
}

// The ziggurat's tables (ziggurat_tables.hpp): strips of equal area v,
// each inner edge x_(i-1) = k_i w_i below the outer edge x_i, f = the
// density at the outer edge, and the fast path taking 98.5% of values.
BOOST_AUTO_TEST_CASE(ziggurat_tables) {
  namespace rnd = cupp::detail::random;
  constexpr double r = CUPP_ZIGGURAT_R, v = 0.00492867323399;
  auto check = [&](auto tag, double bits) {
    using T = decltype(tag);
    // The float tables' values are rounded to float: f to 6e-8 relative,
    // which the areas' differences of f magnify.
    const double area_tolerance = sizeof(T) == 4 ? 1e-4 : 1e-9;
    double fast = 0;
    for (unsigned i = 0; i < 256; ++i) {
      const auto e = rnd::ziggurat_kw<T>(i);
      const double x_out = static_cast<double>(e.w) * bits;  // the strip's outer edge
      fast += static_cast<double>(e.k) / bits / 256;
      BOOST_TEST(static_cast<double>(e.k) <= bits);
      if (i == 0) {
        BOOST_TEST(std::abs(x_out * std::exp(-0.5 * r * r) - v) < 1e-6 * v);  // v / f(r)
        continue;
      }
      const double f = static_cast<double>(rnd::ziggurat_f<T>(i));
      BOOST_TEST(std::abs(f - std::exp(-0.5 * x_out * x_out)) < 1e-6, "strip " << i);
      if (i >= 2) {
        const double x_in = static_cast<double>(rnd::ziggurat_kw<T>(i - 1).w) * bits;
        BOOST_TEST(std::abs(static_cast<double>(e.k) / bits - x_in / x_out) < 1e-6, "strip " << i);
        // Equal areas: x_out (f(x_in) - f(x_out)) = v.
        BOOST_TEST(std::abs(x_out * (static_cast<double>(rnd::ziggurat_f<T>(i - 1)) - f) - v) <
                       area_tolerance * v,
                   "strip " << i);
      }
    }
    BOOST_TEST(std::abs(static_cast<double>(rnd::ziggurat_kw<T>(255).w) * bits - r) < 1e-6);
    BOOST_TEST(fast > 0.985);
  };
  check(float{}, 0x1p23);
  check(double{}, 0x1p52);
}

#if CUPP_TEST_DEVICE
BOOST_AUTO_TEST_CASE(device_bitwise_float) {
  for (fn f : all_fns) check_device_bits<float>(f);
}
BOOST_AUTO_TEST_CASE(device_bitwise_double) {
  for (fn f : all_fns) check_device_bits<double>(f);
}
#endif

BOOST_AUTO_TEST_SUITE_END()
