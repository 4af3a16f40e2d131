// The engine of numpy.median, percentile, quantile and their nan-variants
// over arrays and lazy expressions: the reduced axes and the (rows, n)
// layout they give, the operand's rows as one contiguous buffer, the
// result's shape and dtype, NumPy's checks and errors, the unweighted and
// the weighted (inverted_cdf) order statistics, and the entries the public
// functions call (quantile_entry, weighted_entry, median_entry). The
// kernels and the interpolation are in quantile_engine.hpp and
// quantile_math.hpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/axis.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/logical.hpp>
#include <cupp/detail/sort/quantile_engine.hpp>
#include <cupp/detail/sort/sort_rows.hpp>
#include <cupp/detail/sort/sort_run.hpp>
#include <cupp/sort/sort_types.hpp>

namespace cupp {

namespace detail::quantiles {

// The reduced axes of an operand of `nd` dimensions, normalised and
// checked as numpy.lib normalize_axis_tuple does, in increasing order.
inline std::vector<int> reduced_axes(const axis_arg& axis, int nd) {
  std::vector<int> axes;
  if (axis.all()) {
    for (int i = 0; i < nd; ++i) axes.push_back(i);
    return axes;
  }
  for (int i = 0; i < axis.size(); ++i) {
    const int a = axis[i];
    if (a < -nd || a >= nd)
      throw axis_error("axis " + std::to_string(a) + " is out of bounds for array of dimension " +
                       std::to_string(nd));
    axes.push_back(a < 0 ? a + nd : a);
  }
  std::vector<int> sorted = axes;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw value_error("repeated axis");
  return sorted;
}

// The operand's layout as (rows, n): kept axes first (in order), reduced
// axes last.
struct row_layout {
  std::vector<int> order;  // the operand's axes, kept then reduced
  shape_t kept, out_keepdims;
  index_t rows = 1, n = 1;
};

inline row_layout layout_of(const shape_t& shape, const std::vector<int>& axes) {
  row_layout l;
  const int nd = shape.size();
  std::vector<bool> reduced(nd, false);
  for (int a : axes) reduced[a] = true;
  l.out_keepdims = shape;
  for (int i = 0; i < nd; ++i) {
    if (reduced[i]) {
      l.n *= shape[i];
      l.out_keepdims[i] = 1;
    } else {
      l.order.push_back(i);
      l.kept.push_back(shape[i]);
      l.rows *= shape[i];
    }
  }
  for (int a : axes) l.order.push_back(a);
  return l;
}

// The operand's elements as one contiguous (rows, n) buffer in the order
// of `l`: a C-contiguous array already in that order is read in place;
// anything else is written once by the expression engine.
template <class E>
auto rows_buffer(const E& e, const row_layout& l) {
  using T = typename E::value_type;
  using S = eval_space_t<typename E::space>;
  const shape_t& shape = e.shape();
  const int nd = shape.size();
  bool identity = true;
  for (int i = 0; i < nd; ++i) identity = identity && l.order[i] == i;
  if constexpr (is_array_leaf_v<E>) {
    if (identity && e.a.is_c_contiguous()) return sorting::row_source<T, S>{{}, e.a.data()};
  }
  shape_t ps = shape;
  for (int i = 0; i < nd; ++i) ps[i] = shape[l.order[i]];
  ndarray<T, S> buf(ps);
  strides_t vs = shape;
  for (int i = 0; i < nd; ++i) vs[l.order[i]] = buf.strides()[i];
  assign(ndarray<T, S>(buf.data(), shape, vs, buf.memory(), buf.device_id(), false), e);
  return sorting::row_source<T, S>{buf, buf.data()};
}

template <class T>
inline constexpr bool real_dtype_v = !sorting::is_complex_v<T>;

// numpy.quantile's dtype for the interpolating methods: a float keeps its
// type for a scalar q (NumPy's weak Python float), double otherwise.
template <class T, bool Scalar>
using quantile_t = std::conditional_t<sorting::is_floating_v<T> && Scalar, T, double>;

// q as an array of the space S. (D, always double, makes the host array's
// type dependent: its definition comes with the instantiation.)
template <class S, class D = double>
ndarray<D, S> q_array(const std::vector<D>& q) {
  host::ndarray<D> h(shape_t{static_cast<index_t>(q.size())});
  std::copy(q.begin(), q.end(), h.data());
  if constexpr (std::is_same_v<S, device_space>)
    return asarray(h);
  else
    return h;
}

template <class R, class S>
ndarray<R, S> shaped_result(const row_layout& l, bool scalar, index_t nq, bool keepdims) {
  shape_t shape;
  if (!scalar) shape.push_back(nq);
  for (const index_t d : keepdims ? l.out_keepdims : l.kept) shape.push_back(d);
  return ndarray<R, S>(shape);
}

// NumPy's IndexError for quantile over an empty slice: it comes from
// indexing the sorted slice, at -1 for floats, at 0 for other dtypes with
// an interpolating method, and from take() for their discrete methods.
template <class T>
index_error empty_slice_error(method how) {
  if (sorting::is_floating_v<T>)
    return index_error("index -1 is out of bounds for axis 0 with size 0");
  if (is_discrete(how)) return index_error("cannot do a non-empty take from an empty axes.");
  return index_error("index 0 is out of bounds for axis 0 with size 0");
}

// The shared body: `qs` already in [0, 1]; Median selects numpy.median.
template <class R, bool Median, class E>
auto order_statistic(const E& e, const std::vector<double>& qs, bool scalar, const axis_arg& axis,
                     method how, bool skip_nan, bool keepdims) {
  using T = typename E::value_type;
  using S = eval_space_t<typename E::space>;
  const auto axes = reduced_axes(axis, static_cast<int>(e.shape().size()));
  const row_layout l = layout_of(e.shape(), axes);
  const index_t nq = Median ? 1 : static_cast<index_t>(qs.size());
  auto out = shaped_result<R, S>(l, Median || scalar, nq, keepdims);
  const bool nan_capable = sorting::is_floating_v<T> || sorting::is_complex_v<T>;
  // The nan-variants return numpy.nanmean's NaNs for an empty input.
  const bool empty_nan = skip_nan && l.rows * l.n == 0;
  if (!Median) {
    if (l.n == 0 && l.rows > 0 && !empty_nan) throw empty_slice_error<T>(how);
    if constexpr (std::is_same_v<T, bool>)
      if (!is_discrete(how) && !empty_nan)
        throw type_error(
            "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
            "the `^` operator, or the logical_xor function instead.");
  }
  if (out.size() == 0) return out;
  const query qy{how, skip_nan && nan_capable, Median};
  const auto src = rows_buffer(e, l);
  ndarray<double, S> qd;
  if (!Median) qd = q_array<S>(qs);
  const double* qp = Median ? nullptr : qd.data();
  const int dev = out.device_id();
  if (l.rows == 1 && l.n >= select_threshold) {
    if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
      device_select<R>(src.data, l.n, qp, nq, qy, out.data(), dev);
#else
      CUPP_NEEDS_NVCC(T);
#endif
    } else {
      host_select<R>(src.data, l.n, qp, nq, qy, out.data());
    }
    return out;
  }
  ndarray<T, S> sorted(shape_t{l.rows * l.n});
  sort_rows<T, S>(src.data, sorted.data(), l.rows, l.n, dev);
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    device_rows<R>(sorted.data(), l.rows, l.n, qp, nq, qy, out.data(), dev);
#else
    CUPP_NEEDS_NVCC(T);
#endif
  } else {
    host_rows<R>(sorted.data(), l.rows, l.n, qp, nq, qy, out.data());
  }
  return out;
}

// Weighted inverted_cdf. NumPy's checks, in its order.
template <class E, class W>
auto weighted_quantile(const E& e, const W& w, const std::vector<double>& qs, bool scalar,
                       const axis_arg& axis, bool skip_nan, bool keepdims) {
  using T = typename E::value_type;
  using S = eval_space_t<typename E::space>;
  using TW = typename W::value_type;
  const shape_t& shape = e.shape();
  const int nd = shape.size();
  std::vector<int> given;  // the axes as the caller listed them
  if (!axis.all()) {
    reduced_axes(axis, nd);
    for (int i = 0; i < axis.size(); ++i) given.push_back(axis[i] < 0 ? axis[i] + nd : axis[i]);
  }
  // The weights spread over the operand's shape (NumPy's _weights_are_valid).
  ndarray<TW, S> wd(w.shape());
  if (wd.size() > 0) assign(wd, w);
  ndarray<TW, S> wfull = wd;
  if (w.shape() != shape) {
    if (axis.all()) throw type_error("Axis must be specified when shapes of a and weights differ.");
    bool fits = static_cast<int>(w.shape().size()) == static_cast<int>(given.size());
    for (std::size_t i = 0; fits && i < given.size(); ++i) fits = w.shape()[i] == shape[given[i]];
    if (!fits)
      throw value_error(
          "Shape of weights must be consistent with shape of a along specified axis.");
    strides_t st = strides_t::filled(nd, 0);
    for (std::size_t i = 0; i < given.size(); ++i) st[given[i]] = wd.strides()[i];
    wfull = ndarray<TW, S>(wd.data(), shape, st, wd.memory(), wd.device_id(), false);
  }
  if (wd.size() > 0 &&
      detail::impl::any<void>(as_operand(wd < TW(0)), detail::reduce_args<>(axis_arg{})).item())
    throw value_error("Weights must be non-negative.");
  const auto axes = reduced_axes(axis, nd);
  const row_layout l = layout_of(shape, axes);
  const index_t nq = static_cast<index_t>(qs.size());
  auto out = shaped_result<T, S>(l, scalar, nq, keepdims);
  const bool nan_capable = sorting::is_floating_v<T>;
  if (l.n == 0 && l.rows > 0 && !(skip_nan && nan_capable))
    throw index_error("index -1 is out of bounds for axis 0 with size 0");
  if (out.size() == 0) return out;
  const auto src = rows_buffer(e, l);
  const auto wsrc = rows_buffer(array_leaf<TW, S>{wfull}, l);
  const auto qd = q_array<S>(qs);
  bool bad = false;
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    bad = device_weighted(src.data, wsrc.data, l.rows, l.n, qd.data(), nq, skip_nan, out.data(),
                          out.device_id());
#else
    CUPP_NEEDS_NVCC(T);
#endif
  } else {
    bad = host_weighted(src.data, wsrc.data, l.rows, l.n, qd.data(), nq, skip_nan, out.data());
  }
  if (bad) throw value_error("Weights included NaN, inf or were all zero.");
  return out;
}

// q checked and scaled to [0, 1] (percentile's q / 100, as NumPy divides).
inline std::vector<double> checked_q(std::vector<double> q, bool percent) {
  for (double& v : q) {
    if (percent) v = v / 100;
    if (!(0.0 <= v && v <= 1.0))
      throw value_error(percent ? "Percentiles must be in the range [0, 100]"
                                : "Quantiles must be in the range [0, 1]");
  }
  return q;
}

template <class T>
void check_real() {
  if constexpr (sorting::is_complex_v<T>) throw type_error("a must be an array of real numbers");
}

// quantile-like entry: Percent scales q, SkipNan is the nan-variant.
template <bool Scalar, bool Percent, bool SkipNan, class A>
auto quantile_entry(const A& a, std::vector<double> q, const axis_arg& axis,
                    const quantile_options& o) {
  const auto& e = as_operand(a);
  using E = std::remove_cvref_t<decltype(e)>;
  using T = typename E::value_type;
  using R = quantile_t<T, Scalar>;
  if constexpr (sorting::is_complex_v<T>) {
    check_real<T>();
    return ndarray<double, eval_space_t<typename E::space>>();
  } else {
    const auto qs = checked_q(std::move(q), Percent);
    const auto axes = reduced_axes(axis, static_cast<int>(e.shape().size()));
    (void)axes;
    const method how = parse_method(o.method);
    return order_statistic<R, false>(e, qs, Scalar, axis, how, SkipNan, o.keepdims);
  }
}

template <bool Scalar, bool Percent, bool SkipNan, class A, class W>
auto weighted_entry(const A& a, const W& weights, std::vector<double> q, const axis_arg& axis,
                    const quantile_options& o) {
  const auto& e = as_operand(a);
  using E = std::remove_cvref_t<decltype(e)>;
  using T = typename E::value_type;
  if constexpr (sorting::is_complex_v<T>) {
    check_real<T>();
    return ndarray<T, eval_space_t<typename E::space>>();
  } else {
    const auto qs = checked_q(std::move(q), Percent);
    if (o.method != "inverted_cdf")
      throw value_error(
          "Only method 'inverted_cdf' supports weights. Got: " + std::string(o.method) + ".");
    return weighted_quantile(e, as_operand(weights), qs, Scalar, axis, SkipNan, o.keepdims);
  }
}

template <bool SkipNan, class A>
auto median_entry(const A& a, const axis_arg& axis, const median_options& o) {
  const auto& e = as_operand(a);
  using T = typename std::remove_cvref_t<decltype(e)>::value_type;
  return order_statistic<median_t<T>, true>(e, {}, true, axis, method::linear, SkipNan, o.keepdims);
}

}  // namespace detail::quantiles

}  // namespace cupp
