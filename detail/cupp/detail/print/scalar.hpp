// Element-level text: the per-format facts NumPy's float printing depends
// on, the str() of NumPy scalars (what a 0-d array's str is), and the repr
// of ml_dtypes' bfloat16 scalars.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include <cupp/config.hpp>
#include <cupp/detail/print/dragon4.hpp>

namespace cupp::detail::print {

// What printing needs to know about float16, float32 and float64.
struct float_kind {
  float_format_bits bits;
  // numpy.finfo(t).precision: arrays switch to scientific notation at
  // 10**min(8, precision) (NumPy >= 2.3).
  int finfo_precision;
  // Scalars (and so 0-d str) print positionally below this magnitude.
  double scalar_max_positional;

  int significand_bits() const noexcept { return bits.mantissa_bits + 1; }
};

inline constexpr float_kind float16_kind{{10, 5}, 3, 1e3};
inline constexpr float_kind float32_kind{{23, 8}, 6, 1e6};
inline constexpr float_kind float64_kind{{52, 11}, 15, 1e16};

// x rounded to `bits` significant bits, ties to even: the result of an
// operation carried out in a narrower format. Double rounding through double
// is harmless for one division when bits <= 25 (53 >= 2 * 25 + 2 fails only
// for formats wider than float, which need no rounding).
inline double round_to_significand(double x, int bits) CUPP_HOST_BODY({
  if (bits >= 53 || x == 0 || !std::isfinite(x)) return x;
  int e = 0;
  const double m = std::frexp(x, &e);  // x = m * 2^e, 0.5 <= |m| < 1
  return std::ldexp(std::nearbyint(std::ldexp(m, bits)), e - bits);
});

// Length as Python's len() counts it: code points of UTF-8 text, so that
// non-ASCII nanstr / infstr pad like they do in NumPy.
inline int text_length(std::string_view s) noexcept CUPP_HOST_BODY({
  int n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
});

// --- str() of NumPy scalars --------------------------------------------

// str(np.float16/32/64(v)): shortest digits, positional between 1e-4 and
// the format's cutoff ("0.1", "-0.0", "1e-05", "1.5e+16").
inline std::string scalar_float_str(const binary_float& v, const float_kind& k,
                                    trim_mode positional_trim, trim_mode scientific_trim,
                                    bool sign) {
  dragon4_options o;
  o.sign = sign;
  bool positional = v.nan || v.is_zero();
  if (!positional && !v.inf) {
    const double a = std::fabs(v.value());
    positional = a < k.scalar_max_positional && a >= 1e-4;
  }
  if (positional) {
    o.trim = positional_trim;
    return format_positional(v, o);
  }
  o.trim = scientific_trim;
  return format_scientific(v, o);
}

inline std::string scalar_float_str(const binary_float& v, const float_kind& k) {
  return scalar_float_str(v, k, trim_mode::leave_one_zero, trim_mode::dpt_zeros, false);
}

// str(np.complex64/128(z)): "(1+2j)", "2j", "-0j" forms.
inline std::string scalar_complex_str(const binary_float& re, const binary_float& im,
                                      const float_kind& k) {
  constexpr trim_mode t = trim_mode::dpt_zeros;
  if (re.is_zero() && !re.negative) return scalar_float_str(im, k, t, t, false) + "j";
  std::string r = re.finite() ? scalar_float_str(re, k, t, t, false)
                  : re.nan    ? "nan"
                              : (re.negative ? "-inf" : "inf");
  std::string i = im.finite() ? scalar_float_str(im, k, t, t, true)
                  : im.nan    ? "+nan"
                              : (im.negative ? "-inf" : "+inf");
  return "(" + r + i + "j)";
}

// repr()/str() of an ml_dtypes.bfloat16 scalar, which is also how NumPy
// prints each element of a bfloat16 array: the value as a float through a
// default std::ostream (printf's %g, six significant digits), with the sign
// of a NaN dropped.
inline std::string bfloat16_str(std::uint16_t bits) CUPP_HOST_BODY({
  std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
  float f;
  static_assert(sizeof f == sizeof wide);
  std::memcpy(&f, &wide, sizeof f);
  if (std::isnan(f)) f = std::fabs(f);
  char buf[32];
  const int n = std::snprintf(buf, sizeof buf, "%g", static_cast<double>(f));
  return std::string(buf, static_cast<std::size_t>(n));
});

template <class Int>
std::string integer_str(Int v) {
  char buf[24];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

}  // namespace cupp::detail::print
