// cupy.get_array_module for C++: code written once for host and device
// arrays asks its arguments where to create new arrays.
//
//   template <class A>
//   auto centered(const A& x) {
//     auto xp = cupp::get_array_module(x);        // device_module or host_module
//     auto out = xp.template zeros<float>(x.shape());
//     cupp::copyto(out, x - 1);
//     return out;
//   }
//
// The modules are empty tag types; which one you get is decided at compile
// time from the argument types. Functions that compute (cupp::exp, +, ...)
// need no module: they already follow their operands.
#pragma once

#include <type_traits>

#include <cupp/creation.hpp>
#include <cupp/detail/kernels/array_module.hpp>
#include <cupp/expression.hpp>
#include <cupp/generators.hpp>

namespace cupp {

// The array creation of both modules (detail::module_base, declared in
// detail/kernels/array_module.hpp); Space picks the memory.
template <class Space>
template <Dtype T>
auto detail::module_base<Space>::empty(const shape_t& shape, order o) const -> ndarray<T> {
  if constexpr (is_device)
    return cupp::empty<T>(shape, o);
  else
    return cupp::host::empty<T>(shape, o);
}
// zeros, ones and full: cupp's lazy generators, evaluated here.
template <class Space>
template <Dtype T>
auto detail::module_base<Space>::zeros(const shape_t& shape, order o) const -> ndarray<T> {
  return ndarray<T>(cupp::zeros<T>(shape, o));
}
template <class Space>
template <Dtype T>
auto detail::module_base<Space>::ones(const shape_t& shape, order o) const -> ndarray<T> {
  return ndarray<T>(cupp::ones<T>(shape, o));
}
// numpy.full: the dtype of `value` unless T is given.
template <class Space>
template <class T, Scalar V>
auto detail::module_base<Space>::full(const shape_t& shape, const V& value, order o) const {
  const auto g = cupp::full<T>(shape, value, o);
  return ndarray<typename decltype(g)::value_type>(g);
}
template <class Space>
template <Dtype T, class S>
auto detail::module_base<Space>::empty_like(const cupp::ndarray<T, S>& x) const -> ndarray<T> {
  return empty<T>(x.shape(), keep_order(x));
}
template <class Space>
template <Dtype T, class S>
auto detail::module_base<Space>::zeros_like(const cupp::ndarray<T, S>& x) const -> ndarray<T> {
  return zeros<T>(x.shape(), keep_order(x));
}

template <class Space>
template <Dtype T>
auto detail::module_base<Space>::array(std::initializer_list<T> l) const -> ndarray<T> {
  if constexpr (is_device)
    return cupp::array<T>(l);
  else
    return cupp::host::array<T>(l);
}
template <class Space>
template <Dtype T>
auto detail::module_base<Space>::array(std::initializer_list<std::initializer_list<T>> l) const
    -> ndarray<T> {
  if constexpr (is_device)
    return cupp::array<T>(l);
  else
    return cupp::host::array<T>(l);
}

// An array in this module's memory: arrays from the other side are
// copied, arrays already here are returned as they are, host ranges are
// copied in and expressions are evaluated.
template <class Space>
template <class T, class S>
auto detail::module_base<Space>::asarray(const cupp::ndarray<T, S>& x) const -> ndarray<T> {
  if constexpr (is_device)
    return cupp::asarray(x);
  else
    return cupp::asnumpy(x);
}
template <class Space>
template <class E>
requires(detail::expression_node<E> &&
         !is_ndarray_v<E>) auto detail::module_base<Space>::asarray(const E& e) const {
  return ndarray<typename E::value_type>(e);
}
template <class Space>
template <detail::module_host_range R>
auto detail::module_base<Space>::asarray(const R& data) const {
  if constexpr (is_device)
    return cupp::asarray(data);
  else
    return cupp::host::asarray(data);
}
template <class Space>
template <detail::module_host_range R>
auto detail::module_base<Space>::asarray(const R& data, const shape_t& shape) const {
  if constexpr (is_device)
    return cupp::asarray(data, shape);
  else
    return cupp::host::asarray(data, shape);
}

// The module of device arrays: cupp::empty, cupp::zeros ... (cupy).
struct device_module : detail::module_base<device_space> {};
// The module of host arrays: cupp::host::empty ... (numpy).
struct host_module : detail::module_base<host_space> {};

// cupy.get_array_module(*args): device_module when any argument is a device
// array or a device expression, host_module otherwise (host arrays, numbers).
template <class... X>
constexpr auto get_array_module(const X&...) {
  if constexpr ((std::is_same_v<typename detail::space_of<std::remove_cvref_t<X>>::type,
                                device_space> ||
                 ...))
    return device_module{};
  else
    return host_module{};
}

}  // namespace cupp
