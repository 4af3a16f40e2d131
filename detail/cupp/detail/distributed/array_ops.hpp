// How a distributed array's chunks move and combine: copies between
// regions of arrays on any devices, the identity of each reduction mode,
// and the element-wise combine of partial values. The calls into cupp's
// expressions (copyto, maximum ...) are found through the arrays' namespace
// when a template is used, from units that include cupp/distributed/array.hpp.
#pragma once

#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

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

// An event recorded on `stream` of `device`, destroyed when the waits
// that use it have been enqueued.
class stream_mark {
 public:
  stream_mark(int device, cudaStream_t stream) {
    cuda::device_scope scope(device);
    cuda::check(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming), "cudaEventCreate");
    const cudaError_t e = cudaEventRecord(event_, stream);
    if (e != cudaSuccess) {
      (void)cudaEventDestroy(event_);
      cuda::check(e, "cudaEventRecord");
    }
  }
  stream_mark(const stream_mark&) = delete;
  stream_mark& operator=(const stream_mark&) = delete;
  ~stream_mark() { (void)cudaEventDestroy(event_); }
  // `stream` of `device`: a legacy default stream's handle (0) means the
  // current device's, so the device is made current for the call.
  void wait_on(int device, cudaStream_t stream) const {
    cuda::device_scope scope(device);
    cuda::check(cudaStreamWaitEvent(stream, event_, 0), "cudaStreamWaitEvent");
  }

 private:
  cudaEvent_t event_ = nullptr;
};

// A non-blocking stream per device for the copies of partial results. On a
// device's legacy default stream a peer copy also waits for the work queued
// on the other device, which chained the devices' partial reductions one
// behind another: sum(x * y) of 2^28 float32 over 4 H200s took 0.178 ms
// with the copies on the current streams, 0.153 ms on these, and 0.135 ms
// with no copies at all (bench_distributed_array).
inline cudaStream_t partial_copy_stream(int device) {
  static std::mutex mutex;
  static std::vector<std::unique_ptr<cuda::Stream>> streams;
  std::lock_guard lock(mutex);
  if (static_cast<std::size_t>(device) >= streams.size())
    streams.resize(static_cast<std::size_t>(device) + 1);
  auto& s = streams[static_cast<std::size_t>(device)];
  if (!s) {
    cuda::device_scope scope(device);
    s = std::make_unique<cuda::Stream>(/*non_blocking=*/true);
  }
  return s->handle();
}

// The one-value partial results of a reduction, gathered into a vector on
// `home` as they are made. The vector is allocated, and its readiness
// marked on home's stream, before the partial reductions are launched, so
// that a device's copy waits only for home's earlier work, not for home's
// own partial. Each copy runs on a stream of its source device right after
// that device's partial (so the copies of several devices overlap and
// never queue on home's copy engine); home's stream waits for them all.
template <class V>
class partial_gatherer {
 public:
  partial_gatherer(int home, index_t capacity) : home_(home) {
    cuda::device_scope scope(home);
    values_ = ndarray<V>(shape_t{capacity});
    ready_.emplace(home, stream_of(home));
  }

  void add(const ndarray<V>& part) {
    const index_t i = count_++;
    const int from = part.device_id();
    if (from == home_) {
      cuda::device_scope scope(home_);
      part.copy_into(values_(i));
      return;
    }
    const ndarray<V> dense = part.is_c_contiguous() ? part : part.copy();
    cuda::device_scope scope(from);
    const cudaStream_t s = partial_copy_stream(from);
    stream_mark(from, stream_of(from)).wait_on(from, s);
    ready_->wait_on(from, s);
    cuda::check(cudaMemcpyPeerAsync(values_.data() + i, home_, dense.data(), from, sizeof(V), s),
                "cudaMemcpyPeerAsync");
    // The partial's memory goes back to its pool on the current stream:
    // that stream must not reuse it before the copy has read it.
    const stream_mark copied(from, s);
    copied.wait_on(from, stream_of(from));
    copied.wait_on(home_, stream_of(home_));
  }

  int home() const { return home_; }
  index_t size() const { return count_; }
  // The values gathered so far, on home's stream after all their copies.
  ndarray<V> values() const { return values_(cupp::slice(0, count_)); }

 private:
  int home_;
  ndarray<V> values_;
  std::optional<stream_mark> ready_;
  index_t count_ = 0;
};

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
