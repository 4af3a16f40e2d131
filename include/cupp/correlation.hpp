// numpy.cov, corrcoef, correlate and convolve for device arrays, host
// arrays and lazy expressions. Needs cupp::matmul, so a program that uses
// it links cupp::linalg. See docs/linalg.md.
//
// cov centres the observations with one fused expression and multiplies
// them by their conjugate transpose in one gemm (cuBLAS on the device,
// OpenBLAS on the host) whose alpha is the normalisation 1 / (N - ddof):
// the conjugate transpose is the gemm's op, not a copy. corrcoef divides
// by the standard deviations and clips in one more element-wise kernel.
// correlate and convolve run a kernel of cupp's own (one thread per output
// element, the shorter operand staged in shared memory), no FFT. cov's
// keyword arguments, cupp::cov_options, are in
// <cupp/linalg/linalg_arguments.hpp>.
#pragma once

#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include <cupp/space_check.hpp>
#include <cupp/detail/linalg/correlation_common.hpp>
#include <cupp/detail/linalg/correlation_kernel.hpp>
#include <cupp/detail/linalg/correlation_run.hpp>
#include <cupp/errors.hpp>
#include <cupp/expression.hpp>
#include <cupp/joining.hpp>
#include <cupp/linalg/linalg_arguments.hpp>
#include <cupp/linalg/matmul.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

namespace cupp {

// numpy.cov(m, rowvar=, bias=, ddof=, dtype=): the covariance matrix of the
// variables in m's rows (its columns with rowvar false), a 2-d array (0-d
// for one variable). float64 for integer, bool and float16/32 input,
// complex128 for complex input, or cupp::cov<Dtype>(...).
template <class Dtype = void, Expression M>
auto cov(const M& m, const cov_options& options = {}) {
  return detail::cov_dispatch<Dtype>(m, none, options, none, none);
}

// numpy.cov(m, y, ...): y's variables after m's.
template <class Dtype = void, Expression M, Expression Y>
auto cov(const M& m, const Y& y, const cov_options& options = {}) {
  CUPP_SAME_SPACE(M, Y);
  return detail::cov_dispatch<Dtype>(m, y, options, none, none);
}

// numpy.cov(m, y, ..., fweights=, aweights=): y and either weight may be
// cupp::none; fweights are integral frequencies, aweights observation
// weights (1-d, one per observation). The weights' checks and sums read
// back from the device (a synchronisation). A weighted result is float64
// (complex128) even for dtype=float32, as NumPy's.
template <class Dtype = void, Expression M, detail::expression_or_none Y,
          detail::expression_or_none F, detail::expression_or_none A = none_t>
auto cov(const M& m, const Y& y, const cov_options& options, const F& fweights,
         const A& aweights = none) {
  CUPP_SAME_SPACE(M, Y, F, A);
  return detail::cov_dispatch<Dtype>(m, y, options, fweights, aweights);
}

// numpy.corrcoef(x, rowvar=): Pearson's correlation coefficients, clipped
// to [-1, 1] (real and imaginary parts apart for complex input), a 2-d
// array (0-d for one variable).
template <class Dtype = void, Expression X>
auto corrcoef(const X& x, bool rowvar = true) {
  return detail::corrcoef_of<Dtype>(x, none, rowvar);
}
// numpy.corrcoef(x, y, rowvar=).
template <class Dtype = void, Expression X, Expression Y>
auto corrcoef(const X& x, const Y& y, bool rowvar = true) {
  CUPP_SAME_SPACE(X, Y);
  return detail::corrcoef_of<Dtype>(x, y, rowvar);
}

// numpy.correlate(a, v, mode="valid"): c[k] = sum_n a[n + k] * conj(v[n])
// for 1-d a and v, mode "valid", "same" or "full";
// the dtype is NumPy's result_type(a, v) (integers wrap as NumPy's).
template <Expression A, Expression V>
auto correlate(const A& a, const V& v, std::string_view mode = "valid") {
  CUPP_SAME_SPACE(A, V);
  using R = detail::correlate_t<A, V>;
  using S = detail::corr_space_t<A>;
  static_assert(!same_space_v<A, V> || std::is_same_v<detail::corr_space_t<V>, S>,
                "cupp::correlate: the operands live in different spaces (host and device)");
  const int m = detail::correlate_mode(mode);
  const ndarray<R, S> x = detail::correlate_operand<R, S>(a, true);
  const ndarray<R, S> y = detail::correlate_operand<R, S>(v, true);
  if (x.size() == 0) throw value_error("first array argument cannot be empty");
  if (y.size() == 0) throw value_error("second array argument cannot be empty");
  return detail::correlate_arrays(x, false, y, detail::is_complex_type_v<R>, m);
}

// numpy.convolve(a, v, mode="full"): the discrete convolution of 1-d a
// and v, NumPy's correlate of the longer with the shorter reversed (no
// conjugation).
template <Expression A, Expression V>
auto convolve(const A& a, const V& v, std::string_view mode = "full") {
  CUPP_SAME_SPACE(A, V);
  using R = detail::correlate_t<A, V>;
  using S = detail::corr_space_t<A>;
  static_assert(!same_space_v<A, V> || std::is_same_v<detail::corr_space_t<V>, S>,
                "cupp::convolve: the operands live in different spaces (host and device)");
  ndarray<R, S> x = detail::correlate_operand<R, S>(a, false);
  ndarray<R, S> y = detail::correlate_operand<R, S>(v, false);
  if (x.size() == 0) throw value_error("a cannot be empty");
  if (y.size() == 0) throw value_error("v cannot be empty");
  if (y.size() > x.size()) std::swap(x, y);
  const int m = detail::correlate_mode(mode);
  return detail::correlate_arrays(x, false, y(slice(_, _, -1)), false, m);
}

}  // namespace cupp
