// How a join writes its result: join_writer collects the copies of the
// inputs into regions of the result and issues them together, so that a
// join of many arrays costs one batched launch (detail/join/copy.hpp)
// rather than one per input. The arrays are named through
// <cupp/array_fwd.hpp>; <cupp/joining.hpp> completes them (and brings
// copyto) before anything here is instantiated.
#pragma once

#include <span>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/join/copy.hpp>

namespace cupp::detail {

template <class T, class S>
void run_copy_jobs(const ndarray<T, S>& dst, std::span<const copy_job> jobs) {
  if (jobs.empty()) return;
  if constexpr (std::is_same_v<S, device_space>) {
    cuda::device_scope scope(dst.device_id());
#if defined(__CUDACC__)
    device_copy_jobs(jobs, dst.itemsize(),
                     cuda::detail::current_stream_impl(dst.device_id())->handle);
#else
    CUPP_NEEDS_NVCC(T);
#endif
  } else {
    host_copy_jobs(jobs, dst.itemsize());
  }
}

// Collects the copies of a join: same-dtype sources on the destination's
// device join the batched copy, the others are written at once through
// copyto (a cast) or copy_into (another device).
template <class R, class S>
class join_writer {
 public:
  explicit join_writer(const ndarray<R, S>& dst) : dst_(dst) {}

  template <class T>
  void put(const ndarray<R, S>& view, const ndarray<T, S>& src) {
    if (src.size() == 0) return;
    if constexpr (std::is_same_v<T, R>) {
      if (src.device_id() == view.device_id()) {
        jobs_.push_back({reinterpret_cast<char*>(view.data()),
                         reinterpret_cast<const char*>(src.data()), src.shape(), view.strides(),
                         src.strides()});
      } else {
        src.copy_into(view);
      }
    } else {
      copyto(view, src);
    }
  }

  void run() { run_copy_jobs(dst_, jobs_); }

 private:
  ndarray<R, S> dst_;
  std::vector<copy_job> jobs_;
};

}  // namespace cupp::detail
