// What cov, corrcoef, correlate and convolve share that is not a kernel:
// NumPy's mode argument and its messages, and corrcoef's clipping of real
// and imaginary parts to [-1, 1] as an element-wise operation (so that the
// normalisation and the clip are one kernel).
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/ufunc_types.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail {

// numpy.correlate's mode: 0 valid, 1 same, 2 full. NumPy's converter tells
// a string starting like a mode name (an old abbreviation it no longer
// takes) from any other string.
inline int correlate_mode(std::string_view mode) {
  if (mode == "valid") return 0;
  if (mode == "same") return 1;
  if (mode == "full") return 2;
  if (!mode.empty() && std::string_view("vsfVSF").find(mode[0]) != std::string_view::npos)
    throw value_error("Use one of 'valid', 'same', or 'full' for convolve/correlate mode");
  throw value_error("mode must be one of 'valid', 'same', or 'full' (got '" + std::string(mode) +
                    "')");
}

template <class T>
CUPP_HD inline T clip_to_unit(T v) {
  // NaN compares false both ways and passes through, as numpy.clip's does.
  const double d = convert<double>(v);
  if (d < -1.0) return convert<T>(-1.0);
  if (d > 1.0) return convert<T>(1.0);
  return v;
}

}  // namespace cupp::detail

namespace cupp::ops {

// numpy.corrcoef's final clip: the real part, and the imaginary part of
// complex values, each to [-1, 1].
struct clip_unit_parts {
  static constexpr const char* name = "clip";
  template <class T>
  struct signature : loop<T, T> {};
  template <class T>
  CUPP_HD T operator()(T a) const {
    if constexpr (is_complex_v<T>)
      return T(detail::clip_to_unit(a.real()), detail::clip_to_unit(a.imag()));
    else
      return detail::clip_to_unit(a);
  }
};

}  // namespace cupp::ops
