// Copies between arrays of the same shape and any strides, on the host and
// on the device. Used by copy(), by transfers of non-contiguous arrays and
// by set() into views.
#pragma once

#include <algorithm>
#include <cstring>
#include <numeric>

#include <cupp/cuda/runtime.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// A copy with axes of extent 1 dropped, axes ordered so that the
// destination is walked in memory order (last axis fastest), and adjacent
// axes merged where both sides are contiguous across them.
struct copy_plan {
  int ndim = 0;
  index_t size = 0;
  index_t shape[max_ndim] = {};
  index_t dst[max_ndim] = {};
  index_t src[max_ndim] = {};
};

inline copy_plan plan_copy(const shape_t& shape, const strides_t& dst, const strides_t& src) {
  copy_plan p;
  p.size = size_of(shape);
  if (p.size == 0) return p;
  int axes[max_ndim];
  int n = 0;
  for (int i = 0; i < shape.size(); ++i)
    if (shape[i] != 1) axes[n++] = i;
  auto mag = [](index_t s) { return s < 0 ? -s : s; };
  std::stable_sort(axes, axes + n, [&](int a, int b) { return mag(dst[a]) > mag(dst[b]); });
  for (int k = 0; k < n; ++k) {
    const int a = axes[k];
    if (p.ndim > 0) {
      const int last = p.ndim - 1;
      if (p.dst[last] == shape[a] * dst[a] && p.src[last] == shape[a] * src[a]) {
        p.shape[last] *= shape[a];
        p.dst[last] = dst[a];
        p.src[last] = src[a];
        continue;
      }
    }
    p.shape[p.ndim] = shape[a];
    p.dst[p.ndim] = dst[a];
    p.src[p.ndim] = src[a];
    ++p.ndim;
  }
  return p;
}

// Host copy of `p.size` elements of `itemsize` bytes.
inline void host_strided_copy(char* dst, const char* src, const copy_plan& p, index_t itemsize) {
  if (p.size == 0) return;
  if (p.ndim == 0) {
    std::memcpy(dst, src, static_cast<std::size_t>(itemsize));
    return;
  }
  const int inner = p.ndim - 1;
  const index_t n_inner = p.shape[inner];
  const bool inner_dense = p.dst[inner] == itemsize && p.src[inner] == itemsize;
  index_t idx[max_ndim] = {};
  const index_t outer = p.size / n_inner;
  for (index_t o = 0; o < outer; ++o) {
    index_t doff = 0, soff = 0;
    for (int a = 0; a < inner; ++a) {
      doff += idx[a] * p.dst[a];
      soff += idx[a] * p.src[a];
    }
    if (inner_dense) {
      std::memcpy(dst + doff, src + soff, static_cast<std::size_t>(n_inner * itemsize));
    } else {
      for (index_t i = 0; i < n_inner; ++i)
        std::memcpy(dst + doff + i * p.dst[inner], src + soff + i * p.src[inner],
                    static_cast<std::size_t>(itemsize));
    }
    for (int a = inner - 1; a >= 0; --a) {
      if (++idx[a] < p.shape[a]) break;
      idx[a] = 0;
    }
  }
}

#if defined(__CUDACC__)

template <int Size>
struct word_of;
template <>
struct word_of<1> {
  using type = unsigned char;
};
template <>
struct word_of<2> {
  using type = unsigned short;
};
template <>
struct word_of<4> {
  using type = unsigned int;
};
template <>
struct word_of<8> {
  using type = unsigned long long;
};
template <>
struct word_of<16> {
  using type = ulonglong2;
};

template <int Size>
__global__ void strided_copy_kernel(char* __restrict__ dst, const char* __restrict__ src,
                                    copy_plan p) {
  using word = typename word_of<Size>::type;
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < p.size;
       i += stride) {
    index_t rest = i, doff = 0, soff = 0;
    for (int a = p.ndim - 1; a >= 0; --a) {
      const index_t e = p.shape[a];
      const index_t k = rest % e;
      rest /= e;
      doff += k * p.dst[a];
      soff += k * p.src[a];
    }
    *reinterpret_cast<word*>(dst + doff) = *reinterpret_cast<const word*>(src + soff);
  }
}

// Device copy on `stream` of the current device.
inline void device_strided_copy(char* dst, const char* src, const copy_plan& p, index_t itemsize,
                                cudaStream_t stream) {
  if (p.size == 0) return;
  const int dev = cuda::runtime::getDevice();
  const auto& props = cuda::runtime::getDeviceProperties(dev);
  constexpr int threads = 256;
  const index_t wanted = (p.size + threads - 1) / threads;
  const index_t cap = static_cast<index_t>(props.multiProcessorCount) * 16;
  const unsigned blocks = static_cast<unsigned>(std::max<index_t>(1, std::min(wanted, cap)));
  switch (itemsize) {
    case 1:
      strided_copy_kernel<1><<<blocks, threads, 0, stream>>>(dst, src, p);
      break;
    case 2:
      strided_copy_kernel<2><<<blocks, threads, 0, stream>>>(dst, src, p);
      break;
    case 4:
      strided_copy_kernel<4><<<blocks, threads, 0, stream>>>(dst, src, p);
      break;
    case 8:
      strided_copy_kernel<8><<<blocks, threads, 0, stream>>>(dst, src, p);
      break;
    case 16:
      strided_copy_kernel<16><<<blocks, threads, 0, stream>>>(dst, src, p);
      break;
    default:
      throw value_error("unsupported item size " + std::to_string(itemsize));
  }
  cuda::check_last_launch("strided copy");
}

#endif  // __CUDACC__

}  // namespace cupp::detail
