// Rejection samplers of the gamma family: standard_gamma, gamma, beta,
// chisquare, f, standard_t, and the normal and exponential variates they
// are built from. Each reads the words of its own element (element_words),
// as many as its rejection loop needs, and does all its floating-point
// arithmetic through xm:: so that the host and the device round every
// step alike and give the same bits.
#pragma once

#include <string>

#include <cupp/config.hpp>
#include <cupp/detail/random/draw.hpp>
#include <cupp/detail/random/exact_math.hpp>
#include <cupp/detail/random/ziggurat.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail::random {

// A standard normal by the ziggurat (ziggurat.hpp), one or two words of
// the element's stream, more in the rare slow cases.
template <class T>
CUPP_HD T normal_from(element_words& w) {
  return ziggurat_normal<T>(w);
}

// A standard exponential by inversion, -log(U) with U in (0, 1].
template <class T>
CUPP_HD T exponential_from(element_words& w) {
  return xm::sub(T(0), xm::log(w.next_open_unit<T>()));
}

// A gamma shape with the constants of Marsaglia and Tsang's method for it,
// computed once per draw instead of once per value: d = s - 1/3 and
// c = 1 / sqrt(9 d) for s' = s (s >= 1) or s + 1 (the boost below), and
// 1 / s for the boost's power.
template <class T>
struct gamma_shape {
  T shape{}, d{}, c{}, inv_shape{};
  gamma_shape() = default;
  CUPP_HD gamma_shape(T s) : shape(s) {  // NOLINT: converts, as the shape it stands for
    constexpr T third = T(1) / T(3);     // folded at compile time, alike everywhere
    const T boosted = s < T(1) ? xm::add(s, T(1)) : s;
    d = xm::sub(boosted, third);
    c = xm::div(T(1), xm::sqrt(xm::mul(T(9), d)));
    inv_shape = s < T(1) ? xm::div(T(1), s) : T(0);
  }
};

// Marsaglia and Tsang, "A simple method for generating gamma variables",
// ACM TOMS 26(3), 2000: for shape >= 1, d * (1 + c X)^3 with X normal,
// accepted by a squeeze that needs no logarithm 98% of the time and by the
// exact log test otherwise.
template <class T>
CUPP_HD T marsaglia_tsang_from(element_words& w, T d, T c) {
  for (;;) {
    T x, v;
    do {
      x = normal_from<T>(w);
      v = xm::add(T(1), xm::mul(c, x));
    } while (v <= T(0));
    v = xm::mul(xm::mul(v, v), v);
    const T u = w.next_unit<T>();
    const T x2 = xm::mul(x, x);
    if (u < xm::sub(T(1), xm::mul(T(0.0331), xm::mul(x2, x2)))) return xm::mul(d, v);
    // log(0) = -inf accepts, as it should: u = 0 is below every bound.
    const T bound = xm::add(xm::mul(T(0.5), x2), xm::mul(d, xm::add(xm::sub(T(1), v), xm::log(v))));
    if (xm::log(u) < bound) return xm::mul(d, v);
  }
}

// Gamma(shape, 1). shape < 1 takes Marsaglia and Tsang's boost (section 6
// of their paper): Gamma(shape + 1) * U^(1 / shape), which is
// Gamma(shape) for U uniform on (0, 1]; shape = 1 is an exponential and
// shape = 0 the point mass at 0, as NumPy has them. A NaN shape gives NaN.
template <class T>
CUPP_HD T standard_gamma_from(element_words& w, const gamma_shape<T>& g) {
  const T shape = g.shape;
  if (!(shape == shape)) return shape;
  if (shape == T(0)) return T(0);
  if (shape == T(1)) return exponential_from<T>(w);
  if (shape < T(1)) {
    const T x = marsaglia_tsang_from<T>(w, g.d, g.c);
    const T u = w.next_open_unit<T>();
    return xm::mul(x, xm::pow(u, g.inv_shape));
  }
  return marsaglia_tsang_from<T>(w, g.d, g.c);
}
// A shape that varies from value to value (the mixtures).
template <class T>
CUPP_HD T standard_gamma_from(element_words& w, T shape) {
  return standard_gamma_from<T>(w, gamma_shape<T>(shape));
}

// Beta(a, b) as NumPy chooses: Jöhnk's algorithm (Jöhnk, "Erzeugung von
// betaverteilten und gammaverteilten Zufallszahlen", Metrika 8, 1964) when
// both a and b are at most 1, X / (X + Y) with X = U^(1/a), Y = V^(1/b)
// accepted when X + Y <= 1; otherwise Ga / (Ga + Gb) of two gammas. When
// X and Y both underflow, the ratio is taken from their logarithms.
template <class T>
CUPP_HD T beta_from(element_words& w, T a, T b) {
  if (a <= T(1) && b <= T(1)) {
    for (;;) {
      const T u = w.next_open_unit<T>();
      const T v = w.next_open_unit<T>();
      const T x = xm::pow(u, xm::div(T(1), a));
      const T y = xm::pow(v, xm::div(T(1), b));
      const T sum = xm::add(x, y);
      if (!(sum <= T(1))) continue;
      if (sum > T(0)) return xm::div(x, sum);
      T log_x = xm::div(xm::log(u), a);
      T log_y = xm::div(xm::log(v), b);
      const T top = log_x > log_y ? log_x : log_y;
      log_x = xm::sub(log_x, top);
      log_y = xm::sub(log_y, top);
      return xm::exp(xm::sub(log_x, xm::log(xm::add(xm::exp(log_x), xm::exp(log_y)))));
    }
  }
  const T ga = standard_gamma_from<T>(w, a);
  const T gb = standard_gamma_from<T>(w, b);
  return xm::div(ga, xm::add(ga, gb));
}

// Chi-square(df) = 2 Gamma(df / 2).
template <class T>
CUPP_HD T chisquare_from(element_words& w, T df) {
  return xm::mul(T(2), standard_gamma_from<T>(w, xm::mul(T(0.5), df)));
}

// F(dfnum, dfden) = (chi2(dfnum) / dfnum) / (chi2(dfden) / dfden).
template <class T>
CUPP_HD T f_from(element_words& w, T dfnum, T dfden) {
  const T num = xm::mul(chisquare_from<T>(w, dfnum), dfden);
  const T den = xm::mul(chisquare_from<T>(w, dfden), dfnum);
  return xm::div(num, den);
}

// Student's t(df) = Z / sqrt(chi2(df) / df) = sqrt(df / 2) Z / sqrt(G)
// with G = Gamma(df / 2).
template <class T>
CUPP_HD T standard_t_from(element_words& w, T df) {
  const T z = normal_from<T>(w);
  const T half_df = xm::mul(T(0.5), df);
  const T g = standard_gamma_from<T>(w, half_df);
  return xm::div(xm::mul(xm::sqrt(half_df), z), xm::sqrt(g));
}

// The samplers: trivially copyable kernel parameters, one value per
// element from the element's own words.
template <class T = double>
struct standard_gamma_sampler {
  using value_type = T;
  static constexpr int per_block = 0;
  // 64 registers (four blocks of 256 threads) hold the loop without
  // spilling (cuobjdump), where rejection samplers default to 128.
  static constexpr int min_blocks = 4;
  gamma_shape<T> shape;
  CUPP_HD T sample(element_words& w) const { return standard_gamma_from<T>(w, shape); }
};

template <class T = double>
struct gamma_sampler {
  using value_type = T;
  static constexpr int per_block = 0;
  // 64 registers (four blocks of 256 threads) hold the loop without
  // spilling (cuobjdump), where rejection samplers default to 128.
  static constexpr int min_blocks = 4;
  gamma_shape<T> shape;
  T scale;
  CUPP_HD T sample(element_words& w) const {
    return xm::mul(scale, standard_gamma_from<T>(w, shape));
  }
};

template <class T = double>
struct beta_sampler {
  using value_type = T;
  static constexpr int per_block = 0;
  T a, b;
  CUPP_HD T sample(element_words& w) const { return beta_from<T>(w, a, b); }
};

template <class T = double>
struct chisquare_sampler {
  using value_type = T;
  static constexpr int per_block = 0;
  T df;
  CUPP_HD T sample(element_words& w) const { return chisquare_from<T>(w, df); }
};

template <class T = double>
struct f_sampler {
  using value_type = T;
  static constexpr int per_block = 0;
  T dfnum, dfden;
  CUPP_HD T sample(element_words& w) const { return f_from<T>(w, dfnum, dfden); }
};

template <class T = double>
struct standard_t_sampler {
  using value_type = T;
  static constexpr int per_block = 0;
  T df;
  CUPP_HD T sample(element_words& w) const { return standard_t_from<T>(w, df); }
};

// Host-side checks with NumPy's messages. NaN passes where NumPy lets it
// through (the draw is then NaN); the negated comparisons say so.
inline void check_standard_gamma(double shape) {
  if (shape < 0) throw value_error("shape < 0");
}
inline void check_gamma(double shape, double scale) {
  if (shape < 0) throw value_error("shape < 0");
  if (scale < 0) throw value_error("scale < 0");
}
inline void check_beta(double a, double b) {
  if (a <= 0) throw value_error("a <= 0");
  if (b <= 0) throw value_error("b <= 0");
}
inline void check_chisquare(double df) {
  if (df <= 0) throw value_error("df <= 0");
}
inline void check_f(double dfnum, double dfden) {
  if (dfnum <= 0) throw value_error("dfnum <= 0");
  if (dfden <= 0) throw value_error("dfden <= 0");
}
inline void check_standard_t(double df) {
  if (df <= 0) throw value_error("df <= 0");
}

}  // namespace cupp::detail::random
