// The engines of numpy.all, any and count_nonzero: the reduction operator
// and checks of each, run by run_reduction (detail/reduce/run.hpp).
#pragma once

#include <cstdint>
#include <type_traits>

#include <cupp/detail/reduce/reducers.hpp>
#include <cupp/detail/reduce/run.hpp>

namespace cupp {

namespace detail::impl {

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

}  // namespace detail::impl

}  // namespace cupp
