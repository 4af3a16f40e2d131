// cupp::reduction and the class it returns, cupp::reduction_kernel: a user
// reduction (CuPy's ReductionKernel) made from C++ function objects, a map, a
// combining function, a post-map and an identity, run by the same engine as
// NumPy's reductions (<cupp/reductions.hpp>), as <cupp/elementwise.hpp> holds
// cupp::elementwise. CuPy's string form, cupp::ReductionKernel, is in
// <cupp/kernels/reduction_kernel.hpp>.
#pragma once

#include <tuple>
#include <type_traits>

#include <cupp/space_check.hpp>
#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/engine.hpp>
#include <cupp/elementwise.hpp>
#include <cupp/expression.hpp>

namespace cupp {

// cupp::reduction(map, reduce, post, identity): CuPy's ReductionKernel. The
// map is applied to the operands element-wise (as cupp::elementwise), the
// mapped values are combined with `reduce` starting from `identity` (whose
// type is the accumulator's), and `post` turns each accumulator into the
// result. All three are __host__ __device__ function objects.
//
//   auto l2 = cupp::reduction([] CUPP_HD (float x) { return x * x; },
//                             [] CUPP_HD (float a, float b) { return a + b; },
//                             [] CUPP_HD (float a) { return sqrtf(a); }, 0.0f);
//   auto norms = l2(x, cupp::kw::axis = 1);
template <class Map, class Reduce, class Post, class Acc>
class reduction_kernel {
 public:
  reduction_kernel(Map map, Reduce reduce, Post post, Acc identity)
      : map_(map), reduce_(reduce), post_(post), identity_(identity) {}

  struct op {
    using acc_type = Acc;
    static constexpr bool needs_index = false;
    Reduce reduce;
    Post post;
    Acc id;
    CUPP_HD Acc identity() const { return id; }
    template <class V>
    CUPP_HD Acc map(const V& v, index_t) const {
      return detail::convert<Acc>(v);
    }
    CUPP_HD Acc combine(const Acc& a, const Acc& b) const { return reduce(a, b); }
    template <class Out>
    CUPP_HD Out finish(const Acc& a, index_t) const {
      return detail::convert<Out>(post(a));
    }
  };

  // Reduces map(operands...) over kw::axis (all axes by default); options:
  // kw::axis, kw::keepdims, cupp::out(a).
  template <class... X>
  auto operator()(const X&... x) const {
    CUPP_SAME_SPACE(X...);
    return call(std::tuple<const X&...>(x...), std::make_index_sequence<count_operands<X...>()>{});
  }

 private:
  template <class... X>
  static constexpr std::size_t count_operands() {
    std::size_t n = 0;
    bool done = false;
    ((done = done || detail::is_reduce_option_v<X>, n += done ? 0 : 1), ...);
    return n;
  }
  template <class Tuple, std::size_t... I>
  auto call(const Tuple& t, std::index_sequence<I...>) const {
    constexpr std::size_t n = sizeof...(I);
    const auto mapped = elementwise(map_)(std::get<I>(t)...);
    using E = std::remove_cvref_t<decltype(mapped)>;
    using Out = std::remove_cvref_t<decltype(post_(std::declval<Acc>()))>;
    using S = detail::eval_space_t<typename E::space>;
    return apply_options(mapped, t, std::make_index_sequence<std::tuple_size_v<Tuple> - n>{},
                         std::integral_constant<std::size_t, n>{}, std::type_identity<Out>{},
                         std::type_identity<S>{});
  }
  template <class E, class Tuple, std::size_t... J, std::size_t n, class Out, class S>
  auto apply_options(const E& e, const Tuple& t, std::index_sequence<J...>,
                     std::integral_constant<std::size_t, n>, std::type_identity<Out>,
                     std::type_identity<S>) const {
    const detail::reduce_args<std::remove_cvref_t<std::tuple_element_t<n + J, Tuple>>...> args(
        axis_arg{}, std::get<n + J>(t)...);
    const detail::axis_mask m = detail::reduced_axes(args.axis, static_cast<int>(e.shape().size()));
    auto out = detail::result_array<Out, S>(args, e.shape(), m);
    detail::reduce_into(op{reduce_, post_, identity_}, e, m, out);
    return out;
  }

  Map map_;
  Reduce reduce_;
  Post post_;
  Acc identity_;
};

template <class Map, class Reduce, class Post, class Acc>
reduction_kernel<Map, Reduce, Post, Acc> reduction(Map map, Reduce reduce, Post post,
                                                   Acc identity) {
  static_assert(is_dtype_v<Acc>, "cupp::reduction: the identity must be a cupp dtype value");
  return {map, reduce, post, identity};
}

}  // namespace cupp
