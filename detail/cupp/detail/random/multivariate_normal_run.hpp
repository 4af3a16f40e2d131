// The engine of numpy.random.Generator.multivariate_normal for cupp's
// Generators, as NumPy forms it: z = standard_normal(size + (k,)) from the
// generator, then mean + z @ factor^T with factor from the covariance by
// linear algebra's engines (detail/linalg/: svd: u sqrt(s); eigh: u
// sqrt(|s|); cholesky: L), the factorisation and the product in the
// generator's space (cuSOLVER and cuBLAS for device generators, LAPACK and
// OpenBLAS for host ones). <cupp/random/multivariate.hpp> brings it and
// the linear algebra it instantiates with.
//
// BitGen is the bit generator (cupp::random::philox, an API type of
// <cupp/random/bit_generator.hpp>) and basic_generator the Generator
// (declared by <cupp/random/generator_fwd.hpp>): both complete where the
// Generator calls in. F, the dtype of the covariance's host copy, is
// float64 (NumPy factors in float64): a template parameter so that the
// host arrays, like every array here, are complete only where
// <cupp/random/multivariate.hpp> instantiates the templates. Two calls are
// found through the arrays' namespace at that instantiation: `product + m`
// (the arrays' operator+) and on_space's asarray(h) (cupp::asarray, a host
// array to the device, of <cupp/creation.hpp>), which have no internal
// forms.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string_view>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>
#include <cupp/detail/linalg/eigen_run.hpp>
#include <cupp/detail/linalg/product_operand.hpp>
#include <cupp/detail/linalg/product_run.hpp>
#include <cupp/detail/linalg/solve_run.hpp>
#include <cupp/detail/linalg/svd_run.hpp>
#include <cupp/detail/random/draw_spaces.hpp>
#include <cupp/detail/random/vector_draw_run.hpp>
#include <cupp/random/generator_fwd.hpp>

namespace cupp::random::detail {

// A copy of any array as a host float64 array (host::ndarray<double>).
template <class U, class AS>
auto host_float64(const ndarray<U, AS>& a) {
  if constexpr (std::is_same_v<AS, device_space>)
    return a.get().template astype<double>();
  else
    return a.template astype<double>();
}

template <class Space, class F>
ndarray<F, Space> on_space(const host::ndarray<F>& h) {
  if constexpr (std::is_same_v<Space, device_space>)
    return asarray(h);
  else
    return h;
}

template <class Space, class F>
host::ndarray<F> to_host(const ndarray<F, Space>& a) {
  if constexpr (std::is_same_v<Space, device_space>)
    return a.get();
  else
    return a.copy();
}

// NumPy's RuntimeWarning, printed the first time only (Python's default
// filter shows a warning once per place).
inline void warn_not_psd() {
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true))
    std::cerr << "RuntimeWarning: covariance is not symmetric positive-semidefinite.\n";
}

// numpy.allclose(u diag(s) vh, cov, rtol=tol, atol=tol): the svd method's
// test that cov is symmetric positive-semidefinite (a non-symmetric or
// indefinite cov does not come back from its singular values and vectors).
template <class F>
bool svd_reconstructs(const host::ndarray<F>& u, const host::ndarray<F>& s,
                      const host::ndarray<F>& vh, const host::ndarray<F>& cov, double tol) {
  const index_t k = cov.shape()[0];
  for (index_t i = 0; i < k; ++i)
    for (index_t j = 0; j < k; ++j) {
      double back = 0;
      for (index_t l = 0; l < k; ++l) back += vh.at(l, i) * s.at(l) * vh.at(l, j);
      const double want = cov.at(i, j);
      if (!(std::fabs(back - want) <= tol + tol * std::fabs(want))) return false;
    }
  (void)u;
  return true;
}

// factor^T as NumPy forms factor: the transposed factor, in the generator's
// space, ready to multiply rows of normals. Throws NumPy's errors.
template <class Space, class F>
ndarray<F, Space> normal_factor_t(const host::ndarray<F>& cov, std::string_view check_valid,
                                  double tol, std::string_view method) {
  const index_t k = cov.shape()[0];
  const ndarray<F, Space> c = on_space<Space>(cov);
  host::ndarray<F> factor(shape_t{k, k});
  if (method == "cholesky") {
    factor = to_host<Space>(ndarray<F, Space>(::cupp::detail::cholesky_array<F, Space>(
        ::cupp::detail::product_operand<F, Space>(c), false)));
  } else {
    host::ndarray<F> u, s;
    bool psd;
    if (method == "eigh") {
      auto [w, v] = ::cupp::detail::eigh_arrays<F, Space>(
          ::cupp::detail::product_operand<F, Space>(c), 'L', true);
      u = to_host<Space>(v);
      s = to_host<Space>(w);
      psd = true;
      for (index_t i = 0; i < k; ++i) psd = psd && !(s.at(i) < -tol);
    } else {
      auto [uu, ss, vh] =
          ::cupp::detail::svd_of(::cupp::detail::product_operand<F, Space>(c), true, true, false);
      u = to_host<Space>(uu);
      s = to_host<Space>(ss);
      psd = check_valid == "ignore" || svd_reconstructs(u, s, to_host<Space>(vh), cov, tol);
    }
    if (check_valid != "ignore") {
      if (check_valid != "warn" && check_valid != "raise")
        throw value_error("check_valid must equal 'warn', 'raise', or 'ignore'");
      if (!psd) {
        if (check_valid == "raise")
          throw value_error("covariance is not symmetric positive-semidefinite.");
        warn_not_psd();
      }
    }
    // eigh takes |s|: an eigenvalue that rounding (or an indefinite cov
    // under 'ignore') made negative gives no NaN.
    for (index_t i = 0; i < k; ++i)
      for (index_t j = 0; j < k; ++j)
        factor.at(i, j) = u.at(i, j) * std::sqrt(method == "eigh" ? std::fabs(s.at(j)) : s.at(j));
  }
  host::ndarray<F> transposed(shape_t{k, k});
  for (index_t i = 0; i < k; ++i)
    for (index_t j = 0; j < k; ++j) transposed.at(j, i) = factor.at(i, j);
  return on_space<Space>(transposed);
}

template <class T>
requires std::is_same_v<T, float> || std::is_same_v<T, double>
struct multivariate_normal_impl<T> {
  // numpy.random.Generator.multivariate_normal(mean, cov, size,
  // check_valid, tol, method): shape size + (k,), float64 (float32 on
  // request, rounded from the float64 values).
  template <class S, class MT, class MS, class CT, class CS, class BitGen>
  static ndarray<T, draw_space_t<S>> draw(BitGen& bg, const ndarray<MT, MS>& mean,
                                          const ndarray<CT, CS>& cov, const shape_t& size,
                                          std::string_view check_valid = "warn", double tol = 1e-8,
                                          std::string_view method = "svd") {
    using Space = draw_space_t<S>;
    if (method != "svd" && method != "eigh" && method != "cholesky")
      throw value_error("method must be one of {'eigh', 'svd', 'cholesky'}");
    if (mean.ndim() != 1) throw value_error("mean must be 1 dimensional");
    if (cov.ndim() != 2 || cov.shape()[0] != cov.shape()[1])
      throw value_error("cov must be 2 dimensional and square");
    const index_t k = mean.shape()[0];
    if (k != cov.shape()[0]) throw value_error("mean and cov must have same length");
    const shape_t shape = vector_draw_shape(size, k);
    if (k == 0) return ndarray<T, Space>(shape);
    const ndarray<double, Space> factor_t =
        normal_factor_t<Space>(host_float64(cov), check_valid, tol, method);
    const ndarray<double, Space> m = on_space<Space>(host_float64(mean));
    const index_t rows = ::cupp::detail::size_of(size);
    // The generator's own standard_normal, so that the normals are the
    // ones rng.standard_normal(size + (k,)) would have given.
    basic_generator<S> normals(bg);
    const ndarray<double, Space> z = normals.template standard_normal<double>(shape_t{rows, k});
    bg = normals.bit_generator();
    if (rows == 0) return ndarray<T, Space>(shape);
    const ndarray<double, Space> product =
        ::cupp::detail::matmul_arrays<double, Space>(z, factor_t);
    const ndarray<double, Space> x = product + m;
    if constexpr (std::is_same_v<T, double>)
      return x.reshape(shape);
    else
      return x.template astype<T>().reshape(shape);
  }
};

}  // namespace cupp::random::detail
