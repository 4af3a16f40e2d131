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
//
// The machinery lives in detail/kernels/user_ufunc.hpp and detail/kernels/fuse.hpp.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <cupp/space_check.hpp>
#include <cupp/detail/expression/ufunc_define.hpp>
#include <cupp/detail/kernels/fuse.hpp>
#include <cupp/detail/kernels/user_ufunc.hpp>
#include <cupp/expression.hpp>

namespace cupp {

// What elementwise() returns: call it with operands for a lazy expression,
// or with cupp::out(z) last to write into z ('same_kind' casting) and get z.
template <class Op>
class elementwise_function {
 public:
  explicit elementwise_function(Op op) : op_(op) {}

  template <class... X>
  auto operator()(const X&... x) const {
    CUPP_SAME_SPACE(X...);
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

// What fuse() returns: calling it runs f on the operands and evaluates what
// f returns.
template <class F>
class fused_function {
 public:
  explicit fused_function(F f) : f_(std::move(f)) {}

  template <class... X>
  auto operator()(const X&... x) const {
    CUPP_SAME_SPACE(X...);
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
