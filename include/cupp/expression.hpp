// Lazy element-wise expressions: `x * y + w` builds a tree of ufunc nodes
// over array, scalar and generator leaves, held by value; assigning it to an
// array (or calling eval()) runs one kernel that reads each input once and
// writes the output once. The machinery lives in detail/expression/
// (operands.hpp says what every operand type offers); here are the
// functions a user calls.
#pragma once

#include <type_traits>

// The array first: the machinery below calls its members.
#include <cupp/ndarray.hpp>

#include <cupp/space_check.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/ufunc/logical_traps.hpp>

namespace cupp {

// A strong scalar operand: cupp::scalar<float>(2) behaves as numpy.float32(2).
template <class T>
requires is_dtype_v<T> scalar_leaf<T> scalar(const T& v) {
  return {v};
}

// A lazy cast of any expression (ndarray.astype(U, copy=False) that fuses).
template <class U, Operand E>
auto astype(const E& e) {
  return make_ufunc(ops::cast<U>{}, e);
}

// `a && b`, `a || b` and `!a` on arrays and expressions do not compile, with
// a message that names the element-wise forms: C++ cannot apply && element
// by element and keep its short-circuit, and Python's `and`, `or` and `not`
// raise for arrays of more than one element. (The static_assert sits in
// the result type, so that it is reported at the use, first.)

template <class A, class B>
requires(Expression<A> || Expression<B>) typename detail::no_logical_and<A, B>::type operator&&(
    const A&, const B&) {
  return false;
}
template <class A, class B>
requires(Expression<A> || Expression<B>) typename detail::no_logical_or<A, B>::type operator||(
    const A&, const B&) {
  return false;
}
template <Expression A>
typename detail::no_logical_not<A>::type operator!(const A&) {
  return false;
}

// numpy.copyto(dst, src, casting='same_kind'): writes an expression, an
// array or a scalar into dst in one kernel.
template <class T, class S, Operand E>
void copyto(const ndarray<T, S>& dst, const E& src) {
  CUPP_SAME_SPACE(ndarray<T, S>, E);
  const auto e = as_operand(src);
  using V = typename std::remove_cvref_t<decltype(e)>::value_type;
  static_assert(detail::assignable<V, T>(),
                "cupp::copyto: Cannot cast the source's dtype to the destination's with casting "
                "rule 'same_kind'; convert it with .astype<T>()");
  if (!dst.flags().writeable) throw value_error("assignment destination is read-only");
  if (!detail::broadcasts_to(e.shape(), dst.shape()))
    throw value_error("could not broadcast input array from shape " + detail::np_shape(e.shape()) +
                      " into shape " + detail::np_shape(dst.shape()));
  if constexpr (is_weak_v<V>) {
    e.template check_fits<T>();
    detail::assign(dst, make_ufunc(ops::cast<T>{}, scalar_leaf<T>{e.template as<T>()}));
  } else
    detail::assign(dst, e);
}

}  // namespace cupp
