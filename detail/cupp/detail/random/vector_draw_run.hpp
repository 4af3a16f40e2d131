// The engines of the Generator's draws of whole vectors that need no
// linear algebra: dirichlet, multinomial and multivariate_hypergeometric
// (numpy.random.Generator's), each an array of shape size + (k,) computed
// at once by a kernel of its own (one thread per row) or, for host
// generators, by a host loop: row r is a pure function of the generator's
// key, the draw's first counter block and r, so both give the same bits.
// Their checks are NumPy's, in its order, before the generator advances.
// Also the declaration of multivariate_normal's body, which
// <cupp/random/multivariate.hpp> defines.
//
// BitGen is the bit generator the draws take their counter blocks from
// (cupp::random::philox, an API type of <cupp/random/bit_generator.hpp>):
// a template parameter here, complete where basic_generator calls in.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>
#include <cupp/detail/random/draw.hpp>
#include <cupp/detail/random/draw_spaces.hpp>
#include <cupp/detail/random/exact_math.hpp>
#include <cupp/detail/random/samplers_vector.hpp>
#include <cupp/detail/random/vector_rows.hpp>

namespace cupp::random::detail {

// size + (k,), and the number of rows it holds.
inline shape_t vector_draw_shape(const shape_t& size, index_t k) {
  shape_t out = size;
  out.push_back(k);
  return out;
}

// A host vector as an array of space S (the parameters the rows read):
// to_space's copy (draw_spaces.hpp), the one cupp::host::asarray and
// cupp::asarray make.
template <class S, class T>
ndarray<T, S> parameters_on(const std::vector<T>& v) {
  return to_space<S>(v);
}

// Rows of F into a new array of shape size + (k,), taking one counter
// index per row from bg. make(site) builds the row sampler.
template <class S, class F, class BitGen, class Make>
ndarray<typename F::value_type, draw_space_t<S>> vector_draw(BitGen& bg, const shape_t& size,
                                                             index_t k, const Make& make) {
  using T = typename F::value_type;
  using Space = draw_space_t<S>;
  const shape_t shape = vector_draw_shape(size, k);
  ndarray<T, Space> out(shape);
  const index_t rows = ::cupp::detail::size_of(size);
  const F f = make(bg.take(static_cast<std::uint64_t>(rows)));
  if (k == 0 || rows == 0) return out;
  if constexpr (std::is_same_v<Space, device_space>) {
#if defined(__CUDACC__)
    ::cupp::detail::random::device_rows(f, rows, k, out.data(), out.device_id());
#else
    CUPP_NEEDS_NVCC(T);
#endif
  } else {
    ::cupp::detail::random::host_rows(f, rows, k, out.data());
  }
  return out;
}

// numpy.random.Generator.dirichlet(alpha, size): float64 (or float32 on
// request); alpha = 0 entries give 0, as NumPy's.
template <class T, class S, class BitGen>
ndarray<T, draw_space_t<S>> dirichlet(BitGen& bg, const std::vector<double>& alpha,
                                      const shape_t& size) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "dirichlet: the dtype must be float32 or float64");
  using Space = draw_space_t<S>;
  const auto k = static_cast<index_t>(alpha.size());
  bool all_below = k > 0, all_zero = true;
  for (double a : alpha) {
    if (a < 0) throw value_error("alpha < 0");
  }
  std::vector<T> a(alpha.size()), tail(alpha.size());
  T sum = T(0);
  for (index_t j = k - 1; j >= 0; --j) {
    a[j] = static_cast<T>(alpha[j]);
    all_below = all_below && alpha[j] < 0.1;  // false for NaN, as NumPy's max() < 0.1
    all_zero = all_zero && alpha[j] == 0;
    sum = ::cupp::detail::random::xm::add(sum, a[j]);
    tail[j] = sum;
  }
  const ndarray<T, Space> on_space = parameters_on<Space>(a);
  const ndarray<T, Space> tail_on_space = parameters_on<Space>(tail);
  using F = ::cupp::detail::random::dirichlet_rows<T>;
  return vector_draw<S, F>(bg, size, k, [&](const ::cupp::detail::random::draw_site& site) {
    return F{site, on_space.data(), tail_on_space.data(), k, all_below, all_zero};
  });
}

// numpy.random.Generator.multinomial(n, pvals, size): int64 counts whose
// rows sum to n; the last entry of pvals takes the remainder.
template <class I, class S, class BitGen>
ndarray<I, draw_space_t<S>> multinomial(BitGen& bg, std::int64_t n,
                                        const std::vector<double>& pvals, const shape_t& size) {
  static_assert(std::is_integral_v<I>, "multinomial: the dtype must be an integer type");
  using Space = draw_space_t<S>;
  const auto k = static_cast<index_t>(pvals.size());
  if (k == 0)
    throw value_error(
        "pvals must have at least 1 dimension and the last dimension of pvals must be greater "
        "than 0.");
  for (double p : pvals)
    if (!(p >= 0 && p <= 1)) throw value_error("pvals < 0, pvals > 1 or pvals contains NaNs");
  // Kahan's compensated sum, so that many small pvals summing to 1 pass.
  double sum = 0, carry = 0;
  for (index_t j = 0; j + 1 < k; ++j) {
    const double y = pvals[j] - carry;
    const double t = sum + y;
    carry = (t - sum) - y;
    sum = t;
  }
  if (sum > 1.0 + 1e-12) throw value_error("sum(pvals[:-1]) > 1.0");
  if (n < 0) throw value_error("n < 0");
  const ndarray<double, Space> p = parameters_on<Space>(pvals);
  using F = ::cupp::detail::random::multinomial_rows<I>;
  return vector_draw<S, F>(bg, size, k, [&](const ::cupp::detail::random::draw_site& site) {
    return F{site, p.data(), k, n};
  });
}

// numpy.random.Generator.multivariate_hypergeometric(colors, nsample,
// size, method): int64 counts whose rows sum to nsample.
template <class I, class S, class BitGen>
ndarray<I, draw_space_t<S>> multivariate_hypergeometric(BitGen& bg,
                                                        const std::vector<std::int64_t>& colors,
                                                        std::int64_t nsample, const shape_t& size,
                                                        std::string_view method) {
  static_assert(std::is_integral_v<I>,
                "multivariate_hypergeometric: the dtype must be an integer type");
  using Space = draw_space_t<S>;
  if (method != "count" && method != "marginals")
    throw value_error("method must be \"count\" or \"marginals\".");
  for (std::int64_t c : colors)
    if (c < 0)
      throw value_error(
          "colors must be a one-dimensional sequence of nonnegative integers not exceeding "
          "9223372036854775807.");
  if (nsample < 0) throw value_error("nsample must be nonnegative.");
  std::int64_t total = 0;
  for (std::int64_t c : colors)
    if (__builtin_add_overflow(total, c, &total))
      throw value_error(
          "sum(colors) must not exceed the maximum value of a 64 bit signed integer "
          "(9223372036854775807)");
  if (nsample > total) throw value_error("nsample > sum(colors)");
  const auto k = static_cast<index_t>(colors.size());
  const ndarray<std::int64_t, Space> c = parameters_on<Space>(colors);
  const bool count_method = method == "count";
  using F = ::cupp::detail::random::multivariate_hypergeometric_rows<I>;
  return vector_draw<S, F>(bg, size, k, [&](const ::cupp::detail::random::draw_site& site) {
    return F{site, c.data(), k, total, nsample, count_method};
  });
}

// multivariate_normal's body, which needs cupp::linalg: defined (for
// float and double) by <cupp/random/multivariate.hpp>. A Generator that
// calls it without that header fails here, saying so.
template <class T>
struct multivariate_normal_impl {
  template <class S, class BitGen, class... A>
  static auto draw(BitGen&, const A&...) {
    static_assert(::cupp::detail::dependent_false<T, S>,
                  "Generator::multivariate_normal needs #include <cupp/random/multivariate.hpp> "
                  "(and linking cupp::linalg)");
  }
};

}  // namespace cupp::random::detail
