// The functors of cupp's generators: each computes an element from one
// linear position (see generator_leaf in <cupp/expression.hpp>). The host
// prepares every per-array constant when the generator is made, so that an
// element costs a few operations in the kernel.
#pragma once

#include <bit>
#include <cstdint>

#include <cupp/detail/generators/numbers.hpp>

namespace cupp::detail {

// Every element the same value (full, zeros, ones). The position only
// records the layout NumPy's array would have.
template <class T>
struct fill_fn {
  using value_type = T;
  static constexpr int coords = 1;
  T v;
  CUPP_HD T operator()(const index_t*) const { return v; }
};

// The position itself (the arrays of numpy.indices(sparse=True)).
template <class T>
struct position_fn {
  using value_type = T;
  static constexpr int coords = 1;
  CUPP_HD T operator()(const index_t* pos) const { return convert<T>(pos[0]); }
};

// numpy.arange: elements 0 and 1 are what Python computed (start and
// start + step, stored as ndarray.__setitem__ stores them); the others come
// from dtype T's fill loop, start + i * (element1 - element0), in T's
// arithmetic: modular 64-bit integers cut to T's width, float32 for the
// 16-bit floats, each part of a complex number on its own.
template <class T>
struct arange_fn {
  using value_type = T;
  static constexpr int coords = 1;
  using math =
      std::conditional_t<std::is_same_v<T, bool>, bool,
                         std::conditional_t<is_integer_v<T>, std::uint64_t,
                                            std::conditional_t<is_low_float_v<T>, float, T>>>;
  T first, second;
  math start, delta;

  CUPP_HD T operator()(const index_t* pos) const {
    const index_t i = pos[0];
    if (i == 0) return first;
    if constexpr (std::is_same_v<T, bool>) {
      return second;  // a bool arange has at most two elements
    } else {
      if (i == 1) return second;
      if constexpr (is_integer_v<T>) {
        return static_cast<T>(start + static_cast<std::uint64_t>(i) * delta);
      } else if constexpr (is_low_float_v<T>) {
        return convert<T>(numerics::add_rn(start, numerics::mul_rn(static_cast<float>(i), delta)));
      } else if constexpr (is_complex_type_v<T>) {
        using R = typename T::value_type;
        const R x = static_cast<R>(i);
        return T(numerics::add_rn(start.real(), numerics::mul_rn(x, delta.real())),
                 numerics::add_rn(start.imag(), numerics::mul_rn(x, delta.imag())));
      } else {
        return numerics::add_rn(start, numerics::mul_rn(static_cast<T>(i), delta));
      }
    }
  }
};

// numpy.linspace computed in dtype D (float64 unless a strong argument says
// otherwise), then floored for an integer T and cast to T:
//   y = arange(num, dtype=D) * step + start      (mode step)
//   y = arange(num) / div * delta + start        (mode tiny: step underflowed to 0)
//   y = arange(num) * delta + start              (mode delta: num <= 1 with endpoint)
// and element `last` is exactly stop.
template <class D, class T>
struct linspace_fn {
  using value_type = T;
  static constexpr int coords = 1;
  enum mode_t : int { step_mode, tiny_mode, delta_mode };
  D start, stop, scale, divisor;  // scale: step (step_mode) or delta
  index_t last;                   // -1 without an exact endpoint
  mode_t mode;

  CUPP_HD D in_math(index_t i) const {
    if (i == last) return stop;
    D y = d_from_index<D>(i);
    if (mode == tiny_mode) y = d_div(y, divisor);
    return d_add(d_mul(y, scale), start);
  }
  CUPP_HD T operator()(const index_t* pos) const {
    const D y = in_math(pos[0]);
    if constexpr (is_integer_v<T>)
      return convert<T>(d_floor(y));
    else
      return convert<T>(y);
  }
};

// numpy.logspace: power(base, linspace(...)) in the dtype R they promote to.
template <class D, class R, class T>
struct logspace_fn {
  using value_type = T;
  static constexpr int coords = 1;
  linspace_fn<D, D> lin;
  R base;
  CUPP_HD T operator()(const index_t* pos) const {
    return convert<T>(d_pow<R>(base, convert<R>(lin.in_math(pos[0]))));
  }
};

// numpy.geomspace in dtype D: start rotated onto the positive real axis
// (divided by its sign), 10 ** linspace(log10(start), log10(stop)), the
// rotated endpoints stored exactly, and the rotation undone.
template <class D, class T>
struct geomspace_fn {
  using value_type = T;
  static constexpr int coords = 1;
  linspace_fn<D, D> lin;
  D first, final_value, sign;
  index_t last;  // -1 without an exact endpoint
  CUPP_HD T operator()(const index_t* pos) const {
    const index_t i = pos[0];
    D v;
    if (i == 0)
      v = first;
    else if (i == last)
      v = final_value;
    else
      v = d_pow<D>(convert<D>(10.0), lin.in_math(i));
    return convert<T>(d_mul(v, sign));
  }
};

// N coordinates held in one position. Packed: coordinate a occupies its
// own bits, read with a shift and a mask; when the bits do not fit in 62,
// the position is the flat index and coordinates come from divisions.
// Either way the position is an affine function of the coordinates, with
// larger strides for slower axes, so NumPy's K order sees the layout of the
// array NumPy would build.
template <int N>
struct coord_decoder {
  bool packed = true;
  index_t div[N];  // shift (packed) or divisor
  index_t ext[N];  // mask + 1 (packed) or extent

  CUPP_HD index_t coord(index_t p, int a) const {
    return packed ? (p >> div[a]) & (ext[a] - 1) : (p / div[a]) % ext[a];
  }
};

// The decoder for an array of `shape` (at most N axes) laid out in order
// `o`, and the position stride of each axis.
template <int N>
coord_decoder<N> make_decoder(const shape_t& shape, order o, strides_t& st) {
  const int n = shape.size();
  coord_decoder<N> d;
  st = strides_t::filled(n, 0);
  int width[max_ndim];
  int bits = 0;
  for (int a = 0; a < n; ++a) {
    width[a] = shape[a] <= 1 ? 0 : std::bit_width(static_cast<std::uint64_t>(shape[a] - 1));
    bits += width[a];
  }
  d.packed = bits <= 62;
  index_t next = d.packed ? 0 : 1;  // shift or divisor of the next faster axis
  for (int r = 0; r < n; ++r) {
    const int a = o == order::F ? r : n - 1 - r;
    if (d.packed) {
      d.div[a] = next;
      d.ext[a] = index_t{1} << width[a];
      st[a] = index_t{1} << next;
      next += width[a];
    } else {
      d.div[a] = next;
      d.ext[a] = shape[a] > 0 ? shape[a] : 1;
      st[a] = next;
      next *= d.ext[a];
    }
  }
  return d;
}

// numpy.eye (diagonal: column - row == k) and numpy.tri (column - row <= k).
template <class T, bool Lower>
struct diagonal_fn {
  using value_type = T;
  static constexpr int coords = 1;
  coord_decoder<2> d;
  index_t k;
  T one, zero;
  CUPP_HD T operator()(const index_t* pos) const {
    const index_t off = d.coord(pos[0], 1) - d.coord(pos[0], 0);
    return (Lower ? off <= k : off == k) ? one : zero;
  }
};

// numpy.indices: element (a, i0, i1, ...) is i_a.
template <class T>
struct indices_fn {
  using value_type = T;
  static constexpr int coords = 1;
  coord_decoder<max_ndim> d;
  CUPP_HD T operator()(const index_t* pos) const {
    const int a = static_cast<int>(d.coord(pos[0], 0));
    return convert<T>(d.coord(pos[0], a + 1));
  }
};

}  // namespace cupp::detail
