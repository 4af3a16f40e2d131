// How a distributed array's chunks move and combine: copies between
// regions of arrays on any devices, the identity of each reduction mode,
// and the element-wise combine of partial values. The calls into cupp's
// expressions (copyto, maximum ...) are found through the arrays' namespace
// when a template is used, from units that include cupp/distributed/array.hpp.
#pragma once

#include <limits>
#include <span>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/distributed/array_expr.hpp>
#include <cupp/detail/distributed/array_regions.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail::darray {

using distributed::mode;

// The value that leaves an element unchanged under a reduction mode.
template <class V>
V identity(mode m) {
  if (m == mode::sum) return convert<V>(0);
  if (m == mode::prod) return convert<V>(1);
  if constexpr (is_complex_type_v<V>) {
    throw value_error("max and min modes are not defined for complex arrays");
  } else {
    const bool is_max = m == mode::max;
    if constexpr (std::is_floating_point_v<V> || is_low_float_v<V>)
      return convert<V>(is_max ? -std::numeric_limits<double>::infinity()
                               : std::numeric_limits<double>::infinity());
    else
      return is_max ? std::numeric_limits<V>::lowest() : std::numeric_limits<V>::max();
  }
}

inline cudaStream_t stream_of(int device) {
  return ::cupp::cuda::detail::current_stream_impl(device)->handle;
}

// dst (any layout, on its device) = src (any layout, any device). A
// temporary on the source device is kept from reuse until the destination
// stream has read it: the source stream waits for it.
template <class V>
void copy_between(const ndarray<V>& src, const ndarray<V>& dst) {
  if (src.size() == 0) return;
  const int from = src.device_id(), to = dst.device_id();
  if (from == to) {
    src.copy_into(dst);
    return;
  }
  ndarray<V> dense_src = src.is_c_contiguous() ? src : src.copy();
  ndarray<V> dense_dst = dst;
  if (!dst.is_c_contiguous()) {
    cuda::device_scope scope(to);
    dense_dst = ndarray<V>(dst.shape());
  }
  dense_src.copy_into(dense_dst);
  if (!dst.is_c_contiguous()) dense_dst.copy_into(dst);
  cudaEvent_t done = nullptr;
  {
    cuda::device_scope scope(to);
    cuda::check(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), "cudaEventCreate");
    cuda::check(cudaEventRecord(done, stream_of(to)), "cudaEventRecord");
  }
  cuda::device_scope scope(from);
  const cudaError_t e = cudaStreamWaitEvent(stream_of(from), done, 0);
  (void)cudaEventDestroy(done);
  cuda::check(e, "cudaStreamWaitEvent");
}

// src brought to `device` (a view when it is there already).
template <class V>
ndarray<V> on_device(const ndarray<V>& src, int device) {
  if (src.device_id() == device) return src;
  cuda::device_scope scope(device);
  ndarray<V> out(src.shape());
  copy_between(src, out);
  return out;
}

template <class V>
ndarray<V> view(const ndarray<V>& a, const box& region) {
  const auto items = view_index(region);
  return a(std::span<const cupp::index_item>(items));
}

// dst = dst (op) src element-wise on dst's device (src there too).
template <class V>
void combine_into(mode m, const ndarray<V>& dst, const ndarray<V>& src) {
  cuda::device_scope scope(dst.device_id());
  switch (m) {
    case mode::sum:
      copyto(dst, dst + src);
      break;
    case mode::prod:
      copyto(dst, dst * src);
      break;
    case mode::max:
      copyto(dst, maximum(dst, src));
      break;
    case mode::min:
      copyto(dst, minimum(dst, src));
      break;
    default:
      copyto(dst, src);
      break;
  }
}

template <class V>
void fill(const ndarray<V>& dst, V value) {
  cuda::device_scope scope(dst.device_id());
  copyto(dst, value);
}

}  // namespace cupp::detail::darray
