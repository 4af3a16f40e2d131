// The reduction engine: a reduction operator (detail/reduce/reducers.hpp)
// applied to an array or a lazy expression over any axes, in one pass that
// reads each input element once (`sum(x * y)` reads x and y and writes one
// value), on the device or on the host.
#pragma once

#include <array>
#include <tuple>
#include <type_traits>

#include <cupp/detail/expression/ufunc_define.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/reduce/kernel.hpp>
#include <cupp/detail/reduce/plan.hpp>
#include <cupp/detail/reduce/reducers.hpp>
#include <cupp/detail/reduce/result_fill.hpp>
#include <cupp/reduction_options.hpp>

namespace cupp {

namespace detail {

template <class Op, class... A>
struct is_masked_expr : std::false_type {};

// An operand laid out so that its kept axes are slowest and its reduced axes
// fastest: any reduction of it merges into two dimensions. Used when a
// layout does not merge into the dimensions the kernels walk (reduce_kernel_dims
// on the device, kernel_dims on the host).
template <class E>
auto materialized(const E& e, axis_mask m) {
  using V = typename E::value_type;
  using S = eval_space_t<typename E::space>;
  if constexpr (is_pair_value_v<V>) {
    const auto& [x, mask] = e.args();
    return make_ufunc(ops::with_mask{}, materialized(x, m), materialized(mask, m));
  } else {
    const shape_t& shape = e.shape();
    int perm[max_ndim];
    kept_then_reduced(shape, m, perm);
    shape_t ps = shape;
    for (int i = 0; i < shape.size(); ++i) ps[i] = shape[perm[i]];
    ndarray<V, S> tmp(ps);
    strides_t st = shape;
    for (int i = 0; i < shape.size(); ++i) st[perm[i]] = tmp.strides()[i];
    ndarray<V, S> view(tmp.data(), shape, st, tmp.memory(), tmp.device_id(), false);
    // A fresh array overlaps no operand: straight to the kernel, without
    // assign's overlap check and the temporary it would compile.
    std::array<strides_t, E::slots + 1> ops;
    strides_t* p = ops.data() + 1;
    e.collect(p, shape);
    run_elementwise(std::tuple<const ndarray<V, S>&>(view), e, ops);
    return array_leaf<V, S>{view};
  }
}

// Whether every operand (slots 1 .. slots) stores its kernel rows one after
// another: dimension 1 steps over exactly n0 elements of dimension 0.
template <std::size_t S>
bool rows_follow(const std::array<strides_t, S>& st, index_t n0, int slots) {
  for (int s = 1; s <= slots; ++s)
    if (st[s][1] != st[s][0] * n0) return false;
  return true;
}

template <class Red, class Out, class S, class E>
void reduce_materialized(const Red& red, const E& e, axis_mask m, const ndarray<Out, S>& out,
                         bool has_initial, typename Red::acc_type initial);

// Writes red's result over the axes `m` of `e` into `out` (the reduced shape,
// with or without the reduced axes kept as 1). Compact: `e` and `out` are
// known to merge into at most two dimensions with dimension 0 reduced (the
// materialised path below), so only one kernel is compiled for the call,
// and only its general walks (a layout of more dimensions than the kernels
// walk is rare enough, at the default six, to pay its copy and forgo the
// faster modes).
template <class Red, class Out, class S, class E, bool Compact = false>
void reduce_into(const Red& red, const E& e, axis_mask m, const ndarray<Out, S>& out,
                 bool has_initial = false,
                 typename Red::acc_type initial = typename Red::acc_type{}) {
  using A = typename Red::acc_type;
  const shape_t& shape = e.shape();
  const index_t n = reduced_count(shape, m);
  if (out.size() == 0) return;
  result_writer<Red, Out> w{red, reinterpret_cast<char*>(out.data()), {}, n, has_initial, initial};
  if (n == 0) {
    A a = red.identity();
    if (has_initial) a = red.combine(initial, a);
    fill_result(out, red.template finish<Out>(a, 0));
    return;
  }
  constexpr bool with_index = Red::needs_index;
  constexpr int nslots = E::slots + 1 + (with_index ? 1 : 0);
  std::array<strides_t, nslots> st;
  st[0] = result_strides_full(shape, m, out.shape(), out.strides());
  strides_t* p = st.data() + 1;
  e.collect(p, shape);
  if constexpr (with_index) st[nslots - 1] = reduced_positions(shape, m);
  reduce_plan pl = plan_reduction(shape, m, st);
  constexpr bool on_device = std::is_same_v<S, device_space>;
  if constexpr (Compact) {
    // Nothing reduced (every reduced axis of extent 1): a reduced dimension
    // of extent 1 in front keeps the walk in the inner kernel.
    if (!(pl.reduced & 1)) as_inner_unit(pl);
  } else if (pl.nd > (on_device ? reduce_kernel_dims : kernel_dims)) {
    reduce_materialized(red, e, m, out, has_initial, initial);
    return;
  }
  constexpr int N = on_device ? device_chunk(E::max_itemsize > 16 ? 16 : E::max_itemsize)
                              : host_chunk(E::max_itemsize);
  lower_ctx L{st, pl.nd, pl.nd, nullptr, 1};
  L.device = on_device ? out.device_id() : -1;
  const auto ev = e.template lower<typename E::value_type, N>(L);
  L.kernel_strides(0, w.st);
  position_eval pos;
  if constexpr (with_index) L.kernel_strides(nslots - 1, pos.st);
  if constexpr (on_device) {
    const int dev = out.device_id();
    check_current_device(dev);
    e.for_each_array([&](const array_info& a) { check_current_device(a.device); });
#if defined(__CUDACC__)
    const index_t resident =
        reduce_resident_blocks<N, Compact, Red, std::remove_cv_t<decltype(ev)>, position_eval, Out>(
            pl, dev);
    // Flat modes: everything merged into one reduced run that every operand
    // stores densely (and, for arg reductions, positions that grow along
    // it), short dense rows each reduced to a result, or short dense rows of
    // kept results reduced over the rows.
    // A compact (materialised) operand has one kernel, its general walks.
    const bool dense = !Compact && dense_loadable(ev);
    reduce_grid g;
    if (pl.nd == 1 && (pl.reduced & 1) && dense && (!with_index || pos.st[0] > 0)) {
      g = make_flat_grid(pl.shape[0], N, resident);
    } else if (pl.nd == 2 && (pl.reduced & 1) && !with_index && dense &&
               flat_rows_fit(pl.shape[0], N) && rows_follow(st, pl.shape[0], E::slots)) {
      g = make_flat_rows_grid(pl.shape[0], pl.shape[1], N, resident);
    } else if (pl.nd == 2 && !(pl.reduced & 1) && !with_index && dense &&
               flat_outer_fits(pl.shape[0], N) && rows_follow(st, pl.shape[0], E::slots)) {
      g = make_flat_outer_grid(pl.shape[0], pl.shape[1], N, resident);
    } else {
      g = make_reduce_grid(pl, N, resident);
      if constexpr (with_index) g.ordered = walks_in_order(g, pos.st);
      if constexpr (!with_index)
        g.dense_rows = g.team > 32 && pl.nd == 2 && pl.kept_dims == 1 && (pl.reduced & 1) &&
                       dense && pl.shape[0] % N == 0 && rows_follow(st, pl.shape[0], E::slots) &&
                       reduce_tuning().dense_rows;
    }
    launch_reduce<N, Compact>(ev, pos, w, g, cuda::detail::current_stream_impl(dev)->handle);
#else
    CUPP_NEEDS_NVCC(E);
#endif
  } else {
    host_reduce<N>(ev, pos, w, make_reduce_grid(pl, N, 1));
  }
}

// A layout that does not merge into the kernel's dimensions: the operand is
// materialised kept axes first and reduced axes last, and reduced into a
// C-contiguous result (copied into `out` after when `out` is not one), so
// that both merge into two dimensions whatever `out`'s strides. One kernel
// per reduction operator and dtype serves every such layout.
template <class Red, class Out, class S, class E>
void reduce_materialized(const Red& red, const E& e, axis_mask m, const ndarray<Out, S>& out,
                         bool has_initial, typename Red::acc_type initial) {
  const auto x = materialized(e, m);
  using X = std::remove_cvref_t<decltype(x)>;
  if (out.flags().c_contiguous) {
    reduce_into<Red, Out, S, X, true>(red, x, m, out, has_initial, initial);
    return;
  }
  ndarray<Out, S> r(out.shape());
  reduce_into<Red, Out, S, X, true>(red, x, m, r, has_initial, initial);
  copy_result(r, out);
}

}  // namespace detail

}  // namespace cupp
