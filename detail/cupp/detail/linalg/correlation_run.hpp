// The engines of numpy.cov, corrcoef, correlate and convolve: cov's dtype,
// variables and weights with NumPy's checks and messages, the centred
// observations multiplied by their conjugate transpose in one gemm whose
// alpha is the normalisation (matmul_of, product_expr.hpp), corrcoef's
// division and clip in one element-wise kernel, and correlate's operands
// for the kernel of correlation_kernel.hpp. <cupp/correlation.hpp> keeps
// the public functions.
//
// The arithmetic and comparison operators of arrays are found through the
// arrays' namespace when these templates are instantiated from
// <cupp/correlation.hpp>, which includes <cupp/ufunc.hpp>.
#pragma once

#include <initializer_list>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <cupp/array_fwd.hpp>
#include <cupp/axis.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/join/concat.hpp>
#include <cupp/detail/linalg/correlation_common.hpp>
#include <cupp/detail/linalg/correlation_kernel.hpp>
#include <cupp/detail/linalg/product_expr.hpp>
#include <cupp/detail/linalg/product_operand.hpp>
#include <cupp/detail/ops/complex_parts.hpp>
#include <cupp/detail/ops/exp_log.hpp>
#include <cupp/detail/ops/rounding.hpp>
#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/logical.hpp>
#include <cupp/detail/reduce/moments.hpp>
#include <cupp/detail/reduce/sums.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/linalg/linalg_arguments.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

template <class X>
using corr_value_t = typename operand_t<X>::value_type;
template <class X>
using corr_space_t = eval_space_t<typename operand_t<X>::space>;

// The dtype cov computes in: the dtype= given, else NumPy's
// result_type(m, y, float64).
template <class Dt, class M, class Y>
struct cov_dtype {
  using type =
      std::conditional_t<!std::is_void_v<Dt>, Dt,
                         result_type_t<result_type_t<corr_value_t<M>, corr_value_t<Y>>, double>>;
};
template <class Dt, class M>
struct cov_dtype<Dt, M, none_t> {
  using type = std::conditional_t<!std::is_void_v<Dt>, Dt, result_type_t<corr_value_t<M>, double>>;
};

// m or y as NumPy's array(x, ndmin=2, dtype=D): a view where x is an array
// of dtype D, else x evaluated once.
template <class D, class S, class X>
ndarray<D, S> cov_variables(const X& x) {
  ndarray<D, S> a = product_operand<D, S>(x);
  return a.ndim() == 0   ? a.reshape(shape_t{1, 1})
         : a.ndim() == 1 ? a.reshape(shape_t{1, a.size()})
                         : a;
}

// fweights or aweights as float64, with NumPy's checks and messages.
template <class S, class W>
ndarray<double, S> cov_weights(const W& weights, index_t samples, const char* name, bool integral) {
  ndarray<double, S> w = product_operand<double, S>(weights);
  const std::string n(name);
  if (integral && !impl::all<void>(as_operand(w == make_ufunc(ops::round::make(0), w)),
                                   reduce_args<>(axis_arg{}))
                       .item())
    throw type_error(n + " must be integer");
  if (w.ndim() > 1) throw std::runtime_error("cannot handle multidimensional " + n);
  if (w.ndim() == 0) throw index_error("tuple index out of range");
  if (w.shape()[0] != samples) throw std::runtime_error("incompatible numbers of samples and " + n);
  if (impl::any<void>(as_operand(w < 0), reduce_args<>(axis_arg{})).item())
    throw value_error(n + " cannot be negative");
  return w;
}

// X @ X^H (or X @ (X * w)^H) times 1 / fact, the factor folded into the
// gemm's alpha; a factor of 0 (NumPy's warning case) multiplies by inf
// after the product, as NumPy does, so that 0 * inf is NaN.
template <class R, class D, class S, class B>
ndarray<R, S> cov_product(const ndarray<D, S>& xc, const B& right, double fact) {
  if (fact > 0) {
    ndarray<R, S> c = matmul_of(xc, make_ufunc(ops::conjugate{}, right).T()) * (1.0 / fact);
    return c;
  }
  const ndarray<R, S> p = matmul_of(xc, make_ufunc(ops::conjugate{}, right).T());
  return ndarray<R, S>(p * std::numeric_limits<double>::infinity());
}

// numpy.cov once m and y are arrays of dtype D with the variables along
// axis 0 (x already joined with y).
template <class D, class S, class F, class A>
auto cov_of(const ndarray<D, S>& x, const cov_options& o, const F& fweights, const A& aweights) {
  constexpr bool weighted = !std::is_same_v<F, none_t> || !std::is_same_v<A, none_t>;
  using R = std::conditional_t<weighted, result_type_t<D, double>, D>;
  static_assert(is_inexact_v<D>, "cupp::cov: dtype= must be a floating or complex dtype");
  const index_t vars = x.shape()[0], samples = x.shape()[1];
  const int ddof = o.ddof ? *o.ddof : (o.bias ? 0 : 1);
  if constexpr (!weighted) {
    // One fused expression: x minus its row means.
    const ndarray<D, S> xc =
        x - impl::mean<void>(as_operand(x), reduce_args<>(1)).reshape(shape_t{vars, 1});
    return cov_product<R>(xc, xc, static_cast<double>(samples - ddof)).squeeze();
  } else {
    std::optional<ndarray<double, S>> f, a;
    if constexpr (!std::is_same_v<F, none_t>)
      f = cov_weights<S>(fweights, samples, "fweights", true);
    if constexpr (!std::is_same_v<A, none_t>)
      a = cov_weights<S>(aweights, samples, "aweights", false);
    const ndarray<double, S> w = f && a ? ndarray<double, S>(*f * *a) : f ? *f : *a;
    const double w_sum = impl::sum<void>(as_operand(w), reduce_args<>(axis_arg{})).item();
    if (w_sum == 0) throw zero_division_error("Weights sum to zero, can't be normalized");
    double fact = w_sum;
    if (ddof != 0)
      fact = !a ? w_sum - ddof
                : w_sum -
                      ddof * impl::sum<void>(as_operand(w * *a), reduce_args<>(axis_arg{})).item() /
                          w_sum;
    const ndarray<double, S> wrow = w.reshape(shape_t{1, samples});
    // numpy.average's weighted mean in R, subtracted in X's dtype D.
    const ndarray<R, S> total = impl::sum<void>(
        as_operand(make_ufunc(ops::cast<R>{}, x) * make_ufunc(ops::cast<R>{}, wrow)),
        reduce_args<>(1));
    const ndarray<D, S> xc =
        make_ufunc(ops::cast<D>{}, x - total.reshape(shape_t{vars, 1}) / w_sum);
    const ndarray<R, S> xw = make_ufunc(ops::cast<R>{}, xc) * make_ufunc(ops::cast<R>{}, wrow);
    return cov_product<R>(xc, xw, fact).squeeze();
  }
}

template <class Dt, class M, class Y, class F, class A>
auto cov_dispatch(const M& m, const Y& y, const cov_options& o, const F& fw, const A& aw) {
  using D = typename cov_dtype<Dt, M, Y>::type;
  using S = corr_space_t<M>;
  const int m_dims = static_cast<int>(m.shape().size());
  if (m_dims > 2) throw value_error("m has more than 2 dimensions");
  if constexpr (!std::is_same_v<Y, none_t>) {
    static_assert(std::is_same_v<corr_space_t<Y>, S>,
                  "cupp::cov: m and y live in different spaces (host and device)");
    if (y.shape().size() > 2) throw value_error("y has more than 2 dimensions");
  }
  ndarray<D, S> x = cov_variables<D, S>(m);
  if (!o.rowvar && m_dims != 1) x = x.T();
  using Rz = decltype(cov_of(x, o, fw, aw));
  if (x.shape()[0] == 0) return Rz(shape_t{0, 0});
  if constexpr (!std::is_same_v<Y, none_t>) {
    ndarray<D, S> yv = cov_variables<D, S>(y);
    if (!o.rowvar && yv.shape()[0] != 1) yv = yv.T();
    const std::initializer_list<ndarray<D, S>> both = {x, yv};
    x = concat_same<D, S>({both.begin(), both.size()}, 0);
  }
  return cov_of(x, o, fw, aw);
}

// An optional argument: an array or expression, or cupp::none.
template <class X>
concept expression_or_none = Expression<X> || std::is_same_v<X, none_t>;

template <class Dt, class X, class Y>
auto corrcoef_of(const X& x, const Y& y, bool rowvar) {
  const auto c = cov_dispatch<Dt>(x, y, cov_options{.rowvar = rowvar}, none, none);
  using C = std::remove_const_t<decltype(c)>;
  if (c.ndim() == 0) return C(c / c);
  const index_t n = c.shape()[0];
  const auto stddev = make_ufunc(ops::sqrt{}, make_ufunc(ops::real{}, c.diagonal()));
  const ndarray<typename decltype(stddev)::value_type, typename C::space_type> s(stddev);
  // numpy.corrcoef's two divisions and its clip, one kernel.
  return C(
      make_ufunc(ops::clip_unit_parts{}, c / s.reshape(shape_t{n, 1}) / s.reshape(shape_t{1, n})));
}

// An operand of correlate/convolve as a 1-d array of dtype R with NumPy's
// messages for more axes; a 0-d operand is one element for convolve
// (ndmin=1) and an error for correlate.
template <class R, class S, class X>
ndarray<R, S> correlate_operand(const X& x, bool zero_d_is_error) {
  const std::size_t dims = x.shape().size();
  if (dims > 1) throw value_error("object too deep for desired array");
  if (dims == 0 && zero_d_is_error)
    throw value_error("object of too small depth for desired array");
  const ndarray<R, S> a = product_operand<R, S>(x);
  return a.ndim() == 0 ? a.reshape(shape_t{1}) : a;
}

// NumPy's _pyarray_correlate: the longer operand slides under the shorter
// (swapped, and the result reversed, when the first is shorter).
template <class R, class S>
ndarray<R, S> correlate_arrays(ndarray<R, S> x, bool x_conj, ndarray<R, S> y, bool y_conj,
                               int mode) {
  bool reversed = false;
  if (x.size() < y.size()) {
    std::swap(x, y);
    std::swap(x_conj, y_conj);
    reversed = true;
  }
  const correlate_geometry g = correlate_layout(x.size(), y.size(), mode);
  ndarray<R, S> out(shape_t{g.length});
  run_correlate(x, x_conj, y, y_conj, out, reversed, g);
  return out;
}

template <class A, class V>
using correlate_t = result_type_t<corr_value_t<A>, corr_value_t<V>>;

}  // namespace cupp::detail
