// Host data on its way into arrays (the machinery of <cupp/creation.hpp>):
// nested braces flattened into C order with NumPy's check for ragged
// lists, a flat buffer's size checked against a shape, and the layout (C
// or F) a copy of an array keeps.
#pragma once

#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// std::vector<bool> packs bits; keep one byte per element like the array.
template <class T>
using list_storage = std::conditional_t<std::is_same_v<T, bool>, unsigned char, T>;

template <class T>
struct nested_list {
  std::vector<list_storage<T>> flat;
  shape_t shape;
};

// Flattens nested braces into C order, rejecting ragged input as NumPy does.
template <class T>
nested_list<T> flatten(std::initializer_list<T> l) {
  return {std::vector<list_storage<T>>(l.begin(), l.end()),
          shape_t{static_cast<index_t>(l.size())}};
}

[[noreturn]] inline void ragged(const shape_t& detected, int after) {
  throw value_error(
      "setting an array element with a sequence. The requested array has an inhomogeneous "
      "shape after " +
      std::to_string(after) + " dimensions. The detected shape was " + to_string(detected) +
      " + inhomogeneous part.");
}

template <class T>
nested_list<T> flatten(std::initializer_list<std::initializer_list<T>> l) {
  nested_list<T> r;
  const index_t rows = static_cast<index_t>(l.size());
  const index_t cols = rows ? static_cast<index_t>(l.begin()->size()) : 0;
  for (const auto& row : l) {
    if (static_cast<index_t>(row.size()) != cols) ragged(shape_t{rows}, 1);
    r.flat.insert(r.flat.end(), row.begin(), row.end());
  }
  r.shape = shape_t{rows, cols};
  return r;
}

template <class T>
nested_list<T> flatten(std::initializer_list<std::initializer_list<std::initializer_list<T>>> l) {
  nested_list<T> r;
  const index_t n0 = static_cast<index_t>(l.size());
  const index_t n1 = n0 ? static_cast<index_t>(l.begin()->size()) : 0;
  const index_t n2 = n1 ? static_cast<index_t>(l.begin()->begin()->size()) : 0;
  for (const auto& plane : l) {
    if (static_cast<index_t>(plane.size()) != n1) ragged(shape_t{n0}, 1);
    for (const auto& row : plane) {
      if (static_cast<index_t>(row.size()) != n2) ragged(shape_t{n0, n1}, 2);
      r.flat.insert(r.flat.end(), row.begin(), row.end());
    }
  }
  r.shape = shape_t{n0, n1, n2};
  return r;
}

template <class T>
host::ndarray<T> host_from_flat(const std::vector<list_storage<T>>& flat, const shape_t& shape) {
  host::ndarray<T> h(shape);
  if (!flat.empty()) std::memcpy(h.data(), flat.data(), flat.size() * sizeof(T));
  return h;
}

// Layout of a copy that keeps C or F order ('K' for the layouts we have).
template <class T, class S>
order keep_order(const ndarray<T, S>& x) {
  return x.is_f_contiguous() && !x.is_c_contiguous() ? order::F : order::C;
}

template <class T>
void check_data_size(std::size_t n, const shape_t& shape) {
  const index_t want = checked_size(shape, static_cast<index_t>(sizeof(T)));
  if (static_cast<index_t>(n) != want)
    throw value_error("cannot reshape array of size " + std::to_string(n) + " into shape " +
                      np_shape(shape));
}

}  // namespace cupp::detail
