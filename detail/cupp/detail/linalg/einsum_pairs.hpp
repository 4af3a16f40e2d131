// How cupp::einsum computes a planned sum: which axes each operand sums on
// its own, and how two operands' labels become one product, either one
// (batched) matmul, batch x free x contracted against batch x contracted
// x free, or a broadcast multiply when nothing is contracted. Plain code:
// transposes and reshapes as axis lists and shapes.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include <cupp/axis.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/linalg/einsum_plan.hpp>
#include <cupp/detail/views/layout.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// The diagonal view of an operand whose axes have these byte strides:
// repeated labels fold into one axis whose stride is the sum of theirs.
inline view_layout einsum_fold_view(const einsum_operand& op, const strides_t& strides) {
  view_layout v;
  v.shape = op.shape;
  v.strides = strides_t::filled(op.shape.size(), 0);
  for (std::size_t d = 0; d < op.fold.size(); ++d) v.strides[op.fold[d]] += strides[d];
  return v;
}

template <std::size_t... I>
axis_arg einsum_axis_list(const std::vector<int>& axes, std::index_sequence<I...>) {
  return axis_arg{axes[I]...};
}

// axis= for a list known at run time (axis_arg takes braced lists only).
template <std::size_t... N>
axis_arg einsum_axes_of(const std::vector<int>& axes, std::index_sequence<N...>) {
  axis_arg r;
  ((axes.size() == N ? (r = einsum_axis_list(axes, std::make_index_sequence<N>{}), 0) : 0), ...);
  return r;
}
inline axis_arg einsum_axes(const std::vector<int>& axes) {
  return einsum_axes_of(axes, std::make_index_sequence<max_ndim + 1>{});
}

// The axes of `labels` whose label `keep` does not hold (to be summed), and
// the labels that remain.
inline std::vector<int> einsum_summed_axes(std::vector<int>& labels,
                                           const std::vector<bool>& keep) {
  std::vector<int> axes, kept;
  for (std::size_t d = 0; d < labels.size(); ++d) {
    if (keep[labels[d]])
      kept.push_back(labels[d]);
    else
      axes.push_back(static_cast<int>(d));
  }
  labels = kept;
  return axes;
}

// The transpose that puts axes labelled `from` in the order `to` (the
// same labels).
inline shape_t einsum_permutation(const std::vector<int>& from, const std::vector<int>& to) {
  shape_t perm = shape_t::filled(0, 0);
  for (int l : to)
    for (std::size_t d = 0; d < from.size(); ++d)
      if (from[d] == l) perm.push_back(static_cast<index_t>(d));
  return perm;
}

// The product of two operands (each label once per operand, extents equal
// or 1). Batch labels are in both and needed later; contracted ones in both
// and not needed; free ones in one of them (labels needed by neither were
// summed before). The result's axes: batch, free of a, free of b.
struct einsum_pair {
  bool elementwise = false;  // nothing contracted: a broadcast multiply
  shape_t perm_a, perm_b;    // a to (batch, free, contracted), b to (batch, contracted, free)
  bool widen_a = false, widen_b = false;  // a contracted extent of 1 meets a larger one
  shape_t wide_a, wide_b;                 // after the transpose, the extents to broadcast to
  shape_t shape_a, shape_b;  // the reshapes: (batch, M, K), (batch, K, N), or aligned axes
  std::vector<int> labels;   // of the result
  shape_t shape;
};

inline einsum_pair plan_einsum_pair(const std::vector<int>& la, const shape_t& sa,
                                    const std::vector<int>& lb, const shape_t& sb,
                                    const std::vector<bool>& needed) {
  auto find = [](const std::vector<int>& labels, int l) {
    for (std::size_t d = 0; d < labels.size(); ++d)
      if (labels[d] == l) return static_cast<int>(d);
    return -1;
  };
  std::vector<int> batch, free_a, free_b, contracted;
  for (int l : la) {
    if (find(lb, l) < 0)
      free_a.push_back(l);
    else
      (needed[l] ? batch : contracted).push_back(l);
  }
  for (int l : lb)
    if (find(la, l) < 0) free_b.push_back(l);
  auto extent = [&](int l) {
    const int ia = find(la, l), ib = find(lb, l);
    const index_t ea = ia >= 0 ? sa[ia] : 1, eb = ib >= 0 ? sb[ib] : 1;
    return ea == 1 ? eb : ea;
  };
  einsum_pair p;
  p.elementwise = contracted.empty();
  auto cat = [](std::initializer_list<const std::vector<int>*> parts) {
    std::vector<int> r;
    for (const auto* part : parts) r.insert(r.end(), part->begin(), part->end());
    return r;
  };
  p.labels = cat({&batch, &free_a, &free_b});
  p.shape = shape_t::filled(0, 0);
  for (int l : p.labels) p.shape.push_back(extent(l));
  auto own = [&](const std::vector<int>& labels, const shape_t& s, const std::vector<int>& order) {
    shape_t r = shape_t::filled(0, 0);
    for (int l : order) r.push_back(s[find(labels, l)]);
    return r;
  };
  if (p.elementwise) {
    // a as (batch, free a, 1...), b as (batch, 1..., free b): multiply
    // broadcasts them into the result.
    p.perm_a = einsum_permutation(la, cat({&batch, &free_a}));
    p.perm_b = einsum_permutation(lb, cat({&batch, &free_b}));
    p.shape_a = own(la, sa, cat({&batch, &free_a}));
    for (std::size_t i = 0; i < free_b.size(); ++i) p.shape_a.push_back(1);
    p.shape_b = own(lb, sb, batch);
    for (std::size_t i = 0; i < free_a.size(); ++i) p.shape_b.push_back(1);
    for (int l : free_b) p.shape_b.push_back(sb[find(lb, l)]);
    return p;
  }
  p.perm_a = einsum_permutation(la, cat({&batch, &free_a, &contracted}));
  p.perm_b = einsum_permutation(lb, cat({&batch, &contracted, &free_b}));
  p.wide_a = own(la, sa, cat({&batch, &free_a, &contracted}));
  p.wide_b = own(lb, sb, cat({&batch, &contracted, &free_b}));
  index_t m = 1, n = 1, k = 1;
  const std::size_t nb = batch.size();
  for (std::size_t i = 0; i < contracted.size(); ++i) {
    const index_t e = extent(contracted[i]);
    k *= e;
    index_t& ea = p.wide_a[nb + free_a.size() + i];
    index_t& eb = p.wide_b[nb + i];
    p.widen_a |= ea != e;
    p.widen_b |= eb != e;
    ea = eb = e;
  }
  for (int l : free_a) m *= extent(l);
  for (int l : free_b) n *= extent(l);
  p.shape_a = own(la, sa, batch);
  p.shape_b = own(lb, sb, batch);
  p.shape_a.push_back(m);
  p.shape_a.push_back(k);
  p.shape_b.push_back(k);
  p.shape_b.push_back(n);
  return p;
}

}  // namespace cupp::detail
