// The engine of numpy.random.Generator's permutation, shuffle and
// permuted, for device and host arrays. A permutation of n is a keyed
// pseudo-random bijection of [0, n) (bijection.hpp): element i is
// bijection(i), computed independently by each thread in one pass, with no
// sort, the same bits on the host. Permuting an array is a gather by such
// a permutation, and permuted gives each slice a bijection of its own. The
// generator (basic_generator) forwards its members to the functions of
// cupp::random::detail here.
//
// BitGen is the bit generator the permutations take their counter blocks
// from (cupp::random::philox, an API type of <cupp/random/bit_generator.hpp>):
// a template parameter here, complete where basic_generator calls in. The
// lazy permutations are cupp::generator (detail/generators/view.hpp), the
// arrays complete where <cupp/random/shuffle.hpp> instantiates the
// templates. The gathers by a permutation, take(x, idx, axis) and
// take_along_axis(x, idx, axis), are cupp::take and cupp::take_along_axis
// (<cupp/advanced_indexing.hpp>, which the API header includes), called
// unqualified and found through the arrays' namespace at that
// instantiation: the indexing area has no internal form of either whose
// headers compile on their own (the gather planning of take_put.hpp and
// gather_ref.hpp includes index_arrays.hpp, which needs the complete
// host array).
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/errors.hpp>
#include <cupp/index_types.hpp>
#include <cupp/shape.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/generators/view.hpp>
#include <cupp/detail/random/bijection.hpp>
#include <cupp/detail/random/draw.hpp>
#include <cupp/detail/random/draw_spaces.hpp>
#include <cupp/detail/views/layout.hpp>

namespace cupp::detail::random {

// Element p of a permutation: the bijection's image of p. Over a shape of
// k < n elements it is choice without replacement.
struct permutation_fn {
  using value_type = std::int64_t;
  static constexpr int coords = 1;
  feistel_bijection f;

  CUPP_HD value_type operator()(const index_t* pos) const {
    return static_cast<value_type>(f(static_cast<std::uint64_t>(pos[0])));
  }
};

// permuted's source index along the axis: position 0 is the slice's number
// (which keys its own bijection, block `slice` of the draw), position 1 the
// index along the axis.
struct slice_permutation_fn {
  using value_type = std::int64_t;
  static constexpr int coords = 2;
  std::uint64_t n;
  draw_site site;

  CUPP_HD value_type operator()(const index_t* pos) const {
    const feistel_bijection f(n, site, static_cast<std::uint64_t>(pos[0]));
    return static_cast<value_type>(f(static_cast<std::uint64_t>(pos[1])));
  }
};

}  // namespace cupp::detail::random

namespace cupp::random::detail {

namespace rnd = ::cupp::detail::random;

// numpy.random.Generator.permutation(n): 0, ..., n - 1 permuted, as a lazy
// int64 array (no elements for n <= 0, as numpy's arange(n)). One counter
// block keys it.
template <class S, class BitGen>
auto permutation(BitGen& bg, index_t n) {
  const index_t m = n > 0 ? n : 0;
  const rnd::draw_site site = bg.take(1);
  const shape_t shape{m};
  return generator<rnd::permutation_fn, S>(
      rnd::permutation_fn{rnd::feistel_bijection(static_cast<std::uint64_t>(m), site, 0)}, shape,
      flat_strides(shape));
}

template <class AS, class BitGen>
ndarray<std::int64_t, AS> permutation_indices(BitGen& bg, index_t n) {
  return permutation<generator_space_for<AS>>(bg, n).eval();
}

// numpy.random.Generator.permutation(x, axis): a copy of x permuted along
// axis.
template <class T, class AS, class BitGen>
ndarray<T, AS> permutation(BitGen& bg, const ndarray<T, AS>& x, index_t axis = 0) {
  const int ax = ::cupp::detail::checked_axis(axis, x.ndim());
  return take(x, permutation_indices<AS>(bg, x.shape()[ax]), ax);
}

// numpy.random.Generator.shuffle(x, axis): x permuted along axis in place.
template <class T, class AS, class BitGen>
void shuffle(BitGen& bg, const ndarray<T, AS>& x, index_t axis = 0) {
  if (x.ndim() == 0) throw type_error("len() of unsized object");
  const int ax = ::cupp::detail::checked_axis(axis, x.ndim());
  if (!x.flags().writeable) throw value_error("assignment destination is read-only");
  const ndarray<T, AS> permuted_copy = permutation(bg, x, ax);
  ::cupp::detail::assign(x, ::cupp::as_operand(permuted_copy));
}

// numpy.random.Generator.permuted(x, axis, out): each 1-d slice of x along
// axis permuted independently (axis empty: all elements of x together);
// written to out when given (which may be x itself), a new array otherwise.
template <class T, class AS, class BitGen>
ndarray<T, AS> permuted(BitGen& bg, const ndarray<T, AS>& x, std::optional<index_t> axis = {},
                        const ndarray<T, AS>* out = nullptr) {
  if (out && !(out->shape() == x.shape())) throw value_error("out must have the same shape as x");
  ndarray<T, AS> result;
  if (!axis) {
    const auto idx = permutation_indices<AS>(bg, x.size());
    result = take(x, idx).reshape(x.shape());
  } else {
    const int ax = ::cupp::detail::checked_axis(*axis, x.ndim());
    const shape_t& shape = x.shape();
    const index_t len = shape[ax];
    const index_t slices = len == 0 ? 0 : x.size() / len;
    shape_t slice_shape = shape;
    slice_shape[ax] = 1;
    std::array<strides_t, 2> st{::cupp::detail::contiguous_strides(slice_shape, 1),
                                strides_t::filled(shape.size(), 0)};
    st[0][ax] = 0;
    st[1][ax] = 1;
    const rnd::draw_site site = bg.take(static_cast<std::uint64_t>(slices));
    const ndarray<std::int64_t, AS> idx =
        generator<rnd::slice_permutation_fn, generator_space_for<AS>>(
            rnd::slice_permutation_fn{static_cast<std::uint64_t>(len), site}, shape, st)
            .eval();
    result = take_along_axis(x, idx, ax);
  }
  if (!out) return result;
  if (!out->flags().writeable) throw value_error("assignment destination is read-only");
  ::cupp::detail::assign(*out, ::cupp::as_operand(result));
  return *out;
}

}  // namespace cupp::random::detail
