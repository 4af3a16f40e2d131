// Lazy element-wise expressions over distributed arrays: a node holds a
// callable and its operands (distributed arrays, nested nodes, scalars) by
// value. Chunk k of the result is the callable applied to chunk k of every
// operand, which makes an ordinary cupp expression, so each chunk runs as
// one fused kernel. The operands are aligned (same chunks, replica mode)
// before any chunk is taken; see cupp/distributed/array.hpp. The array's
// vocabulary (index maps, modes) is in cupp/distributed/array_types.hpp.
#pragma once

#include <complex>
#include <cstddef>
#include <vector>
#include <tuple>
#include <type_traits>
#include <utility>

#include <cupp/array_fwd.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/distributed/array_types.hpp>
#include <cupp/index_types.hpp>

namespace cupp::detail::darray {

template <class F, class... A>
struct expr;

template <class X>
inline constexpr bool is_array_v = false;
template <class T>
inline constexpr bool is_array_v<distributed::distributed_array<T>> = true;
template <class X>
inline constexpr bool is_expr_v = false;
template <class F, class... A>
inline constexpr bool is_expr_v<expr<F, A...>> = true;

template <class X>
concept distributed_operand = is_array_v<X> || is_expr_v<X>;
// Scalars broadcast to every chunk (weak scalars, as in cupp's expressions).
template <class X>
concept scalar_operand = std::is_arithmetic_v<X> || is_low_float_v<X> || is_complex_type_v<X> ||
    std::is_same_v<X, std::complex<float>> || std::is_same_v<X, std::complex<double>>;
template <class X>
concept operand = distributed_operand<X> || scalar_operand<X>;

// What an operand contributes to chunk k.
template <class X>
decltype(auto) chunk_of(const X& x, std::size_t k) {
  if constexpr (is_array_v<X>)
    return x.chunks()[k].data;
  else if constexpr (is_expr_v<X>)
    return x.chunk_expr(k);
  else
    return x;
}

template <class F, class... A>
struct expr {
  F f;
  std::tuple<A...> args;

  // The cupp expression of chunk k.
  auto chunk_expr(std::size_t k) const {
    return std::apply([&](const auto&... a) { return f(chunk_of(a, k)...); }, args);
  }

  // Visits the distributed arrays in operand order, depth first; the
  // visitor may replace them (alignment).
  template <class G>
  void for_each_array(G&& g) {
    std::apply([&](auto&... a) { (visit(a, g), ...); }, args);
  }

 private:
  template <class X, class G>
  static void visit(X& x, G& g) {
    if constexpr (is_array_v<X>)
      g(x);
    else if constexpr (is_expr_v<X>)
      x.for_each_array(g);
  }
};

template <class E>
using chunk_expr_t = decltype(std::declval<const E&>().chunk_expr(0));

// The element-wise operators as callables on cupp operands.
#define CUPP_DARRAY_BINARY(NAME, OP)                \
  struct NAME {                                     \
    template <class X, class Y>                     \
    auto operator()(const X& x, const Y& y) const { \
      return x OP y;                                \
    }                                               \
  };
CUPP_DARRAY_BINARY(plus_fn, +)
CUPP_DARRAY_BINARY(minus_fn, -)
CUPP_DARRAY_BINARY(times_fn, *)
CUPP_DARRAY_BINARY(divide_fn, /)
CUPP_DARRAY_BINARY(equal_fn, ==)
CUPP_DARRAY_BINARY(not_equal_fn, !=)
CUPP_DARRAY_BINARY(less_fn, <)
CUPP_DARRAY_BINARY(less_equal_fn, <=)
CUPP_DARRAY_BINARY(greater_fn, >)
CUPP_DARRAY_BINARY(greater_equal_fn, >=)
#undef CUPP_DARRAY_BINARY

struct negate_fn {
  template <class X>
  auto operator()(const X& x) const {
    return -x;
  }
};

}  // namespace cupp::detail::darray
