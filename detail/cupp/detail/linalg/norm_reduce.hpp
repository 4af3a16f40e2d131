// The reductions behind numpy.linalg.norm's vector norms and its 1, inf and
// Frobenius matrix norms: each norm is one reduction operator over the
// input (an array or a lazy expression), so x is read once and no |x| or
// |x|^2 array is ever stored. The functions below dispatch on the order
// argument (linalg::norm_ord, in <cupp/linalg/linalg_arguments.hpp>).
#pragma once

#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <string>
#include <type_traits>
#include <utility>

#include <cupp/axis.hpp>
#include <cupp/detail/ops/magnitude.hpp>
#include <cupp/detail/reduce/engine.hpp>
#include <cupp/detail/reduce/plan.hpp>
#include <cupp/errors.hpp>
#include <cupp/linalg/linalg_arguments.hpp>

namespace cupp::detail {

// squares: the 2-norm's sum without its root (lstsq's residuals).
enum class vnorm { two, squares, one, max_abs, min_abs, count, power };

// One vector norm as a reduction operator over elements of any dtype, in
// the real accumulator A (float for float32/complex64 inputs, as NumPy).
template <class A, vnorm K>
struct vector_norm_op {
  using acc_type = A;
  static constexpr bool needs_index = false;
  A p = A(2);
  CUPP_HD A identity() const {
    // max's identity 0 is NumPy's initial=0 for the inf and 2 norms.
    if constexpr (K == vnorm::min_abs) return ::cuda::std::numeric_limits<A>::infinity();
    return A(0);
  }
  template <class V>
  CUPP_HD A magnitude(const V& v) const {
    if constexpr (is_complex_v<V>)
      return convert<A>(ops::absolute{}(v));
    else
      return ops::absolute{}(convert<A>(v));
  }
  template <class V>
  CUPP_HD A map(const V& v, index_t) const {
    if constexpr (K == vnorm::two || K == vnorm::squares) {
      if constexpr (is_complex_v<V>) {
        const A re = convert<A>(v.real()), im = convert<A>(v.imag());
        return re * re + im * im;
      } else {
        const A a = convert<A>(v);
        return a * a;
      }
    } else if constexpr (K == vnorm::count) {
      return convert<bool>(v) ? A(1) : A(0);
    } else if constexpr (K == vnorm::power) {
      return ::cuda::std::pow(magnitude(v), p);
    } else {
      return magnitude(v);
    }
  }
  CUPP_HD A combine(const A& a, const A& b) const {
    if constexpr (K == vnorm::max_abs)
      return ops::maximum{}(a, b);
    else if constexpr (K == vnorm::min_abs)
      return ops::minimum{}(a, b);
    else
      return a + b;
  }
  template <class Out>
  CUPP_HD Out finish(const A& a, index_t) const {
    if constexpr (K == vnorm::two)
      return convert<Out>(::cuda::std::sqrt(a));
    else if constexpr (K == vnorm::power)
      return convert<Out>(::cuda::std::pow(a, A(1) / p));
    else
      return convert<Out>(a);
  }
};

// The reduction of `e` over the axes `m` with norm K into a fresh array of
// dtype Re (reduced axes kept as 1 when keepdims).
template <class Re, vnorm K, class E>
auto reduce_norm(const E& e, axis_mask m, bool keepdims, double p = 2) {
  using S = eval_space_t<typename E::space>;
  if (K == vnorm::min_abs && reduced_count(e.shape(), m) == 0)
    throw value_error("zero-size array to reduction operation minimum which has no identity");
  ndarray<Re, S> out(reduced_shape(e.shape(), m, keepdims));
  vector_norm_op<Re, K> op;
  op.p = static_cast<Re>(p);
  reduce_into(op, e, m, out);
  return out;
}

inline axis_mask axis_bit(int axis) {
  return axis_mask{1} << axis;
}

// A vector norm of order `ord` over the axes `m` (NumPy's single-axis
// branch of norm, and vector_norm's any axes).
template <class Re, class E>
auto vector_norm_over(const E& e, axis_mask m, bool keepdims, const linalg::norm_ord& ord) {
  if (ord.is_string()) throw value_error("Invalid norm order '" + ord.name() + "' for vectors");
  const double inf = ::cuda::std::numeric_limits<double>::infinity();
  if (ord.is_none() || ord.is(2)) return reduce_norm<Re, vnorm::two>(e, m, keepdims);
  if (ord.is(inf)) return reduce_norm<Re, vnorm::max_abs>(e, m, keepdims);
  if (ord.is(-inf)) return reduce_norm<Re, vnorm::min_abs>(e, m, keepdims);
  if (ord.is(0)) return reduce_norm<Re, vnorm::count>(e, m, keepdims);
  if (ord.is(1)) return reduce_norm<Re, vnorm::one>(e, m, keepdims);
  return reduce_norm<Re, vnorm::power>(e, m, keepdims, ord.value());
}

// The 1, -1, inf and -inf matrix norms over (row, col): the sums of |x|
// over one axis (one pass over x), then their max or min over the other.
// Both axes are kept as 1 in the result.
template <class Re, class E>
auto induced_matrix_norm(const E& e, int row, int col, bool column_sums, bool largest) {
  using S = eval_space_t<typename E::space>;
  const ndarray<Re, S> sums =
      reduce_norm<Re, vnorm::one>(e, axis_bit(column_sums ? row : col), true);
  const auto leaf = array_leaf<Re, S>{sums};
  const axis_mask other = axis_bit(column_sums ? col : row);
  if (largest) return reduce_norm<Re, vnorm::max_abs>(leaf, other, true);
  return reduce_norm<Re, vnorm::min_abs>(leaf, other, true);
}

}  // namespace cupp::detail
