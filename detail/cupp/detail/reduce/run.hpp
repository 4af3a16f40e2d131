// What every NumPy reduction shares before the engine runs: the result
// dtype (dtype=, else out='s, else the reduction's default), the checks of
// axis=, out=, where= and initial=, the result array, and the call of
// reduce_into (detail/reduce/engine.hpp) with the where= mask applied.
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/engine.hpp>
#include <cupp/detail/reduce/reducers.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>

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

}  // namespace cupp
