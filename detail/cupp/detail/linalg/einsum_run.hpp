// The engine of numpy.einsum once its subscripts are planned
// (einsum_plan.hpp): each operand's diagonals as strided views, the labels
// no later operand or the output needs summed (numpy.sum, numpy.any for
// bool), and the operands contracted pairwise, left to right, each pair as
// one (batched) matmul or one broadcast multiply (einsum_pairs.hpp).
// <cupp/linalg/einsum.hpp>'s public function makes the operands arrays and calls
// einsum_arrays.
#pragma once

#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/linalg/einsum_pairs.hpp>
#include <cupp/detail/linalg/einsum_plan.hpp>
#include <cupp/detail/linalg/linalg_views.hpp>
#include <cupp/detail/linalg/product_run.hpp>
#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/logical.hpp>
#include <cupp/detail/reduce/sums.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// x summed over the axes whose label `keep` does not hold (labels updated).
template <class R, class S>
ndarray<R, S> einsum_sum(const ndarray<R, S>& x, std::vector<int>& labels,
                         const std::vector<bool>& keep) {
  const std::vector<int> axes = einsum_summed_axes(labels, keep);
  if (axes.empty()) return x;
  // NumPy's einsum sums in the result dtype: bool sums are logical or.
  if constexpr (std::is_same_v<R, bool>)
    return ndarray<R, S>(impl::any<void>(as_operand(x), reduce_args<>(einsum_axes(axes))));
  else
    return ndarray<R, S>(impl::sum<R>(as_operand(x), reduce_args<>(einsum_axes(axes))));
}

template <class R, class S>
ndarray<R, S> einsum_product(const ndarray<R, S>& a, const ndarray<R, S>& b, const einsum_pair& p) {
  ndarray<R, S> x = a.transpose(p.perm_a), y = b.transpose(p.perm_b);
  if (p.elementwise)
    return ndarray<R, S>(make_ufunc(ops::multiply{}, x.reshape(p.shape_a), y.reshape(p.shape_b)));
  // A contracted extent of 1 against a larger one repeats (stride 0).
  if (p.widen_a) x = broadcast_view(x, p.wide_a);
  if (p.widen_b) y = broadcast_view(y, p.wide_b);
  return matmul_arrays(x.reshape(p.shape_a), y.reshape(p.shape_b)).reshape(p.shape);
}

template <class R, class S>
ndarray<R, S> einsum_arrays(const einsum_plan& plan, std::vector<ndarray<R, S>> xs) {
  const int nop = static_cast<int>(xs.size());
  for (int i = 0; i < nop; ++i)
    xs[i] = xs[i].view_as(einsum_fold_view(plan.operands[i], xs[i].strides()));
  std::vector<bool> in_output(einsum_label_count, false);
  for (int l : plan.output) in_output[l] = true;
  std::vector<int> labels = plan.operands[0].labels;
  ndarray<R, S> acc = xs[0];
  for (int i = 1; i < nop; ++i) {
    // Labels the operands after this pair, or the output, still need.
    std::vector<bool> later = in_output;
    for (int j = i + 1; j < nop; ++j)
      for (int l : plan.operands[j].labels) later[l] = true;
    std::vector<int> next = plan.operands[i].labels;
    std::vector<bool> keep_acc = later, keep_next = later;
    for (int l : next) keep_acc[l] = true;
    for (int l : labels) keep_next[l] = true;
    acc = einsum_sum(acc, labels, keep_acc);
    const ndarray<R, S> y = einsum_sum(xs[i], next, keep_next);
    const einsum_pair p = plan_einsum_pair(labels, acc.shape(), next, y.shape(), later);
    acc = einsum_product(acc, y, p);
    labels = p.labels;
  }
  acc = einsum_sum(acc, labels, in_output);
  return acc.transpose(einsum_permutation(labels, plan.output));
}

}  // namespace cupp::detail
