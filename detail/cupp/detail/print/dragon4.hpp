// Exact decimal formatting of binary floats, with the digit-selection and
// layout rules of NumPy's dragon4_positional / dragon4_scientific (what
// numpy.format_float_positional and format_float_scientific expose).
//
// Digits come from the Steele & White / Burger & Dybvig free-format
// algorithm on exact big integers: in "unique" mode it stops at the shortest
// digit string that reads back as the same value *of the value's own type*
// (so a float16 prints as few digits as a float16 needs, not a float's), in
// "exact" mode it emits the exact expansion; either can be cut off after a
// number of significant or fractional digits, or be made to run on to a
// minimum count. NumPy's printing is defined by those rules, including how a
// cut-off digit is rounded, so they are reproduced exactly rather than
// approximated with printf or std::to_chars.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include <cupp/config.hpp>
#include <cupp/detail/print/bigint.hpp>

namespace cupp::detail::print {

// A binary float taken apart: (-1)^negative * mantissa * 2^exponent.
struct binary_float {
  std::uint64_t mantissa = 0;
  int exponent = 0;
  int mantissa_bit = 0;  // index of the highest set bit of mantissa
  // The gap to the next smaller float is half the gap to the next larger
  // one: the mantissa is a power of two above the smallest normal binade.
  bool unequal_margins = false;
  bool negative = false;
  bool nan = false;
  bool inf = false;

  bool finite() const noexcept { return !nan && !inf; }
  bool is_zero() const noexcept { return finite() && mantissa == 0; }
  // Exact for every format with at most 53 significant bits.
  double value() const noexcept CUPP_HOST_BODY({
    if (nan) return std::nan("");
    if (inf) return negative ? -HUGE_VAL : HUGE_VAL;
    const double m = std::ldexp(static_cast<double>(mantissa), exponent);
    return negative ? -m : m;
  });
};

// An IEEE-754 binary format: float16, float32 or float64.
struct float_format_bits {
  int mantissa_bits;  // stored fraction bits
  int exponent_bits;
};

inline int highest_bit(std::uint64_t v) noexcept CUPP_HOST_BODY({
  int b = -1;
  while (v != 0) {
    ++b;
    v >>= 1;
  }
  return b;
});

inline binary_float decode(std::uint64_t bits, float_format_bits f) noexcept CUPP_HOST_BODY({
  binary_float r;
  const std::uint64_t frac = bits & ((std::uint64_t{1} << f.mantissa_bits) - 1);
  const std::uint64_t max_exp = (std::uint64_t{1} << f.exponent_bits) - 1;
  const std::uint64_t biased = (bits >> f.mantissa_bits) & max_exp;
  const int bias = static_cast<int>(max_exp >> 1);
  r.negative = ((bits >> (f.mantissa_bits + f.exponent_bits)) & 1) != 0;
  if (biased == max_exp) {
    r.nan = frac != 0;
    r.inf = frac == 0;
    return r;
  }
  if (biased != 0) {
    r.mantissa = frac | (std::uint64_t{1} << f.mantissa_bits);
    r.exponent = static_cast<int>(biased) - bias - f.mantissa_bits;
    r.mantissa_bit = f.mantissa_bits;
    r.unequal_margins = biased != 1 && frac == 0;
  } else {
    r.mantissa = frac;
    r.exponent = 1 - bias - f.mantissa_bits;
    r.mantissa_bit = highest_bit(frac);
  }
  return r;
});

enum class cutoff_mode { total_length, fraction_length };

// What happens to trailing zeros and the decimal point (NumPy's trim=).
enum class trim_mode {
  none,            // 'k': keep zeros, pad with zeros up to min_digits / precision
  leave_one_zero,  // '0': "1.0"
  zeros,           // '.': "1."
  dpt_zeros,       // '-': "1"
};

// Decimal digits of |v| and the power of ten of the first one.
struct decimal_digits {
  std::string digits;
  int exponent = 0;
};

// Digit generation. `unique`: stop at the shortest string that identifies v
// among floats of its format (boundaries included when the mantissa is
// even, as round-half-even parsing reads them), else produce exact digits.
// cutoff_max >= 0 stops after that many digits (counted from the first
// significant digit, or from the decimal point); cutoff_min >= 0 keeps
// going in unique mode until that many digits exist.
inline decimal_digits generate_digits(const binary_float& v, bool unique, cutoff_mode mode,
                                      int cutoff_max, int cutoff_min) {
  decimal_digits out;
  if (v.mantissa == 0) {
    out.digits = "0";
    return out;
  }
  // value = r / s; the neighbours lie m_lo below and m_hi above (halfway
  // points, scaled by the same s). One extra factor of 2 keeps the halves
  // integral; another keeps the unequal upper margin integral.
  const int extra = v.unequal_margins ? 2 : 1;
  bignum r(v.mantissa), s, m_lo, m_hi;
  if (v.exponent > 0) {
    r.shift_left(v.exponent + extra);
    s.set(std::uint64_t{1} << extra);
    m_lo = bignum::pow2(v.exponent);
  } else {
    r.shift_left(extra);
    s = bignum::pow2(-v.exponent + extra);
    m_lo.set(1);
  }
  m_hi = m_lo;
  if (v.unequal_margins) m_hi.shift_left(1);
  const bool even = (v.mantissa & 1) == 0;

  // k: one more than the exponent of the first digit. The estimate from
  // the binary exponent is exact or one too small (Burger & Dybvig).
  int k = static_cast<int>(
      std::ceil(static_cast<double>(v.mantissa_bit + v.exponent) * 0.30102999566398119521 - 0.69));
  // Digits below the fractional cutoff are never printed: start there, so
  // that tiny values round to a zero digit at the cutoff.
  if (cutoff_max >= 0 && mode == cutoff_mode::fraction_length && k <= -cutoff_max)
    k = -cutoff_max + 1;
  if (k > 0) {
    s.mul_pow10(k);
  } else if (k < 0) {
    r.mul_pow10(-k);
    m_lo.mul_pow10(-k);
    m_hi.mul_pow10(-k);
  }
  if (compare(r, s) >= 0) {
    ++k;  // the estimate was one too small; r / s is already in [1, 10)
  } else {
    r.mul_small(10);
    m_lo.mul_small(10);
    m_hi.mul_small(10);
  }

  // Exponents (of the digit's place value) at which digit output must stop
  // and before which it may not stop.
  constexpr int max_digits = 4096;
  int stop_at = k - max_digits;
  if (cutoff_max >= 0) {
    const int want = mode == cutoff_mode::total_length ? k - cutoff_max : -cutoff_max;
    if (want > stop_at) stop_at = want;
  }
  int may_stop_from = k;
  if (cutoff_min >= 0) {
    const int want = mode == cutoff_mode::total_length ? k - cutoff_min : -cutoff_min;
    if (want < may_stop_from) may_stop_from = want;
  }
  out.exponent = k - 1;

  int digit = 0;
  bool low = false, high = false;
  // Once the margins exceed s, every later digit may round either way;
  // they stop growing then (digits past uniqueness, asked for by
  // cutoff_min, would otherwise scale them past any fixed size).
  bool saturated = false;
  bignum r_hi;
  for (;;) {
    --k;
    digit = r.divmod_digit(s);
    if (unique) {
      // low: the digits so far, this one rounded down, already read back
      // as v; high: so do they with this one rounded up.
      if (saturated) {
        low = high = true;
      } else {
        int c = compare(r, m_lo);
        low = even ? c <= 0 : c < 0;
        r_hi = r;
        r_hi.add(m_hi);
        c = compare(r_hi, s);
        high = even ? c >= 0 : c > 0;
      }
      if (((low || high) && k <= may_stop_from) || k == stop_at) break;
    } else if (r.is_zero() || k == stop_at) {
      break;
    }
    out.digits += static_cast<char>('0' + digit);
    r.mul_small(10);
    if (unique && !saturated) {
      m_lo.mul_small(10);
      m_hi.mul_small(10);
      saturated = compare(m_lo, s) > 0;
    }
  }

  // The last digit: down when only down is safe, else to the nearer of the
  // two (a tie goes to the even digit).
  bool round_down = low;
  if (low == high) {
    r.shift_left(1);
    const int c = compare(r, s);
    round_down = c < 0 || (c == 0 && (digit & 1) == 0);
  }
  if (round_down) {
    out.digits += static_cast<char>('0' + digit);
  } else if (digit < 9) {
    out.digits += static_cast<char>('0' + digit + 1);
  } else {
    // Carry into the digits already written; trailing nines become zeros,
    // which are dropped.
    while (!out.digits.empty() && out.digits.back() == '9') out.digits.pop_back();
    if (out.digits.empty()) {
      out.digits = "1";
      ++out.exponent;
    } else {
      ++out.digits.back();
    }
  }
  return out;
}

// NumPy's dragon4 options (format_float_positional/scientific arguments).
struct dragon4_options {
  bool unique = true;
  int precision = -1;      // cutoff: fraction digits (positional) or digits after the first
  int min_digits = -1;     // unique mode: digits to print at least
  bool fractional = true;  // positional: precision counts fraction digits, not all digits
  trim_mode trim = trim_mode::none;
  bool sign = false;    // print '+' for non-negative values
  int pad_left = -1;    // pad with spaces to this many characters left of the point
  int pad_right = -1;   // positional: pad with spaces to this many characters right of it
  int exp_digits = -1;  // scientific: at least this many exponent digits (default 2)
};

// nan and inf as NumPy's dragon4 prints them: no padding, nan never signed.
inline std::string format_special(const binary_float& v, bool force_sign) CUPP_HOST_BODY({
  if (v.nan) return "nan";
  return v.negative ? "-inf" : force_sign ? "+inf" : "inf";
});

inline std::string format_positional(const binary_float& v, const dragon4_options& o) {
  if (!v.finite()) return format_special(v, o.sign);
  std::string out;
  const bool has_sign = v.negative || o.sign;
  if (has_sign) out += v.negative ? '-' : '+';
  const decimal_digits d = generate_digits(
      v, o.unique, o.fractional ? cutoff_mode::fraction_length : cutoff_mode::total_length,
      o.precision, o.min_digits);
  const int n = static_cast<int>(d.digits.size());
  int whole = 0, frac = 0;
  if (d.exponent >= 0) {
    whole = d.exponent + 1;
    if (n <= whole) {
      out += d.digits;
      out.append(static_cast<std::size_t>(whole - n), '0');
    } else {
      out.append(d.digits, 0, static_cast<std::size_t>(whole));
      out += '.';
      out.append(d.digits, static_cast<std::size_t>(whole), std::string::npos);
      frac = n - whole;
    }
  } else {
    whole = 1;
    const int zeros = -(d.exponent + 1);
    out += "0.";
    out.append(static_cast<std::size_t>(zeros), '0');
    out += d.digits;
    frac = zeros + n;
  }
  if (o.trim != trim_mode::dpt_zeros && frac == 0) out += '.';

  const int wanted = o.unique ? o.min_digits : o.precision;
  const int wanted_frac = o.fractional ? (wanted < 0 ? 0 : wanted) : wanted - whole;
  if (o.trim == trim_mode::leave_one_zero) {
    if (frac == 0) {
      out += '0';
      ++frac;
    }
  } else if (o.trim == trim_mode::none && wanted_frac > frac) {
    out.append(static_cast<std::size_t>(wanted_frac - frac), '0');
    frac = wanted_frac;
  }
  // Rounding can leave zeros at the end even in unique mode.
  if (o.trim != trim_mode::none && frac > 0) {
    while (out.back() == '0') {
      out.pop_back();
      --frac;
    }
    if (out.back() == '.') {
      if (o.trim == trim_mode::leave_one_zero) {
        out += '0';
        ++frac;
      } else if (o.trim == trim_mode::dpt_zeros) {
        out.pop_back();
      }
    }
  }
  if (o.pad_right >= frac) {
    // A trimmed decimal point still takes its column.
    if (o.trim == trim_mode::dpt_zeros && frac == 0) out += ' ';
    out.append(static_cast<std::size_t>(o.pad_right - frac), ' ');
  }
  const int left = whole + (has_sign ? 1 : 0);
  if (o.pad_left > left) out.insert(0, static_cast<std::size_t>(o.pad_left - left), ' ');
  return out;
}

inline std::string format_scientific(const binary_float& v, const dragon4_options& o) {
  if (!v.finite()) return format_special(v, o.sign);
  std::string out;
  const bool has_sign = v.negative || o.sign;
  const int left = 1 + (has_sign ? 1 : 0);
  if (o.pad_left > left) out.append(static_cast<std::size_t>(o.pad_left - left), ' ');
  if (has_sign) out += v.negative ? '-' : '+';
  // Precision counts digits after the first one.
  const decimal_digits d = generate_digits(v, o.unique, cutoff_mode::total_length,
                                           o.precision < 0 ? -1 : o.precision + 1,
                                           o.min_digits < 0 ? -1 : o.min_digits + 1);
  out += d.digits[0];
  int frac = static_cast<int>(d.digits.size()) - 1;
  if (frac > 0) {
    out += '.';
    out.append(d.digits, 1, std::string::npos);
  }
  if (o.trim != trim_mode::dpt_zeros && frac == 0) out += '.';

  int wanted = o.unique ? o.min_digits : o.precision;
  if (wanted < 0) wanted = 0;
  if (o.trim == trim_mode::leave_one_zero) {
    if (frac == 0) {
      out += '0';
      ++frac;
    }
  } else if (o.trim == trim_mode::none && wanted > frac) {
    out.append(static_cast<std::size_t>(wanted - frac), '0');
    frac = wanted;
  }
  if (o.trim != trim_mode::none && frac > 0) {
    while (out.back() == '0') {
      out.pop_back();
      --frac;
    }
    // Unlike the positional form, a bare point stays in dpt_zeros mode.
    if (o.trim == trim_mode::leave_one_zero && out.back() == '.') {
      out += '0';
      ++frac;
    }
  }

  int e = d.exponent;
  out += 'e';
  out += e < 0 ? '-' : '+';
  if (e < 0) e = -e;
  std::string exp_text = std::to_string(e);
  int min_exp = o.exp_digits < 0 ? 2 : (o.exp_digits > 5 ? 5 : o.exp_digits);
  if (static_cast<int>(exp_text.size()) < min_exp)
    exp_text.insert(0, static_cast<std::size_t>(min_exp) - exp_text.size(), '0');
  out += exp_text;
  return out;
}

}  // namespace cupp::detail::print
