// The out=(first, second) form of the two-output ufuncs of
// <cupp/ufunc/arithmetic.hpp> (divmod, frexp, modf): both arrays written by
// one kernel.
#pragma once

#include <type_traits>
#include <utility>

#include <cupp/array_fwd.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/expression/ufunc_define.hpp>

namespace cupp {

namespace detail {

template <class S, class E>
void check_pair_space() {
  static_assert(
      std::is_same_v<typename E::space, any_space> || std::is_same_v<typename E::space, S>,
      "cupp: an expression mixes host and device arrays; move one side with "
      "cupp::asarray (host to device) or cupp::asnumpy (device to host)");
}

// The out=(first, second) form of a two-output ufunc: writes both arrays in
// one kernel (casting 'same_kind') and returns them.
template <class T1, class T2, class S, class E>
std::pair<ndarray<T1, S>, ndarray<T2, S>> write_pair(const out_arg<T1, S>& o1,
                                                     const out_arg<T2, S>& o2, const E& e) {
  check_pair_space<S, E>();
  assign_pair(o1.array, o2.array, e);
  return {o1.array, o2.array};
}

}  // namespace detail

}  // namespace cupp
