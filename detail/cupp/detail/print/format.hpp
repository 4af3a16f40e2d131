// Printing what is not an array: the concept of the lazy values that print
// (they print the array they evaluate to), the stream operator of x(mask),
// and the std::format spec of arrays and lazy values ({}, {:r}, {:s}),
// which <cupp/print.hpp>'s std::formatter specialisations derive from.
#pragma once

#include <algorithm>
#include <concepts>
#include <ostream>
#include <string>
#include <version>

#include <cupp/array_fwd.hpp>
#include <cupp/detail/print/array.hpp>
#include <cupp/dtype.hpp>
#include <cupp/expression_fwd.hpp>

#if defined(__cpp_lib_format)
#include <format>
#endif

namespace cupp::detail {

// Declared in detail/views/array_views.hpp, defined in
// detail/indexing/mask_ref.hpp.
template <class A, class M>
class masked_ref;

namespace print {
// A lazy value that prints: an expression, a generator or an integer-array
// selection x(idx) of a single dtype.
template <class E>
concept lazy_printable = expression_node<E> && std::derived_from<E, expression_base<E>> &&
    is_dtype_v<typename E::value_type>;
}  // namespace print

// x(mask) prints the selection, as NumPy prints `x[mask]` (reading it
// waits for the device, as its evaluation does).
template <class A, class M>
std::ostream& operator<<(std::ostream& os, const masked_ref<A, M>& m) {
  return os << print::repr(m.eval());
}

}  // namespace cupp::detail

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
    const std::string text = form == 's' ? str(x) : repr(x);
    return std::copy(text.begin(), text.end(), ctx.out());
  }
};
}  // namespace cupp::detail::print
#endif
