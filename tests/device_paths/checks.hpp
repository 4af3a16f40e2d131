// The checks the device-path units share: a failed check throws
// std::runtime_error with what was computed and what was expected.
#pragma once

#include <cmath>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cupp/ndarray.hpp>

#include "device_paths.hpp"

namespace device_paths {

[[noreturn]] inline void fail(const std::string& what) {
  throw std::runtime_error("device path check failed: " + what);
}

inline void expect(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

// got == want within rtol (relative) or atol; NaN matches NaN, infinities
// match exactly.
inline void expect_near(double got, double want, const std::string& what, double rtol = 1e-5,
                        double atol = 0.0) {
  const bool ok = std::isnan(want)   ? std::isnan(got)
                  : std::isinf(want) ? got == want
                                     : std::abs(got - want) <= rtol * std::abs(want) + atol;
  if (!ok) {
    std::ostringstream os;
    os.precision(17);
    os << what << ": got " << got << ", expected " << want;
    fail(os.str());
  }
}

// A number of a cupp dtype as a double (bool, integers, float32/64, and the
// 16-bit floats through float).
template <class T>
double to_double(const T& v) {
  if constexpr (std::is_arithmetic_v<T>)
    return static_cast<double>(v);
  else
    return static_cast<double>(static_cast<float>(v));
}

// A 0-d result (a reduction's) as a double; .item() synchronises.
template <class A>
double value(const A& r) {
  return to_double(r.item());
}

// Array `a` (device array or expression) holds `want` in C order.
template <class A>
void expect_values(const A& a, std::initializer_list<double> want, const std::string& what,
                   double rtol = 1e-5, double atol = 0.0) {
  const auto got = [&] {
    if constexpr (cupp::is_ndarray_v<A>)
      return a.to_vector();
    else
      return a.eval().to_vector();
  }();
  if (got.size() != want.size())
    fail(what + ": " + std::to_string(got.size()) + " elements, expected " +
         std::to_string(want.size()));
  std::size_t i = 0;
  for (double w : want) {
    expect_near(to_double(got[i]), w, what + " [" + std::to_string(i) + "]", rtol, atol);
    ++i;
  }
}

// Element k (flat, C order) of `a` (a device array or an expression, which
// is evaluated) is `want`.
template <class A>
void expect_at(const A& a, long k, double want, const std::string& what, double rtol = 1e-5,
               double atol = 0.0) {
  if constexpr (cupp::is_ndarray_v<A>)
    expect_near(to_double(a.item(k)), want, what, rtol, atol);
  else
    expect_near(to_double(a.eval().item(k)), want, what, rtol, atol);
}

}  // namespace device_paths
