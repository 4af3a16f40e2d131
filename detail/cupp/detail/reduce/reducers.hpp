// The reduction operators behind sum, prod, min, max, argmin, argmax, ptp,
// all, any, count_nonzero, mean, var and their NaN-ignoring forms. Each is a
// trivially copyable value that the kernels and the host loop use alike:
//
//   acc_type             what partial results are kept in
//   needs_index          whether map() wants the element's position
//   identity()           the neutral accumulator
//   map(v, i)            one element (of the operand's dtype) as an accumulator
//   combine(a, b)        two partial results; associative, and commutative
//                        up to rounding (arg reductions break ties by index)
//   finish<Out>(a, n)    the result from the accumulator of n elements
#pragma once

#include <cstdint>
#include <cuda/std/limits>
#include <type_traits>

#include <cupp/detail/convert.hpp>
#include <cupp/detail/numerics/pair_value.hpp>
#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/detail/ops/float_support.hpp>
#include <cupp/detail/ops/selection.hpp>
#include <cupp/ufunc_types.hpp>
#include <cupp/dtype.hpp>

namespace cupp::detail::red {

using ops::misc_detail::real_of_t;
using ops::misc_detail::value_isnan;

// NumPy's accumulator for sum and prod of T: the platform integer for bool
// and small integers, float32 inside float16 and bfloat16.
template <class T>
using sum_result_t = std::conditional_t<
    std::is_same_v<T, bool> || (is_signed_integer_v<T> && sizeof(T) < 8), std::int64_t,
    std::conditional_t<is_unsigned_integer_v<T> && sizeof(T) < 8, std::uint64_t, T>>;
template <class T>
using compute_t = std::conditional_t<is_low_float_v<T>, float, T>;
// mean, var and std of integers run and result in float64.
template <class T>
using mean_result_t = std::conditional_t<is_inexact_v<T>, T, double>;

template <class T>
CUPP_HD inline T lowest() {
  if constexpr (is_floating_v<T>)
    return convert<T>(-::cuda::std::numeric_limits<double>::infinity());
  else if constexpr (is_complex_v<T>)
    return T(-::cuda::std::numeric_limits<typename T::value_type>::infinity(),
             -::cuda::std::numeric_limits<typename T::value_type>::infinity());
  else if constexpr (std::is_same_v<T, bool>)
    return false;
  else
    return ::cuda::std::numeric_limits<T>::lowest();
}
template <class T>
CUPP_HD inline T highest() {
  if constexpr (is_floating_v<T>)
    return convert<T>(::cuda::std::numeric_limits<double>::infinity());
  else if constexpr (is_complex_v<T>)
    return T(::cuda::std::numeric_limits<typename T::value_type>::infinity(),
             ::cuda::std::numeric_limits<typename T::value_type>::infinity());
  else if constexpr (std::is_same_v<T, bool>)
    return true;
  else
    return ::cuda::std::numeric_limits<T>::max();
}

// numpy.nonzero's truth of one element: NaN is true, complex numbers are
// true when either part is nonzero.
template <class T>
CUPP_HD inline bool truthy(const T& v) {
  return convert<bool>(v);
}

// add.reduce: the sum, in A.
template <class A>
struct sum_op {
  using acc_type = A;
  static constexpr bool needs_index = false;
  CUPP_HD A identity() const { return convert<A>(0); }
  template <class V>
  CUPP_HD A map(const V& v, index_t) const {
    return convert<A>(v);
  }
  CUPP_HD A combine(const A& a, const A& b) const { return ops::add{}(a, b); }
  template <class V>
  CUPP_HD A from_initial(const V& v) const {
    return convert<A>(v);
  }
  template <class Out>
  CUPP_HD Out finish(const A& a, index_t) const {
    return convert<Out>(a);
  }
};

// multiply.reduce.
template <class A>
struct prod_op : sum_op<A> {
  CUPP_HD A identity() const { return convert<A>(1); }
  CUPP_HD A combine(const A& a, const A& b) const { return ops::multiply{}(a, b); }
};

// nansum and nanprod: NaN counts as the identity.
template <class Base>
struct nan_skip_op : Base {
  using A = typename Base::acc_type;
  template <class V>
  CUPP_HD A map(const V& v, index_t i) const {
    return value_isnan(v) ? Base::identity() : Base::map(v, i);
  }
};

// maximum.reduce / minimum.reduce: the first NaN wins.
template <class T, bool Max>
struct extremum_op {
  using acc_type = T;
  static constexpr bool needs_index = false;
  CUPP_HD T identity() const { return Max ? lowest<T>() : highest<T>(); }
  template <class V>
  CUPP_HD T map(const V& v, index_t) const {
    return convert<T>(v);
  }
  CUPP_HD T combine(const T& a, const T& b) const {
    if constexpr (Max)
      return ops::maximum{}(a, b);
    else
      return ops::minimum{}(a, b);
  }
  template <class V>
  CUPP_HD T from_initial(const V& v) const {
    return convert<T>(v);
  }
  template <class Out>
  CUPP_HD Out finish(const T& a, index_t) const {
    return convert<Out>(a);
  }
};

// nanmax / nanmin: NaN is skipped; a slice of NaN only gives NaN.
template <class T, bool Max>
struct nan_extremum_op : extremum_op<T, Max> {
  CUPP_HD T identity() const {
    if constexpr (is_inexact_v<T>)
      return convert<T>(::cuda::std::numeric_limits<double>::quiet_NaN());
    else
      return extremum_op<T, Max>::identity();
  }
  CUPP_HD T combine(const T& a, const T& b) const {
    if (value_isnan(a)) return b;
    if (value_isnan(b)) return a;
    return extremum_op<T, Max>::combine(a, b);
  }
};

// A value and the position it was found at (-1: none yet).
template <class T>
struct arg_acc {
  T v;
  index_t i;
};

// argmax / argmin: the first NaN, else the first extreme value. With
// SkipNan (nanargmax / nanargmin) NaN never takes part and a slice of NaN
// gives -1.
template <class T, bool Max, bool SkipNan = false>
struct arg_op {
  using acc_type = arg_acc<T>;
  static constexpr bool needs_index = true;
  CUPP_HD acc_type identity() const { return {T{}, -1}; }
  template <class V>
  CUPP_HD acc_type map(const V& v, index_t i) const {
    if constexpr (SkipNan)
      if (value_isnan(v)) return identity();
    return {v, i};
  }
  CUPP_HD acc_type combine(const acc_type& a, const acc_type& b) const {
    if (a.i < 0) return b;
    if (b.i < 0) return a;
    // Values are chosen, never references: a reference picked at run time
    // would put both accumulators in local memory.
    const bool an = value_isnan(a.v), bn = value_isnan(b.v);
    const bool b_earlier = b.i < a.i;
    bool take_b;
    if (an || bn)
      take_b = bn && (!an || b_earlier);
    else if (Max)
      take_b = ops::misc_detail::less(a.v, b.v) || (!ops::misc_detail::less(b.v, a.v) && b_earlier);
    else
      take_b = ops::misc_detail::less(b.v, a.v) || (!ops::misc_detail::less(a.v, b.v) && b_earlier);
    return take_b ? b : a;
  }
  // Whether element b, met after element a, takes a's place: by value
  // alone, as positions only increase (the kernels' ordered walks).
  CUPP_HD bool replaces(const T& a, const T& b) const {
    if constexpr (std::is_floating_point_v<T>) {
      // The same rules without branches (any comparison with NaN is false):
      // the flat walks do this once per element.
      if constexpr (SkipNan)
        return (b == b) & !(Max ? b <= a : a <= b);
      else
        return (a == a) & !(Max ? a >= b : b >= a);
    }
    const bool an = value_isnan(a), bn = value_isnan(b);
    if constexpr (SkipNan)
      return !bn && (an || (Max ? ops::misc_detail::less(a, b) : ops::misc_detail::less(b, a)));
    else
      return !an && (bn || (Max ? ops::misc_detail::less(a, b) : ops::misc_detail::less(b, a)));
  }
  // b lies after every element a has seen: a tie keeps a, so no positions
  // are compared.
  CUPP_HD acc_type combine_ordered(const acc_type& a, const acc_type& b) const {
    if (b.i < 0) return a;
    if (a.i < 0) return b;
    return replaces(a.v, b.v) ? b : a;
  }
  template <class Out>
  CUPP_HD Out finish(const acc_type& a, index_t) const {
    return static_cast<Out>(a.i);
  }
};

// numpy.ptp: maximum - minimum in T (integers wrap as NumPy's do).
template <class T>
struct minmax_acc {
  T lo, hi;
};
template <class T>
struct ptp_op {
  using acc_type = minmax_acc<T>;
  static constexpr bool needs_index = false;
  CUPP_HD acc_type identity() const { return {highest<T>(), lowest<T>()}; }
  template <class V>
  CUPP_HD acc_type map(const V& v, index_t) const {
    return {v, v};
  }
  CUPP_HD acc_type combine(const acc_type& a, const acc_type& b) const {
    return {ops::minimum{}(a.lo, b.lo), ops::maximum{}(a.hi, b.hi)};
  }
  template <class Out>
  CUPP_HD Out finish(const acc_type& a, index_t) const {
    return convert<Out>(ops::subtract{}(a.hi, a.lo));
  }
};

// logical_and.reduce (all) and logical_or.reduce (any).
template <bool All>
struct logical_op {
  using acc_type = bool;
  static constexpr bool needs_index = false;
  CUPP_HD bool identity() const { return All; }
  template <class V>
  CUPP_HD bool map(const V& v, index_t) const {
    return truthy(v);
  }
  CUPP_HD bool combine(bool a, bool b) const { return All ? (a && b) : (a || b); }
  template <class Out>
  CUPP_HD Out finish(bool a, index_t) const {
    return convert<Out>(a);
  }
};

// count_nonzero.
struct count_op {
  using acc_type = std::int64_t;
  static constexpr bool needs_index = false;
  CUPP_HD std::int64_t identity() const { return 0; }
  template <class V>
  CUPP_HD std::int64_t map(const V& v, index_t) const {
    return truthy(v) ? 1 : 0;
  }
  CUPP_HD std::int64_t combine(std::int64_t a, std::int64_t b) const { return a + b; }
  template <class Out>
  CUPP_HD Out finish(std::int64_t a, index_t) const {
    return static_cast<Out>(a);
  }
};

// The sum divided by n - ddof (mean, and var of squared deviations), with
// the square root taken for std. As NumPy's, the divisor is never negative:
// with ddof >= n var divides by zero (inf, or NaN for a zero sum).
template <class A>
struct mean_op : sum_op<A> {
  double ddof = 0;
  bool root = false;
  template <class Out>
  CUPP_HD Out finish(const A& a, index_t n) const {
    return convert<Out>(divide(a, static_cast<double>(n) - ddof, root));
  }
  CUPP_HD static A divide(const A& a, double d, bool root) {
    using R = real_of_t<A>;
    if (d < 0) d = 0;
    A r;
    if constexpr (is_complex_v<A>)
      r = A(a.real() / R(d), a.imag() / R(d));
    else
      r = convert<A>(a / static_cast<A>(d));
    if constexpr (!is_complex_v<A>)
      if (root) r = ::cuda::std::sqrt(r);
    return r;
  }
};

// A sum with its own count: mean, var and std when a where= mask or NaN
// decides which elements take part.
template <class A>
struct counted {
  A s;
  index_t n;
};
template <class A, bool SkipNan>
struct counted_mean_op {
  using acc_type = counted<A>;
  static constexpr bool needs_index = false;
  double ddof = 0;
  bool root = false;
  // nanvar and nanstd: NaN where no degree of freedom is left (NumPy's
  // nanvar, where plain var divides by zero).
  bool nan_without_dof = false;
  CUPP_HD acc_type identity() const { return {convert<A>(0), 0}; }
  template <class V>
  CUPP_HD acc_type map(const V& v, index_t) const {
    if constexpr (SkipNan)
      if (value_isnan(v)) return identity();
    return {convert<A>(v), 1};
  }
  CUPP_HD acc_type combine(const acc_type& a, const acc_type& b) const {
    return {ops::add{}(a.s, b.s), a.n + b.n};
  }
  template <class Out>
  CUPP_HD Out finish(const acc_type& a, index_t) const {
    const double dof = static_cast<double>(a.n) - ddof;
    if (nan_without_dof && dof <= 0)
      return convert<Out>(::cuda::std::numeric_limits<double>::quiet_NaN());
    return convert<Out>(mean_op<A>::divide(a.s, dof, root));
  }
};

// Only the elements where the mask is true take part (where=); the operand
// is the pair (value, mask).
template <class Base>
struct masked_op : Base {
  using A = typename Base::acc_type;
  template <class P>
  CUPP_HD A map(const P& p, index_t i) const {
    return p.second ? Base::map(p.first, i) : Base::identity();
  }
};

}  // namespace cupp::detail::red

namespace cupp::ops {

// A value and the where= mask at the same position, for masked reductions.
struct with_mask {
  static constexpr const char* name = "where";
  template <class T, class M>
  struct signature : loop<detail::pair_value<T, bool>, T, bool> {
    static_assert(std::is_same_v<M, bool>,
                  "cupp: where= takes a bool array or expression (NumPy: Cannot cast array data "
                  "to dtype('bool') according to the rule 'safe')");
    static_assert(is_dtype_v<T>, "cupp: reduce an array or an expression, not a scalar");
  };
  template <class T>
  CUPP_HD detail::pair_value<T, bool> operator()(T v, bool m) const {
    return {v, m};
  }
};

// |x - m|^2 in the real type of A: the terms of var and std.
template <class A>
struct squared_deviation {
  static constexpr const char* name = "var";
  using R = detail::red::real_of_t<A>;
  template <class T, class M>
  struct signature : loop<R, T, A> {};
  template <class T>
  CUPP_HD R operator()(T x, A m) const {
    const A d = ops::subtract{}(detail::convert<A>(x), m);
    if constexpr (is_complex_v<A>)
      return d.real() * d.real() + d.imag() * d.imag();
    else
      return d * d;
  }
};

// Whether an element takes part in nanvar's second pass: NumPy skips the
// elements that are NaN in the input, so a deviation that is NaN for
// another reason (inf - inf) still counts.
struct not_nan {
  static constexpr const char* name = "isnan";
  template <class T>
  struct signature : loop<bool, T> {};
  template <class T>
  CUPP_HD bool operator()(T x) const {
    return !detail::red::value_isnan(x);
  }
};

}  // namespace cupp::ops
