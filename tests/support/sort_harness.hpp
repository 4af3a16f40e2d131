// What the sort area's test sources share: fixtures loaded in any dtype
// (bfloat16 stored as float32), NumPy's NaN-aware value equality, and an
// array's values in the layouts every test runs through.
#pragma once

#include <cupp/detail/sort/sort_keys.hpp>
#include <cupp/npy.hpp>

#include <string>
#include <type_traits>

#include "cupp_test.hpp"
#include "test_space.hpp"

namespace sort_harness {

namespace srt = cupp::detail::sorting;
using cupp::index_t;
using cupp::shape_t;
using cupp::strides_t;

// The dtype a fixture is stored in: NumPy has no bfloat16.
template <class T>
using stored_t = std::conditional_t<std::is_same_v<T, __nv_bfloat16>, float, T>;

// tests/fixtures/<dir><name>.npy as T.
template <class T>
cupp::host::ndarray<T> load(const std::string& dir, const std::string& name) {
  auto h = cupp::host::load<stored_t<T>>(cupp_test::fixture(dir + name + ".npy"));
  if constexpr (std::is_same_v<T, stored_t<T>>) {
    return h;
  } else {
    cupp::host::ndarray<T> r(h.shape());
    const auto v = h.to_vector();
    for (std::size_t i = 0; i < v.size(); ++i) r.data()[i] = __float2bfloat16(v[i]);
    return r;
  }
}

template <class T>
bool is_nan(const T& v) {
  if constexpr (srt::is_complex_v<T>)
    return is_nan(v.real()) || is_nan(v.imag());
  else if constexpr (srt::is_floating_v<T>)
    return srt::is_nan_bits<T>(srt::bits_of(v));
  else
    return false;
}

// Equal bits (so -0.0 differs from 0.0), except that a NaN matches any NaN:
// the device's sorts may write the canonical NaN. A complex NaN keeps its
// class.
template <class T>
bool same_value(const T& a, const T& b) {
  if constexpr (srt::is_complex_v<T>)
    return same_value(a.real(), b.real()) && same_value(a.imag(), b.imag());
  else
    return cupp_test::same_bits(a, b) || (is_nan(a) && is_nan(b));
}

// x's values in a layout: C (a copy, never x itself: in-place tests write
// it), F, strided (every other element of a larger array), reversed
// (negative strides over a reversed copy), broadcast (stride 0 over the
// first row, for inputs whose rows are equal).
template <class T>
cupp_test::array<T> in_layout(const cupp::host::ndarray<T>& x, const std::string& layout) {
  using cupp_test::on_space;
  const shape_t& shape = x.shape();
  const index_t size = x.size();
  const int nd = shape.size();
  const auto v = x.to_vector();
  if (layout == "C") return on_space(x.copy());
  if (layout == "F") return on_space(x).copy(cupp::order::F);
  cupp::host::ndarray<T> big(shape_t{2 * size + 1});
  for (index_t i = 0; i < 2 * size + 1; ++i) big.data()[i] = v.empty() ? T{} : v[0];
  strides_t st = shape;
  index_t step = layout == "strided" ? 2 : 1;
  for (int d = nd - 1; d >= 0; --d) {
    st[d] = step * static_cast<index_t>(sizeof(T));
    step *= shape[d];
  }
  index_t first = 0;
  if (layout == "strided") {
    for (index_t i = 0; i < size; ++i) big.data()[2 * i] = v[i];
  } else if (layout == "reversed") {
    for (index_t i = 0; i < size; ++i) big.data()[size - 1 - i] = v[i];
    for (int d = 0; d < nd; ++d) st[d] = -st[d];
    first = size - 1;
  } else {  // broadcast
    for (index_t i = 0; i < size; ++i) big.data()[i] = v[i];
    st[0] = 0;
  }
  const auto b = on_space(big);
  return cupp_test::array<T>(const_cast<T*>(b.data()) + first, shape, st, b.memory(), b.device_id(),
                             false);
}

}  // namespace sort_harness
