// Making arrays: from a shape (empty), from host data (array, asarray),
// from other arrays, and moving them between host and device (asarray,
// asnumpy). Functions in cupp:: make device arrays on the current device;
// the same names in cupp::host:: make host arrays. zeros, ones, full and
// their _like forms are lazy generators (<cupp/generators.hpp>): they
// allocate nothing until assigned to an array or evaluated.
#pragma once

#include <initializer_list>
#include <ranges>
#include <span>
#include <vector>

#include <cupp/detail/memory/host_data.hpp>
#include <cupp/generators.hpp>
#include <cupp/ndarray.hpp>

namespace cupp {

template <class R>
concept host_range = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
    is_dtype_v<std::remove_cv_t<std::ranges::range_value_t<R>>>;

// ---------------------------------------------------------------------------
// Host arrays.

namespace host {

template <Dtype T>
ndarray<T> empty(const shape_t& shape, order o = order::C) {
  return ndarray<T>(shape, o);
}

// Page-locked host arrays (cupyx.empty_pinned / zeros_pinned): the fastest
// to copy to and from a device, and the ones asynchronous copies need.
template <Dtype T>
ndarray<T> empty_pinned(const shape_t& shape, order o = order::C) {
  return detail::pinned_host_array<T>(shape, o);
}

template <Dtype T>
ndarray<T> zeros_pinned(const shape_t& shape, order o = order::C) {
  auto a = host::empty_pinned<T>(shape, o);
  if (a.nbytes())
    std::memset(static_cast<void*>(a.data()), 0, static_cast<std::size_t>(a.nbytes()));
  return a;
}

template <Dtype T, class S>
ndarray<T> empty_like(const cupp::ndarray<T, S>& x) {
  return host::empty<T>(x.shape(), detail::keep_order(x));
}

// numpy.array from nested braces: host::array<float>({{1, 2}, {3, 4}}).
template <Dtype T>
ndarray<T> array(std::initializer_list<T> l) {
  auto n = detail::flatten(l);
  return detail::host_from_flat<T>(n.flat, n.shape);
}
template <Dtype T>
ndarray<T> array(std::initializer_list<std::initializer_list<T>> l) {
  auto n = detail::flatten(l);
  return detail::host_from_flat<T>(n.flat, n.shape);
}
template <Dtype T>
ndarray<T> array(std::initializer_list<std::initializer_list<std::initializer_list<T>>> l) {
  auto n = detail::flatten(l);
  return detail::host_from_flat<T>(n.flat, n.shape);
}

// A host copy of a host array (numpy.array(x), which copies).
template <Dtype T>
ndarray<T> array(const ndarray<T>& x) {
  return x.copy(detail::keep_order(x));
}

// A host array holding a copy of `data`: 1-d, or of `shape` (C order).
template <host_range R>
auto asarray(const R& data) {
  using T = std::remove_cv_t<std::ranges::range_value_t<R>>;
  const std::size_t n = std::ranges::size(data);
  ndarray<T> a(shape_t{static_cast<index_t>(n)});
  if (n) std::memcpy(a.data(), std::ranges::data(data), n * sizeof(T));
  return a;
}
template <host_range R>
auto asarray(const R& data, const shape_t& shape) {
  using T = std::remove_cv_t<std::ranges::range_value_t<R>>;
  const std::size_t n = std::ranges::size(data);
  detail::check_data_size<T>(n, shape);
  ndarray<T> a(shape);
  if (n) std::memcpy(a.data(), std::ranges::data(data), n * sizeof(T));
  return a;
}

// A copy of the elements at `ptr` laid out by `shape` and byte `strides`
// (C-contiguous when strides are omitted).
template <Dtype T>
ndarray<T> asarray(const T* ptr, const shape_t& shape, const strides_t& strides = {}) {
  auto view = ndarray<T>::from_pointer(const_cast<T*>(ptr), shape, strides);
  return view.copy(order::C);
}

// A host array is already a host array.
template <Dtype T>
const ndarray<T>& asarray(const ndarray<T>& x) {
  return x;
}

// NumPy refuses CuPy arrays (TypeError); cupp refuses them at compile time.
template <Dtype T>
void asarray(const cupp::ndarray<T>&) {
  static_assert(detail::dependent_false<T>,
                "cupp::host::asarray: this is a device array; copy it to the host with "
                "cupp::asnumpy(x) or x.get()");
}

}  // namespace host

// ---------------------------------------------------------------------------
// Device arrays, on the current device, filled on the current stream.

template <Dtype T>
ndarray<T> empty(const shape_t& shape, order o = order::C) {
  return ndarray<T>(shape, o);
}

template <Dtype T, class S>
ndarray<T> empty_like(const ndarray<T, S>& x) {
  return cupp::empty<T>(x.shape(), detail::keep_order(x));
}

// A device copy of a host array, keeping F order when the source has it.
template <Dtype T>
ndarray<T> asarray(const host::ndarray<T>& h, const transfer_options& opt = {}) {
  const order o = h.is_c_contiguous() || h.is_f_contiguous() ? detail::keep_order(h) : order::C;
  ndarray<T> d(h.shape(), o);
  d.set(h, opt);
  return d;
}

// The same array if it is on the current device; a copy there otherwise.
template <Dtype T>
ndarray<T> asarray(const ndarray<T>& x) {
  const int here = cuda::runtime::getDevice();
  if (x.device_id() == here) return x;
  ndarray<T> out(x.shape(), detail::keep_order(x));
  x.copy_into(out);
  return out;
}

// Device copies of host data: 1-d, or of `shape` (C order).
template <host_range R>
auto asarray(const R& data) {
  return cupp::asarray(host::ndarray<std::remove_cv_t<std::ranges::range_value_t<R>>>::from_pointer(
      const_cast<std::remove_cv_t<std::ranges::range_value_t<R>>*>(std::ranges::data(data)),
      shape_t{static_cast<index_t>(std::ranges::size(data))}));
}
template <host_range R>
auto asarray(const R& data, const shape_t& shape) {
  using T = std::remove_cv_t<std::ranges::range_value_t<R>>;
  detail::check_data_size<T>(std::ranges::size(data), shape);
  return cupp::asarray(
      host::ndarray<T>::from_pointer(const_cast<T*>(std::ranges::data(data)), shape));
}
template <Dtype T>
ndarray<T> asarray(const T* host_ptr, const shape_t& shape, const strides_t& strides = {}) {
  return cupp::asarray(host::ndarray<T>::from_pointer(const_cast<T*>(host_ptr), shape, strides));
}

// cupy.array from nested braces: cupp::array<float>({{1, 2}, {3, 4}}).
template <Dtype T>
ndarray<T> array(std::initializer_list<T> l) {
  return cupp::asarray(host::array<T>(l));
}
template <Dtype T>
ndarray<T> array(std::initializer_list<std::initializer_list<T>> l) {
  return cupp::asarray(host::array<T>(l));
}
template <Dtype T>
ndarray<T> array(std::initializer_list<std::initializer_list<std::initializer_list<T>>> l) {
  return cupp::asarray(host::array<T>(l));
}

// cupy.array(x, copy=): a new device array on the current device unless
// copy is false and x is already there.
template <Dtype T>
ndarray<T> array(const ndarray<T>& x, bool copy = true) {
  if (!copy) return cupp::asarray(x);
  ndarray<T> out(x.shape(), detail::keep_order(x));
  x.copy_into(out);
  return out;
}
template <Dtype T>
ndarray<T> array(const host::ndarray<T>& h) {
  return cupp::asarray(h);
}

// A host copy of a device array (cupy.asnumpy); host arrays pass through.
template <Dtype T>
host::ndarray<T> asnumpy(const ndarray<T>& x, const transfer_options& opt = {}) {
  return x.get(opt);
}
template <Dtype T>
const host::ndarray<T>& asnumpy(const host::ndarray<T>& h) {
  return h;
}

}  // namespace cupp
