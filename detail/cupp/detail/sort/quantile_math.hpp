// The arithmetic of numpy.quantile and numpy.median on one sorted row, the
// same on the host and the device: NumPy 2's 13 methods (virtual index,
// neighbours, gamma and the two-sided _lerp, rounding as NumPy's dtype
// promotion does), the median's mean of the middle pair, and NaN rules.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/numerics/rounded.hpp>
#include <cupp/detail/sort/sort_keys.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail::quantiles {

enum class method : int {
  inverted_cdf,
  averaged_inverted_cdf,
  closest_observation,
  interpolated_inverted_cdf,
  hazen,
  weibull,
  linear,
  median_unbiased,
  normal_unbiased,
  lower,
  higher,
  midpoint,
  nearest,
};

inline constexpr std::string_view method_names[] = {"inverted_cdf",
                                                    "averaged_inverted_cdf",
                                                    "closest_observation",
                                                    "interpolated_inverted_cdf",
                                                    "hazen",
                                                    "weibull",
                                                    "linear",
                                                    "median_unbiased",
                                                    "normal_unbiased",
                                                    "lower",
                                                    "higher",
                                                    "midpoint",
                                                    "nearest"};

inline method parse_method(std::string_view name) {
  for (int i = 0; i < 13; ++i)
    if (method_names[i] == name) return static_cast<method>(i);
  std::string keys;
  for (int i = 0; i < 13; ++i) keys += (i ? ", '" : "'") + std::string(method_names[i]) + "'";
  throw value_error("'" + std::string(name) + "' is not a valid method. Use one of: dict_keys([" +
                    keys + "])");
}

// Methods that pick one element (NumPy's fix_gamma None): their result
// needs no arithmetic on the values.
CUPP_HD inline bool is_discrete(method m) {
  return m == method::inverted_cdf || m == method::closest_observation || m == method::lower ||
         m == method::higher || m == method::nearest;
}

template <class T>
CUPP_HD bool is_nan_value(const T& v) {
  if constexpr (sorting::is_complex_v<T>) {
    return is_nan_value(v.real()) || is_nan_value(v.imag());
  } else if constexpr (sorting::is_floating_v<T>) {
    return sorting::is_nan_bits<T>(sorting::bits_of(v));
  } else {
    (void)v;
    return false;
  }
}

// The non-NaN count of a sorted row (NaNs last): a binary search.
template <class T>
CUPP_HD index_t valid_count(const T* row, index_t n) {
  if constexpr (!sorting::is_floating_v<T> && !sorting::is_complex_v<T>) {
    (void)row;
    return n;
  } else {
    index_t lo = 0, hi = n;
    while (lo < hi) {
      const index_t mid = lo + (hi - lo) / 2;
      if (is_nan_value(row[mid]))
        hi = mid;
      else
        lo = mid + 1;
    }
    return lo;
  }
}

// Python's x % 2 == 1 for an integral double.
CUPP_HD inline bool python_odd(double x) {
  return x - 2.0 * std::floor(x / 2.0) == 1.0;
}

// NumPy rounds after every operation; nvcc would fuse a multiplication
// and an addition into one rounding (an FMA), a last-bit difference from
// NumPy. These (the numerics floor's) keep the roundings apart on the device.
using numerics::add_rn;
using numerics::mul_rn;

// Where a quantile lies among n sorted values: the two neighbours and the
// interpolation weight (discrete methods: lo == hi).
struct point {
  index_t lo, hi;
  double t;
};

// NumPy's _discrete_interpolation_to_boundaries.
CUPP_HD inline index_t to_boundary(double index, bool closest) {
  const double previous = std::floor(index);
  const double gamma = index - previous;
  const bool take_previous = closest ? (gamma == 0 && python_odd(previous)) : gamma == 0;
  const double r = take_previous ? previous : previous + 1;
  return r < 0 ? 0 : static_cast<index_t>(r);
}

CUPP_HD inline double virtual_index(double n, double q, double alpha, double beta) {
  return add_rn(add_rn(mul_rn(n, q), add_rn(alpha, mul_rn(q, 1 - alpha - beta))), -1.0);
}

// n >= 1 values, 0 <= q <= 1.
CUPP_HD inline point locate(method m, index_t count, double q) {
  const double n = static_cast<double>(count);
  const double last = n - 1;
  switch (m) {
    case method::inverted_cdf: {
      const index_t i = to_boundary(add_rn(mul_rn(n, q), -1.0), false);
      return {i, i, 0};
    }
    case method::closest_observation: {
      const index_t i = to_boundary(add_rn(add_rn(mul_rn(n, q), -1.0), -0.5), true);
      return {i, i, 0};
    }
    case method::lower: {
      const index_t i = static_cast<index_t>(std::floor(last * q));
      return {i, i, 0};
    }
    case method::higher: {
      const index_t i = static_cast<index_t>(std::ceil(last * q));
      return {i, i, 0};
    }
    case method::nearest: {
      const index_t i = static_cast<index_t>(std::nearbyint(last * q));
      return {i, i, 0};
    }
    default:
      break;
  }
  double v = 0;
  switch (m) {
    case method::averaged_inverted_cdf:
      v = add_rn(mul_rn(n, q), -1.0);
      break;
    case method::interpolated_inverted_cdf:
      v = virtual_index(n, q, 0, 1);
      break;
    case method::hazen:
      v = virtual_index(n, q, 0.5, 0.5);
      break;
    case method::weibull:
      v = virtual_index(n, q, 0, 0);
      break;
    case method::median_unbiased:
      v = virtual_index(n, q, 1 / 3.0, 1 / 3.0);
      break;
    case method::normal_unbiased:
      v = virtual_index(n, q, 3 / 8.0, 3 / 8.0);
      break;
    case method::midpoint:
      v = 0.5 * (std::floor(last * q) + std::ceil(last * q));
      break;
    default:
      v = last * q;
      break;
  }
  // NumPy's _get_indexes: past the ends both neighbours are the end
  // element; gamma is then taken against the index -1 or 0 it stored.
  double previous = std::floor(v);
  index_t lo = static_cast<index_t>(previous), hi = lo + 1;
  if (v >= last) {
    previous = -1;
    lo = hi = count - 1;
  }
  if (v < 0) {
    previous = 0;
    lo = hi = 0;
  }
  double gamma = v - previous;
  if (m == method::averaged_inverted_cdf) gamma = gamma == 0 ? 0.5 : 1.0;
  if (m == method::midpoint) gamma = std::fmod(v, 1.0) == 0 ? 0.0 : 0.5;
  return {lo, hi, gamma};
}

// Arithmetic rounded to T after each operation, as NumPy's ufuncs on T.
template <class T>
CUPP_HD T round_to(double v) {
  if constexpr (is_low_float_v<T>)
    return convert<T>(static_cast<float>(v));
  else
    return static_cast<T>(v);
}
template <class T>
CUPP_HD double widen(T v) {
  if constexpr (is_low_float_v<T>)
    return static_cast<double>(to_float(v));
  else
    return static_cast<double>(v);
}

// b - a in T (integers wrap, as NumPy's subtract on them does).
template <class T>
CUPP_HD T difference(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a != b;  // never reached: NumPy refuses to interpolate bools
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(b) - static_cast<U>(a)));
  } else if constexpr (is_low_float_v<T>) {
    return convert<T>(to_float(b) - to_float(a));
  } else {
    return b - a;
  }
}

// NumPy's _lerp(a, b, t) with the result (and the operations) in R: R is
// T for a float T with a scalar q (NumPy's weak Python float gamma), else
// double. a + (b-a)*t, or b - (b-a)*(1-t) where t >= 0.5.
template <class R, class T>
CUPP_HD R lerp(T a, T b, double t) {
  const T diff = difference(a, b);
  if constexpr (std::is_same_v<R, double>) {
    const double d = widen(diff);
    if (t >= 0.5) return add_rn(widen(b), -mul_rn(d, 1 - t));
    return add_rn(widen(a), mul_rn(d, t));
  } else if constexpr (is_low_float_v<R>) {
    const float d = to_float(diff);
    if (t >= 0.5) {
      const R step = round_to<R>(d * to_float(round_to<R>(1 - t)));
      return round_to<R>(to_float(b) - to_float(step));
    }
    const R step = round_to<R>(d * to_float(round_to<R>(t)));
    return round_to<R>(to_float(a) + to_float(step));
  } else {
    if constexpr (is_complex_type_v<R>) {
      if (t >= 0.5) return b - diff * static_cast<R>(1 - t);
      return a + diff * static_cast<R>(t);
    } else {
      if (t >= 0.5) return add_rn(b, -mul_rn(diff, static_cast<R>(1 - t)));
      return add_rn(a, mul_rn(diff, static_cast<R>(t)));
    }
  }
}

// The quantile at `p` of the sorted values v[0..) as R.
template <class R, class T>
CUPP_HD R at_point(const T* v, const point& p, bool discrete) {
  if (discrete) return convert<R>(v[p.lo]);
  return lerp<R>(v[p.lo], v[p.hi], p.t);
}

// The type numpy.mean accumulates a median's middle pair in.
template <class T>
using median_acc_t = std::conditional_t<std::is_integral_v<T>, double,
                                        std::conditional_t<is_low_float_v<T>, float, T>>;

// numpy.median's result dtype.
template <class T>
using median_t = std::conditional_t<std::is_integral_v<T>, double, T>;

template <class T>
CUPP_HD median_t<T> middle_mean(const T* v, index_t count) {
  using A = median_acc_t<T>;
  using R = median_t<T>;
  const A a = convert<A>(v[(count - 1) / 2]);
  if (count % 2 == 1) return convert<R>(a);
  const A b = convert<A>(v[count / 2]);
  return convert<R>((a + b) / A(2));
}

template <class R>
CUPP_HD R nan_of() {
  if constexpr (sorting::is_complex_v<R>) {
    using F = typename R::value_type;
    return R(sorting::canonical_nan<F>(), F(0));
  } else if constexpr (sorting::is_floating_v<R>) {
    return sorting::canonical_nan<R>();
  } else {
    return R(0);
  }
}

// What one output needs of its row.
struct query {
  method how;
  bool skip_nan;  // the nan-variant
  bool median;    // numpy.median's mean of the middle pair
};

// A slice's result is its last sorted element (a NaN) when the plain
// functions meet a NaN, or numpy.nanmedian an all-NaN slice; it is NaN when
// numpy.nanquantile meets an all-NaN slice.
CUPP_HD inline bool takes_last(const query& qy, index_t count, index_t valid) {
  return count > 0 && ((!qy.skip_nan && valid < count) || (qy.median && valid == 0));
}

// The positions (lo, hi) that the result of `qv` on a sorted row with
// `count` values (`valid` of them not NaN) reads; {0, 0} when it reads none.
CUPP_HD inline point positions(const query& qy, double qv, index_t count, index_t valid) {
  if (takes_last(qy, count, valid)) return {count - 1, count - 1, 0};
  const index_t used = qy.skip_nan ? valid : count;
  if (used == 0) return {0, 0, 0};
  if (qy.median) return {(used - 1) / 2, used / 2, 0};
  return locate(qy.how, used, qv);
}

// The result from the two values at p.lo and p.hi (lo_value, hi_value).
template <class R, class T>
CUPP_HD R finish(const query& qy, const point& p, T lo_value, T hi_value, index_t count,
                 index_t valid) {
  if (takes_last(qy, count, valid)) return convert<R>(lo_value);
  const index_t used = qy.skip_nan ? valid : count;
  if (used == 0) return nan_of<R>();
  if (qy.median) {
    const T pair[2] = {lo_value, hi_value};
    return middle_mean(pair, p.lo == p.hi ? 1 : 2);
  }
  if (is_discrete(qy.how)) return convert<R>(lo_value);
  return lerp<R>(lo_value, hi_value, p.t);
}

// One output from its sorted row.
template <class R, class T>
CUPP_HD R of_sorted_row(const query& qy, double qv, const T* row, index_t count) {
  if (count == 0) return nan_of<R>();
  const index_t valid = valid_count(row, count);
  const point p = positions(qy, qv, count, valid);
  return finish<R>(qy, p, row[p.lo], row[p.hi], count, valid);
}

}  // namespace cupp::detail::quantiles
