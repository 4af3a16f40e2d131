// The machinery of cupp::elementwise (<cupp/elementwise.hpp>): the checks of
// a user's function object (extended lambdas, trivially copyable), the dtype
// its C++ return type stands for, the loop of elementwise(f) over operands
// promoted to their common dtype, the ufunc operations ops::user_ufunc and
// ops::typed_user_ufunc, and whether a call ends with cupp::out(z).
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/expression/ufunc_define.hpp>
#include <cupp/dtype.hpp>

namespace cupp {

namespace detail {

// Extended lambdas (nvcc --extended-lambda) are recognised by the compiler's
// traits: their host-side closure is a wrapper that is not trivially
// copyable, yet nvcc copies it into kernel parameters correctly.
template <class F>
inline constexpr bool is_device_lambda_v =
#if defined(__NVCC__)
    __nv_is_extended_device_lambda_closure_type(F);
#else
    false;
#endif
template <class F>
inline constexpr bool is_host_device_lambda_v =
#if defined(__NVCC__)
    __nv_is_extended_host_device_lambda_closure_type(F);
#else
    false;
#endif

template <class F>
constexpr bool check_user_function() {
  static_assert(!is_device_lambda_v<F>,
                "cupp::elementwise: a __device__ lambda cannot be used: mark it __host__ "
                "__device__ (host arrays run the same function in a host loop)");
  static_assert(std::is_trivially_copyable_v<F> || is_host_device_lambda_v<F>,
                "cupp::elementwise: the function object must be trivially copyable (it is copied "
                "into the kernel's parameters): capture by value, and only trivially copyable "
                "values");
  return true;
}

// The dtype a C++ return type stands for (long long is int64 ...), so that
// results are ndarray<std::int64_t> whatever spelling f uses.
template <class R>
struct user_result {
  static constexpr bool ok = false;
  using type = float;  // keeps the failing instantiation from cascading
};
template <class R>
requires is_dtype_v<R>
struct user_result<R> {
  static constexpr bool ok = true;
  using type = type_of_t<dtype_id_of<R>>;
};

template <class C, std::size_t>
using repeat_t = C;

// True while nvcc compiles the device side of this translation unit.
#if defined(__CUDA_ARCH__)
inline constexpr bool device_pass = true;
#else
inline constexpr bool device_pass = false;
#endif

// The loop of elementwise(f) for operands promoted to C.
template <class F, class C, class Seq>
struct generic_user_loop;
template <class F, class C, std::size_t... I>
struct generic_user_loop<F, C, std::index_sequence<I...>> {
  static constexpr bool callable = std::is_invocable_v<const F&, repeat_t<C, I>...>;
  static_assert(callable,
                "cupp::elementwise: the function cannot be called with the operands' common dtype "
                "(C in the trace below); accept it, or fix the types with "
                "cupp::elementwise<Out(In...)>(f)");
  using raw = typename std::conditional_t<callable, std::invoke_result<const F&, repeat_t<C, I>...>,
                                          std::type_identity<float>>::type;
  using result = user_result<std::remove_cvref_t<raw>>;
  static_assert(!callable || result::ok,
                "cupp::elementwise: the function must return a cupp dtype: bool, an integer, "
                "__half, __nv_bfloat16, float, double or ::cuda::std::complex<float|double>");
  using out = typename result::type;
  template <int>
  using in = C;
};

}  // namespace detail

namespace ops {

// elementwise(f): f applied to the operands promoted to their common dtype.
//
// Host == true: the node of a host expression. Its device side is never
// run, and leaving f out of it lets plain C++ callables (generic lambdas,
// functors without CUPP_HD) serve host arrays without nvcc's "calling a
// __host__ function" warnings. Device nodes call f on both sides, so a
// host-only f used on the device still gets nvcc's warning.
template <class F, bool Host = false>
struct user_ufunc {
  static constexpr const char* name = "elementwise";
  using host_op = user_ufunc<F, true>;
  F f;

  template <class... Ts>
  struct signature
      : detail::generic_user_loop<F, promote_t<Ts...>, std::index_sequence_for<Ts...>> {};

  template <class... T>
  CUPP_HD auto operator()(T... a) const -> decltype(f(a...)) {
    if constexpr (Host && detail::device_pass) {
      return decltype(f(a...)){};  // never runs
    } else {
      return f(a...);
    }
  }
};

// elementwise<Out(In...)>(f): fixed operand and result types.
template <class F, bool Host, class Out, class... In>
struct typed_user_ufunc {
  static constexpr const char* name = "elementwise";
  using host_op = typed_user_ufunc<F, true, Out, In...>;
  F f;

  template <class... Ts>
  struct signature : loop<Out, In...> {
    static_assert(sizeof...(Ts) == sizeof...(In),
                  "cupp::elementwise: the number of operands differs from the number of In "
                  "types of elementwise<Out(In...)>");
  };

  CUPP_HD Out operator()(In... a) const {
    if constexpr (Host && detail::device_pass) {
      return Out{};  // never runs
    } else {
      return to_out(f(a...));
    }
  }

 private:
  template <class R>
  CUPP_HD static Out to_out(const R& r) {
    if constexpr (is_dtype_v<R>)
      return detail::convert<Out>(r);
    else
      return static_cast<Out>(r);
  }
};

}  // namespace ops

namespace detail {
template <class X>
inline constexpr bool is_out_arg_v = false;
template <class T, class S>
inline constexpr bool is_out_arg_v<out_arg<T, S>> = true;

template <class... X>
struct last_is_out : std::false_type {};
template <class X0, class... X>
struct last_is_out<X0, X...>
    : std::bool_constant<is_out_arg_v<
          std::remove_cvref_t<std::tuple_element_t<sizeof...(X), std::tuple<X0, X...>>>>> {};
template <class... X>
inline constexpr bool last_is_out_v = last_is_out<X...>::value;
}  // namespace detail

}  // namespace cupp
