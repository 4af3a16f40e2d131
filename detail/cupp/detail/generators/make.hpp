// How each generator function turns its arguments into a functor, a shape
// and position strides, following NumPy's Python code step by step
// (numpy/_core/numeric.py, function_base.py, twodim_base.py and the
// arange of multiarray) so that each element comes out bit for bit. S is
// the space of the result: any_space (cupp::) or host_space (cupp::host::).
#pragma once

#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/detail/generators/functions.hpp>
#include <cupp/detail/generators/numbers.hpp>
#include <cupp/detail/generators/view.hpp>

namespace cupp::detail {

template <class G, class S>
generator<G, S> one_d(const G& g, index_t n) {
  return generator<G, S>(g, shape_t{n}, {strides_t{1}});
}

// A C++ argument as a 0-d array of dtype D (weak scalars take D as NEP 50
// says; strong ones are cast).
template <class D, class X>
D scalar_as(const X& x) {
  const auto e = as_operand(x);
  if constexpr (is_weak_v<typename std::remove_cvref_t<decltype(e)>::value_type>)
    return e.template as<D>();
  else
    return convert<D>(e.v);
}

// numpy.full's cast of the fill value: copyto(casting='unsafe'), where a
// Python int that does not fit an integer dtype raises OverflowError.
template <class T, class V>
T fill_value(const V& value) {
  const auto e = as_operand(value);
  if constexpr (is_weak_v<typename std::remove_cvref_t<decltype(e)>::value_type>) {
    e.template check_fits<T>();
    return e.template as<T>();
  } else {
    return convert<T>(e.v);
  }
}

// The dtype numpy.full gives a fill value: int64, float64, complex128 or
// bool for C++ numbers, the scalar's dtype for strong ones.
template <class V>
using value_dtype_t = strong_t<number_kind_t<V>>;

// The order= of a new array: C or F, as numpy.empty accepts.
inline void check_new_order(order o) {
  if (o != order::C && o != order::F) throw value_error("only 'C' or 'F' order is permitted");
}

template <class T, class S, class V>
auto make_full(const shape_t& shape, const V& value, order o) {
  check_new_order(o);
  using R = dtype_or_t<T, value_dtype_t<V>>;
  static_assert(is_dtype_v<R>, "cupp::full: the dtype must be a cupp dtype");
  checked_size(shape, sizeof(R));
  return generator<fill_fn<R>, S>(
      fill_fn<R>{fill_value<R>(value)}, shape,
      {contiguous_strides(shape, 1, o == order::F ? order::F : order::C)});
}

// full_like and friends: x's shape and the layout eval() of x would have
// (NumPy's order='K').
template <class T, class S, class E, class V>
auto make_full_like(const E& x, const V& value) {
  using X = operand_t<E>;
  using R = dtype_or_t<T, typename X::value_type>;
  static_assert(is_dtype_v<R>, "cupp::full_like: the dtype must be a cupp dtype");
  const auto& ox = as_operand(x);
  const shape_t shape = ox.shape();
  std::array<strides_t, X::slots> st;
  strides_t* p = st.data();
  ox.collect(p, shape);
  const strides_t layout =
      k_order_strides(shape, std::span<const strides_t>(st.data(), X::slots), 1);
  return generator<fill_fn<R>, S>(fill_fn<R>{fill_value<R>(value)}, shape, {layout});
}

// ---------------------------------------------------------------------------
// arange

// NumPy's length from a Python quotient: ceil, with its errors.
inline index_t arange_ceil(double q) CUPP_HOST_BODY({
  const double c = std::ceil(q);
  if (std::isnan(c)) throw value_error("arange: cannot compute length");
  if (!(c >= -9223372036854775808.0 && c < 9223372036854775808.0))
    throw value_error("Maximum allowed size exceeded");
  return static_cast<index_t>(c);
});

// Python's complex true division (CPython's algorithm).
inline std::pair<double, double> py_complex_quotient(double ar, double ai, double br, double bi) {
  const double abr = std::fabs(br), abi = std::fabs(bi);
  if (abr >= abi) {
    if (abr == 0.0) throw zero_division_error("complex division by zero");
    const double ratio = bi / br, denom = br + bi * ratio;
    return {(ar + ai * ratio) / denom, (ai - ar * ratio) / denom};
  }
  if (abi >= abr) {
    const double ratio = br / bi, denom = br * ratio + bi;
    return {(ar * ratio + ai) / denom, (ai * ratio - ar) / denom};
  }
  return {NAN, NAN};
}

// numpy.arange's length: ceil((stop - start) / step) in Python's
// arithmetic (exact for integers), 0 when stop == start; with a complex
// dtype and a complex quotient, the smaller of its parts' ceilings.
inline index_t arange_length(const py_number& start, const py_number& stop, const py_number& step,
                             bool complex_dtype) {
  using K = py_number::kind;
  const py_number diff = py_add(stop, start, -1);
  if (diff.k == K::integer && step.k == K::integer) {
    if (step.i == 0) throw zero_division_error("division by zero");
    if (diff.i == 0) return 0;
    __int128 q = diff.i / step.i;
    if ((diff.i % step.i != 0) && ((diff.i < 0) == (step.i < 0))) ++q;
    if (q > INT64_MAX) throw value_error("Maximum allowed size exceeded");
    return q < 0 ? 0 : static_cast<index_t>(q);
  }
  if (diff.k == K::complex || step.k == K::complex) {
    const auto [re, im] =
        py_complex_quotient(diff.as_double(), diff.imag(), step.as_double(), step.imag());
    if (diff.is_zero()) return 0;
    if (!complex_dtype)
      throw type_error("must be real number, not complex");  // float(quotient) in NumPy
    return std::max<index_t>(0, std::min(arange_ceil(re), arange_ceil(im)));
  }
  if (step.as_double() == 0) throw zero_division_error("float division by zero");
  if (diff.is_zero()) return 0;
  const double q = diff.as_double() / step.as_double();
  // A quotient that underflows (or a step of infinity) still leaves start
  // when it has stop's direction.
  if (q == 0) return std::signbit(q) ? 0 : 1;
  return std::max<index_t>(0, arange_ceil(q));
}

// The dtype numpy.arange gives its arguments: int64 for integers and bool,
// float64 once one is a floating-point number, complex128 for complex ones.
template <class... X>
using arange_dtype_t = std::conditional_t<
    (is_complex_v<value_dtype_t<X>> || ...), complex128,
    std::conditional_t<(is_floating_v<value_dtype_t<X>> || ...), double, std::int64_t>>;

template <class T, class S, class A, class B, class C>
auto make_arange(const A& start_arg, const B& stop_arg, const C& step_arg) {
  using R = dtype_or_t<T, arange_dtype_t<A, B, C>>;
  static_assert(is_dtype_v<R>, "cupp::arange: the dtype must be a cupp dtype");
  static_assert(is_complex_v<R> || !is_complex_v<arange_dtype_t<A, B, C>>,
                "cupp::arange: complex bounds or step need a complex dtype (NumPy raises "
                "TypeError)");
  const py_number start = to_py(start_arg), stop = to_py(stop_arg), step = to_py(step_arg);
  const index_t n = arange_length(start, stop, step, is_complex_v<R>);
  checked_size(shape_t{n}, sizeof(R));
  if (std::is_same_v<R, bool> && n > 2)
    throw type_error(
        "arange() is only supported for booleans when the result has at most length 2.");
  arange_fn<R> f{};
  if (n >= 1) f.first = py_to_element<R>(start);
  if (n >= 2) f.second = py_to_element<R>(py_add(start, step));
  if constexpr (is_integer_v<R>) {
    const auto wide = [](R v) {
      if constexpr (std::is_signed_v<R>)
        return static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
      else
        return static_cast<std::uint64_t>(v);
    };
    f.start = wide(f.first);
    f.delta = wide(f.second) - f.start;
  } else if constexpr (is_low_float_v<R>) {
    f.start = to_float(f.first);
    f.delta = to_float(f.second) - f.start;
  } else if constexpr (is_complex_v<R>) {
    f.start = f.first;
    f.delta = R(f.second.real() - f.first.real(), f.second.imag() - f.first.imag());
  } else if constexpr (!std::is_same_v<R, bool>) {
    f.start = f.first;
    f.delta = f.second - f.first;
  }
  return one_d<arange_fn<R>, S>(f, n);
}

// ---------------------------------------------------------------------------
// linspace, logspace, geomspace

// The dtype numpy.linspace computes in: the promoted dtype of start and
// stop, at least float64 (C++ numbers are weak, as Python's).
template <class A, class B>
using linspace_dtype_t = inexact_or_double_t<promote_t<number_kind_t<A>, number_kind_t<B>>>;

inline void check_num(index_t num) CUPP_HOST_BODY({
  if (num < 0)
    throw value_error("Number of samples, " + std::to_string(num) + ", must be non-negative.");
});

// numpy.linspace's steps in dtype D, from start and stop already in D.
template <class D>
linspace_fn<D, D> linspace_in(D start, D stop, index_t num, bool endpoint, D* step_out = nullptr) {
  check_num(num);
  const index_t div = endpoint ? num - 1 : num;
  linspace_fn<D, D> f{};
  f.start = start;
  f.stop = stop;
  f.last = endpoint && num > 1 ? num - 1 : -1;
  const D delta = d_sub(stop, start);
  D step = convert<D>(std::numeric_limits<double>::quiet_NaN());
  if (div > 0) {
    f.divisor = convert<D>(div);
    step = d_div(delta, f.divisor);
    if (d_is_zero(step)) {  // NumPy divides first when the step underflows
      f.mode = linspace_fn<D, D>::tiny_mode;
      f.scale = delta;
    } else {
      f.mode = linspace_fn<D, D>::step_mode;
      f.scale = step;
    }
  } else {
    f.mode = linspace_fn<D, D>::delta_mode;
    f.divisor = convert<D>(1);
    f.scale = delta;
  }
  if (step_out) *step_out = step;
  return f;
}

template <class D, class R>
linspace_fn<D, R> retarget(const linspace_fn<D, D>& f) {
  return {f.start,   f.stop, f.scale,
          f.divisor, f.last, static_cast<typename linspace_fn<D, R>::mode_t>(f.mode)};
}

template <class T, class S, class A, class B>
auto make_linspace(const A& start, const B& stop, index_t num, bool endpoint,
                   linspace_dtype_t<A, B>* step = nullptr) {
  using D = linspace_dtype_t<A, B>;
  using R = dtype_or_t<T, D>;
  static_assert(is_dtype_v<R>, "cupp::linspace: the dtype must be a cupp dtype");
  static_assert(!(is_integer_v<R> && is_complex_v<D>),
                "cupp::linspace: an integer dtype floors the samples, which complex samples do "
                "not allow (NumPy raises TypeError)");
  const auto f = linspace_in<D>(scalar_as<D>(start), scalar_as<D>(stop), num, endpoint, step);
  checked_size(shape_t{num}, sizeof(R));
  return one_d<linspace_fn<D, R>, S>(retarget<D, R>(f), num);
}

template <class T, class S, class A, class B, class Base>
auto make_logspace(const A& start, const B& stop, index_t num, bool endpoint, const Base& base) {
  using D = linspace_dtype_t<A, B>;
  using P = promote_t<number_kind_t<Base>, D>;  // numpy.power(base, samples)
  using R = dtype_or_t<T, P>;
  static_assert(is_dtype_v<R>, "cupp::logspace: the dtype must be a cupp dtype");
  const auto lin = linspace_in<D>(scalar_as<D>(start), scalar_as<D>(stop), num, endpoint);
  checked_size(shape_t{num}, sizeof(R));
  return one_d<logspace_fn<D, P, R>, S>(logspace_fn<D, P, R>{lin, scalar_as<P>(base)}, num);
}

// numpy.sign: -1, 0, 1 or NaN; z / |z| for complex numbers (NumPy 2).
template <class D>
D sign_of(D x) {
  if constexpr (is_complex_v<D>) {
    using F = typename D::value_type;
    const F r = x.real(), i = x.imag(), a = std::hypot(r, i);
    if (std::isnan(a)) return D(NAN, NAN);
    if (std::isinf(a)) {
      if (std::isinf(r) && std::isinf(i)) return D(NAN, NAN);
      return std::isinf(r) ? D(r > 0 ? 1 : -1, 0) : D(0, i > 0 ? 1 : -1);
    }
    if (a == 0) return D(0, 0);
    return D(r / a, i / a);
  } else {
    const double v = static_cast<double>(convert<double>(x));
    return convert<D>(std::isnan(v) ? v : v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0);
  }
}

// numpy.log10 in D; for complex numbers NumPy scales clog by log10(e).
template <class D>
D log10_of(D x) {
  if constexpr (is_low_float_v<D>) {
    return convert<D>(std::log10(to_float(x)));
  } else if constexpr (is_complex_v<D>) {
    using F = typename D::value_type;
    const std::complex<F> l = std::log(std::complex<F>(x.real(), x.imag()));
    constexpr F log10e = static_cast<F>(0.434294481903251827651128918916605082);
    return D(l.real() * log10e, l.imag() * log10e);
  } else {
    return std::log10(x);
  }
}

template <class T, class S, class A, class B>
auto make_geomspace(const A& start, const B& stop, index_t num, bool endpoint) {
  // result_type(asarray(start), asarray(stop), float(num), zeros((), dtype))
  using D = promote_t<strong_t<number_kind_t<A>>, strong_t<number_kind_t<B>>, weak_float,
                      dtype_or_t<T, double>>;
  using R = dtype_or_t<T, D>;
  static_assert(is_dtype_v<R>, "cupp::geomspace: the dtype must be a cupp dtype");
  if (to_py(start).is_zero() || to_py(stop).is_zero())
    throw value_error("Geometric sequence cannot include zero");
  const D s = scalar_as<D>(start), e = scalar_as<D>(stop);
  const D sign = sign_of(s);
  const D first = d_div(s, sign), final_value = d_div(e, sign);
  const auto lin = linspace_in<D>(log10_of(first), log10_of(final_value), num, endpoint);
  checked_size(shape_t{num}, sizeof(R));
  const index_t last = endpoint && num > 1 ? num - 1 : -1;
  return one_d<geomspace_fn<D, R>, S>(geomspace_fn<D, R>{lin, first, final_value, sign, last}, num);
}

// ---------------------------------------------------------------------------
// eye, tri, indices

template <class T, bool Lower, class S>
auto make_diagonal(index_t n, index_t m, index_t k, order o) {
  static_assert(is_dtype_v<T>, "cupp::eye/tri: the dtype must be a cupp dtype");
  check_new_order(o);
  const shape_t shape{n, m};
  checked_size(shape, sizeof(T));
  strides_t st;
  const auto d = make_decoder<2>(shape, o, st);
  return generator<diagonal_fn<T, Lower>, S>(
      diagonal_fn<T, Lower>{d, k, convert<T>(1), convert<T>(0)}, shape, {st});
}

template <class T, class S>
auto make_indices(const shape_t& dims) {
  static_assert(is_dtype_v<T>, "cupp::indices: the dtype must be a cupp dtype");
  shape_t shape{static_cast<index_t>(dims.size())};
  for (index_t e : dims) shape.push_back(e);
  checked_size(shape, sizeof(T));
  // NumPy builds each axis with arange(extent, dtype=dtype).
  if (std::is_same_v<T, bool>)
    for (index_t e : dims)
      if (e > 2)
        throw type_error(
            "arange() is only supported for booleans when the result has at most length 2.");
  strides_t st;
  const auto d = make_decoder<max_ndim>(shape, order::C, st);
  return generator<indices_fn<T>, S>(indices_fn<T>{d}, shape, {st});
}

template <class T, class S>
auto make_sparse_indices(const shape_t& dims) {
  static_assert(is_dtype_v<T>, "cupp::sparse_indices: the dtype must be a cupp dtype");
  checked_size(dims, sizeof(T));
  std::vector<generator<position_fn<T>, S>> out;
  for (int i = 0; i < dims.size(); ++i) {
    shape_t shape = shape_t::filled(dims.size(), 1);
    strides_t st = strides_t::filled(dims.size(), 0);
    shape[i] = dims[i];
    st[i] = 1;
    out.emplace_back(position_fn<T>{}, shape, std::array<strides_t, 1>{st});
  }
  return out;
}

}  // namespace cupp::detail
