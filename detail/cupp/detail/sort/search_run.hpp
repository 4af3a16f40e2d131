// The engines of numpy.searchsorted, digitize and bincount over arrays and
// lazy expressions: an operand as a C-contiguous array (dense, which the
// histograms use too), scalar queries, the search of a 1-d array (any
// stride, an optional sorter) and bincount's binning; the kernels are in
// search_kernels.hpp. The public functions (include/cupp/sort/search.hpp)
// check their arguments and call searchsorted_impl, digitize_impl and
// bincount_impl.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/axis.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/extrema.hpp>
#include <cupp/detail/sort/search_kernels.hpp>

namespace cupp {

namespace detail::search {

// An operand as a C-contiguous array: the array itself when it already is
// one, else the operand evaluated once into a new array.
template <Expression X>
auto dense(const X& x) {
  if constexpr (is_ndarray_v<X>) {
    return x.is_c_contiguous() ? x : x.copy(order::C);
  } else {
    using E = std::remove_cvref_t<decltype(as_operand(x))>;
    using T = typename E::value_type;
    using S = eval_space_t<typename E::space>;
    ndarray<T, S> out(x.shape());
    if (out.size() > 0) assign(out, as_operand(x));
    return out;
  }
}

// A C++ scalar query as a 0-d array of the space S. A real scalar searched
// among floats takes their dtype (NumPy's weak scalars); otherwise int64 or
// double.
template <class A, class S, class V>
auto scalar_query(const V& v) {
  using Q = std::conditional_t<
      is_dtype_v<V> && !std::is_arithmetic_v<V>, V,
      std::conditional_t<(std::is_floating_point_v<A> ||
                          is_low_float_v<A>)&&std::is_arithmetic_v<V>,
                         A, std::conditional_t<std::is_integral_v<V>, std::int64_t, double>>>;
  host::ndarray<Q> h(shape_t{});
  h.data()[0] = convert<Q>(v);
  if constexpr (std::is_same_v<S, device_space>)
    return asarray(h);
  else
    return h;
}

template <class S>
int stream_device(const ndarray<std::int64_t, S>& out) {
  return out.device_id();
}

// Searches every element of the dense `q` in `a` (1-d, any stride).
template <bool Right, class TA, class S, class TQ, class I>
void search_into(const ndarray<TA, S>& a, const I* sorter, const ndarray<TQ, S>& q,
                 const ndarray<std::int64_t, S>& out, bool from_end, bool reversed) {
  using K = key_t<result_type_t<TA, TQ>>;
  const index_t n = a.size();
  index_t stride = n > 1 ? a.strides()[0] / static_cast<index_t>(sizeof(TA)) : 1;
  const TA* base = a.data();
  if (reversed && n > 0) {
    base += (n - 1) * stride;
    stride = -stride;
  }
  const sorted_view<TA, K, I> view{base, stride, sorter, n};
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    device_search<Right, K>(view, q.data(), out.data(), q.size(), from_end, out.device_id());
#else
    CUPP_NEEDS_NVCC(TA);
#endif
  } else {
    host_search<Right, K>(view, q.data(), out.data(), q.size(), from_end);
  }
}

inline bool right_side(std::string_view side) {
  if (side == "left") return false;
  if (side == "right") return true;
  throw value_error("search side must be 'left' or 'right' (got '" + std::string(side) + "')");
}

inline void check_one_dimensional(int ndim) {
  if (ndim > 1) throw value_error("object too deep for desired array");
  if (ndim < 1) throw value_error("object of too small depth for desired array");
}

template <class Sorter>
struct sorter_value {
  using type = std::int64_t;
};
template <class T, class S>
struct sorter_value<ndarray<T, S>> {
  using type = T;
};

template <class A, class V, class Sorter>
auto searchsorted_impl(const A& a_in, const V& v_in, std::string_view side,
                       const Sorter* sorter_in) {
  const bool right = right_side(side);
  check_one_dimensional(static_cast<int>(a_in.shape().size()));
  using TA = typename std::remove_cvref_t<decltype(as_operand(a_in))>::value_type;
  using S = eval_space_t<typename std::remove_cvref_t<decltype(as_operand(a_in))>::space>;
  // A 1-d array keeps its stride; an expression is evaluated once.
  const ndarray<TA, S> a = [&] {
    if constexpr (is_ndarray_v<A>)
      return a_in;
    else
      return dense(a_in);
  }();
  const auto q = [&] {
    if constexpr (Expression<V>)
      return dense(v_in);
    else
      return scalar_query<TA, S>(v_in);
  }();
  using I = typename sorter_value<Sorter>::type;
  ndarray<I, S> sorter;
  if constexpr (!std::is_void_v<Sorter>) {
    static_assert(std::is_integral_v<I>, "cupp::searchsorted: sorter must hold integers");
    if (sorter_in->ndim() != 1) throw type_error("could not parse sorter argument");
    if (sorter_in->size() != a.size()) throw value_error("sorter.size must equal a.size");
    sorter = dense(*sorter_in);
  }
  ndarray<std::int64_t, S> out(q.shape());
  if (out.size() == 0) return out;
  const I* sp = std::is_void_v<Sorter> ? nullptr : static_cast<const I*>(sorter.data());
  if (right)
    search_into<true>(a, sp, q, out, false, false);
  else
    search_into<false>(a, sp, q, out, false, false);
  return out;
}

// numpy.digitize(x, bins, right): each element's bin; bins checked
// monotonic (one flag read back on the device).
template <class X, class B>
auto digitize_impl(const X& x_in, const B& bins_in, bool right) {
  using TX = typename std::remove_cvref_t<decltype(as_operand(x_in))>::value_type;
  using TB = typename std::remove_cvref_t<decltype(as_operand(bins_in))>::value_type;
  static_assert(!detail::is_complex_type_v<TX>, "cupp::digitize: x may not be complex");
  static_assert(!detail::is_complex_type_v<TB>, "cupp::digitize: bins may not be complex");
  using S = detail::eval_space_t<typename std::remove_cvref_t<decltype(as_operand(x_in))>::space>;
  check_one_dimensional(static_cast<int>(bins_in.shape().size()));
  const ndarray<TB, S> bins = [&] {
    if constexpr (is_ndarray_v<B>)
      return bins_in;
    else
      return dense(bins_in);
  }();
  const index_t n = bins.size();
  const index_t stride = n > 1 ? bins.strides()[0] / static_cast<index_t>(sizeof(TB)) : 1;
  int mono = 1;
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    mono = device_monotonicity(bins.data(), n, stride, bins.device_id());
#else
    CUPP_NEEDS_NVCC(TX);
#endif
  } else {
    mono = host_monotonicity(bins.data(), n, stride);
  }
  if (mono == 0) throw value_error("bins must be monotonically increasing or decreasing");
  const auto q = dense(x_in);
  ndarray<std::int64_t, S> out(q.shape());
  if (out.size() == 0) return out;
  // digitize's `right` is searchsorted's opposite side; decreasing bins are
  // searched reversed and counted from the end.
  const bool from_end = mono == -1;
  if (right)
    search_into<false>(bins, static_cast<const std::int64_t*>(nullptr), q, out, from_end, from_end);
  else
    search_into<true>(bins, static_cast<const std::int64_t*>(nullptr), q, out, from_end, from_end);
  return out;
}

template <class X, class W>
auto bincount_impl(const X& x_in, const W* weights_in, index_t minlength) {
  using TX = typename std::remove_cvref_t<decltype(as_operand(x_in))>::value_type;
  static_assert(std::is_integral_v<TX>,
                "cupp::bincount: Cannot cast array data to dtype('int64') according to the rule "
                "'safe' (x must hold integers)");
  using S = eval_space_t<typename std::remove_cvref_t<decltype(as_operand(x_in))>::space>;
  check_one_dimensional(static_cast<int>(x_in.shape().size()));
  if (minlength < 0) throw value_error("'minlength' must not be negative");
  if constexpr (!std::is_void_v<W>) {
    if (detail::size_of(weights_in->shape()) != detail::size_of(x_in.shape()))
      throw value_error("The weights and list don't have the same length.");
  }
  const ndarray<TX, S> x = dense(x_in);
  const index_t n = x.size();
  index_t length = minlength;
  if (n > 0) {
    if constexpr (std::is_signed_v<TX> && !std::is_same_v<TX, bool>) {
      if (static_cast<std::int64_t>(
              ndarray<TX, S>(
                  detail::impl::min<void>(as_operand(x), detail::reduce_args<>(axis_arg{})))
                  .item()) < 0)
        throw value_error("'list' argument must have no negative elements");
    }
    const index_t top = static_cast<index_t>(
        ndarray<TX, S>(detail::impl::max<void>(as_operand(x), detail::reduce_args<>(axis_arg{})))
            .item());
    length = std::max(length, top + 1);
  }
  using Res = std::conditional_t<std::is_void_v<W>, std::int64_t, double>;
  using Acc = std::conditional_t<std::is_void_v<W>, unsigned long long, double>;
  ndarray<Res, S> out(shape_t{length});
  const auto run = [&](const auto& binner) {
    if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
      device_accumulate(binner, n, length, reinterpret_cast<Acc*>(out.data()), out.device_id());
#else
      CUPP_NEEDS_NVCC(TX);
#endif
    } else {
      std::fill(out.data(), out.data() + length, Res{0});
      host_accumulate(binner, n, reinterpret_cast<Acc*>(out.data()));
    }
  };
  if constexpr (std::is_void_v<W>) {
    run(value_binner<TX, unit_weight>{x.data(), {}});
  } else {
    const auto w = dense(*weights_in);
    using TW = typename std::remove_cvref_t<decltype(w)>::value_type;
    static_assert(!is_complex_type_v<TW>,
                  "cupp::bincount: Cannot cast array data from complex to dtype('float64') "
                  "according to the rule 'safe'");
    run(value_binner<TX, array_weight<TW>>{x.data(), {w.data()}});
  }
  return out;
}

}  // namespace detail::search

}  // namespace cupp
