// Which elements an array prints, and how their texts are arranged into
// NumPy's nested brackets: summarisation with "...", wrapping at the line
// width with a hanging indent, and blank lines between blocks of 3-d and
// higher arrays.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/shape.hpp>

#include <cupp/detail/print/scalar.hpp>

namespace cupp::detail::print {

// The elements kept along one axis: positions [0, split) are the leading
// elements, [split, shown) the trailing ones.
struct axis_plan {
  index_t extent = 0;
  index_t shown = 0;
  index_t split = 0;

  bool summarised() const noexcept { return shown != extent; }
  // Index along the axis of the element kept at `position`.
  index_t index_of(index_t position) const noexcept {
    return position < split ? position : position + (extent - shown);
  }
  // Position among the kept elements of the element at index i.
  index_t position_of(index_t i) const noexcept { return i < split ? i : i - (extent - shown); }
};

// A summarised array keeps `edge` elements at each end of every axis longer
// than 2 * edge. (With edge == 0 NumPy's a[-0:] keeps the whole axis.)
inline std::vector<axis_plan> plan_axes(const shape_t& shape, bool summarise, index_t edge) {
  std::vector<axis_plan> plan(static_cast<std::size_t>(shape.size()));
  for (int a = 0; a < shape.size(); ++a) {
    axis_plan& p = plan[static_cast<std::size_t>(a)];
    p.extent = shape[a];
    const bool cut = summarise && edge > 0 && shape[a] > 2 * edge;
    p.shown = cut ? 2 * edge : shape[a];
    p.split = cut ? edge : shape[a];
  }
  return plan;
}

// The kept elements of a host array, in C order.
template <class T>
std::vector<T> gather_host(const T* base, const strides_t& strides,
                           const std::vector<axis_plan>& plan) {
  index_t count = 1;
  for (const axis_plan& p : plan) count *= p.shown;
  std::vector<T> out;
  out.reserve(static_cast<std::size_t>(count));
  if (count == 0) return out;
  const int nd = static_cast<int>(plan.size());
  std::vector<index_t> pos(static_cast<std::size_t>(nd), 0);
  const char* bytes = reinterpret_cast<const char*>(base);
  for (index_t n = 0; n < count; ++n) {
    index_t offset = 0;
    for (int a = 0; a < nd; ++a)
      offset +=
          plan[static_cast<std::size_t>(a)].index_of(pos[static_cast<std::size_t>(a)]) * strides[a];
    T value;
    std::memcpy(static_cast<void*>(&value), bytes + offset, sizeof(T));
    out.push_back(value);
    for (int a = nd - 1; a >= 0; --a) {
      if (++pos[static_cast<std::size_t>(a)] < plan[static_cast<std::size_t>(a)].shown) break;
      pos[static_cast<std::size_t>(a)] = 0;
    }
  }
  return out;
}

inline std::string_view rstrip(std::string_view s) CUPP_HOST_BODY({
  const auto end = s.find_last_not_of(" \t\n\r\f\v");
  return end == std::string_view::npos ? std::string_view{} : s.substr(0, end + 1);
});

// Lays out `words` (one per kept element, C order over the kept positions)
// the way numpy.array2string does.
class bracket_layout {
 public:
  bracket_layout(const std::vector<std::string>& words, const std::vector<axis_plan>& plan,
                 bool summarise, index_t edge, std::string_view separator)
      : words_(words), plan_(plan), summarise_(summarise), edge_(edge), sep_(separator) {
    step_.assign(plan.size(), 1);
    for (int a = static_cast<int>(plan.size()) - 2; a >= 0; --a)
      step_[static_cast<std::size_t>(a)] =
          step_[static_cast<std::size_t>(a) + 1] * plan[static_cast<std::size_t>(a) + 1].shown;
  }

  // `prefix` is the text that will precede the result on its first line
  // ("array(" for a repr): continuation lines are indented past it.
  std::string render(std::string_view prefix, int line_width) const CUPP_HOST_BODY({
    const std::string indent =
        " " + std::string(static_cast<std::size_t>(text_length(prefix)), ' ');
    return recurse(0, 0, indent, line_width);
  });

 private:
  static void extend_line(std::string& s, std::string& line, std::string_view word, int width,
                          std::string_view indent) {
    const int line_len = text_length(line);
    // Wrapping a line that holds nothing but the indent would not help.
    if (line_len + text_length(word) > width && line_len > text_length(indent)) {
      s += rstrip(line);
      s += '\n';
      line = indent;
    }
    line += word;
  }

  std::string recurse(int axis, index_t offset, const std::string& indent, int width) const {
    const int nd = static_cast<int>(plan_.size());
    if (axis == nd) return words_[static_cast<std::size_t>(offset)];
    const axis_plan& p = plan_[static_cast<std::size_t>(axis)];
    const index_t step = step_[static_cast<std::size_t>(axis)];
    const std::string inner_indent = indent + " ";
    const int inner_width = width - 1;  // room for the closing ']'
    const bool show_summary = summarise_ && 2 * edge_ < p.extent;
    const index_t leading = show_summary ? edge_ : 0;
    const index_t trailing = show_summary ? edge_ : p.extent;
    auto child = [&](index_t i) {
      return recurse(axis + 1, offset + p.position_of(i) * step, inner_indent, inner_width);
    };

    std::string s;
    const int axes_left = nd - axis;
    if (axes_left == 1) {
      const std::string_view sep_core = rstrip(sep_);
      const int elem_width = width - std::max(text_length(sep_core), 1);
      std::string line = indent;
      for (index_t i = 0; i < leading; ++i) {
        extend_line(s, line, child(i), elem_width, indent);
        line += sep_;
      }
      if (show_summary) {
        extend_line(s, line, "...", elem_width, indent);
        line += sep_;
      }
      for (index_t i = trailing; i > 1; --i) {
        extend_line(s, line, child(p.extent - i), elem_width, indent);
        line += sep_;
      }
      extend_line(s, line, child(p.extent - 1), elem_width, indent);
      s += line;
    } else {
      // Rows end with the separator (sans trailing blanks) and one newline
      // per remaining axis, so 3-d blocks are set apart by a blank line.
      std::string line_sep(rstrip(sep_));
      line_sep.append(static_cast<std::size_t>(axes_left - 1), '\n');
      for (index_t i = 0; i < leading; ++i) s += indent + child(i) + line_sep;
      if (show_summary) s += indent + "..." + line_sep;
      for (index_t i = trailing; i > 1; --i) s += indent + child(p.extent - i) + line_sep;
      s += indent + child(p.extent - 1);
    }
    return "[" + s.substr(indent.size()) + "]";
  }

  const std::vector<std::string>& words_;
  const std::vector<axis_plan>& plan_;
  bool summarise_;
  index_t edge_;
  std::string_view sep_;
  std::vector<index_t> step_;
};

}  // namespace cupp::detail::print
