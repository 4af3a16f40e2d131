// User-defined element-wise functions.
//
// cupp::elementwise(f) turns a __host__ __device__ function object into a
// ufunc: calling it with operands builds a lazy node that fuses with the rest
// of an expression, so `k(x, y) * 2 + z` is still one kernel.
//
//   struct hypot2 {
//     template <class T>
//     CUPP_HD T operator()(T a, T b) const { return a * a + b * b; }
//   };
//   auto k = cupp::elementwise(hypot2{});
//   cupp::ndarray<float> z = k(x, 1) + y;         // float32 when x is
//
// Generic form, elementwise(f): the operands are promoted to their common
// dtype C (cupp::promote_t, C++ numbers are NEP 50 weak scalars), f is called
// with C values and returns the result dtype. Fixed form,
// elementwise<Out(In...)>(f): CuPy's ElementwiseKernel with fixed types, each
// operand cast to its In (NumPy's unsafe cast, as astype) and the result of f
// converted to Out.
//
// cupp::fuse(f) runs a C++ function written with cupp's expressions on
// arrays and returns arrays (cupy.fuse): the expression f builds is evaluated
// by one kernel per result (one for two results of the same shape).
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <cupp/detail/expression/ufunc_define.hpp>
#include <cupp/expression.hpp>

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

// What elementwise() returns: call it with operands for a lazy expression,
// or with cupp::out(z) last to write into z ('same_kind' casting) and get z.
template <class Op>
class elementwise_function {
 public:
  explicit elementwise_function(Op op) : op_(op) {}

  template <class... X>
  auto operator()(const X&... x) const {
    static_assert(sizeof...(X) - detail::last_is_out_v<X...> >= 1,
                  "cupp::elementwise: call it with at least one operand");
    if constexpr (detail::last_is_out_v<X...>) {
      return with_out(std::forward_as_tuple(x...), std::make_index_sequence<sizeof...(X) - 1>{});
    } else {
      static_assert((Operand<X> && ...),
                    "cupp::elementwise: operands are cupp arrays, expressions or C++ numbers");
      return node(x...);
    }
  }

  const Op& op() const { return op_; }

 private:
  template <class Tuple, std::size_t... I>
  auto with_out(const Tuple& t, std::index_sequence<I...>) const {
    const auto& o = std::get<sizeof...(I)>(t);
    static_assert((Operand<std::remove_cvref_t<std::tuple_element_t<I, Tuple>>> && ...),
                  "cupp::elementwise: operands are cupp arrays, expressions or C++ numbers");
    // A handle to the out= array (not a reference into the caller's
    // temporary cupp::out(z)).
    auto r = o.array;
    detail::check_ufunc_out(o.array, std::get<I>(t)...);
    detail::write_out(o, node(std::get<I>(t)...));
    return r;
  }

  template <class... X>
  auto node(const X&... x) const {
    using space = typename detail::space_of_all<typename operand_t<X>::space...>::type;
    if constexpr (std::is_same_v<space, host_space>)
      return make_ufunc(typename Op::host_op{op_.f}, x...);
    else
      return make_ufunc(op_, x...);
  }

  Op op_;
};

// A ufunc from a function object: promotion to the operands' common dtype.
template <class F>
elementwise_function<ops::user_ufunc<F>> elementwise(F f) {
  static_assert(detail::check_user_function<F>());
  return elementwise_function<ops::user_ufunc<F>>(ops::user_ufunc<F>{f});
}

// A ufunc with fixed types: elementwise<float(float, int)>(f).
template <class Signature, class F>
auto elementwise(F f) {
  return []<class Out, class... In>(F g, std::type_identity<Out(In...)>) {
    static_assert(detail::check_user_function<F>());
    static_assert(is_dtype_v<Out> && (is_dtype_v<In> && ...),
                  "cupp::elementwise<Out(In...)>: Out and In must be cupp dtypes");
    static_assert(std::is_invocable_v<const F&, In...>,
                  "cupp::elementwise<Out(In...)>: the function cannot be called with In...");
    using op = ops::typed_user_ufunc<F, false, Out, In...>;
    return elementwise_function<op>(op{g});
  }(f, std::type_identity<Signature>{});
}

// ---------------------------------------------------------------------------
// fuse

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

// What fuse() returns: calling it runs f on the operands and evaluates what
// f returns.
template <class F>
class fused_function {
 public:
  explicit fused_function(F f) : f_(std::move(f)) {}

  template <class... X>
  auto operator()(const X&... x) const {
    return detail::fuse_eval(f_(x...));
  }

 private:
  F f_;
};

// cupy.fuse: f is an ordinary C++ function (a generic lambda) over arrays and
// expressions; fuse(f)(x, y) returns f's result as new arrays.
template <class F>
fused_function<F> fuse(F f) {
  return fused_function<F>(std::move(f));
}

}  // namespace cupp
