// The engines of numpy.max/amax, min/amin, nanmax, nanmin, argmax, argmin,
// nanargmax, nanargmin and ptp: the reduction operator and checks of each,
// run by run_reduction (detail/reduce/run.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/plan.hpp>
#include <cupp/detail/reduce/reducers.hpp>
#include <cupp/detail/reduce/run.hpp>
#include <cupp/errors.hpp>

namespace cupp {

namespace detail::impl {

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

}  // namespace detail::impl

}  // namespace cupp
