// logical_and, logical_or, logical_xor, logical_not.
//
// NumPy's logical ufuncs take any dtypes and cast each operand to bool on
// its own, with no common dtype: `logical_and(float16, 1e-10)` is True even
// though 1e-10 rounds to 0 in float16, and bfloat16 goes with int16. A
// Python int must still fit a C long (int64).
#pragma once

#include <type_traits>

#include <cupp/detail/ops/common.hpp>

namespace cupp::ops {

namespace logic_impl {

// The type an operand enters the loop as: dtypes as they are, weak scalars
// as their Python default (int64 checks that an int fits a C long).
template <class T>
struct input {
  using type = T;
};
template <class T>
requires is_weak_v<T>
struct input<T> {
  using type = detail::weak_default_t<detail::weak_rank<T>()>;
};

template <class... Ts>
using loop_for = loop<bool, typename input<Ts>::type...>;

// NumPy's truth of a value: nonzero, NaN included; a complex number with
// either part nonzero.
template <class T>
CUPP_HD bool truth(T v) {
  return detail::convert<bool>(v);
}

}  // namespace logic_impl

struct logical_and {
  static constexpr const char* name = "logical_and";
  template <class... Ts>
  struct signature : logic_impl::loop_for<Ts...> {};
  template <class A, class B>
  CUPP_HD bool operator()(A a, B b) const {
    return logic_impl::truth(a) && logic_impl::truth(b);
  }
};

struct logical_or {
  static constexpr const char* name = "logical_or";
  template <class... Ts>
  struct signature : logic_impl::loop_for<Ts...> {};
  template <class A, class B>
  CUPP_HD bool operator()(A a, B b) const {
    return logic_impl::truth(a) || logic_impl::truth(b);
  }
};

struct logical_xor {
  static constexpr const char* name = "logical_xor";
  template <class... Ts>
  struct signature : logic_impl::loop_for<Ts...> {};
  template <class A, class B>
  CUPP_HD bool operator()(A a, B b) const {
    return logic_impl::truth(a) != logic_impl::truth(b);
  }
};

struct logical_not {
  static constexpr const char* name = "logical_not";
  template <class... Ts>
  struct signature : logic_impl::loop_for<Ts...> {};
  template <class A>
  CUPP_HD bool operator()(A a) const {
    return !logic_impl::truth(a);
  }
};

}  // namespace cupp::ops
