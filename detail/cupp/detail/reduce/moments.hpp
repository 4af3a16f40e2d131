// The engines of numpy.mean, nanmean, var, std, nanvar and nanstd: the mean
// in one pass, var and std in two (the mean, then the mean of the squared
// deviations from it, as NumPy), each through reduce_into
// (detail/reduce/engine.hpp).
#pragma once

#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/ops/logic.hpp>
#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/engine.hpp>
#include <cupp/detail/reduce/plan.hpp>
#include <cupp/detail/reduce/reducers.hpp>
#include <cupp/detail/reduce/run.hpp>
#include <cupp/dtype.hpp>

namespace cupp {

namespace detail::impl {

// mean: the sum divided by the count, in float64 for integers.
template <bool Nan, class Dt, class E, class Args>
auto mean_impl(const E& e, const Args& a) {
  using T = typename E::value_type;
  using Res = chosen_t<Dt, Args, red::mean_result_t<T>>;
  using A = red::compute_t<std::conditional_t<is_inexact_v<Res>, Res, double>>;
  static_assert(!Args::has_initial, "cupp::mean takes no initial=");
  if constexpr (!Nan) check_where_broadcast_to(a, e.shape());
  if constexpr (Nan || Args::has_where)
    return run_reduction<Res>(red::counted_mean_op<A, Nan>{}, e, a, "add");
  else
    return run_reduction<Res>(red::mean_op<A>{}, e, a, "add");
}
template <class Dt, class E, class Args>
auto mean(const E& e, const Args& a) {
  return mean_impl<false, Dt>(e, a);
}
template <class Dt, class E, class Args>
auto nanmean(const E& e, const Args& a) {
  return mean_impl<true, Dt>(e, a);
}

// var and std: the mean (kept in the accumulator's precision, with the
// reduced axes kept), then the mean of the squared deviations from it.
template <bool Nan, bool Root, class Dt, class E, class Args>
auto variance(const E& e, const Args& a) {
  using T = typename E::value_type;
  static_assert(!Args::has_initial, "cupp::var takes no initial=");
  using M = red::compute_t<std::conditional_t<std::is_void_v<Dt>, red::mean_result_t<T>, Dt>>;
  using R = red::real_of_t<M>;
  using Res = chosen_t<std::conditional_t<std::is_void_v<Dt>, void, red::real_of_t<Dt>>, Args,
                       red::real_of_t<red::mean_result_t<T>>>;
  using S = eval_space_t<typename E::space>;
  const axis_mask m = reduced_axes(a.axis, static_cast<int>(e.shape().size()));
  if constexpr (!Nan) check_where_broadcast_to(a, e.shape());
  check_reduction_args(a, e.shape(), m, "add");
  // The mean, with the where= mask, keeping the reduced axes.
  ndarray<M, S> mu(reduced_shape(e.shape(), m, true));
  if constexpr (Nan || Args::has_where) {
    if constexpr (Args::has_where)
      reduce_into(red::masked_op<red::counted_mean_op<M, Nan>>{}, with_where(a, e), m, mu);
    else
      reduce_into(red::counted_mean_op<M, Nan>{}, e, m, mu);
  } else {
    reduce_into(red::mean_op<M>{}, e, m, mu);
  }
  auto out = result_array<Res, S>(a, e.shape(), m);
  if constexpr (Nan) {
    // Masked by the input's NaN (and where=), not by the deviation's.
    red::counted_mean_op<R, false> op;
    op.ddof = a.ddof;
    op.root = Root;
    // (For integers NumPy's nanvar is var, which divides by zero instead.)
    op.nan_without_dof = is_inexact_v<T>;
    const auto dev = make_ufunc(ops::squared_deviation<M>{}, e, mu);
    const auto taken = make_ufunc(ops::not_nan{}, e);
    // (The mean's pass has checked the where= mask's shape.)
    if constexpr (Args::has_where)
      reduce_into(
          red::masked_op<red::counted_mean_op<R, false>>{op},
          make_ufunc(ops::with_mask{}, dev, make_ufunc(ops::logical_and{}, taken, a.where())), m,
          out);
    else
      reduce_into(red::masked_op<red::counted_mean_op<R, false>>{op},
                  make_ufunc(ops::with_mask{}, dev, taken), m, out);
  } else if constexpr (Args::has_where) {
    red::counted_mean_op<R, false> op;
    op.ddof = a.ddof;
    op.root = Root;
    reduce_into(red::masked_op<red::counted_mean_op<R, false>>{op},
                with_where(a, make_ufunc(ops::squared_deviation<M>{}, e, mu)), m, out);
  } else {
    const auto dev = make_ufunc(ops::squared_deviation<M>{}, e, mu);
    red::mean_op<R> op;
    op.ddof = a.ddof;
    op.root = Root;
    reduce_into(op, dev, m, out);
  }
  return out;
}
template <class Dt, class E, class Args>
auto var(const E& e, const Args& a) {
  return variance<false, false, Dt>(e, a);
}
template <class Dt, class E, class Args>
auto std(const E& e, const Args& a) {
  return variance<false, true, Dt>(e, a);
}
template <class Dt, class E, class Args>
auto nanvar(const E& e, const Args& a) {
  return variance<true, false, Dt>(e, a);
}
template <class Dt, class E, class Args>
auto nanstd(const E& e, const Args& a) {
  return variance<true, true, Dt>(e, a);
}

}  // namespace detail::impl

}  // namespace cupp
