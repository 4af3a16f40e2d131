// Type resolution of ufunc loops at compile time: NumPy 2's promotion with
// C++ scalars as the weak Python scalars of NEP 50, the resolved loop, and
// NumPy's 'same_kind' casting rule that out= and in-place operators follow.
// A vocabulary header: the operations (detail/ops/), the expression
// machinery and the reductions name these types.
// cupp-layer: vocabulary
#pragma once

#include <tuple>
#include <type_traits>

#include <cupp/dtype.hpp>

namespace cupp {

// The kinds of weak scalars, as they appear in the signature a ufunc sees:
// C++ bool, integers, floating-point numbers and complex numbers (Python's
// bool, int, float and complex).
struct weak_bool {};
struct weak_int {};
struct weak_float {};
struct weak_complex {};

template <class T>
inline constexpr bool is_weak_v = std::is_same_v<T, weak_bool> || std::is_same_v<T, weak_int> ||
                                  std::is_same_v<T, weak_float> || std::is_same_v<T, weak_complex>;

namespace detail {

template <class T>
constexpr int weak_rank() {
  if constexpr (std::is_same_v<T, weak_bool>)
    return 0;
  else if constexpr (std::is_same_v<T, weak_int>)
    return 1;
  else if constexpr (std::is_same_v<T, weak_float>)
    return 2;
  else
    return 3;
}

// The dtype a weak scalar of rank `r` has on its own (Python's defaults).
template <int R>
using weak_default_t = std::conditional_t<
    R == 0, bool,
    std::conditional_t<R == 1, std::int64_t, std::conditional_t<R == 2, double, complex128>>>;

template <class T>
constexpr int dtype_rank() {
  if constexpr (is_bool_v<T>)
    return 0;
  else if constexpr (is_integer_v<T>)
    return 1;
  else if constexpr (is_floating_v<T>)
    return 2;
  else
    return 3;
}

// Strong dtype C combined with a weak scalar of rank R (NEP 50): the weak
// scalar adopts C's type unless its kind is higher.
template <class C, int R>
struct combine_weak {
  using type = C;
};
template <class C, int R>
requires(R > dtype_rank<C>()) struct combine_weak<C, R> {
  using type = std::conditional_t<
      R == 1, std::int64_t,
      std::conditional_t<
          R == 2, double,
          std::conditional_t<(sizeof(C) <= 4 && dtype_rank<C>() == 2), complex64, complex128>>>;
};

template <class A, class B>
struct strong_join {
  using type = result_type_t<A, B>;
};
template <class B>
struct strong_join<void, B> {
  using type = B;
};

template <class... Ts>
struct promote_impl {
  using strong = void;
  static constexpr int weak = -1;
};
template <class T, class... Ts>
struct promote_impl<T, Ts...> {
  using rest = promote_impl<Ts...>;
  using strong =
      typename std::conditional_t<is_weak_v<T>, std::type_identity<typename rest::strong>,
                                  strong_join<typename rest::strong, T>>::type;
  static constexpr int weak = is_weak_v<T> && weak_rank<T>() > rest::weak ? weak_rank<T>()
                                                                          : rest::weak;
};

template <class Strong, int Weak>
struct promote_result {
  using type = typename combine_weak<Strong, Weak>::type;
};
template <int Weak>
struct promote_result<void, Weak> {
  using type = weak_default_t<Weak>;
};

}  // namespace detail

// numpy.result_type over dtypes and weak scalar kinds (NEP 50).
template <class... Ts>
using promote_t = typename detail::promote_result<typename detail::promote_impl<Ts...>::strong,
                                                  detail::promote_impl<Ts...>::weak>::type;

// A resolved ufunc loop: the output type and the type each input is cast to.
template <class Out, class... In>
struct loop {
  using out = Out;
  template <int I>
  using in = std::tuple_element_t<I, std::tuple<In...>>;
};

// numpy.can_cast(From, To, casting='same_kind'): what out= and in-place
// operators accept.
template <class From, class To>
inline constexpr bool can_cast_same_kind_v = [] {
  auto rank = [](dtype d) {
    switch (d.kind) {
      case 'b':
        return 0;
      case 'u':
        return 1;
      case 'i':
        return 2;
      case 'f':
        return 3;
      default:
        return 4;
    }
  };
  return detail::can_cast_safe(dtype_id_of<From>, dtype_id_of<To>) ||
         rank(dtype_of<To>()) >= rank(dtype_of<From>());
}();

}  // namespace cupp
