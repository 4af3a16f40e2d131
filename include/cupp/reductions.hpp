// NumPy's reductions over arrays and lazy expressions: sum, prod, mean,
// average, var, std, min/amin, max/amax, argmin, argmax, ptp, all, any,
// count_nonzero, their NaN-ignoring forms, and allclose, array_equal,
// array_equiv. Each call runs one fused pass (var and std two, as NumPy's)
// and returns a device array for device operands (0-d for a full
// reduction) without synchronising; .item() or asnumpy() waits.
//
//   cupp::sum(x)                          all axes, 0-d result
//   cupp::sum(x * y, 1)                   one axis; x * y is never stored
//   cupp::max(x, {0, 2}, cupp::kw::keepdims = true)
//   cupp::sum<double>(x, -1, cupp::kw::where = x > 0, cupp::kw::initial = 1)
//   cupp::var(x, cupp::none, cupp::kw::ddof = 1)
//
// The first template argument is NumPy's dtype= (the accumulator and the
// result); out= is cupp::out(a).
#pragma once

#include <type_traits>
#include <utility>

#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/engine.hpp>
#include <cupp/expression.hpp>
#include <cupp/reduction_kernel.hpp>
#include <cupp/scans.hpp>
#include <cupp/ufunc/comparison.hpp>
#include <cupp/ufunc/logic.hpp>
#include <cupp/ufunc/misc.hpp>

namespace cupp {

namespace detail {

template <class Args>
struct out_value {
  using type = void;
};
template <class Args>
requires Args::has_out struct out_value<Args> {
  using type = typename decltype(std::declval<typename Args::out_type>().array)::value_type;
};

// The result dtype: dtype= if given, else the out= array's (NumPy uses
// out's dtype as the loop's), else the reduction's default.
template <class Dt, class Args, class Default>
using chosen_t =
    std::conditional_t<!std::is_void_v<Dt>, Dt,
                       std::conditional_t<Args::has_out, typename out_value<Args>::type, Default>>;

// The checks and set-up every reduction shares; `name` is the ufunc NumPy
// names in its errors, `identity` whether an empty reduction has a value.
template <class Res, class Red, class E, class Args>
auto run_reduction(const Red& red, const E& e, const Args& args, const char* name,
                   bool identity = true) {
  using S = eval_space_t<typename E::space>;
  static_assert(is_dtype_v<typename E::value_type>,
                "cupp: reduce an array or an expression, not a scalar");
  const axis_mask m = reduced_axes(args.axis, static_cast<int>(e.shape().size()));
  check_reduction_args(args, e.shape(), m, name);
  if (!identity && !Args::has_initial) {
    if (reduced_count(e.shape(), m) == 0)
      throw value_error(std::string("zero-size array to reduction operation ") + name +
                        " which has no identity");
    if constexpr (Args::has_where)
      throw value_error(std::string("reduction operation '") + name +
                        "' does not have an identity, so to use a where mask one has to specify "
                        "'initial'");
  }
  auto out = result_array<Res, S>(args, e.shape(), m);
  typename Red::acc_type init = red.identity();
  if constexpr (Args::has_initial) init = red.from_initial(args.initial());
  if constexpr (Args::has_where)
    reduce_into(red::masked_op<Red>{red}, with_where(args, e), m, out, Args::has_initial, init);
  else
    reduce_into(red, e, m, out, Args::has_initial, init);
  return out;
}

template <class Args>
void no_where(const char* fn) {
  static_assert(!Args::has_where && !Args::has_initial,
                "cupp: this reduction takes neither where= nor initial= (as in NumPy)");
  (void)fn;
}

// argmin and argmax take one axis or none.
inline void single_axis(const axis_arg& a, const char*) {
  if (!a.all() && a.size() != 1)
    throw type_error("'tuple' object cannot be interpreted as an integer");
}

}  // namespace detail

// Each reduction `f` is offered as f<Dt>(x, axis, options...) and
// f<Dt>(x, options...) (all axes); Dt = void keeps NumPy's default dtype.
#define CUPP_REDUCTION(NAME, IMPL)                                                           \
  template <class Dt = void, ::cupp::Expression E, class... Opt>                             \
  auto NAME(const E& x, ::cupp::axis_arg axis, const Opt&... o) {                            \
    return IMPL<Dt>(::cupp::as_operand(x), ::cupp::detail::reduce_args<Opt...>(axis, o...)); \
  }                                                                                          \
  template <class Dt = void, ::cupp::Expression E, class... Opt>                             \
  requires(::cupp::detail::is_reduce_option_v<Opt> && ...) auto NAME(const E& x,             \
                                                                     const Opt&... o) {      \
    return IMPL<Dt>(::cupp::as_operand(x),                                                   \
                    ::cupp::detail::reduce_args<Opt...>(::cupp::axis_arg{}, o...));          \
  }

namespace detail::impl {

template <class Dt, class E, class Args>
auto sum(const E& e, const Args& a) {
  using Res = chosen_t<Dt, Args, red::sum_result_t<typename E::value_type>>;
  return run_reduction<Res>(red::sum_op<red::compute_t<Res>>{}, e, a, "add");
}
template <class Dt, class E, class Args>
auto prod(const E& e, const Args& a) {
  using Res = chosen_t<Dt, Args, red::sum_result_t<typename E::value_type>>;
  return run_reduction<Res>(red::prod_op<red::compute_t<Res>>{}, e, a, "multiply");
}
template <class Dt, class E, class Args>
auto nansum(const E& e, const Args& a) {
  using Res = chosen_t<Dt, Args, red::sum_result_t<typename E::value_type>>;
  return run_reduction<Res>(red::nan_skip_op<red::sum_op<red::compute_t<Res>>>{}, e, a, "add");
}
template <class Dt, class E, class Args>
auto nanprod(const E& e, const Args& a) {
  using Res = chosen_t<Dt, Args, red::sum_result_t<typename E::value_type>>;
  return run_reduction<Res>(red::nan_skip_op<red::prod_op<red::compute_t<Res>>>{}, e, a,
                            "multiply");
}

template <bool Max, bool Nan, class Dt, class E, class Args>
auto extremum(const E& e, const Args& a) {
  static_assert(std::is_void_v<Dt>, "cupp: max and min take no dtype=");
  using T = typename E::value_type;
  using Red = std::conditional_t<Nan, red::nan_extremum_op<T, Max>, red::extremum_op<T, Max>>;
  const char* name = Nan ? (Max ? "fmax" : "fmin") : (Max ? "maximum" : "minimum");
  return run_reduction<chosen_t<void, Args, T>>(Red{}, e, a, name, false);
}
template <class Dt, class E, class Args>
auto max(const E& e, const Args& a) {
  return extremum<true, false, Dt>(e, a);
}
template <class Dt, class E, class Args>
auto min(const E& e, const Args& a) {
  return extremum<false, false, Dt>(e, a);
}
template <class Dt, class E, class Args>
auto nanmax(const E& e, const Args& a) {
  return extremum<true, true, Dt>(e, a);
}
template <class Dt, class E, class Args>
auto nanmin(const E& e, const Args& a) {
  return extremum<false, true, Dt>(e, a);
}

template <bool Max, bool Nan, class Dt, class E, class Args>
auto arg_extremum(const E& e, const Args& a) {
  static_assert(std::is_void_v<Dt>, "cupp: argmax and argmin take no dtype=");
  no_where<Args>("argmax");
  single_axis(a.axis, "argmax");
  using T = typename E::value_type;
  const axis_mask m = reduced_axes(a.axis, static_cast<int>(e.shape().size()));
  if (reduced_count(e.shape(), m) == 0)
    throw value_error(std::string("attempt to get ") + (Max ? "argmax" : "argmin") +
                      " of an empty sequence");
  if constexpr (Args::has_out) {
    if (!(a.out().shape() == reduced_shape(e.shape(), m, a.keepdims)))
      throw value_error(std::string("output array does not match result of np.") +
                        (Max ? "argmax" : "argmin") + ".");
  }
  return run_reduction<std::int64_t>(red::arg_op<T, Max, Nan>{}, e, a, "argmax");
}
template <class Dt, class E, class Args>
auto argmax(const E& e, const Args& a) {
  return arg_extremum<true, false, Dt>(e, a);
}
template <class Dt, class E, class Args>
auto argmin(const E& e, const Args& a) {
  return arg_extremum<false, false, Dt>(e, a);
}
template <class Dt, class E, class Args>
auto nanargmax(const E& e, const Args& a) {
  return arg_extremum<true, true, Dt>(e, a);
}
template <class Dt, class E, class Args>
auto nanargmin(const E& e, const Args& a) {
  return arg_extremum<false, true, Dt>(e, a);
}

template <class Dt, class E, class Args>
auto ptp(const E& e, const Args& a) {
  static_assert(std::is_void_v<Dt>, "cupp::ptp takes no dtype=");
  no_where<Args>("ptp");
  using T = typename E::value_type;
  static_assert(!std::is_same_v<T, bool>,
                "cupp::ptp: numpy boolean subtract, the '-' operator, is not supported");
  return run_reduction<T>(red::ptp_op<T>{}, e, a, "maximum", false);
}

template <class Dt, class E, class Args>
auto all(const E& e, const Args& a) {
  static_assert(std::is_void_v<Dt>, "cupp::all takes no dtype=");
  static_assert(!Args::has_initial, "cupp::all takes no initial=");
  return run_reduction<chosen_t<void, Args, bool>>(red::logical_op<true>{}, e, a, "logical_and");
}
template <class Dt, class E, class Args>
auto any(const E& e, const Args& a) {
  static_assert(std::is_void_v<Dt>, "cupp::any takes no dtype=");
  static_assert(!Args::has_initial, "cupp::any takes no initial=");
  return run_reduction<chosen_t<void, Args, bool>>(red::logical_op<false>{}, e, a, "logical_or");
}
template <class Dt, class E, class Args>
auto count_nonzero(const E& e, const Args& a) {
  static_assert(std::is_void_v<Dt>, "cupp::count_nonzero takes no dtype=");
  static_assert(!Args::has_out, "cupp::count_nonzero takes no out=");
  no_where<Args>("count_nonzero");
  return run_reduction<std::int64_t>(red::count_op{}, e, a, "add");
}

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

CUPP_REDUCTION(sum, detail::impl::sum)
CUPP_REDUCTION(prod, detail::impl::prod)
CUPP_REDUCTION(nansum, detail::impl::nansum)
CUPP_REDUCTION(nanprod, detail::impl::nanprod)
CUPP_REDUCTION(max, detail::impl::max)
CUPP_REDUCTION(amax, detail::impl::max)
CUPP_REDUCTION(min, detail::impl::min)
CUPP_REDUCTION(amin, detail::impl::min)
CUPP_REDUCTION(nanmax, detail::impl::nanmax)
CUPP_REDUCTION(nanmin, detail::impl::nanmin)
CUPP_REDUCTION(argmax, detail::impl::argmax)
CUPP_REDUCTION(argmin, detail::impl::argmin)
CUPP_REDUCTION(nanargmax, detail::impl::nanargmax)
CUPP_REDUCTION(nanargmin, detail::impl::nanargmin)
CUPP_REDUCTION(ptp, detail::impl::ptp)
CUPP_REDUCTION(all, detail::impl::all)
CUPP_REDUCTION(any, detail::impl::any)
CUPP_REDUCTION(count_nonzero, detail::impl::count_nonzero)
CUPP_REDUCTION(mean, detail::impl::mean)
CUPP_REDUCTION(nanmean, detail::impl::nanmean)
CUPP_REDUCTION(var, detail::impl::var)
CUPP_REDUCTION(std, detail::impl::std)
CUPP_REDUCTION(nanvar, detail::impl::nanvar)
CUPP_REDUCTION(nanstd, detail::impl::nanstd)

#undef CUPP_REDUCTION

// numpy.average(a, axis, weights=, returned=): the weighted mean; weights
// of a's shape, or 1-d along the one axis given. Weights that sum to zero
// raise zero_division_error, which reads the sums back (a synchronisation);
// without weights it is mean().
template <Expression E, class... Opt>
auto average(const E& x, axis_arg axis, const Opt&... o) {
  const detail::reduce_args<Opt...> a(axis, o...);
  const auto e = as_operand(x);
  using T = typename std::remove_cvref_t<decltype(e)>::value_type;
  static_assert(!decltype(a)::has_where && !decltype(a)::has_initial && !decltype(a)::has_out,
                "cupp::average takes axis, kw::weights, kw::returned and kw::keepdims");
  if constexpr (!decltype(a)::has_weights) {
    auto avg = detail::impl::mean<void>(e, a);
    if constexpr (decltype(a)::returned) {
      using R = typename decltype(avg)::value_type;
      const detail::axis_mask m = detail::reduced_axes(a.axis, static_cast<int>(e.shape().size()));
      const R count = detail::convert<R>(static_cast<double>(detail::reduced_count(e.shape(), m)));
      decltype(avg) scl(avg.shape());
      copyto(scl, scalar_leaf<R>{count});
      return std::pair(avg, scl);
    } else {
      return avg;
    }
  } else {
    const auto w = as_operand(a.weights());
    using W = typename std::remove_cvref_t<decltype(w)>::value_type;
    using P = promote_t<T, W>;
    using R = std::conditional_t<is_inexact_v<P>, P, double>;
    using S = detail::eval_space_t<typename std::remove_cvref_t<decltype(e)>::space>;
    auto run = [&](const auto& wb) {
      const detail::reduce_args<kw::keepdims_arg> plain(a.axis, kw::keepdims = a.keepdims);
      auto num = detail::impl::sum<R>(astype<R>(e) * astype<R>(wb), plain);
      // The weights' sum over the same axes, broadcast to a's shape.
      auto den = detail::impl::sum<R>(astype<R>(wb), plain);
      if (any(den == 0).item())
        throw zero_division_error("Weights sum to zero, can't be normalized");
      ndarray<R, S> avg = num / den;
      if constexpr (decltype(a)::returned)
        return std::pair(avg, den);
      else
        return avg;
    };
    if (w.shape() == e.shape()) return run(w);
    if (a.axis.all())
      throw type_error("Axis must be specified when shapes of a and weights differ.");
    if (w.shape().size() != 1)
      throw type_error("1D weights expected when shapes of a and weights differ.");
    if (a.axis.size() != 1) throw type_error("'tuple' object cannot be interpreted as an integer");
    const int ax =
        static_cast<int>(detail::normalize_axis(a.axis[0], static_cast<int>(e.shape().size())));
    if (w.shape()[0] != e.shape()[ax])
      throw value_error(
          "Shape of weights must be consistent with shape of a along specified axis.");
    // The weights broadcast to a's shape along the axis.
    const auto wa = ndarray<W, S>(a.weights());
    strides_t wst = strides_t::filled(static_cast<int>(e.shape().size()), 0);
    wst[ax] = wa.strides()[0];
    return run(ndarray<W, S>(wa.data(), e.shape(), wst, wa.memory(), wa.device_id(), false));
  }
}
template <Expression E, class... Opt>
requires(detail::is_reduce_option_v<Opt>&&...) auto average(const E& x, const Opt&... o) {
  return average(x, axis_arg{}, o...);
}

// numpy.allclose(a, b, rtol, atol, equal_nan): waits for the answer.
template <Operand A, Operand B>
bool allclose(const A& a, const B& b, double rtol = 1e-05, double atol = 1e-08,
              bool equal_nan = false) {
  return all(isclose(a, b, rtol, atol, equal_nan)).item();
}

// numpy.array_equal(a, b, equal_nan): same shape and equal elements.
template <Expression A, Expression B>
bool array_equal(const A& a, const B& b, bool equal_nan = false) {
  const auto x = as_operand(a);
  const auto y = as_operand(b);
  if (!(x.shape() == y.shape())) return false;
  if (equal_nan) return all((x == y) | (isnan(x) & isnan(y))).item();
  return all(x == y).item();
}

// numpy.array_equiv(a, b): shapes that broadcast together and equal
// elements.
template <Expression A, Expression B>
bool array_equiv(const A& a, const B& b) {
  const auto x = as_operand(a);
  const auto y = as_operand(b);
  bool ok;
  detail::broadcast_shape_pair(x.shape(), y.shape(), ok);
  if (!ok) return false;
  return all(x == y).item();
}

// --- methods ------------------------------------------------------------------

#define CUPP_REDUCTION_METHOD_DEF(NAME)                                                           \
  template <class T, class S>                                                                     \
  template <class Dt, class... Opt>                                                               \
  requires(detail::is_reduce_option_v<Opt> && ...) auto ndarray<T, S>::NAME(const Opt&... o)      \
      const {                                                                                     \
    return ::cupp::NAME<Dt>(*this, o...);                                                         \
  }                                                                                               \
  template <class T, class S>                                                                     \
  template <class Dt, class... Opt>                                                               \
  auto ndarray<T, S>::NAME(axis_arg axis, const Opt&... o) const {                                \
    return ::cupp::NAME<Dt>(*this, axis, o...);                                                   \
  }                                                                                               \
  template <class D>                                                                              \
  template <class Dt, class... Opt>                                                               \
  requires(detail::is_reduce_option_v<Opt> && ...) auto expression_base<D>::NAME(const Opt&... o) \
      const {                                                                                     \
    return ::cupp::NAME<Dt>(self(), o...);                                                        \
  }                                                                                               \
  template <class D>                                                                              \
  template <class Dt, class... Opt>                                                               \
  auto expression_base<D>::NAME(axis_arg axis, const Opt&... o) const {                           \
    return ::cupp::NAME<Dt>(self(), axis, o...);                                                  \
  }
CUPP_REDUCTION_METHOD_DEF(sum)
CUPP_REDUCTION_METHOD_DEF(prod)
CUPP_REDUCTION_METHOD_DEF(mean)
CUPP_REDUCTION_METHOD_DEF(var)
CUPP_REDUCTION_METHOD_DEF(std)
CUPP_REDUCTION_METHOD_DEF(min)
CUPP_REDUCTION_METHOD_DEF(max)
CUPP_REDUCTION_METHOD_DEF(argmin)
CUPP_REDUCTION_METHOD_DEF(argmax)
CUPP_REDUCTION_METHOD_DEF(all)
CUPP_REDUCTION_METHOD_DEF(any)
#undef CUPP_REDUCTION_METHOD_DEF

#define CUPP_SCAN_METHOD_DEF(NAME)                     \
  template <class T, class S>                          \
  template <class Dt>                                  \
  auto ndarray<T, S>::NAME(axis_arg axis) const {      \
    return ::cupp::NAME<Dt>(*this, axis);              \
  }                                                    \
  template <class D>                                   \
  template <class Dt>                                  \
  auto expression_base<D>::NAME(axis_arg axis) const { \
    return ::cupp::NAME<Dt>(self(), axis);             \
  }
CUPP_SCAN_METHOD_DEF(cumsum)
CUPP_SCAN_METHOD_DEF(cumprod)
#undef CUPP_SCAN_METHOD_DEF

}  // namespace cupp
