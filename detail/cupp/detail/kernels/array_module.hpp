// The modules of cupp::get_array_module (<cupp/module.hpp>): the array
// creation both modules share, declared here with Space picking the memory
// (the bodies, each one call of cupp's creation functions, are in
// <cupp/module.hpp>), and the space an argument lives in.
#pragma once

#include <initializer_list>
#include <ranges>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/generators/numbers.hpp>
#include <cupp/dtype.hpp>
#include <cupp/shape.hpp>

namespace cupp {

namespace detail {

// cupp::host_range (<cupp/creation.hpp>, which internals cannot include):
// a contiguous sized range of a dtype, as asarray copies.
template <class R>
concept module_host_range = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
    is_dtype_v<std::remove_cv_t<std::ranges::range_value_t<R>>>;

// Array creation shared by both modules; Space picks the memory.
template <class Space>
struct module_base {
  using space = Space;
  static constexpr bool is_device = std::is_same_v<Space, device_space>;
  template <class T>
  using ndarray = cupp::ndarray<T, Space>;

  template <Dtype T>
  ndarray<T> empty(const shape_t& shape, order o = order::C) const;
  // zeros, ones and full: cupp's lazy generators, evaluated here.
  template <Dtype T = double>
  ndarray<T> zeros(const shape_t& shape, order o = order::C) const;
  template <Dtype T = double>
  ndarray<T> ones(const shape_t& shape, order o = order::C) const;
  // numpy.full: the dtype of `value` unless T is given.
  template <class T = dtype_from_args, Scalar V>
  auto full(const shape_t& shape, const V& value, order o = order::C) const;
  template <Dtype T, class S>
  ndarray<T> empty_like(const cupp::ndarray<T, S>& x) const;
  template <Dtype T, class S>
  ndarray<T> zeros_like(const cupp::ndarray<T, S>& x) const;

  template <Dtype T>
  ndarray<T> array(std::initializer_list<T> l) const;
  template <Dtype T>
  ndarray<T> array(std::initializer_list<std::initializer_list<T>> l) const;

  // An array in this module's memory: arrays from the other side are
  // copied, arrays already here are returned as they are, host ranges are
  // copied in and expressions are evaluated.
  template <class T, class S>
  ndarray<T> asarray(const cupp::ndarray<T, S>& x) const;
  template <class E>
  requires(detail::expression_node<E> && !is_ndarray_v<E>) auto asarray(const E& e) const;
  template <detail::module_host_range R>
  auto asarray(const R& data) const;
  template <detail::module_host_range R>
  auto asarray(const R& data, const shape_t& shape) const;
};

template <class X>
struct space_of {
  using type = any_space;
};
template <class T, class S>
struct space_of<ndarray<T, S>> {
  using type = S;
};
template <class X>
requires(expression_node<X>) struct space_of<X> {
  using type = typename X::space;
};

}  // namespace detail

}  // namespace cupp
