// Element formatters: given every element that will be shown, choose one
// layout for the column (NumPy's FloatingFormat, ComplexFloatingFormat,
// IntegerFormat, BoolFormat) and produce each element's text with it.
//
// Formatters see only the printed elements (the corners of a summarised
// array), as NumPy's do, so widths and the choice of scientific notation
// depend on what is shown, not on the hidden middle.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/detail/print/dragon4.hpp>
#include <cupp/detail/print/scalar.hpp>

namespace cupp::detail::print {

enum class float_style { fixed, unique, maxprec, maxprec_equal };

// The print options the float formatter reads.
struct float_settings {
  int precision = 8;
  float_style style = float_style::maxprec;
  bool suppress = false;
  char sign = '-';
  std::string_view nanstr = "nan";
  std::string_view infstr = "inf";
};

// One float column. After construction, format() lays any of the values it
// was built from out with a common width and decimal point position.
class float_column {
 public:
  float_column(const std::vector<binary_float>& data, const float_kind& kind,
               const float_settings& s, char sign)
      : s_(s), sign_(sign) {
    precision_ = s.style == float_style::unique ? -1 : s.precision;
    choose_notation(data, kind);
    measure(data);
  }

  std::string format(const binary_float& x) const CUPP_HOST_BODY({
    if (!x.finite()) {
      std::string text;
      if (x.nan) {
        if (sign_ == '+') text += '+';
        text += s_.nanstr;
      } else {
        text += x.negative ? "-" : sign_ == '+' ? "+" : "";
        text += s_.infstr;
      }
      const int pad = pad_left_ + pad_right_ + 1 - text_length(text);
      return pad > 0 ? std::string(static_cast<std::size_t>(pad), ' ') + text : text;
    }
    dragon4_options o;
    o.unique = unique_;
    o.precision = precision_;
    o.min_digits = min_digits_;
    o.trim = trim_;
    o.sign = sign_ == '+';
    o.pad_left = pad_left_;
    if (exp_format_) {
      o.exp_digits = exp_size_;
      return format_scientific(x, o);
    }
    o.pad_right = pad_right_;
    return format_positional(x, o);
  });

 private:
  // Scientific notation when the largest shown magnitude reaches
  // 10**min(8, finfo.precision), or (unless suppress) when the smallest
  // nonzero one is below 1e-4 or the two are more than 1000 apart. NumPy
  // compares and divides in the array's own precision (NEP 50 weak Python
  // scalars), which matters at the edges: float32(1e-4) is not < 1e-4 there.
  void choose_notation(const std::vector<binary_float>& data, const float_kind& kind) {
    double max_v = 0, min_v = 0;
    bool any = false;
    for (const binary_float& x : data) {
      if (!x.finite() || x.is_zero()) continue;
      const double a = std::fabs(x.value());
      if (!any) {
        max_v = min_v = a;
        any = true;
      } else {
        max_v = std::max(max_v, a);
        min_v = std::min(min_v, a);
      }
    }
    if (!any) return;
    const int bits = kind.significand_bits();
    const double cutoff = std::pow(10.0, std::min(8, kind.finfo_precision));
    const double small = round_to_significand(1e-4, bits);
    const double ratio = round_to_significand(max_v / min_v, bits);
    exp_format_ = max_v >= cutoff || (!s_.suppress && (min_v < small || ratio > 1000.0));
  }

  // A first pass over the finite values fixes digits and padding.
  void measure(const std::vector<binary_float>& data) CUPP_HOST_BODY({
    bool any_finite = false, any_negative_finite = false, any_nonfinite = false,
         any_negative_inf = false;
    int int_len = 0, frac_len = 0, exp_len = 0;
    dragon4_options o;
    o.precision = precision_;
    o.sign = sign_ == '+';
    const bool fixed = s_.style == float_style::fixed;
    o.unique = !fixed;
    o.trim = fixed ? trim_mode::none : trim_mode::zeros;
    for (const binary_float& x : data) {
      if (!x.finite()) {
        any_nonfinite = true;
        any_negative_inf = any_negative_inf || (x.inf && x.negative);
        continue;
      }
      any_finite = true;
      any_negative_finite = any_negative_finite || x.negative;
      std::string text = exp_format_ ? format_scientific(x, o) : format_positional(x, o);
      std::string_view mant = text;
      if (exp_format_) {
        const auto e = mant.find('e');
        exp_len = std::max(exp_len, static_cast<int>(mant.size() - e - 1));
        mant = mant.substr(0, e);
      }
      const auto dot = mant.find('.');
      int_len = std::max(int_len, static_cast<int>(dot));
      frac_len = std::max(frac_len, static_cast<int>(mant.size() - dot - 1));
    }
    if (!any_finite) {
      pad_left_ = pad_right_ = 0;
      trim_ = trim_mode::zeros;
      exp_size_ = -1;
      unique_ = true;
      min_digits_ = -1;
    } else if (exp_format_) {
      exp_size_ = exp_len - 1;  // the exponent's sign does not count
      trim_ = trim_mode::none;
      precision_ = min_digits_ = frac_len;
      unique_ = o.unique;
      pad_left_ = int_len;
      pad_right_ = exp_size_ + 2 + precision_;
    } else {
      pad_left_ = int_len;
      pad_right_ = frac_len;
      exp_size_ = -1;
      unique_ = o.unique;
      if (fixed || s_.style == float_style::maxprec_equal) {
        precision_ = min_digits_ = pad_right_;
        trim_ = trim_mode::none;
      } else {
        trim_ = trim_mode::zeros;
        min_digits_ = 0;
      }
    }
    // sign=' ' reserves a column for the sign only when no finite value
    // has one.
    if (sign_ == ' ' && !any_negative_finite) ++pad_left_;
    if (any_nonfinite) {
      const int neg_inf = (sign_ != '-' || any_negative_inf) ? 1 : 0;
      const int offset = pad_right_ + 1;
      pad_left_ = std::max(
          {pad_left_, text_length(s_.nanstr) - offset, text_length(s_.infstr) + neg_inf - offset});
    }
  });

  float_settings s_;
  char sign_;
  bool exp_format_ = false;
  bool unique_ = true;
  int precision_ = -1;
  int min_digits_ = -1;
  trim_mode trim_ = trim_mode::zeros;
  int pad_left_ = 0, pad_right_ = 0, exp_size_ = -1;
};

inline std::vector<std::string> format_floats(const std::vector<binary_float>& data,
                                              const float_kind& kind, const float_settings& s) {
  const float_column col(data, kind, s, s.sign);
  std::vector<std::string> out;
  out.reserve(data.size());
  for (const binary_float& x : data) out.push_back(col.format(x));
  return out;
}

// Complex numbers: a column for the real parts with the sign option, one for
// the imaginary parts that always shows the sign, and the 'j' placed before
// the imaginary part's right padding.
inline std::vector<std::string> format_complex(const std::vector<binary_float>& re,
                                               const std::vector<binary_float>& im,
                                               const float_kind& kind, const float_settings& s) {
  const float_column real_col(re, kind, s, s.sign);
  const float_column imag_col(im, kind, s, '+');
  std::vector<std::string> out;
  out.reserve(re.size());
  for (std::size_t i = 0; i < re.size(); ++i) {
    std::string r = real_col.format(re[i]);
    std::string m = imag_col.format(im[i]);
    const auto end = m.find_last_not_of(' ');
    m.insert(end == std::string::npos ? 0 : end + 1, 1, 'j');
    out.push_back(r + m);
  }
  return out;
}

// Integers, right-aligned to the width of the longest of the smallest and
// largest shown values. `text` holds each value's decimal digits with a
// leading '-' for negatives; max_/min_index point at the extreme values.
inline std::vector<std::string> format_integers(std::vector<std::string> text,
                                                std::size_t max_index, std::size_t min_index,
                                                char sign) {
  if (text.empty()) return text;
  const bool max_negative = text[max_index][0] == '-';
  const bool min_negative = text[min_index][0] == '-';
  if (sign == ' ' && min_negative) sign = '-';
  int max_len = static_cast<int>(text[max_index].size());
  if (!max_negative && (sign == '+' || sign == ' ')) ++max_len;
  const int width = std::max(max_len, static_cast<int>(text[min_index].size()));
  for (std::string& t : text) {
    if (t[0] != '-' && sign != '-') t.insert(0, 1, sign);
    if (static_cast<int>(t.size()) < width)
      t.insert(0, static_cast<std::size_t>(width) - t.size(), ' ');
  }
  return text;
}

// " True" / "False" line up; a 0-d array prints plain "True".
inline std::vector<std::string> format_bools(const std::vector<bool>& v, bool zero_d) {
  std::vector<std::string> out;
  out.reserve(v.size());
  for (bool b : v) out.push_back(b ? (zero_d ? "True" : " True") : "False");
  return out;
}

}  // namespace cupp::detail::print
