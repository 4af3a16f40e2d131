// From typed elements to text: the only part of printing that depends on
// the element type. Each dtype is reduced to what the type-independent
// formatters take (decoded floats, decimal strings, bools).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <cupp/dtype.hpp>

#include <cupp/detail/print/formatters.hpp>
#include <cupp/detail/print/scalar.hpp>

namespace cupp::detail::print {

template <class T>
std::uint64_t bits_of(const T& x) noexcept {
  if constexpr (sizeof(T) == 2) {
    std::uint16_t b;
    std::memcpy(&b, &x, 2);
    return b;
  } else if constexpr (sizeof(T) == 4) {
    std::uint32_t b;
    std::memcpy(&b, &x, 4);
    return b;
  } else {
    std::uint64_t b;
    std::memcpy(&b, &x, 8);
    return b;
  }
}

// The float formats NumPy formats with its float rules (bfloat16 is not
// one of them: NumPy treats ml_dtypes' type as opaque and prints repr()).
template <class T>
inline constexpr bool numpy_float_v =
    std::is_same_v<T, __half> || std::is_same_v<T, float> || std::is_same_v<T, double>;

template <class T>
constexpr const float_kind& kind_of() noexcept {
  if constexpr (std::is_same_v<T, __half>)
    return float16_kind;
  else if constexpr (std::is_same_v<T, float>)
    return float32_kind;
  else
    return float64_kind;
}

template <class T>
binary_float decode_float(const T& x) noexcept {
  return decode(bits_of(x), kind_of<T>().bits);
}

// Element texts for an array whose shown elements are `v` (zero_d: the
// array has no axes, which changes only how a bool prints).
template <class T>
std::vector<std::string> format_elements(const std::vector<T>& v, bool zero_d,
                                         const float_settings& s) {
  if constexpr (std::is_same_v<T, bool>) {
    return format_bools(std::vector<bool>(v.begin(), v.end()), zero_d);
  } else if constexpr (std::is_integral_v<T>) {
    std::vector<std::string> text;
    text.reserve(v.size());
    std::size_t max_i = 0, min_i = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      text.push_back(integer_str(v[i]));
      if (v[i] > v[max_i]) max_i = i;
      if (v[i] < v[min_i]) min_i = i;
    }
    return format_integers(std::move(text), max_i, min_i, s.sign);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    std::vector<std::string> text;
    text.reserve(v.size());
    for (const T& x : v) text.push_back(bfloat16_str(static_cast<std::uint16_t>(bits_of(x))));
    return text;
  } else if constexpr (numpy_float_v<T>) {
    std::vector<binary_float> d;
    d.reserve(v.size());
    for (const T& x : v) d.push_back(decode_float(x));
    return format_floats(d, kind_of<T>(), s);
  } else {
    static_assert(is_complex_v<T>, "cupp printing: unsupported element type");
    using R = typename T::value_type;
    std::vector<binary_float> re, im;
    re.reserve(v.size());
    im.reserve(v.size());
    for (const T& z : v) {
      R parts[2];
      std::memcpy(parts, &z, sizeof parts);
      re.push_back(decode_float(parts[0]));
      im.push_back(decode_float(parts[1]));
    }
    return format_complex(re, im, kind_of<R>(), s);
  }
}

// str() of the NumPy scalar holding x: what str() of a 0-d array prints.
template <class T>
std::string scalar_str(const T& x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x ? "True" : "False";
  } else if constexpr (std::is_integral_v<T>) {
    return integer_str(x);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return bfloat16_str(static_cast<std::uint16_t>(bits_of(x)));
  } else if constexpr (numpy_float_v<T>) {
    return scalar_float_str(decode_float(x), kind_of<T>());
  } else {
    using R = typename T::value_type;
    R parts[2];
    std::memcpy(parts, &x, sizeof parts);
    return scalar_complex_str(decode_float(parts[0]), decode_float(parts[1]), kind_of<R>());
  }
}

}  // namespace cupp::detail::print
