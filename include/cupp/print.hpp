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
#include <cupp/detail/print/array.hpp>
#include <cupp/detail/print/format.hpp>
#include <cupp/detail/print/options.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/print_options.hpp>
#include <cupp/shape.hpp>

#if defined(__cpp_lib_format)
#include <format>
#endif

namespace cupp {

// cupp::print_options and cupp::float_mode are in <cupp/print_options.hpp>.

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
  return detail::print::repr(x, options);
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
  return detail::print::str(x, options);
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

// Lazy values print the array they stand for, evaluated (one kernel, and a
// copy of the shown elements for device values): `std::cout << x * 2` and
// `std::cout << x(idx)` show what NumPy shows for `x * 2` and `x[idx]`.
template <class E>
requires detail::print::lazy_printable<E> std::ostream& operator<<(std::ostream& os, const E& e) {
  return os << array_repr(detail::evaluate(e));
}

}  // namespace cupp

#if defined(__cpp_lib_format)
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
