// numpy.einsum's subscripts: the parse of "ij,jk->ik" against the
// operands' ranks, ellipsis broadcasting, repeated labels (diagonals), the
// implicit output and every check NumPy makes, in NumPy's order and with
// its messages. Plain code, no templates: cupp::einsum only applies the
// plan to arrays.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// Labels are small ints: a letter is its ASCII code; broadcast axis b (of
// the ellipsis, counted over all operands, left to right) is
// einsum_broadcast_label + b, so that letters sort as NumPy sorts them.
inline constexpr int einsum_broadcast_label = 128;
inline constexpr int einsum_label_count = einsum_broadcast_label + max_ndim;

inline bool einsum_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

struct einsum_operand {
  std::vector<int> axis_labels;  // one per axis of the operand
  // The diagonal view that merges repeated labels: its labels (each once,
  // in order of first appearance), the view axis each operand axis folds
  // into (the view's stride is the sum of the folded strides) and its shape.
  std::vector<int> labels;
  std::vector<int> fold;
  shape_t shape;
};

struct einsum_plan {
  std::vector<einsum_operand> operands;
  std::vector<int> output;  // the result's labels, in its axis order
  shape_t out_shape;
  std::vector<index_t> extent;  // per label: the broadcast extent (all operands)
  // One operand and nothing summed: NumPy returns a view of it.
  bool view = false;
};

inline std::string einsum_invalid_subscript(char c) {
  return "invalid subscript '" + std::string(1, c) +
         "' in einstein sum subscripts string, subscripts must be letters";
}

inline const char* einsum_no_ellipsis_message =
    "operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
    "provided to broadcast the extra dimensions.";

// One operand's subscripts: its axis labels, with 0 standing for each
// broadcast axis until the ellipsis' global numbering is known.
inline std::vector<int> einsum_parse_operand(std::string_view s, int ndim, int iop,
                                             std::vector<int>& counts) {
  std::vector<int> letters;
  int ellipsis = -1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (einsum_letter(c)) {
      if (static_cast<int>(letters.size()) >= ndim)
        throw value_error(
            "einstein sum subscripts string contains too many subscripts for operand " +
            std::to_string(iop));
      letters.push_back(c);
      ++counts[c];
    } else if (c == '.') {
      if (ellipsis != -1 || i + 2 >= s.size() || s[++i] != '.' || s[++i] != '.')
        throw value_error(
            "einstein sum subscripts string contains a '.' that is not part of an ellipsis "
            "('...') in operand " +
            std::to_string(iop));
      ellipsis = static_cast<int>(letters.size());
    } else if (c != ' ') {
      throw value_error(einsum_invalid_subscript(c));
    }
  }
  const int named = static_cast<int>(letters.size());
  if (ellipsis == -1) {
    if (named != ndim) throw value_error(einsum_no_ellipsis_message);
    return letters;
  }
  std::vector<int> labels(letters.begin(), letters.begin() + ellipsis);
  labels.insert(labels.end(), ndim - named, 0);
  labels.insert(labels.end(), letters.begin() + ellipsis, letters.end());
  return labels;
}

// The explicit output's labels; broadcast axes numbered 0..nb-1.
inline std::vector<int> einsum_parse_output(std::string_view s, int nb,
                                            const std::vector<int>& counts) {
  std::vector<int> out;
  bool ellipsis = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (einsum_letter(c)) {
      if (s.find(c, i + 1) != std::string_view::npos)
        throw value_error("einstein sum subscripts string includes output subscript '" +
                          std::string(1, c) + "' multiple times");
      if (counts[c] == 0)
        throw value_error("einstein sum subscripts string included output subscript '" +
                          std::string(1, c) + "' which never appeared in an input");
      out.push_back(c);
    } else if (c == '.') {
      if (ellipsis || i + 2 >= s.size() || s[++i] != '.' || s[++i] != '.')
        throw value_error(
            "einstein sum subscripts string contains a '.' that is not part of an ellipsis "
            "('...') in the output");
      ellipsis = true;
      for (int b = 0; b < nb; ++b) out.push_back(einsum_broadcast_label + b);
    } else if (c != ' ') {
      throw value_error(einsum_invalid_subscript(c));
    }
  }
  if (!ellipsis && nb > 0)
    throw value_error(
        "output has more dimensions than subscripts given in einstein sum, but no '...' "
        "ellipsis provided to broadcast the extra dimensions.");
  return out;
}

// NumPy's nditer spelling of an operand's axes in iteration order:
// leading missing axes dropped, later ones "newaxis".
inline std::string einsum_remapped(const std::vector<index_t>& dims) {
  std::size_t i = 0;
  while (i < dims.size() && dims[i] < 0) ++i;
  if (i == dims.size()) return "()";
  std::string s = "(" + std::to_string(dims[i++]);
  for (; i < dims.size(); ++i) s += dims[i] < 0 ? ",newaxis" : "," + std::to_string(dims[i]);
  return s + (dims.size() == 1 ? ",)" : ")");
}

// The merged diagonal view of one operand (NumPy's combined dims), with
// NumPy's check that repeated labels have equal extents.
inline void einsum_fold_repeats(einsum_operand& op, const shape_t& shape, int iop) {
  op.labels.clear();
  op.fold.assign(op.axis_labels.size(), 0);
  op.shape = shape_t::filled(0, 0);
  for (std::size_t d = 0; d < op.axis_labels.size(); ++d) {
    const int label = op.axis_labels[d];
    int v = 0;
    while (v < static_cast<int>(op.labels.size()) && op.labels[v] != label) ++v;
    if (v == static_cast<int>(op.labels.size())) {
      op.labels.push_back(label);
      op.shape.push_back(shape[d]);
    } else if (op.shape[v] != shape[d]) {
      throw value_error("dimensions in operand " + std::to_string(iop) + " for collapsing index '" +
                        std::string(1, static_cast<char>(label)) + "' don't match (" +
                        std::to_string(op.shape[v]) + " != " + std::to_string(shape[d]) + ")");
    }
    op.fold[d] = v;
  }
}

// NumPy's single-operand view test: walks the axes until one is summed,
// checking repeated labels on the way (with the "single operand" message).
inline bool einsum_single_view(const einsum_operand& op, const shape_t& shape,
                               const std::vector<int>& output) {
  std::vector<index_t> seen(output.size(), -1);
  for (std::size_t d = 0; d < op.axis_labels.size(); ++d) {
    std::size_t o = 0;
    while (o < output.size() && output[o] != op.axis_labels[d]) ++o;
    if (o == output.size()) return false;
    // NumPy takes an extent of 0 as unset here (and then builds a view
    // that reads past an empty operand); cupp reports that mismatch too.
    if (seen[o] >= 0 && seen[o] != shape[d])
      throw value_error("dimensions in single operand for collapsing index '" +
                        std::string(1, static_cast<char>(op.axis_labels[d])) + "' don't match (" +
                        std::to_string(seen[o]) + " != " + std::to_string(shape[d]) + ")");
    seen[o] = shape[d];
  }
  return true;
}

// The whole plan for operands of the given shapes; throws value_error with
// NumPy's messages.
inline einsum_plan plan_einsum(std::string_view subscripts, const std::vector<shape_t>& shapes) {
  const int nop = static_cast<int>(shapes.size());
  einsum_plan p;
  p.operands.resize(nop);
  std::vector<int> counts(einsum_label_count, 0);
  std::size_t pos = 0;
  for (int iop = 0; iop < nop; ++iop) {
    std::size_t end = subscripts.find_first_of(",-", pos);
    if (end == std::string_view::npos) end = subscripts.size();
    const bool comma = end < subscripts.size() && subscripts[end] == ',';
    if (iop == nop - 1 && comma)
      throw value_error(
          "more operands provided to einstein sum function than specified in the subscripts "
          "string");
    if (iop < nop - 1 && !comma)
      throw value_error(
          "fewer operands provided to einstein sum function than specified in the subscripts "
          "string");
    p.operands[iop].axis_labels =
        einsum_parse_operand(subscripts.substr(pos, end - pos), shapes[iop].size(), iop, counts);
    pos = iop < nop - 1 ? end + 1 : end;
  }
  // The broadcast axes: as many as the operand with the most; each
  // operand's own are the last of them (right-aligned, as broadcasting).
  int nb = 0;
  for (const auto& op : p.operands) {
    int zeros = 0;
    for (int l : op.axis_labels) zeros += l == 0;
    nb = std::max(nb, zeros);
  }
  for (auto& op : p.operands) {
    int zeros = 0;
    for (int l : op.axis_labels) zeros += l == 0;
    int b = nb - zeros;
    for (int& l : op.axis_labels)
      if (l == 0) l = einsum_broadcast_label + b++;
  }
  const std::string_view rest = subscripts.substr(pos);
  if (rest.empty()) {
    for (int b = 0; b < nb; ++b) p.output.push_back(einsum_broadcast_label + b);
    for (int l = 0; l < einsum_broadcast_label; ++l)
      if (counts[l] == 1) p.output.push_back(l);
  } else {
    if (rest.size() < 2 || rest[0] != '-' || rest[1] != '>')
      throw value_error(
          "einstein sum subscript string does not contain proper '->' output specified");
    p.output = einsum_parse_output(rest.substr(2), nb, counts);
  }
  if (nop == 1) p.view = einsum_single_view(p.operands[0], shapes[0], p.output);
  for (int iop = 0; iop < nop; ++iop) einsum_fold_repeats(p.operands[iop], shapes[iop], iop);

  // NumPy's iteration order: the output's labels, then the summed ones in
  // label order; every label broadcasts over the operands as nditer does.
  std::vector<int> iter = p.output;
  std::vector<bool> in_output(einsum_label_count, false);
  for (int l : p.output) in_output[l] = true;
  for (int l = 0; l < einsum_broadcast_label; ++l)
    if (counts[l] > 0 && !in_output[l]) iter.push_back(l);
  p.extent.assign(einsum_label_count, 1);
  bool ok = true;
  for (int l : iter)
    for (const auto& op : p.operands)
      for (std::size_t v = 0; v < op.labels.size(); ++v) {
        if (op.labels[v] != l || op.shape[v] == 1) continue;
        if (p.extent[l] == 1)
          p.extent[l] = op.shape[v];
        else if (p.extent[l] != op.shape[v])
          ok = false;
      }
  if (!ok) {
    std::string m =
        "operands could not be broadcast together with remapped shapes "
        "[original->remapped]: ";
    for (const auto& op : p.operands) {
      std::vector<index_t> dims(iter.size(), -1);
      for (std::size_t i = 0; i < iter.size(); ++i)
        for (std::size_t v = 0; v < op.labels.size(); ++v)
          if (op.labels[v] == iter[i]) dims[i] = op.shape[v];
      m += np_shape(op.shape) + "->" + einsum_remapped(dims) + " ";
    }
    throw value_error(m);
  }
  p.out_shape = shape_t::filled(0, 0);
  for (int l : p.output) p.out_shape.push_back(p.extent[l]);
  return p;
}

}  // namespace cupp::detail
