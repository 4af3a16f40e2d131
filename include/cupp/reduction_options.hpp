// The arguments reductions take besides their operand: which axes to reduce
// (NumPy's axis=None, an int or a tuple, negative ones counting from the
// end) and NumPy's keyword arguments, written as `kw::keepdims = true`,
// `kw::where = mask`, `kw::initial = 0`, `kw::ddof = 1`, `cupp::out(a)`.
// cupp-layer: vocabulary
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>

#include <cupp/axis.hpp>
#include <cupp/config.hpp>
#include <cupp/errors.hpp>
#include <cupp/out_arg.hpp>
#include <cupp/space_check.hpp>

// The reduction and scan methods ndarray and expressions declare, with the
// free functions' arguments (x.sum(1) is cupp::sum(x, 1)).
#define CUPP_REDUCTION_METHOD_DECL(NAME)                                             \
  template <class Dt = void, class... Opt>                                           \
  requires(detail::is_reduce_option_v<Opt> && ...) auto NAME(const Opt&... o) const; \
  template <class Dt = void, class... Opt>                                           \
  auto NAME(axis_arg axis, const Opt&... o) const;
#define CUPP_REDUCTION_METHODS           \
  CUPP_REDUCTION_METHOD_DECL(sum)        \
  CUPP_REDUCTION_METHOD_DECL(prod)       \
  CUPP_REDUCTION_METHOD_DECL(mean)       \
  CUPP_REDUCTION_METHOD_DECL(var)        \
  CUPP_REDUCTION_METHOD_DECL(std)        \
  CUPP_REDUCTION_METHOD_DECL(min)        \
  CUPP_REDUCTION_METHOD_DECL(max)        \
  CUPP_REDUCTION_METHOD_DECL(argmin)     \
  CUPP_REDUCTION_METHOD_DECL(argmax)     \
  CUPP_REDUCTION_METHOD_DECL(all)        \
  CUPP_REDUCTION_METHOD_DECL(any)        \
  template <class Dt = void>             \
  auto cumsum(axis_arg axis = {}) const; \
  template <class Dt = void>             \
  auto cumprod(axis_arg axis = {}) const;

namespace cupp {

namespace kw {

template <class T>
struct where_arg {
  T mask;
};
template <class T>
struct initial_arg {
  T value;
};
struct keepdims_arg {
  bool value;
};
struct ddof_arg {
  double value;
};
struct axis_kw_arg {
  axis_arg value;
};
template <class T>
struct weights_arg {
  T value;
};
struct returned_t {};

// kw::keepdims = true keeps reduced axes with extent one.
inline constexpr struct keepdims_kw {
  constexpr keepdims_arg operator=(bool v) const { return {v}; }
} keepdims{};
// kw::where = mask: only elements where mask (broadcast) is true take part.
inline constexpr struct where_kw {
  template <class T>
  constexpr where_arg<T> operator=(const T& m) const {
    return {m};
  }
} where{};
// kw::initial = v: the starting value of the reduction.
inline constexpr struct initial_kw {
  template <class T>
  constexpr initial_arg<T> operator=(const T& v) const {
    return {v};
  }
} initial{};
// kw::ddof = d: var and std divide by n - ddof.
inline constexpr struct ddof_kw {
  constexpr ddof_arg operator=(double v) const { return {v}; }
} ddof{};
// kw::axis = a: the axes, where a positional int would be read as an operand
// (cupp::reduction's variadic calls).
inline constexpr struct axis_kw {
  constexpr axis_kw_arg operator=(axis_arg a) const { return {a}; }
  constexpr axis_kw_arg operator=(std::initializer_list<int> a) const { return {axis_arg(a)}; }
} axis{};
// kw::weights = w: numpy.average's weights.
inline constexpr struct weights_kw {
  template <class T>
  constexpr weights_arg<T> operator=(const T& w) const {
    return {w};
  }
} weights{};
// kw::returned: numpy.average(returned=True), which also gives the sum of
// the weights.
inline constexpr returned_t returned{};

}  // namespace kw

namespace detail {

// The option types a reduction accepts after its axis.
template <class T>
inline constexpr bool is_reduce_option_v = false;
template <class T>
inline constexpr bool is_reduce_option_v<kw::where_arg<T>> = true;
template <class T>
inline constexpr bool is_reduce_option_v<kw::initial_arg<T>> = true;
template <class T>
inline constexpr bool is_reduce_option_v<kw::weights_arg<T>> = true;
template <class T, class S>
inline constexpr bool is_reduce_option_v<out_arg<T, S>> = true;
template <>
inline constexpr bool is_reduce_option_v<kw::keepdims_arg> = true;
template <>
inline constexpr bool is_reduce_option_v<kw::ddof_arg> = true;
template <>
inline constexpr bool is_reduce_option_v<kw::axis_kw_arg> = true;
template <>
inline constexpr bool is_reduce_option_v<kw::returned_t> = true;

// kw::where = mask and kw::weights = w live where their array does
// (CUPP_SAME_SPACE).
template <class T>
struct arg_space<kw::where_arg<T>> : arg_space<std::remove_cvref_t<T>> {};
template <class T>
struct arg_space<kw::weights_arg<T>> : arg_space<std::remove_cvref_t<T>> {};
template <class T>
struct arg_space<kw::initial_arg<T>> : arg_space<std::remove_cvref_t<T>> {};

}  // namespace detail

}  // namespace cupp
