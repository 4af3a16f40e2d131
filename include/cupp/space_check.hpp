// The one check every public function that takes several arrays makes
// first: its arrays, expressions, out= arrays, keyword arrays and lists of
// arrays all live on the host or all on the device. A mix would hand
// device memory to host code (or the reverse); NumPy has no such split and
// CuPy raises TypeError at run time, cupp refuses at compile time, with one
// message for every function:
//
//   CUPP_SAME_SPACE(A, B, ...);   // at the top of the function, on types
//
// Scalars, generators and other values that live nowhere in particular
// (any_space) go with either. Index arguments that are uploaded when they
// live on the host (take's indices, x(idx)) are named detail::index_arg<X>:
// a host index array then goes with device data, never a device one with
// host data.
// cupp-layer: vocabulary
#pragma once

#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/expression_fwd.hpp>
#include <cupp/out_arg.hpp>

namespace cupp {

namespace detail {

// An index argument (CUPP_SAME_SPACE(ndarray<T, S>, detail::index_arg<X>)):
// a host array of it is uploaded for device data.
template <class X>
struct index_arg {};

// Where an argument of type X lives: device_space, host_space or any_space.
// A space names itself (the space a function computes in, as a random
// Generator's); arrays say it in space_type, expressions and lazy views in
// space; a container or an optional (anything else with a value_type)
// lives where its elements do. Keyword wrappers specialise it
// (reduction_options.hpp).
template <class X>
struct arg_space {
  using type = any_space;
};
template <>
struct arg_space<device_space> {
  using type = device_space;
};
template <>
struct arg_space<host_space> {
  using type = host_space;
};
template <class T, class S>
struct arg_space<ndarray<T, S>> {
  using type = S;
};
template <class T, class S>
struct arg_space<out_arg<T, S>> {
  using type = S;
};
template <class X>
requires(!is_ndarray_v<X> && requires { typename X::space; }) struct arg_space<X> {
  using type = typename X::space;
};
template <class X>
requires(
    !is_ndarray_v<X> && !requires { typename X::space; } && requires { typename X::value_type; } &&
    !std::is_same_v<typename X::value_type, X>) struct arg_space<X> {
  using type = typename arg_space<std::remove_cv_t<typename X::value_type>>::type;
};
template <class X>
struct arg_space<index_arg<X>> {
  using S = typename arg_space<std::remove_cvref_t<X>>::type;
  using type = std::conditional_t<std::is_same_v<S, host_space>, any_space, S>;
};
template <class X>
using arg_space_t = typename arg_space<std::remove_cvref_t<X>>::type;

}  // namespace detail

// True unless some of X live on the host and others on the device.
template <class... X>
inline constexpr bool same_space_v =
    !((std::is_same_v<detail::arg_space_t<X>, host_space> || ...) &&
      (std::is_same_v<detail::arg_space_t<X>, device_space> || ...));

}  // namespace cupp

// The words, a macro so that internal checks (which static_assert on
// types of their own) can say the same.
#define CUPP_SAME_SPACE_MESSAGE                                         \
  "cupp: the arguments mix host and device arrays; move one side with " \
  "cupp::asarray (host to device) or cupp::asnumpy (device to host)"

// A macro so that the assertion sits in the body of each function: the
// diagnostic then names the function and the caller's line, once per call
// (a shared function template would report one combination of types once).
#define CUPP_SAME_SPACE(...) \
  static_assert(::cupp::same_space_v<__VA_ARGS__>, CUPP_SAME_SPACE_MESSAGE)
