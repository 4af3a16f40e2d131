// The engines of numpy.sum, prod, nansum and nanprod: the reduction
// operator and result dtype of each, run by run_reduction
// (detail/reduce/run.hpp).
#pragma once

#include <cupp/detail/reduce/reducers.hpp>
#include <cupp/detail/reduce/run.hpp>

namespace cupp {

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

}  // namespace detail::impl

}  // namespace cupp
