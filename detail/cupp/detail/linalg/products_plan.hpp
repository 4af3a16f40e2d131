// The shape logic of NumPy's products (tensordot, vecdot, cross,
// multi_dot): which axes are summed, the transposes and 2-d reshapes that
// turn a contraction into one matrix product, the matrix chain order, and
// NumPy's checks with its messages. Plain host code, no arrays.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <ranges>
#include <string>
#include <utility>
#include <vector>

#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/detail/views/layout.hpp>
#include <cupp/errors.hpp>
#include <cupp/linalg/linalg_arguments.hpp>
#include <cupp/shape.hpp>

namespace cupp {

namespace detail {

// Python's repr of a shape tuple ("(2,)", "(4, 5)"), which some of
// NumPy's messages print instead of its own "(4,5)".
inline std::string python_tuple(const shape_t& s) {
  std::string r = "(";
  for (int i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

// A contraction as one product of two matrices: a.transpose(perm_a) is
// (rows, k) and b.transpose(perm_b) is (k, cols) after a reshape; the
// result (rows, cols) reshapes to `out`.
struct contraction_plan {
  shape_t perm_a, perm_b, out;
  index_t rows = 1, k = 1, cols = 1;
};

// numpy.tensordot's checks, in its order, with its messages.
inline contraction_plan plan_tensordot(const shape_t& as, const shape_t& bs,
                                       const tensordot_axes& axes) {
  auto [axa, axb] = axes.lists();
  auto has_duplicates = [](const std::vector<index_t>& v) {
    for (std::size_t i = 0; i < v.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (v[i] == v[j]) return true;
    return false;
  };
  if (has_duplicates(axa) || has_duplicates(axb))
    throw value_error("duplicate axes are not allowed in tensordot");
  const int na = as.size(), nb = bs.size();
  // Python's tuple indexing: -n..n-1, else IndexError.
  auto extent = [](const shape_t& s, index_t axis) {
    const int n = s.size();
    if (axis < -n || axis >= n) throw index_error("tuple index out of range");
    return s[static_cast<int>(axis < 0 ? axis + n : axis)];
  };
  bool equal = axa.size() == axb.size();
  for (std::size_t i = 0; equal && i < axa.size(); ++i) {
    const index_t ea = extent(as, axa[i]), eb = extent(bs, axb[i]);
    if (ea != eb) equal = false;
    if (axa[i] < 0) axa[i] += na;
    if (axb[i] < 0) axb[i] += nb;
  }
  if (!equal) throw value_error("shape-mismatch for sum");
  auto summed = [](const std::vector<index_t>& v, int axis) {
    for (index_t x : v)
      if (x == axis) return true;
    return false;
  };
  contraction_plan p;
  p.perm_a = shape_t::filled(0, 0);
  p.perm_b = shape_t::filled(0, 0);
  p.out = shape_t::filled(0, 0);
  for (int i = 0; i < na; ++i)
    if (!summed(axa, i)) {
      p.perm_a.push_back(i);
      p.rows *= as[i];
      p.out.push_back(as[i]);
    }
  for (index_t x : axa) {
    p.perm_a.push_back(x);
    p.k *= as[static_cast<int>(x)];
  }
  for (index_t x : axb) p.perm_b.push_back(x);
  for (int i = 0; i < nb; ++i)
    if (!summed(axb, i)) {
      p.perm_b.push_back(i);
      p.cols *= bs[i];
      p.out.push_back(bs[i]);
    }
  return p;
}

// The shape with one axis removed.
inline shape_t without_axis(const shape_t& s, int axis) {
  shape_t r = shape_t::filled(0, 0);
  for (int i = 0; i < s.size(); ++i)
    if (i != axis) r.push_back(s[i]);
  return r;
}

// numpy.vecdot's gufunc checks ((n),(n)->() with axis=): the summed axis
// of each operand, normalised against its own dimensions.
inline std::pair<int, int> plan_vecdot(const shape_t& a, const shape_t& b, index_t axis) {
  const char* signature = "(n),(n)->()";
  for (int op = 0; op < 2; ++op)
    if ((op == 0 ? a : b).size() == 0)
      throw value_error("vecdot: Input operand " + std::to_string(op) +
                        " does not have enough dimensions (has 0, gufunc core with signature " +
                        signature + " requires 1)");
  const int xa = checked_axis(axis, a.size()), xb = checked_axis(axis, b.size());
  if (a[xa] != b[xb])
    throw value_error(
        "vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature " +
        std::string(signature) + " (size " + std::to_string(b[xb]) + " is different from " +
        std::to_string(a[xa]) + ")");
  bool ok = true;
  const shape_t ba = without_axis(a, xa), bb = without_axis(b, xb);
  broadcast_shape_pair(ba, bb, ok);
  if (!ok)
    throw value_error(
        "operands could not be broadcast together with remapped shapes [original->remapped]: " +
        np_shape(a) + "->" + np_shape(ba) + " " + np_shape(b) + "->" + np_shape(bb) +
        "  and requested shape ()");
  return {xa, xb};
}

// numpy.cross's shape of the components' broadcast, with np.broadcast's
// message.
inline shape_t cross_batch_shape(const shape_t& a, const shape_t& b) {
  bool ok = true;
  const shape_t r = broadcast_shape_pair(a, b, ok);
  if (!ok)
    throw value_error(
        "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg "
        "0 with shape " +
        python_tuple(a) + " and arg 1 with shape " + python_tuple(b) + ".");
  return r;
}

// numpy.linalg.multi_dot's parenthesisation of a chain of matrices with
// dims[i] x dims[i + 1] for matrix i: split[i][j] is where the product of
// matrices i..j splits (the cheapest count of scalar multiplications,
// first split on ties, as NumPy's dynamic programme).
inline std::vector<std::vector<int>> matrix_chain_order(const std::vector<index_t>& dims) {
  const int n = static_cast<int>(dims.size()) - 1;
  std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0.0));
  std::vector<std::vector<int>> split(n, std::vector<int>(n, 0));
  for (int len = 1; len < n; ++len)
    for (int i = 0; i + len < n; ++i) {
      const int j = i + len;
      cost[i][j] = std::numeric_limits<double>::infinity();
      for (int k = i; k < j; ++k) {
        const double q = cost[i][k] + cost[k + 1][j] +
                         static_cast<double>(dims[i]) * static_cast<double>(dims[k + 1]) *
                             static_cast<double>(dims[j + 1]);
        if (q < cost[i][j]) {
          cost[i][j] = q;
          split[i][j] = k;
        }
      }
    }
  return split;
}

// multi_dot of three: (AB)C when it costs fewer multiplications than A(BC)
// (NumPy's rule, A(BC) on ties).
inline bool multiply_left_first(index_t a0, index_t a1b0, index_t b1c0, index_t c1) {
  const double left = static_cast<double>(a0) * b1c0 * (a1b0 + c1);
  const double right = static_cast<double>(a1b0) * c1 * (a0 + b1c0);
  return left < right;
}

}  // namespace detail
}  // namespace cupp
