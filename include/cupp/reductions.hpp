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
// result); out= is cupp::out(a). The engines live in detail/reduce/ (sums,
// extrema, logical, moments, average; run.hpp holds the checks they
// share); here are the functions a user calls.
#pragma once

#include <type_traits>
#include <utility>

#include <cupp/space_check.hpp>
#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/average.hpp>
#include <cupp/detail/reduce/engine.hpp>
#include <cupp/detail/reduce/extrema.hpp>
#include <cupp/detail/reduce/logical.hpp>
#include <cupp/detail/reduce/moments.hpp>
#include <cupp/detail/reduce/sums.hpp>
#include <cupp/expression.hpp>
#include <cupp/reduction.hpp>
#include <cupp/scans.hpp>
#include <cupp/ufunc/comparison.hpp>
#include <cupp/ufunc/logic.hpp>
#include <cupp/ufunc/misc.hpp>

namespace cupp {

// Each reduction `f` is offered as f<Dt>(x, axis, options...) and
// f<Dt>(x, options...) (all axes); Dt = void keeps NumPy's default dtype.
#define CUPP_REDUCTION(NAME, IMPL)                                                           \
  template <class Dt = void, ::cupp::Expression E, class... Opt>                             \
  auto NAME(const E& x, ::cupp::axis_arg axis, const Opt&... o) {                            \
    CUPP_SAME_SPACE(E, Opt...);                                                              \
    return IMPL<Dt>(::cupp::as_operand(x), ::cupp::detail::reduce_args<Opt...>(axis, o...)); \
  }                                                                                          \
  template <class Dt = void, ::cupp::Expression E, class... Opt>                             \
  requires(::cupp::detail::is_reduce_option_v<Opt> && ...) auto NAME(const E& x,             \
                                                                     const Opt&... o) {      \
    CUPP_SAME_SPACE(E, Opt...);                                                              \
    return IMPL<Dt>(::cupp::as_operand(x),                                                   \
                    ::cupp::detail::reduce_args<Opt...>(::cupp::axis_arg{}, o...));          \
  }

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
  CUPP_SAME_SPACE(E, Opt...);
  const detail::reduce_args<Opt...> a(axis, o...);
  static_assert(!decltype(a)::has_where && !decltype(a)::has_initial && !decltype(a)::has_out,
                "cupp::average takes axis, kw::weights, kw::returned and kw::keepdims");
  return detail::impl::average(as_operand(x), a);
}
template <Expression E, class... Opt>
requires(detail::is_reduce_option_v<Opt>&&...) auto average(const E& x, const Opt&... o) {
  return average(x, axis_arg{}, o...);
}

// numpy.allclose(a, b, rtol, atol, equal_nan): waits for the answer.
template <Operand A, Operand B>
bool allclose(const A& a, const B& b, double rtol = 1e-05, double atol = 1e-08,
              bool equal_nan = false) {
  CUPP_SAME_SPACE(A, B);
  return all(isclose(a, b, rtol, atol, equal_nan)).item();
}

// numpy.array_equal(a, b, equal_nan): same shape and equal elements.
template <Expression A, Expression B>
bool array_equal(const A& a, const B& b, bool equal_nan = false) {
  CUPP_SAME_SPACE(A, B);
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
  CUPP_SAME_SPACE(A, B);
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
