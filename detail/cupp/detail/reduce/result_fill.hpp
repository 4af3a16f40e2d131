// The result writes that are not reductions: the value of an empty
// reduction stored into every result, and a materialised reduction's
// C-order result copied into a strided out=. Both move elements as words of
// the result's item size (memory/strided_copy.hpp's copy plans and
// kernels), so a unit compiles one kernel per item size for every dtype and
// every reduction, not one element-wise kernel per dtype.
#pragma once

#include <algorithm>
#include <cstring>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/memory/strided_copy.hpp>

namespace cupp::detail {

#if defined(__CUDACC__)

// The grid of the general copy kernel (memory/strided_copy.hpp's sizing).
inline unsigned result_copy_blocks(index_t size, int device) {
  return strided_copy_blocks(size, cuda::runtime::getDeviceProperties(device).multiProcessorCount);
}

// Every element of plan p's destination (its source unused) set to v.
template <int Size>
__global__ void result_fill_kernel(char* __restrict__ dst, copy_plan p,
                                   typename word_of<Size>::type v) {
  using word = typename word_of<Size>::type;
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < p.size;
       i += stride) {
    index_t rest = i, off = 0;
    for (int a = p.ndim - 1; a >= 0; --a) {
      const index_t e = p.shape[a];
      const index_t k = rest % e;
      rest /= e;
      off += k * p.dst[a];
    }
    *reinterpret_cast<word*>(dst + off) = v;
  }
}

#endif  // __CUDACC__

// Every element of `out` set to v. The value goes in the kernel's
// parameters, not through a device buffer (nothing to stage, and a stream
// capture records it as it records any kernel).
template <class Out, class S>
void fill_result(const ndarray<Out, S>& out, const Out& v) {
  constexpr int size = static_cast<int>(sizeof(Out));
  static_assert(size == 1 || size == 2 || size == 4 || size == 8 || size == 16,
                "cupp: a result's item size is 1, 2, 4, 8 or 16 bytes");
  const copy_plan p = plan_copy(out.shape(), out.strides(), strides_t::filled(out.ndim(), 0));
  if (p.size == 0) return;
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    const int dev = out.device_id();
    check_current_device(dev);
    typename word_of<size>::type w;
    std::memcpy(&w, &v, sizeof(Out));
    result_fill_kernel<size><<<result_copy_blocks(p.size, dev), 256, 0,
                               cuda::detail::current_stream_impl(dev)->handle>>>(
        reinterpret_cast<char*>(out.data()), p, w);
    cuda::check_last_launch("reduction result fill");
#else
    CUPP_NEEDS_NVCC(Out);
#endif
  } else {
    host_strided_copy(reinterpret_cast<char*>(out.data()), reinterpret_cast<const char*>(&v), p,
                      size);
  }
}

// `r` (C order, fresh, on out's device) copied into `out`, same shape.
template <class Out, class S>
void copy_result(const ndarray<Out, S>& r, const ndarray<Out, S>& out) {
  constexpr int size = static_cast<int>(sizeof(Out));
  const copy_plan p = plan_copy(out.shape(), out.strides(), r.strides());
  if (p.size == 0) return;
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    const int dev = out.device_id();
    check_current_device(dev);
    strided_copy_kernel<size><<<result_copy_blocks(p.size, dev), 256, 0,
                                cuda::detail::current_stream_impl(dev)->handle>>>(
        reinterpret_cast<char*>(out.data()), reinterpret_cast<const char*>(r.data()), p);
    cuda::check_last_launch("reduction result copy");
#else
    CUPP_NEEDS_NVCC(Out);
#endif
  } else {
    host_strided_copy(reinterpret_cast<char*>(out.data()), reinterpret_cast<const char*>(r.data()),
                      p, size);
  }
}

}  // namespace cupp::detail
