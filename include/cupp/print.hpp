// Printing arrays as NumPy does: array_repr (repr(a)), array_str (str(a)),
// array2string, operator<< and std::format, under NumPy's print options
// (set_printoptions, get_printoptions and the printoptions scope).
//
// Lazy values (expressions, generators, x(idx), x(mask)) print the array
// they evaluate to, as NumPy prints `x * 2` or `x[mask]`.
//
// The output matches NumPy 2 character for character, for every dtype;
// bfloat16 prints as NumPy prints an ml_dtypes.bfloat16 array. Device arrays
// are copied to the host first: only the elements that will be shown when
// the array is summarised.
#pragma once

#include <algorithm>
#include <concepts>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>
#include <version>

#include <cupp/config.hpp>
#include <cupp/detail/print/elements.hpp>
#include <cupp/detail/print/layout.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/shape.hpp>

#if defined(__cpp_lib_format)
#include <format>
#endif

namespace cupp {

// numpy's floatmode: how many fraction digits floats get.
enum class float_mode {
  fixed,          // always `precision` digits
  unique,         // as many as each value needs to be read back exactly
  maxprec,        // as many as needed, at most `precision` (NumPy's default)
  maxprec_equal,  // as many as the element that needs most, at most `precision`
};

// numpy.set_printoptions' options (legacy, formatter and override_repr
// aside).
struct print_options {
  int precision = 8;         // fraction digits of floats, at most
  index_t threshold = 1000;  // arrays with more elements are summarised
  int edgeitems = 3;         // elements kept at each end of a summarised axis
  int linewidth = 75;        // characters per line
  bool suppress = false;     // never switch to scientific notation for small values
  std::string nanstr = "nan";
  std::string infstr = "inf";
  char sign = '-';  // '-': only negatives; '+': always; ' ': a space for positives
  float_mode floatmode = float_mode::maxprec;
};

namespace detail::print {

inline void check(const print_options& o) {
  if (o.sign != '-' && o.sign != '+' && o.sign != ' ')
    throw value_error("sign option must be one of ' ', '+', or '-'");
  if (o.precision < 0) throw value_error("precision must be >= 0");
  if (o.edgeitems < 0) throw value_error("edgeitems must be >= 0");
}

// Options are per thread, as NumPy 2's are per context: a scope in one
// thread does not change what another prints.
inline print_options& current_options() {
  thread_local print_options options;
  return options;
}

inline float_settings settings_of(const print_options& o) {
  float_settings s;
  s.precision = o.precision;
  switch (o.floatmode) {
    case float_mode::fixed:
      s.style = float_style::fixed;
      break;
    case float_mode::unique:
      s.style = float_style::unique;
      break;
    case float_mode::maxprec:
      s.style = float_style::maxprec;
      break;
    case float_mode::maxprec_equal:
      s.style = float_style::maxprec_equal;
      break;
  }
  s.suppress = o.suppress;
  s.sign = o.sign;
  s.nanstr = o.nanstr;
  s.infstr = o.infstr;
  return s;
}

// The elements `plan` keeps, in C order, read on the host. A device array
// copies just those: splitting each summarised axis into (2, edge) blocks
// makes the corners one strided view, gathered by a single device copy.
template <class T, class S>
std::vector<T> shown_elements(const ndarray<T, S>& x, const std::vector<axis_plan>& plan) {
  if constexpr (!ndarray<T, S>::is_device) {
    return gather_host(x.data(), x.strides(), plan);
  } else {
    int rank = 0;
    for (const axis_plan& p : plan) rank += p.summarised() ? 2 : 1;
    if (rank > max_ndim) {
      const auto h = x.get();
      return gather_host(h.data(), h.strides(), plan);
    }
    shape_t shape;
    strides_t strides;
    for (int a = 0; a < x.ndim(); ++a) {
      const axis_plan& p = plan[static_cast<std::size_t>(a)];
      if (p.summarised()) {
        shape.push_back(2);
        shape.push_back(p.split);
        strides.push_back((p.extent - p.split) * x.strides()[a]);
        strides.push_back(x.strides()[a]);
      } else {
        shape.push_back(p.extent);
        strides.push_back(x.strides()[a]);
      }
    }
    const auto corners =
        ndarray<T, S>(x.data(), shape, strides, x.memory(), x.device_id(), false).get();
    return gather_host(corners.data(), corners.strides(), plan_axes(shape, false, 0));
  }
}

template <class T, class S>
std::string array_to_string(const ndarray<T, S>& x, const print_options& o,
                            std::string_view separator, std::string_view prefix,
                            std::string_view suffix) {
  if (x.size() == 0) return "[]";
  const bool summarise = x.size() > o.threshold;
  const auto plan = plan_axes(x.shape(), summarise, o.edgeitems);
  const auto words = format_elements(shown_elements(x, plan), x.ndim() == 0, settings_of(o));
  const bracket_layout layout(words, plan, summarise, o.edgeitems, separator);
  return layout.render(prefix, o.linewidth - text_length(suffix));
}

// dtypes NumPy leaves out of a repr because the values imply them.
template <class T>
inline constexpr bool dtype_implied_v =
    std::is_same_v<T, bool> || std::is_same_v<T, double> ||
    std::is_same_v<T, ::cuda::std::complex<double>> || dtype_id_of<T> == dtype_id::int64;

}  // namespace detail::print

// numpy.set_printoptions: replaces all options (fields not named in a
// designated initializer take their defaults; to change one option and keep
// the others, use the overload that edits the current options).
inline void set_printoptions(const print_options& options) {
  detail::print::check(options);
  detail::print::current_options() = options;
}

// Changes some options and keeps the rest:
// set_printoptions([](print_options& o) { o.precision = 3; }).
template <class Edit>
requires std::is_invocable_v<Edit&, print_options&>
void set_printoptions(Edit&& edit) {
  print_options o = detail::print::current_options();
  edit(o);
  set_printoptions(o);
}

// numpy.get_printoptions.
inline print_options get_printoptions() {
  return detail::print::current_options();
}

// numpy.printoptions: options in force for the lifetime of the scope, the
// previous ones restored at its end (also when an exception leaves it).
//   cupp::printoptions scope({.precision = 3, .suppress = true});
//   cupp::printoptions scope([](auto& o) { o.linewidth = 120; });  // others kept
class printoptions {
 public:
  explicit printoptions(const print_options& options) : saved_(get_printoptions()) {
    set_printoptions(options);
  }
  template <class Edit>
  requires std::is_invocable_v<Edit&, print_options&>
  explicit printoptions(Edit&& edit) : saved_(get_printoptions()) {
    set_printoptions(std::forward<Edit>(edit));
  }
  ~printoptions() { detail::print::current_options() = saved_; }
  printoptions(const printoptions&) = delete;
  printoptions& operator=(const printoptions&) = delete;

 private:
  print_options saved_;
};

// numpy.array2string(x, separator=, prefix=, suffix=) under `options`.
// prefix and suffix are not printed; they only take room on the first and
// last line, as in NumPy.
template <class T, class S>
std::string array2string(const ndarray<T, S>& x, const print_options& options,
                         std::string_view separator = " ", std::string_view prefix = "",
                         std::string_view suffix = "") {
  detail::print::check(options);
  return detail::print::array_to_string(x, options, separator, prefix, suffix);
}

template <class T, class S>
std::string array2string(const ndarray<T, S>& x) {
  return array2string(x, get_printoptions());
}

// numpy.array_repr: "array([1., 2.], dtype=float32)".
template <class T, class S>
std::string array_repr(const ndarray<T, S>& x, const print_options& options) {
  detail::print::check(options);
  constexpr std::string_view prefix = "array(";
  std::string text(prefix);
  text += detail::print::array_to_string(x, options, ", ", prefix, ")");

  // What the values do not tell: the shape of an empty or summarised
  // array, and the dtype unless it is one a bare literal would give.
  std::string extras;
  const bool empty_1d = x.ndim() == 1 && x.shape()[0] == 0;
  if ((x.size() == 0 && !empty_1d) || x.size() > options.threshold)
    extras = "shape=" + to_string(x.shape());
  if (!detail::print::dtype_implied_v<T> || x.size() == 0) {
    if (!extras.empty()) extras += ", ";
    extras += "dtype=";
    extras += dtype_of<T>().name;
  }
  if (extras.empty()) return text + ")";
  text += ',';
  extras += ')';
  // The extras move to a line of their own when they would overflow.
  const auto last_newline = text.rfind('\n');
  const int last_line = detail::print::text_length(
      std::string_view(text).substr(last_newline == std::string::npos ? 0 : last_newline + 1));
  if (last_line + detail::print::text_length(extras) + 1 > options.linewidth)
    text += "\n" + std::string(prefix.size(), ' ');
  else
    text += ' ';
  return text + extras;
}

template <class T, class S>
std::string array_repr(const ndarray<T, S>& x) {
  return array_repr(x, get_printoptions());
}

// numpy.array_str: "[1. 2.]". A 0-d array prints as its scalar does, at
// full precision ("0.1", "1e-05").
template <class T, class S>
std::string array_str(const ndarray<T, S>& x, const print_options& options) {
  detail::print::check(options);
  if (x.ndim() == 0) {
    const T value = detail::print::shown_elements(x, {}).front();
    return detail::print::scalar_str(value);
  }
  return detail::print::array_to_string(x, options, " ", "", "");
}

template <class T, class S>
std::string array_str(const ndarray<T, S>& x) {
  return array_str(x, get_printoptions());
}

// Streams the repr, as Python's interactive prompt shows an array.
template <class T, class S>
std::ostream& operator<<(std::ostream& os, const ndarray<T, S>& x) {
  return os << array_repr(x);
}

namespace detail::print {
// A lazy value that prints: an expression, a generator or an integer-array
// selection x(idx) of a single dtype.
template <class E>
concept lazy_printable = expression_node<E> && std::derived_from<E, expression_base<E>> &&
    is_dtype_v<typename E::value_type>;
}  // namespace detail::print

// Lazy values print the array they stand for, evaluated (one kernel, and a
// copy of the shown elements for device values): `std::cout << x * 2` and
// `std::cout << x(idx)` show what NumPy shows for `x * 2` and `x[idx]`.
template <class E>
requires detail::print::lazy_printable<E> std::ostream& operator<<(std::ostream& os, const E& e) {
  return os << array_repr(detail::evaluate(e));
}

namespace detail {
// x(mask) prints the selection, as NumPy prints `x[mask]` (reading it
// waits for the device, as its evaluation does).
template <class A, class M>
std::ostream& operator<<(std::ostream& os, const masked_ref<A, M>& m) {
  return os << ::cupp::array_repr(m.eval());
}
}  // namespace detail

}  // namespace cupp

#if defined(__cpp_lib_format)
namespace cupp::detail::print {
// The format spec of arrays and lazy values: {} and {:r} give the repr,
// {:s} the str.
struct array_formatter {
  char form = 'r';

  constexpr auto parse(std::format_parse_context& ctx) {
    auto it = ctx.begin();
    if (it != ctx.end() && (*it == 'r' || *it == 's')) form = *it++;
    if (it != ctx.end() && *it != '}')
      throw std::format_error("cupp::ndarray format spec is {}, {:r} (repr) or {:s} (str)");
    return it;
  }

  template <class T, class S, class Context>
  auto format_array(const cupp::ndarray<T, S>& x, Context& ctx) const {
    const std::string text = form == 's' ? cupp::array_str(x) : cupp::array_repr(x);
    return std::copy(text.begin(), text.end(), ctx.out());
  }
};
}  // namespace cupp::detail::print

// std::format("{}", x) and "{:r}" give the repr, "{:s}" the str.
template <class T, class S>
struct std::formatter<cupp::ndarray<T, S>, char> : cupp::detail::print::array_formatter {
  template <class Context>
  auto format(const cupp::ndarray<T, S>& x, Context& ctx) const {
    return format_array(x, ctx);
  }
};

// Lazy values format the array they evaluate to.
template <class E>
requires cupp::detail::print::lazy_printable<E>
struct std::formatter<E, char> : cupp::detail::print::array_formatter {
  template <class Context>
  auto format(const E& e, Context& ctx) const {
    return format_array(cupp::detail::evaluate(e), ctx);
  }
};

template <class A, class M>
struct std::formatter<cupp::detail::masked_ref<A, M>, char> : cupp::detail::print::array_formatter {
  template <class Context>
  auto format(const cupp::detail::masked_ref<A, M>& m, Context& ctx) const {
    return format_array(m.eval(), ctx);
  }
};
#endif
