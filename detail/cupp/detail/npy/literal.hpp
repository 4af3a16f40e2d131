// The subset of Python literal syntax that .npy headers are written in, and
// Python's repr of the values, for messages that read like NumPy's.
//
// NumPy evaluates the header with ast.literal_eval; files written by other
// tools (and by Python 2) vary in quoting, spacing and key order, so a fixed
// template match would reject files NumPy reads. This is a small recursive
// descent parser over a byte range that it never reads past.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <cupp/config.hpp>

namespace cupp::detail::npy {

struct py_value {
  enum class kind : std::uint8_t { none, boolean, integer, string, tuple, list, dict };
  kind k = kind::none;
  bool truth = false;
  // Python ints are unbounded; `fits` is false past int64, and `text` keeps
  // the digits for messages.
  bool fits = true;
  std::int64_t integer = 0;
  std::string text;
  // Elements of a tuple or list; key, value, key, value, ... of a dict.
  std::vector<py_value> items;
};

// Python's repr of a str: single quotes unless the text holds only single
// quotes, non-printable bytes as \xNN.
inline std::string py_repr_str(std::string_view s, bool bytes_prefix = false) CUPP_HOST_BODY({
  const bool dq = s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos;
  const char q = dq ? '"' : '\'';
  std::string out = bytes_prefix ? "b" : "";
  out += q;
  static constexpr char hex[] = "0123456789abcdef";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\\' || c == static_cast<unsigned char>(q)) {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  out += q;
  return out;
});

inline std::string py_repr(const py_value& v) CUPP_HOST_BODY({
  using K = py_value::kind;
  switch (v.k) {
    case K::none:
      return "None";
    case K::boolean:
      return v.truth ? "True" : "False";
    case K::integer:
      return v.text;
    case K::string:
      return py_repr_str(v.text);
    case K::tuple:
    case K::list: {
      std::string s(1, v.k == K::tuple ? '(' : '[');
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i) s += ", ";
        s += py_repr(v.items[i]);
      }
      if (v.k == K::tuple && v.items.size() == 1) s += ',';
      s += v.k == K::tuple ? ')' : ']';
      return s;
    }
    case K::dict: {
      std::string s = "{";
      for (std::size_t i = 0; i + 1 < v.items.size(); i += 2) {
        if (i) s += ", ";
        s += py_repr(v.items[i]) + ": " + py_repr(v.items[i + 1]);
      }
      return s + "}";
    }
  }
  return {};
});

// Structural equality, for finding repeated dict keys (the last one wins, as
// in Python).
inline bool py_equal(const py_value& a, const py_value& b) CUPP_HOST_BODY({
  if (a.k != b.k || a.items.size() != b.items.size()) return false;
  switch (a.k) {
    case py_value::kind::none:
      return true;
    case py_value::kind::boolean:
      return a.truth == b.truth;
    case py_value::kind::integer:
    case py_value::kind::string:
      return a.text == b.text;
    default:
      for (std::size_t i = 0; i < a.items.size(); ++i)
        if (!py_equal(a.items[i], b.items[i])) return false;
      return true;
  }
});

class literal_parser {
 public:
  // `python2_longs`: accept the L suffix Python 2 wrote after large ints
  // (NumPy filters those out of version 1 and 2 headers).
  literal_parser(std::string_view src, bool python2_longs)
      : p_(src.data()), end_(src.data() + src.size()), longs_(python2_longs) {}

  // The single literal the text holds, or nullopt when it is not one.
  std::optional<py_value> parse() CUPP_HOST_BODY({
    py_value v;
    skip_space();
    if (!value(v, 0)) return std::nullopt;
    skip_space();
    if (p_ != end_) return std::nullopt;
    return v;
  });

 private:
  // Deep enough for any real header, shallow enough for the native stack.
  static constexpr int max_depth = 64;

  bool at_end() const { return p_ == end_; }

  void skip_space() CUPP_HOST_BODY({
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r' || *p_ == '\f'))
      ++p_;
  });

  bool eat(char c) CUPP_HOST_BODY({
    skip_space();
    if (at_end() || *p_ != c) return false;
    ++p_;
    return true;
  });

  static bool ident_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  bool keyword(std::string_view word) CUPP_HOST_BODY({
    if (static_cast<std::size_t>(end_ - p_) < word.size() ||
        std::string_view(p_, word.size()) != word)
      return false;
    if (p_ + word.size() != end_ && ident_char(p_[word.size()])) return false;
    p_ += word.size();
    return true;
  });

  bool value(py_value& out, int depth) CUPP_HOST_BODY({
    if (depth > max_depth) return false;
    skip_space();
    if (at_end()) return false;
    const char c = *p_;
    if (c == '\'' || c == '"') return string(out);
    if (c == '(') return sequence(out, depth, ')');
    if (c == '[') return sequence(out, depth, ']');
    if (c == '{') return dict(out, depth);
    if (c == '-' || c == '+' || (c >= '0' && c <= '9')) return integer(out);
    if (keyword("True")) {
      out.k = py_value::kind::boolean;
      out.truth = true;
      return true;
    }
    if (keyword("False")) {
      out.k = py_value::kind::boolean;
      return true;
    }
    if (keyword("None")) {
      out.k = py_value::kind::none;
      return true;
    }
    return false;
  });

  bool integer(py_value& out) CUPP_HOST_BODY({
    bool negative = false;
    if (*p_ == '-' || *p_ == '+') {
      negative = *p_ == '-';
      ++p_;
      skip_space();  // Python allows "- 3"
    }
    const char* digits = p_;
    std::uint64_t mag = 0;
    bool fits = true;
    while (!at_end() && *p_ >= '0' && *p_ <= '9') {
      const auto d = static_cast<std::uint64_t>(*p_ - '0');
      if (mag > (UINT64_MAX - d) / 10) fits = false;
      mag = fits ? mag * 10 + d : mag;
      ++p_;
    }
    if (p_ == digits) return false;
    // repr(int) spelling: no sign on zero, no leading zeros, no '+'.
    std::string_view written(digits, static_cast<std::size_t>(p_ - digits));
    while (written.size() > 1 && written.front() == '0') written.remove_prefix(1);
    std::string text = negative && written != "0" ? "-" : "";
    text += written;
    if (longs_ && !at_end() && (*p_ == 'L' || *p_ == 'l')) ++p_;
    // A float, a hex literal or a name glued to the digits is not an int.
    if (!at_end() && (ident_char(*p_) || *p_ == '.')) return false;
    const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
    if (mag > limit) fits = false;
    out.k = py_value::kind::integer;
    out.fits = fits;
    out.integer = !fits      ? 0
                  : negative ? static_cast<std::int64_t>(0 - mag)
                             : static_cast<std::int64_t>(mag);
    out.text = std::move(text);
    return true;
  });

  bool string(py_value& out) CUPP_HOST_BODY({
    const char quote = *p_++;
    std::string s;
    while (true) {
      if (at_end()) return false;
      const char c = *p_++;
      if (c == quote) break;
      if (c == '\n' || c == '\0') return false;
      if (c != '\\') {
        s += c;
        continue;
      }
      if (at_end()) return false;
      const char e = *p_++;
      switch (e) {
        case '\\':
        case '\'':
        case '"':
          s += e;
          break;
        case 'n':
          s += '\n';
          break;
        case 't':
          s += '\t';
          break;
        case 'r':
          s += '\r';
          break;
        case 'x': {
          int v = 0;
          for (int i = 0; i < 2; ++i) {
            if (at_end()) return false;
            const char h = *p_++;
            const int d = h >= '0' && h <= '9'   ? h - '0'
                          : h >= 'a' && h <= 'f' ? h - 'a' + 10
                          : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                 : -1;
            if (d < 0) return false;
            v = v * 16 + d;
          }
          s += static_cast<char>(v);
          break;
        }
        default:  // Python keeps unknown escapes verbatim
          s += '\\';
          s += e;
      }
    }
    out.k = py_value::kind::string;
    out.text = std::move(s);
    return true;
  });

  // "(x)" is x itself; a tuple needs a comma unless it is "()".
  bool sequence(py_value& out, int depth, char close) CUPP_HOST_BODY({
    ++p_;
    const bool is_tuple = close == ')';
    out.k = is_tuple ? py_value::kind::tuple : py_value::kind::list;
    if (eat(close)) return true;
    bool comma = false;
    while (true) {
      py_value item;
      if (!value(item, depth + 1)) return false;
      out.items.push_back(std::move(item));
      if (eat(',')) {
        comma = true;
        if (eat(close)) break;
        continue;
      }
      if (eat(close)) break;
      return false;
    }
    if (is_tuple && !comma) {
      py_value inner = std::move(out.items.front());
      out = std::move(inner);
    }
    return true;
  });

  bool dict(py_value& out, int depth) CUPP_HOST_BODY({
    ++p_;
    out.k = py_value::kind::dict;
    if (eat('}')) return true;
    while (true) {
      py_value key, val;
      if (!value(key, depth + 1) || !eat(':') || !value(val, depth + 1)) return false;
      bool replaced = false;
      for (std::size_t i = 0; i < out.items.size(); i += 2)
        if (py_equal(out.items[i], key)) {
          out.items[i + 1] = std::move(val);
          replaced = true;
          break;
        }
      if (!replaced) {
        out.items.push_back(std::move(key));
        out.items.push_back(std::move(val));
      }
      if (eat(',')) {
        if (eat('}')) break;
        continue;
      }
      if (eat('}')) break;
      return false;
    }
    return true;
  });

  const char* p_;
  const char* end_;
  bool longs_;
};

}  // namespace cupp::detail::npy
