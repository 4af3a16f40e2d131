// The machinery of cupp::fuse (<cupp/elementwise.hpp>): what the user's
// function returned, evaluated as cupy.fuse does (an array or an expression
// into a new array; two results of one shape by one kernel, as a pair).
#pragma once

#include <tuple>
#include <type_traits>
#include <utility>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/numerics/pair_value.hpp>
#include <cupp/dtype.hpp>

namespace cupp {

namespace detail {

template <class>
inline constexpr bool fuse_false = false;

template <class R>
auto fuse_eval(const R& r) {
  if constexpr (is_ndarray_v<R>) {
    return evaluate(as_operand(r));  // a new array, as cupy.fuse returns
  } else if constexpr (expression_node<R>) {
    static_assert(!is_weak_v<typename R::value_type>,
                  "cupp::fuse: the function returned a scalar operand; return an expression over "
                  "the arrays");
    return evaluate(r);
  } else {
    static_assert(fuse_false<R>,
                  "cupp::fuse: the function must return an array, an expression or a std::tuple "
                  "of them (a C++ number means no operand was an array)");
  }
}

// Two values written by one kernel (evaluate_pair).
struct fuse_pair {
  static constexpr const char* name = "fuse";
  template <class A, class B>
  struct signature : loop<pair_value<A, B>, A, B> {};
  template <class A, class B>
  CUPP_HD pair_value<A, B> operator()(A a, B b) const {
    return {a, b};
  }
};

template <class R>
inline constexpr bool fusable_output_v = [] {
  if constexpr (is_ndarray_v<R> || expression_node<R>)
    return is_dtype_v<typename operand_t<R>::value_type>;
  else
    return false;
}();

template <class... R>
auto fuse_eval(const std::tuple<R...>& t) {
  using result = std::tuple<decltype(fuse_eval(std::declval<const R&>()))...>;
  if constexpr (sizeof...(R) == 2) {
    using A = std::tuple_element_t<0, std::tuple<R...>>;
    using B = std::tuple_element_t<1, std::tuple<R...>>;
    if constexpr (fusable_output_v<A> && fusable_output_v<B> &&
                  std::is_same_v<typename operand_t<A>::space, typename operand_t<B>::space>) {
      const auto a = as_operand(std::get<0>(t));
      const auto b = as_operand(std::get<1>(t));
      if (a.shape() == b.shape()) {
        auto p = evaluate_pair(make_ufunc(fuse_pair{}, a, b));
        return result(std::move(p.first), std::move(p.second));
      }
    }
  }
  return std::apply([](const auto&... r) { return result(fuse_eval(r)...); }, t);
}

}  // namespace detail

}  // namespace cupp
