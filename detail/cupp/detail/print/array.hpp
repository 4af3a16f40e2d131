// An array's text, the engine of <cupp/print.hpp>: the elements the plan
// shows (read from the device only where the array is summarised), laid
// out in NumPy's brackets, and the repr and str built from that text
// (numpy.array_repr, numpy.array_str).
#pragma once

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/print/elements.hpp>
#include <cupp/detail/print/layout.hpp>
#include <cupp/detail/print/options.hpp>
#include <cupp/dtype.hpp>
#include <cupp/print_options.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::print {

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

// numpy.array_repr under `options` (checked by the caller):
// "array([1., 2.], dtype=float32)".
template <class T, class S>
std::string repr(const ndarray<T, S>& x, const print_options& options) {
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

// numpy.array_str under `options` (checked by the caller): "[1. 2.]". A
// 0-d array prints as its scalar does, at full precision ("0.1", "1e-05").
template <class T, class S>
std::string str(const ndarray<T, S>& x, const print_options& options) {
  if (x.ndim() == 0) {
    const T value = detail::print::shown_elements(x, {}).front();
    return detail::print::scalar_str(value);
  }
  return detail::print::array_to_string(x, options, " ", "", "");
}

// The repr and the str under the options in force, as array_repr(x) and
// array_str(x) give them, for the printing that starts in detail/ (the
// stream operator of x(mask), std::format).
template <class T, class S>
std::string repr(const ndarray<T, S>& x) {
  const print_options options = current_options();
  check(options);
  return repr(x, options);
}
template <class T, class S>
std::string str(const ndarray<T, S>& x) {
  const print_options options = current_options();
  check(options);
  return str(x, options);
}

}  // namespace cupp::detail::print
