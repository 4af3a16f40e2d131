// The node of an expression tree: a ufunc applied to operands
// (ufunc_expr, make_ufunc, declared in <cupp/expression_fwd.hpp>), the
// members every node offers, the lazy cast, and what assignments accept
// (NumPy's 'same_kind' casting rule itself is vocabulary:
// <cupp/ufunc_types.hpp>).
#pragma once

#include <array>
#include <limits>
#include <string>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/elementwise/evaluators.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/detail/expression/lazy_members.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/numerics/pair_value.hpp>
#include <cupp/dtype.hpp>
#include <cupp/expression_fwd.hpp>
#include <cupp/reduction_options.hpp>
#include <cupp/shape.hpp>
#include <cupp/ufunc_types.hpp>

namespace cupp {

// Members every expression node offers (CRTP).
template <class D>
class expression_base : public detail::lazy_members_t<D> {
 public:
  using is_cupp_expression = void;

  int ndim() const { return self().shape().size(); }
  index_t size() const { return detail::size_of(self().shape()); }
  // The dtype of the result.
  static constexpr cupp::dtype dtype() { return dtype_of<typename D::value_type>(); }
  // Runs the expression: one kernel, a new array (NumPy's K order).
  auto eval() const { return detail::evaluate(self()); }
  // A lazy cast (ndarray.astype) that fuses with the expression.
  template <class U>
  auto astype() const;

  // Reductions and scans as methods (x.sum(axis, ...)), defined in
  // <cupp/reductions.hpp>.
  CUPP_REDUCTION_METHODS

 private:
  const D& self() const { return static_cast<const D&>(*this); }
};

// A ufunc applied to operands: the node of an expression tree.
template <class Op, class... A>
class ufunc_expr : public expression_base<ufunc_expr<Op, A...>> {
 public:
  using signature = typename Op::template signature<typename A::value_type...>;
  using value_type = typename signature::out;
  using space = typename detail::space_of_all<typename A::space...>::type;
  static constexpr int slots = (0 + ... + A::slots);
  static constexpr int max_itemsize =
      std::max({static_cast<int>(sizeof(value_type)), A::max_itemsize...});
  static_assert(is_dtype_v<value_type> || detail::is_pair_value_v<value_type>,
                "cupp: a ufunc loop must produce a cupp dtype");
  static_assert(((is_dtype_v<typename A::value_type> || is_weak_v<typename A::value_type>)&&...),
                "cupp: a two-output ufunc (divmod, frexp, modf) cannot be the operand of another "
                "operation: evaluate it first");
  static_assert(slots < detail::max_slots, "cupp: an expression may have at most 63 leaves");

  explicit ufunc_expr(Op op, A... a) : op_(op), args_(std::move(a)...) {
    compute_shape(std::make_index_sequence<sizeof...(A)>{});
    check_weak(std::make_index_sequence<sizeof...(A)>{});
  }

  // x.T() of a one-operand node over an array is the same operation over
  // a.T(), a view: conj(a).T() stays lazy, and a product (cupp::matmul)
  // reads it as the conjugate transpose of a without a copy. Other nodes
  // keep the lazy-member message (the base's T would be instantiated by
  // overload resolution, so both forms are declared here).
  static constexpr bool transposes_its_array = sizeof...(A) == 1 && (is_array_leaf_v<A> && ...);
  template <class... X>
  requires(sizeof...(X) == 0 && transposes_its_array) ufunc_expr T(const X&...)
  const {
    using leaf = std::tuple_element_t<0, std::tuple<A...>>;
    return ufunc_expr(op_, leaf{std::get<0>(args_).a.T()});
  }
  template <class... X>
  requires(!(sizeof...(X) == 0 && transposes_its_array)) typename detail::lazy_T<X...>::type
      T(const X&...) const {
    return {};
  }

  const shape_t& shape() const { return shape_; }
  const Op& op() const { return op_; }
  const std::tuple<A...>& args() const { return args_; }

  // Folds over the operands rather than std::apply: a node type then
  // instantiates one function per visit, not five (apply and its helpers).
  void collect(strides_t*& p, const shape_t& out) const {
    collect_impl(p, out, std::make_index_sequence<sizeof...(A)>{});
  }
  template <class To, int N>
  auto lower(detail::lower_ctx& L) const {
    return lower_impl<N>(L, std::make_index_sequence<sizeof...(A)>{});
  }
  template <class F>
  void for_each_array(F&& f) const {
    for_each_impl(f, std::make_index_sequence<sizeof...(A)>{});
  }

 private:
  template <std::size_t... I>
  void collect_impl(strides_t*& p, const shape_t& out, std::index_sequence<I...>) const {
    (std::get<I>(args_).collect(p, out), ...);
  }
  template <class F, std::size_t... I>
  void for_each_impl(F& f, std::index_sequence<I...>) const {
    (std::get<I>(args_).for_each_array(f), ...);
  }
  template <std::size_t... I>
  void compute_shape(std::index_sequence<I...>) {
    if constexpr (sizeof...(A) == 1) {
      shape_ = std::get<0>(args_).shape();
    } else {
      const shape_t* const shapes[] = {&std::get<I>(args_).shape()...};
      shape_ = detail::broadcast_shapes(std::span<const shape_t* const>(shapes));
    }
  }
  template <std::size_t... I>
  void check_weak(std::index_sequence<I...>) const {
    (check_one<I>(), ...);
  }
  template <std::size_t I>
  void check_one() const {
    using Arg = std::tuple_element_t<I, std::tuple<A...>>;
    if constexpr (requires { &Arg::template check_fits<int>; })
      std::get<I>(args_).template check_fits<typename signature::template in<I>>();
  }
  template <int N, std::size_t... I>
  auto lower_impl(detail::lower_ctx& L, std::index_sequence<I...>) const {
    using list = detail::eval_list<
        decltype(std::get<I>(args_).template lower<typename signature::template in<I>, N>(L))...>;
    return detail::node_eval<
        Op, signature,
        decltype(std::get<I>(args_).template lower<typename signature::template in<I>, N>(L))...>{
        op_, make_list<list, N, 0>(L)};
  }
  template <class List, int N, std::size_t I>
  List make_list(detail::lower_ctx& L) const {
    if constexpr (I == sizeof...(A)) {
      return List{};
    } else {
      using Tail = decltype(std::declval<List>().tail);
      auto head = std::get<I>(args_).template lower<typename signature::template in<I>, N>(L);
      return List{head, make_list<Tail, N, I + 1>(L)};
    }
  }

  Op op_;
  std::tuple<A...> args_;
  shape_t shape_;
};

// Builds the node of `Op` over any operands (arrays, expressions, scalars).
template <class Op, class... X>
auto make_ufunc(Op op, const X&... x) {
  return ufunc_expr<Op, operand_t<X>...>(op, as_operand(x)...);
}

namespace ops {
// ndarray.astype: NumPy's unsafe cast (see detail/convert.hpp).
template <class U>
struct cast {
  static constexpr const char* name = "astype";
  template <class T>
  struct signature : loop<U, T> {
    static_assert(is_dtype_v<T>, "cupp::astype: cast an array or an expression, not a scalar");
  };
  template <class T>
  CUPP_HD U operator()(T v) const {
    return detail::convert<U>(v);
  }
};
}  // namespace ops

template <class D>
template <class U>
auto expression_base<D>::astype() const {
  static_assert(is_dtype_v<U>, "cupp: astype<T>() takes a cupp dtype");
  return make_ufunc(ops::cast<U>{}, self());
}

namespace detail {
// Weak scalars take the destination's type; other values must cast
// 'same_kind'.
template <class From, class To>
constexpr bool assignable() {
  if constexpr (is_weak_v<From>)
    return true;
  else
    return can_cast_same_kind_v<From, To>;
}
}  // namespace detail

}  // namespace cupp
